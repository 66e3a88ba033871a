import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';

type RawJson = (text: string) => unknown;
const rawJSON = (JSON as unknown as { rawJSON: RawJson }).rawJSON;

/** Pretty JSON with a final newline; bigint values are written as exact integers. */
export function stringifyJson(value: unknown): string {
    return `${JSON.stringify(value, (_key, v: unknown) => typeof v === 'bigint' ? rawJSON(v.toString()) : v, 2)}\n`;
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
        const m = /line (\d+) column (\d+)/.exec(msg) ?? undefined;
        const at = m ? { file, line: Number(m[1]), column: Number(m[2]) } : undefined;
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_JSON, message: `invalid JSON: ${msg}`, file, ...(at ? { at } : {}) });
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
