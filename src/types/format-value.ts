import {
    formatFloat, formatTimespan, formatTimestamp, PBinary, PDefault, PDeferred, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive,
    PTimespan, PTimestamp, regexpLiteral, type PuppetValue
} from '../values/index.js';
import { commonType, generalize, inferType } from './infer.js';
import { PAnyType, PClassType } from './model.js';
import { typeToPlainString, typeToString } from './to-string.js';

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
