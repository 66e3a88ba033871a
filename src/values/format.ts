import { formatFloat } from '../common/index.js';
import { commonType, generalize, inferType, PAnyType, PClassType, typeToPlainString, typeToString } from '../types/index.js';
import {
    PBinary, PDefault, PDeferred, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, regexpLiteral, type PuppetValue
} from './values.js';

export { formatFloat };

/** The textual form of a Timestamp, as Puppet prints it: 2020-01-01T00:00:00.000000000 UTC. */
export function formatTimestamp(t: PTimestamp): string {
    const ms = Number(t.nanos / 1_000_000n);
    const nanos = ((t.nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
    const iso = new Date(ms).toISOString().slice(0, 19);
    return `${iso}.${String(nanos).padStart(9, '0')} UTC`;
}

/** Puppet's default Timespan form `D-HH:MM:SS.F` (fraction without trailing zeros, at least one digit). */
export function formatTimespan(t: PTimespan): string {
    let n = t.nanos < 0n ? -t.nanos : t.nanos;
    const sign = t.nanos < 0n ? '-' : '';
    const frac = n % 1_000_000_000n;
    n /= 1_000_000_000n;
    const s = n % 60n; n /= 60n;
    const m = n % 60n; n /= 60n;
    const h = n % 24n; const d = n / 24n;
    const two = (x: bigint): string => String(x).padStart(2, '0');
    const f = String(frac).padStart(9, '0').replace(/0+$/, '') || '0';
    return `${sign}${d}-${two(h)}:${two(m)}:${two(s)}.${f}`;
}

/**
 * Puppet's default string conversion (what `notice`, interpolation and `String(x)` use):
 * strings are unquoted even when nested, undef is empty at top level, hashes print as
 * `{a => 1}`.
 */
export function formatValue(v: PuppetValue, nested = false): string {
    if (v === null) return nested ? '' : '';
    if (typeof v === 'string') return v;
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return formatFloat(v);
    if (Array.isArray(v)) return `[${v.map(x => formatValue(x, true)).join(', ')}]`;
    if (v instanceof Map) {
        return `{${[...v].map(([k, x]) => `${formatValue(k, true)} => ${formatValue(x, true)}`).join(', ')}}`;
    }
    if (v instanceof PDefault) return 'default';
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    if (v instanceof PRegexp) return regexpLiteral(v.source);
    if (v instanceof PBinary) return Buffer.from(v.bytes).toString('base64');
    if (v instanceof PTimestamp) return formatTimestamp(v);
    if (v instanceof PTimespan) return formatTimespan(v);
    if (v instanceof PSemVer || v instanceof PSemVerRange) return v.toString();
    if (v instanceof PIterator) {
        const items = v.elementsOf();
        const t = items.length === 0 ? 'Unit' : typeToString(commonType(items.map(x => generalize(inferType(x)))));
        return `Iterator[${t}]-Value`;
    }
    if (v instanceof PDeferred) {
        return `Deferred({'name' => '${v.name}', 'arguments' => ${quoteValue(v.args)}})`;
    }
    // A class reference prints its name unquoted (Class[base]), unlike the type formatter.
    if (v instanceof PClassType && v.className !== null) return `Class[${v.className}]`;
    if (v instanceof PAnyType) return typeToPlainString(v);
    return String(v);
}

/** The quoted form used inside Deferred and type parameters: strings in single quotes. */
export function quoteValue(v: PuppetValue): string {
    if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    if (v === null) return 'undef';
    if (Array.isArray(v)) return `[${v.map(quoteValue).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${quoteValue(k)} => ${quoteValue(x)}`).join(', ')}}`;
    return formatValue(v, true);
}
