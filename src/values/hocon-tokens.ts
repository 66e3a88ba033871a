import type { PuppetValue } from './values.js';
import { HoconError } from './hocon-error.js';

/**
 * `problem`: text the tokenizer could not read, as ruby-hocon's tokenizer hands it on (`'WHAT'
 * (MESSAGE)`) for the parser to reject where it stands, with that place's message.
 */
export type TokenKind = '{' | '}' | '[' | ']' | ',' | 'sep' | '+=' | 'nl' | 'ws' | 'value' | 'subst' | 'problem' | 'eof';

export interface Token {
    readonly kind: TokenKind;
    readonly line: number;
    /** The text as written (for error messages and concatenation). */
    readonly text: string;
    /** A value token: a quoted or unquoted string, a number, a boolean or null. */
    readonly value?: PuppetValue;
    readonly quoted?: boolean;
    /** A substitution's path and whether it is optional (`${?x}`). */
    readonly path?: readonly string[];
    readonly optional?: boolean;
}

const NOT_UNQUOTED = new Set([...'$"{}[]:=,+#`^?!@*&\\'].map(c => c));
const NUMBER_CHARS = /[0-9eE+\-.]/;

/** Splits HOCON text into tokens; comments are dropped (their newline stays). */
export function tokenize(text: string, origin = 'String'): Token[] {
    const out: Token[] = [];
    let p = 0;
    let line = 1;
    const push = (kind: TokenKind, t: string, extra: Partial<Token> = {}): void => { out.push({ kind, line, text: t, ...extra }); };
    // Ruby's tokenizer names the end of input it found as its character code, -1.
    const problem = (what: string, message: string): Token[] => {
        push('problem', `'${what}' (${message})`);
        push('eof', 'end of file');
        return out;
    };
    while (p < text.length) {
        const c = text[p];
        if (c === '\n') { push('nl', '\n'); line++; p++; continue; }
        if (c === '#' || (c === '/' && text[p + 1] === '/')) {
            while (p < text.length && text[p] !== '\n') p++;
            continue;
        }
        if (/[ \t\r\f\v\u00a0\ufeff]/.test(c)) {
            const s = p;
            while (p < text.length && /[ \t\r\f\v\u00a0\ufeff]/.test(text[p])) p++;
            push('ws', text.slice(s, p));
            continue;
        }
        if ('{}[],'.includes(c)) { push(c as TokenKind, c); p++; continue; }
        if (c === ':' || c === '=') { push('sep', c); p++; continue; }
        if (c === '+') {
            if (text[p + 1] === '=') { push('+=', '+='); p += 2; continue; }
            const next = text[p + 1] ?? '-1';
            return problem(next, `'+' not followed by =, '${next}' not allowed after '+'`);
        }
        if (c === '$' && text[p + 1] === '{') {
            const end = text.indexOf('}', p + 2);
            if (end < 0) return problem('end of file', 'Substitution ${ was not closed with a }');
            let inner = text.slice(p + 2, end);
            const optional = inner.startsWith('?');
            if (optional) inner = inner.slice(1);
            const path = splitPath(inner.trim(), line, origin);
            if ('what' in path) return problem(path.what, path.message);
            push('subst', text.slice(p, end + 1), { path, optional });
            p = end + 1;
            continue;
        }
        if (c === '"') {
            if (text.startsWith('"""', p)) {
                const end = text.indexOf('"""', p + 3);
                if (end < 0) return problem('-1', 'End of input but triple-quoted string was still open');
                let close = end + 3;
                while (text[close] === '"') close++; // extra quotes belong to the string
                const body = text.slice(p + 3, close - 3);
                push('value', text.slice(p, close), { value: body, quoted: true });
                line += body.split('\n').length - 1;
                p = close;
                continue;
            }
            const read = quoted(text, p, line, origin);
            if ('what' in read) return problem(read.what, read.message);
            const [value, next] = read;
            push('value', text.slice(p, next), { value, quoted: true });
            p = next;
            continue;
        }
        if (c === '-' || (c >= '0' && c <= '9')) {
            const s = p;
            while (p < text.length && NUMBER_CHARS.test(text[p])) p++;
            const t = text.slice(s, p);
            const n = rubyNumber(t);
            push('value', t, n === undefined ? { value: t, quoted: false } : { value: n, quoted: false });
            continue;
        }
        if (c === '$') {
            const next = text[p + 1] ?? '-1';
            return problem(next, `'$' not followed by {, '${next}' not allowed after '$'`);
        }
        if (NOT_UNQUOTED.has(c)) return problem(c, `Reserved character '${c}' is not allowed outside quotes`);
        const s = p;
        while (p < text.length && !NOT_UNQUOTED.has(text[p]) && !/\s/.test(text[p]) && !(text[p] === '/' && text[p + 1] === '/')) p++;
        const t = text.slice(s, p);
        if (t === 'true' || t === 'false') push('value', t, { value: t === 'true', quoted: false });
        else if (t === 'null') push('value', t, { value: null, quoted: false });
        else push('value', t, { value: t, quoted: false });
    }
    push('eof', 'end of file');
    return out;
}

/** A quoted string with JSON escapes; returns its value and the offset after it. */
function quoted(text: string, start: number, line: number, origin: string): [string, number] | { readonly what: string; readonly message: string } {
    let p = start + 1;
    let out = '';
    while (p < text.length) {
        const c = text[p];
        if (c === '"') return [out, p + 1];
        if (c === '\n') return { what: '\n', message: 'JSON does not allow unescaped \n in quoted strings, use a backslash escape' };
        if (c === '\\') {
            const e = text[p + 1];
            const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
            if (e !== undefined && simple[e] !== undefined) { out += simple[e]; p += 2; continue; }
            if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(p + 2, p + 6))) { out += String.fromCharCode(Number.parseInt(text.slice(p + 2, p + 6), 16)); p += 6; continue; }
            throw new HoconError(line, `backslash followed by '${e ?? ''}', this is not a valid escape sequence (quoted strings use JSON escaping, so use double-backslash \\\\ for literal backslash)`, 'ConfigParseError', origin);
        }
        out += c;
        p++;
    }
    return { what: '-1', message: 'End of input but string quote was still open' };
}

/**
 * A run of number characters as ruby-hocon reads it: Ruby's Float() when it has `.`/`e`, else
 * Ruby's Integer() (so `010` is 8); a whole float becomes an Integer. Undefined: not a number
 * (the run is then unquoted text, as `1.2.3` or `08`).
 */
function rubyNumber(t: string): PuppetValue | undefined {
    if (/[.eE]/.test(t)) {
        if (!/^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return undefined;
        const f = Number(t);
        return Number.isFinite(f) && Number.isInteger(f) ? BigInt(f) : f;
    }
    if (!/^-?\d+$/.test(t)) return undefined;
    const neg = t.startsWith('-');
    const body = neg ? t.slice(1) : t;
    if (body.length > 1 && body.startsWith('0')) {
        if (!/^[0-7]+$/.test(body)) return undefined;
        const v = BigInt(`0o${body}`);
        return neg ? -v : v;
    }
    return BigInt(t);
}

/** A path expression (`a.b."c.d"`) as its elements. */
function splitPath(expr: string, line: number, origin: string): string[] | { readonly what: string; readonly message: string } {
    const parts: string[] = [];
    let cur = '';
    let p = 0;
    while (p < expr.length) {
        const c = expr[p];
        if (c === '"') {
            const read = quoted(expr, p, line, origin);
            if ('what' in read) return read;
            const [v, next] = read;
            cur += v;
            p = next;
        } else if (c === '.') {
            parts.push(cur);
            cur = '';
            p++;
        } else {
            cur += c;
            p++;
        }
    }
    parts.push(cur);
    return parts;
}

