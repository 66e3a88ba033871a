import { rawJson, UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';

const exactBigints = (_key: string, v: unknown): unknown => typeof v === 'bigint' ? rawJson(v.toString()) : v;

/** Pretty JSON with a final newline; bigint values are written as exact integers. */
export function stringifyJson(value: unknown): string {
    return `${JSON.stringify(value, exactBigints, 2)}\n`;
}

/** One-line JSON, bigints exact. */
export function compactJson(value: unknown): string {
    return JSON.stringify(value, exactBigints);
}

/**
 * Parses JSON text. Integers beyond 2^53 come back as exact bigints (Puppet integers are
 * 64-bit); the second, source-aware pass only runs when such digits can be present.
 */
export function parseJson(text: string, file: string): unknown {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        const at = errorPoint(msg, text, file);
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_JSON, message: `invalid JSON: ${msg}`, file, at });
    }
    if (/\d{16,}/.test(text)) {
        value = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) => {
            if (typeof v === 'number' && !Number.isSafeInteger(v) && context?.source && /^-?\d+$/.test(context.source)) {
                return BigInt(context.source);
            }
            return v;
        });
    }
    return value;
}

/** V8 names a line and column, or only an offset, or (at the end of input) nothing. */
function errorPoint(message: string, text: string, file: string): { file: string; line: number; column: number } {
    const lc = /line (\d+) column (\d+)/.exec(message);
    if (lc) return { file, line: Number(lc[1]), column: Number(lc[2]) };
    const pos = /position (\d+)/.exec(message);
    const offset = pos ? Number(pos[1]) : text.length;
    const before = text.slice(0, offset).split('\n');
    return { file, line: before.length, column: before[before.length - 1].length + 1 };
}
