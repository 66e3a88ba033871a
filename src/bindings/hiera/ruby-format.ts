import { rubyInspectString } from '../../types/index.js';
import { formatFloat, PBinary, PSensitive, type PuppetValue } from '../../values/index.js';

/**
 * Ruby's `to_s` of a value, which is what Hiera's `gsub` splices into a string when an
 * interpolation yields a non-string: `[1, 2]`, `{"k"=>"v"}`, `1.5`, `1.0e+20`.
 */
export function rubyToS(v: PuppetValue): string {
    if (v === null) return '';
    if (typeof v === 'string') return v;
    if (v instanceof PBinary) return Buffer.from(v.bytes).toString('latin1');
    return rubyInspect(v);
}

/** Ruby 3.1 `inspect` (Array#to_s and Hash#to_s use it for their elements). */
export function rubyInspect(v: PuppetValue): string {
    if (v === null) return 'nil';
    if (typeof v === 'string') return rubyInspectString(v);
    if (v instanceof PBinary) return inspectBytes(v.bytes);
    if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    if (typeof v === 'number') return rubyFloat(v);
    if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${rubyInspect(k)}=>${rubyInspect(x)}`).join(', ')}}`;
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    return String(v);
}

/** Ruby's short escapes in `inspect` of a binary (ASCII-8BIT) string. */
const BYTE_ESCAPES = new Map([[0x07, '\\a'], [0x08, '\\b'], [0x09, '\\t'], [0x0a, '\\n'], [0x0b, '\\v'], [0x0c, '\\f'], [0x0d, '\\r'], [0x1b, '\\e'], [0x22, '\\"'], [0x5c, '\\\\']]);

/**
 * Ruby 3.1 `inspect` of an ASCII-8BIT string: printable ASCII as is, the short escapes, `#` before
 * `{`, `$` or `@` escaped (so the text reads back without interpolating), every other byte `\xHH`.
 */
function inspectBytes(bytes: Uint8Array): string {
    let out = '';
    for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i] as number;
        const esc = BYTE_ESCAPES.get(b);
        if (esc !== undefined) out += esc;
        else if (b === 0x23 && (bytes[i + 1] === 0x7b || bytes[i + 1] === 0x24 || bytes[i + 1] === 0x40)) out += '\\#';
        else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
        else out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return `"${out}"`;
}

/** Ruby Float#to_s, shared with the evaluator (`-0.0` keeps its sign, as in Ruby). */
export const rubyFloat = formatFloat;
