/**
 * String slurping and escape processing, mirroring Puppet's slurp_support: a string chunk runs
 * up to the first terminator that is not escaped by an odd run of backslashes, and escapes are
 * then resolved per the string kind's allowed escape set.
 */

export type EscapeSet = ReadonlySet<string>;

export const SQ_ESCAPES: EscapeSet = new Set(['\\', '\'']);
export const DQ_ESCAPES: EscapeSet = new Set(['\\', '$', '\'', '"', 'r', 'n', 't', 's', 'u', '\r\n', '\n']);

export interface EscapeWarning {
    /** Offset of the backslash within the processed chunk. */
    readonly index: number;
    readonly code: 'PARSE_UNRECOGNIZED_ESCAPE' | 'PARSE_ILLEGAL_UNICODE_ESCAPE';
    readonly ch: string;
}

/** True when the character at `index` is preceded by an odd run of backslashes starting at or after `floor`. */
export function isEscaped(text: string, index: number, floor: number): boolean {
    let n = 0;
    for (let i = index - 1; i >= floor && text.charCodeAt(i) === 0x5c; i--) {
        n++;
    }
    return (n & 1) === 1;
}

const UNICODE_ESCAPE = /((?:[^\\]|^)(?:\\{2})*)\\u(?:([\da-fA-F]{4})|\{([\da-fA-F]{1,6})\})/m;
const ANY_ESCAPE = /\\([^\r\n]|\r?\n)/g;

/**
 * Resolves the escapes of one slurped chunk. `warnOnUnknown` is false where Puppet ignores
 * invalid escapes (single quotes, heredocs).
 */
export function resolveEscapes(raw: string, escapes: EscapeSet, warnOnUnknown: boolean, warnings: EscapeWarning[]): string {
    if (!raw.includes('\\')) {
        return raw;
    }
    if (escapes === SQ_ESCAPES) {
        return raw.replace(/\\(\\|')/g, '$1');
    }
    let str = raw;
    if (escapes.has('u')) {
        // Replaced one at a time, like Puppet's loop, since a replacement can expose another escape.
        for (let guard = 0; guard < 100_000; guard++) {
            const m = UNICODE_ESCAPE.exec(str);
            if (!m) {
                break;
            }
            const cp = parseInt(m[2] ?? m[3] ?? '0', 16);
            const ch = cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
            if (ch === '\ufffd') {
                warnings.push({ index: m.index + (m[1]?.length ?? 0), code: 'PARSE_ILLEGAL_UNICODE_ESCAPE', ch: 'u' });
            }
            str = str.slice(0, m.index) + (m[1] ?? '') + ch + str.slice(m.index + m[0].length);
        }
    }
    return str.replace(ANY_ESCAPE, (_whole: string, ch: string, index: number) => {
        if (escapes.has(ch)) {
            switch (ch) {
                case 'r': return '\r';
                case 'n': return '\n';
                case 't': return '\t';
                case 's': return ' ';
                case 'u':
                    warnings.push({ index, code: 'PARSE_ILLEGAL_UNICODE_ESCAPE', ch });
                    return '\\u';
                case '\n':
                case '\r\n':
                    return '';
                default:
                    return ch;
            }
        }
        if (warnOnUnknown) {
            warnings.push({ index, code: 'PARSE_UNRECOGNIZED_ESCAPE', ch });
        }
        return '\\' + ch;
    });
}
