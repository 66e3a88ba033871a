import type { SourcePoint } from '../common/index.js';
import type { PuppetValue } from './values.js';

/** A JSON failure as Ruby's json 2.6 parser reports it: "LINE: unexpected token at 'REST'". */
export class RubyJsonError extends Error {
    constructor(readonly parserLine: number, readonly offset: number, rest: string, what = 'unexpected token') {
        super(`${parserLine}: ${what} at '${rest}'`);
    }
}

/** A value failed: the enclosing object (or the top level) reports it at its own start. */
class ValueFailure {
    constructor(readonly offset: number) {}
}

/**
 * JSON as Ruby's `JSON.parse` reads it (json 2.6, what Puppet's json_data uses): integers
 * exact (bigint) and distinct from floats (`1e5` is a float), objects keep first-insertion key
 * order with the last duplicate winning, `/* *\/` and `// ...\n` comments allowed, unknown
 * escapes kept as the character. Errors have Ruby's text: a failure inside an array is reported
 * at the array element (parser line 451), anything else at the outermost enclosing object or
 * the top-level value (859); NaN at itself (225).
 */
export function parseRubyJson(text: string): { value: PuppetValue; keyPositions: Map<string, number> } {
    const keyPositions = new Map<string, number>();
    let p = 0;
    const fail = (line: number, at: number): never => { throw new RubyJsonError(line, at, text.slice(at)); };

    const skip = (): void => {
        for (;;) {
            const c = text[p];
            if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { p++; continue; }
            if (c === '/' && text[p + 1] === '*') {
                const end = text.indexOf('*/', p + 2);
                if (end < 0) fail(859, text.length); // an unterminated comment fails at the end
                p = end + 2;
                continue;
            }
            if (c === '/' && text[p + 1] === '/') {
                const end = text.indexOf('\n', p + 2);
                if (end < 0) fail(859, text.length); // `//` needs its newline
                p = end + 1;
                continue;
            }
            return;
        }
    };

    const value = (depth: number): PuppetValue => {
        const start = p;
        const c = text[p];
        if (c === '{') return object(start, depth);
        if (c === '[') return array(depth);
        if (c === '"') return string();
        if (text.startsWith('NaN', p)) fail(225, p);
        for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
            if (text.startsWith(word, p)) { p += word.length; return v; }
        }
        const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(p, p + 400));
        if (!m || /^-?0[0-9]/.test(text.slice(p, p + 3))) throw new ValueFailure(start);
        p += m[0].length;
        return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
    };

    const string = (): string => {
        const start = p;
        let out = '';
        p++;
        for (;;) {
            const c = text[p];
            if (c === undefined || c.charCodeAt(0) < 0x20) throw new ValueFailure(start);
            if (c === '"') { p++; return out; }
            if (c === '\\') {
                const e = text[p + 1];
                if (e === undefined) throw new ValueFailure(start);
                if (e === 'u') {
                    const hex = text.slice(p + 2, p + 6);
                    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new ValueFailure(start);
                    const code = Number.parseInt(hex, 16);
                    p += 6;
                    if ((code & 0xfc00) === 0xd800) {
                        // json's convert_UTF8: a high surrogate takes the next \u escape as its pair, whatever it is; without one the string fails.
                        const low = text[p] === '\\' && text[p + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(p + 2, p + 6)) ? Number.parseInt(text.slice(p + 2, p + 6), 16) : undefined;
                        if (low === undefined) throw new RubyJsonError(521, start + 1, text.slice(start + 1), 'incomplete surrogate pair');
                        out += String.fromCodePoint((((code & 0x3f) << 10) | ((((code >> 6) & 0xf) + 1) << 16) | (low & 0x3ff)));
                        p += 6;
                        continue;
                    }
                    out += String.fromCharCode(code);
                    continue;
                }
                out += ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e;
                p += 2;
                continue;
            }
            out += c;
            p++;
        }
    };

    const object = (start: number, depth: number): Map<PuppetValue, PuppetValue> => {
        const out = new Map<PuppetValue, PuppetValue>();
        p++;
        try {
            skip();
            if (text[p] === '}') { p++; return out; }
            for (;;) {
                if (text[p] !== '"') throw new ValueFailure(start);
                const keyAt = p;
                const key = string();
                skip();
                if (text[p] !== ':') throw new ValueFailure(start);
                p++;
                skip();
                const v = value(depth + 1);
                if (depth === 0 && !keyPositions.has(key)) keyPositions.set(key, keyAt);
                out.set(key, v);
                skip();
                if (text[p] === ',') { p++; skip(); continue; }
                if (text[p] === '}') { p++; return out; }
                throw new ValueFailure(start);
            }
        } catch (e) {
            // Objects nested in objects fail as a whole: the outermost one reports.
            if (e instanceof ValueFailure) throw new ValueFailure(start);
            throw e;
        }
    };

    const array = (depth: number): PuppetValue[] => {
        const out: PuppetValue[] = [];
        p++;
        skip();
        if (text[p] === ']') { p++; return out; }
        for (;;) {
            const at = p;
            try {
                out.push(value(depth + 1));
            } catch (e) {
                if (e instanceof ValueFailure) fail(451, at);
                throw e;
            }
            skip();
            if (text[p] === ',') { p++; skip(); continue; }
            if (text[p] === ']') { p++; return out; }
            fail(451, p);
        }
    };

    skip();
    let result: PuppetValue;
    try {
        if (p >= text.length) fail(859, p);
        result = value(0);
    } catch (e) {
        if (e instanceof ValueFailure) fail(859, e.offset);
        throw e;
    }
    skip();
    if (p < text.length) fail(859, p);
    return { value: result, keyPositions };
}

/** 1-based line and column of an offset. */
export function pointAt(text: string, offset: number, file: string): SourcePoint {
    const before = text.slice(0, offset).split('\n');
    return { file, line: before.length, column: before[before.length - 1].length + 1 };
}
