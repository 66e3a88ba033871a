import { PSensitive, type PuppetValue } from '../../values/index.js';

/**
 * Ruby's `to_s` of a value, which is what Hiera's `gsub` splices into a string when an
 * interpolation yields a non-string: `[1, 2]`, `{"k"=>"v"}`, `1.5`, `1.0e+20`.
 */
export function rubyToS(v: PuppetValue): string {
    if (v === null) return '';
    if (typeof v === 'string') return v;
    return rubyInspect(v);
}

/** Ruby 3.1 `inspect` (Array#to_s and Hash#to_s use it for their elements). */
export function rubyInspect(v: PuppetValue): string {
    if (v === null) return 'nil';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    if (typeof v === 'number') return rubyFloat(v);
    if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${rubyInspect(k)}=>${rubyInspect(x)}`).join(', ')}}`;
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    return String(v);
}

/** Ruby Float#to_s: always a fraction, exponent form from 1e16 up and below 1e-4. */
export function rubyFloat(f: number): string {
    if (Number.isNaN(f)) return 'NaN';
    if (!Number.isFinite(f)) return f > 0 ? 'Infinity' : '-Infinity';
    const abs = Math.abs(f);
    if (abs !== 0 && (abs >= 1e16 || abs < 1e-4)) {
        const [m, e] = f.toExponential().split('e');
        const mant = m.includes('.') ? m : `${m}.0`;
        const exp = Number(e);
        return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    }
    const s = String(f);
    return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}
