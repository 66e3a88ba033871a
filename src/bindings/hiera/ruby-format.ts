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
    if (v instanceof PBinary) return `"${[...v.bytes].map(b => (b >= 0x20 && b < 0x7f ? (b === 0x22 || b === 0x5c ? `\\${String.fromCharCode(b)}` : String.fromCharCode(b)) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('')}"`;
    if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    if (typeof v === 'number') return rubyFloat(v);
    if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${rubyInspect(k)}=>${rubyInspect(x)}`).join(', ')}}`;
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    return String(v);
}

/** Ruby Float#to_s, shared with the evaluator (`-0.0` keeps its sign, as in Ruby). */
export const rubyFloat = formatFloat;
