import {
    PBinary, PBinaryString, PDefault, PDeferred, PError, PObjectValue, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, type PuppetValue
} from '../values/index.js';
import {
    PAnyType, PErrorType, PSemVerType, PTimeType, PArrayType, PBooleanType, PClassType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PIteratorType, PNotUndefType, POptionalType,
    PPatternType, PRegexpType, PResourceType, PSensitiveType, PSimpleType, PStringType, PStructType, PTupleType, PTypeAliasType, PTypeType,
    PVariantType, type StructMember
} from './model.js';
import { isAssignable } from './assignable.js';
import { generalizePuppet, inferPuppet } from './infer-puppet.js';
import { typesEqual } from './construct.js';
import { typeToString } from './to-string.js';

/** The type of `v` as `type(v)` (mode `detailed`) infers it: Integer[3, 3], Tuple[...], Struct[...]. */
export function inferType(v: PuppetValue): PAnyType {
    if (v === null) return PSimpleType.of('Undef');
    if (typeof v === 'string') return new PStringType();
    if (typeof v === 'bigint') return new PIntegerType(v, v);
    if (typeof v === 'number') return new PFloatType(v, v);
    if (typeof v === 'boolean') return new PBooleanType(v);
    if (Array.isArray(v)) {
        if (v.length === 0) return new PArrayType(PSimpleType.of('Unit'), new PIntegerType(0n, 0n));
        return new PTupleType(v.map(inferType));
    }
    if (v instanceof Map) {
        if (v.size === 0) return new PHashType(PSimpleType.of('Unit'), PSimpleType.of('Unit'), new PIntegerType(0n, 0n));
        if ([...v.keys()].every(k => typeof k === 'string' && k !== '')) {
            // An undef value's key stays required: Puppet prints it as NotUndef['k'].
            return new PStructType([...v].map(([k, x]): StructMember => ({ name: k as string, keyType: x === null ? 'notundef' : 'plain', value: inferType(x) })));
        }
        // Other keys: a Variant of the keys' types and one of the values' types.
        return new PHashType(inferredVariant([...v.keys()]), inferredVariant([...v.values()]), new PIntegerType(BigInt(v.size), BigInt(v.size)));
    }
    if (v instanceof PDefault) return PSimpleType.of('Default');
    if (v instanceof PRegexp) return new PRegexpType(v);
    // Puppet's Sensitive type generalizes the type it is given.
    if (v instanceof PSensitive) return new PSensitiveType(generalizePuppet(inferPuppet(v.value)));
    // A time's type is the range of that one time.
    if (v instanceof PTimestamp) return new PTimeType('Timestamp', v.nanos, v.nanos);
    if (v instanceof PTimespan) return new PTimeType('Timespan', v.nanos, v.nanos);
    // A version's type is the range of that one version, as SemanticPuppet writes it.
    if (v instanceof PSemVer) return new PSemVerType([`${v} - ${v}`]);
    if (v instanceof PSemVerRange) return PSimpleType.of('SemVerRange');
    // A Ruby binary string (YAML's !!binary) is a String to the type system.
    if (v instanceof PBinaryString) return inferType(v.text);
    if (v instanceof PBinary) return PSimpleType.of('Binary');
    if (v instanceof PDeferred) return PSimpleType.of('Deferred');
    if (v instanceof PObjectValue) return v.type as PAnyType;
    if (v instanceof PError) return new PErrorType(v.kind, v.issueCode, 2);
    if (v instanceof PIterator) return new PIteratorType(iteratorElementType(v));
    if (v instanceof PAnyType) return new PTypeType(v);
    return PSimpleType.of('Any');
}

/**
 * The element type Puppet infers for an iterator: the variant of its elements' types (each
 * exactly, duplicates dropped), for a hash's pairs the Tuple of its keys' and values' variants.
 */
function iteratorElementType(it: PIterator): PAnyType {
    const items = it.typed ?? it.elementsOf();
    if (items.length === 0) return PSimpleType.of('Unit');
    if (it.pairs) {
        const pairs = items as PuppetValue[][];
        return new PTupleType([distinctVariant(pairs.map(p => inferType(p[0]))), distinctVariant(pairs.map(p => inferType(p[1])))]);
    }
    return distinctVariant(items.map(inferType));
}

/**
 * The Variant of the values' inferred types. Puppet's String type of a value keeps the value
 * (it prints as String): strings that differ give types that differ, both kept.
 */
function inferredVariant(values: readonly PuppetValue[]): PAnyType {
    const strings = new Set<string>();
    const types: PAnyType[] = [];
    const others: PuppetValue[] = [];
    for (const x of values) {
        if (typeof x === 'string') {
            if (!strings.has(x)) { strings.add(x); types.push(inferType(x)); }
        } else if (!others.some(o => typesEqual(inferType(o), inferType(x)))) {
            others.push(x);
            types.push(inferType(x));
        }
    }
    return types.length === 1 ? types[0] : new PVariantType(types);
}

/** A Variant of the types with duplicates dropped (one type stands alone), as Puppet normalizes it. */
function distinctVariant(ts: readonly PAnyType[]): PAnyType {
    const types: PAnyType[] = [];
    for (const t of ts) if (!types.some(y => typeToString(y) === typeToString(t))) types.push(t);
    return types.length === 1 ? types[0] : new PVariantType(types);
}

/** The type with value-specific ranges removed (Puppet's `generalize`). */
export function generalize(t: PAnyType): PAnyType {
    if (t instanceof PIntegerType) return new PIntegerType();
    if (t instanceof PTimeType) return new PTimeType(t.kind);
    if (t instanceof PSemVerType) return new PSemVerType();
    if (t instanceof PErrorType) return new PErrorType();
    if (t instanceof PBooleanType) return new PBooleanType();
    if (t instanceof PFloatType) return new PFloatType();
    if (t instanceof PStringType || t instanceof PEnumType || t instanceof PPatternType) return new PStringType();
    if (t instanceof PTupleType) {
        if (t.types.length === 0) return new PArrayType();
        return new PArrayType(commonType(t.types.map(generalize)));
    }
    // The empty array's Array[Unit] stays Array[Unit]; the empty hash's Hash[0, 0] stays as it is (Puppet's EMPTY types).
    if (t instanceof PArrayType) return new PArrayType(t.element === null ? null : generalize(t.element));
    if (t instanceof PStructType) {
        if (t.members.length === 0) return new PHashType();
        // Puppet keeps the key lengths: Hash[String[1, 3], ...].
        const lengths = t.members.map(m => BigInt([...m.name].length));
        const lo = lengths.reduce((a, b) => a < b ? a : b);
        const hi = lengths.reduce((a, b) => a > b ? a : b);
        return new PHashType(new PStringType(new PIntegerType(lo, hi)), commonType(t.members.map(m => generalize(m.value))));
    }
    if (t instanceof PHashType) {
        if (t.key !== null && t.key.kind === 'Unit') return t;
        if (t.key === null) return new PHashType();
        return new PHashType(generalize(t.key), t.value === null ? null : generalize(t.value));
    }
    if (t instanceof POptionalType) return new POptionalType(t.type === null ? null : generalize(t.type));
    if (t instanceof PNotUndefType) return new PNotUndefType(t.type === null ? null : generalize(t.type));
    if (t instanceof PSensitiveType) return new PSensitiveType(t.type === null ? null : generalize(t.type));
    if (t instanceof PTypeType) return new PTypeType(t.type === null ? null : generalize(t.type));
    if (t instanceof PVariantType) return distinctVariant(t.types.map(generalize));
    if (t instanceof PIteratorType && t.type !== null) return new PIteratorType(generalize(t.type));
    if (t instanceof PRegexpType) return new PRegexpType();
    if (t instanceof PIterableType) return new PIterableType(t.type === null ? null : generalize(t.type));
    return t;
}

/** The narrowest common supertype of generalized types (enough for inference of collections). */
export function commonType(types: readonly PAnyType[]): PAnyType {
    if (types.length === 0) return PSimpleType.of('Any');
    let acc = types[0];
    for (const t of types.slice(1)) acc = common2(acc, t);
    return acc;
}

function common2(a: PAnyType, b: PAnyType): PAnyType {
    if (isAssignable(a, b)) return a;
    if (isAssignable(b, a)) return b;
    // Ranges of the same number type widen to cover both (Integer[1, 1] and Integer[3, 3] give Integer[1, 3]).
    if (a instanceof PIntegerType && b instanceof PIntegerType) {
        return new PIntegerType(a.from === null || b.from === null ? null : a.from < b.from ? a.from : b.from, a.to === null || b.to === null ? null : a.to > b.to ? a.to : b.to);
    }
    if (a instanceof PFloatType && b instanceof PFloatType) {
        return new PFloatType(a.from === null || b.from === null ? null : Math.min(a.from, b.from), a.to === null || b.to === null ? null : Math.max(a.to, b.to));
    }
    if ((a.kind === 'Integer' || a.kind === 'Float' || a.kind === 'Numeric') && (b.kind === 'Integer' || b.kind === 'Float' || b.kind === 'Numeric')) return PSimpleType.of('Numeric');
    if (a instanceof PArrayType && b instanceof PArrayType) return new PArrayType(common2(a.element ?? PSimpleType.of('Any'), b.element ?? PSimpleType.of('Any')));
    if (a instanceof PHashType && b instanceof PHashType) {
        return new PHashType(common2(a.key ?? PSimpleType.of('Any'), b.key ?? PSimpleType.of('Any')), common2(a.value ?? PSimpleType.of('Any'), b.value ?? PSimpleType.of('Any')));
    }
    if (a.kind === 'Undef') return new POptionalType(b);
    if (b.kind === 'Undef') return new POptionalType(a);
    if (a instanceof PResourceType && b instanceof PResourceType) return new PResourceType();
    if (a instanceof PClassType && b instanceof PClassType) return new PClassType();
    const scalarData = PSimpleType.of('ScalarData');
    if (isAssignable(scalarData, a) && isAssignable(scalarData, b)) return scalarData;
    const data = PSimpleType.of('Data');
    if (isAssignable(data, a) && isAssignable(data, b)) return data;
    if (a instanceof PTypeAliasType || b instanceof PTypeAliasType) return PSimpleType.of('Any');
    return PSimpleType.of('Any');
}

/** `type(v, 'reduced')`: collections as Array/Hash of the common element type, scalars exact. */
export function inferReduced(v: PuppetValue): PAnyType {
    if (Array.isArray(v)) {
        const size = new PIntegerType(BigInt(v.length), BigInt(v.length));
        return new PArrayType(v.length === 0 ? PSimpleType.of('Unit') : reduceTypes(v.map(inferReduced)), size);
    }
    if (v instanceof Map) {
        const size = new PIntegerType(BigInt(v.size), BigInt(v.size));
        return new PHashType(reduceTypes([...v.keys()].map(inferReduced)), reduceTypes([...v.values()].map(inferReduced)), size);
    }
    return inferType(v);
}

function reduceTypes(types: PAnyType[]): PAnyType {
    let acc = types[0] ?? PSimpleType.of('Unit');
    for (const t of types.slice(1)) {
        if (acc instanceof PIntegerType && t instanceof PIntegerType) {
            acc = new PIntegerType(min(acc.from, t.from), max(acc.to, t.to));
        } else if (acc instanceof PFloatType && t instanceof PFloatType) {
            acc = new PFloatType(Math.min(acc.from ?? 0, t.from ?? 0), Math.max(acc.to ?? 0, t.to ?? 0));
        } else {
            acc = common2(acc, t);
        }
    }
    return acc;
}

function min(a: bigint | null, b: bigint | null): bigint | null {
    return a === null || b === null ? null : a < b ? a : b;
}

function max(a: bigint | null, b: bigint | null): bigint | null {
    return a === null || b === null ? null : a > b ? a : b;
}
