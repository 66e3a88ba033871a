import { formatFloat } from '../common/index.js';
import type { PuppetValue } from '../values/index.js';
import { formatValue } from './format-value.js';

/** Ruby's #inspect, which %s uses for arrays and hashes: [1, "a"], {"a"=>1}. */
function rubyInspect(v: PuppetValue): string {
    if (v === null) return 'nil';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'number') return formatFloat(v);
    if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${rubyInspect(k)}=>${rubyInspect(x)}`).join(', ')}}`;
    return formatValue(v);
}

/** C/Ruby fixed-point formatting: exact binary ties round half to even (2.25 -> 2.2). */
function toFixed(x: number, digits: number): string {
    const scaled = x * 10 ** digits;
    if (Number.isFinite(scaled) && Math.abs(scaled) < 2 ** 52 && !Number.isInteger(scaled) && Number.isInteger(scaled * 2)) {
        const down = Math.floor(scaled);
        const even = down % 2 === 0 ? down : down + 1;
        return (even / 10 ** digits).toFixed(digits);
    }
    return x.toFixed(digits);
}

/** Ruby's Kernel#sprintf for the directives manifests use. */
export function sprintf(fmt: string, args: PuppetValue[]): string {
    let i = 0;
    return fmt.replace(/%([-+ 0#]*)(\d+|\*)?(?:\.(\d+))?([sdifxXobeEgG%])/g, (_m, flags: string, width: string | undefined, prec: string | undefined, conv: string) => {
        if (conv === '%') return '%';
        const arg = args[i++] ?? null;
        let s: string;
        switch (conv) {
            case 's': s = Array.isArray(arg) || arg instanceof Map ? rubyInspect(arg) : formatValue(arg); if (prec !== undefined) s = s.slice(0, Number(prec)); break;
            case 'd': case 'i': s = String(typeof arg === 'number' ? Math.trunc(arg) : typeof arg === 'string' ? BigInt(arg) : arg); break;
            case 'f': s = toFixed(Number(arg), prec === undefined ? 6 : Number(prec)); break;
            case 'x': s = (flags.includes('#') ? '0x' : '') + BigInt(arg as bigint).toString(16); break;
            case 'X': s = (flags.includes('#') ? '0X' : '') + BigInt(arg as bigint).toString(16).toUpperCase(); break;
            case 'o': s = (flags.includes('#') ? '0' : '') + BigInt(arg as bigint).toString(8); break;
            case 'b': s = BigInt(arg as bigint).toString(2); break;
            case 'e': case 'E': {
                const [m, e] = Number(arg).toExponential(prec === undefined ? 6 : Number(prec)).split('e');
                s = `${m}e${e.startsWith('-') ? '-' : '+'}${e.replace(/^[-+]/, '').padStart(2, '0')}`;
                if (conv === 'E') s = s.toUpperCase();
                break;
            }
            default: s = typeof arg === 'number' ? formatFloat(arg) : formatValue(arg);
        }
        // An integer's precision is its least number of digits (`%.4x` of 1 is 0001).
        if (prec !== undefined && 'dixXob'.includes(conv)) {
            const m = /^(-?(?:0[xXb])?)(.*)$/.exec(s) as RegExpExecArray;
            s = m[1] + m[2].padStart(Number(prec), '0');
        }
        if (flags.includes('+') && /^\d/.test(s) && 'dif'.includes(conv)) s = `+${s}`;
        const w = width === undefined ? 0 : Number(width);
        if (s.length < w) {
            if (flags.includes('-')) s = s.padEnd(w);
            else if (flags.includes('0') && conv !== 's') s = s.startsWith('-') ? `-${s.slice(1).padStart(w - 1, '0')}` : s.padStart(w, '0');
            else s = s.padStart(w);
        }
        return s;
    });
}

