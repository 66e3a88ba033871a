import {
    formatFloat, formatTimespan, formatTimestamp, PBinary, PBinaryString, PDefault, PDeferred, PError, PObjectValue, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive,
    PTimespan, PTimestamp, regexpLiteral, type PuppetValue
} from '../values/index.js';
import { generalize, inferType } from './infer.js';
import { PAnyType, PClassType, PIntegerType, PStoredReference, PStructType, PTupleType, PVariantType } from './model.js';
import { objectValueString } from './object.js';
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
    // A Ruby binary string (YAML's !!binary) is a String: its text, not a Binary's base64.
    if (v instanceof PBinaryString) return formatValue(binaryStringText(v), nested);
    if (v instanceof PBinary) return Buffer.from(v.bytes).toString('base64');
    if (v instanceof PTimestamp) return formatTimestamp(v);
    if (v instanceof PTimespan) return formatTimespan(v);
    if (v instanceof PSemVer || v instanceof PSemVerRange) return v.toString();
    // A Ruby object's address differs from run to run: zeros stand for it (compared without addresses).
    if (v instanceof PIterator && v.rubyClass !== undefined) return `#<${v.rubyClass}:0x0000000000000000>`;
    if (v instanceof PIterator) return `Iterator[${iteratorElementType(v)}]-Value`;
    if (v instanceof PDeferred) {
        return `Deferred({'name' => '${v.name}', 'arguments' => ${quoteValue(v.args)}})`;
    }
    if (v instanceof PObjectValue) return objectValueString(v);
    if (v instanceof PError) return `Error({${v.attributes().map(([k, x]) => `'${k}' => ${quoteValue(x)}`).join(', ')}})`;
    if (v instanceof PStoredReference) return `${v.typeName}[${v.title}]`;
    // A class reference prints its name unquoted (Class[base]), unlike the type formatter.
    if (v instanceof PClassType && v.className !== null) return `Class[${v.className}]`;
    if (v instanceof PAnyType) return typeToPlainString(v);
    return String(v);
}

/**
 * Puppet's element type of an iterator over a collection: the variant of its elements' types
 * (each generalized, duplicates dropped), for a hash the Tuple of its keys' and values' variants.
 */
function iteratorElementType(it: PIterator): string {
    const items = it.typed ?? it.elementsOf();
    if (items.length === 0) return 'Unit';
    // Puppet's infer_set, generalized: ranges dropped, tuples and structs kept with their members generalized.
    const gen = (t: PAnyType): PAnyType => t instanceof PTupleType ? new PTupleType(t.types.map(gen), t.size)
        : t instanceof PStructType ? new PStructType(t.members.map(m => ({ ...m, value: gen(m.value) })))
            : t instanceof PVariantType ? variantOf(t.types.map(gen)) : generalize(t);
    const variant = (xs: readonly PuppetValue[]): PAnyType => variantOf(xs.map(x => gen(inferType(x))));
    if (it.pairs) {
        const pairs = items as PuppetValue[][];
        return typeToString(new PTupleType([variant(pairs.map(p => p[0])), variant(pairs.map(p => p[1]))], new PIntegerType(2n, 2n)));
    }
    return typeToString(variant(items));
}

function variantOf(ts: readonly PAnyType[]): PAnyType {
    const types: PAnyType[] = [];
    for (const t of ts) if (!types.some(y => typeToString(y) === typeToString(t))) types.push(t);
    return types.length === 1 ? types[0] : new PVariantType(types);
}

/** The quoted form used inside Deferred and type parameters: strings in single quotes. */
export function quoteValue(v: PuppetValue): string {
    if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    if (v === null) return 'undef';
    if (Array.isArray(v)) return `[${v.map(quoteValue).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${quoteValue(k)} => ${quoteValue(x)}`).join(', ')}}`;
    return formatValue(v, true);
}

/** A binary string's characters: its bytes read as UTF-8 when they are, else one character a byte. */
export function binaryStringText(v: PBinaryString): string {
    try {
        return new TextDecoder('utf-8', { fatal: true }).decode(v.bytes);
    } catch {
        return v.text;
    }
}
