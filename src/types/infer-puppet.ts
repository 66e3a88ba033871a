/**
 * Puppet's TypeCalculator#infer, #common_type and PAnyType#generalize, as `type(v, reduced)` and
 * `type(v, generalized)` show them: a string's type knows its value (printed as String), so
 * several strings reduce to an Enum of them; undef values are left out of a collection's common
 * type; generalizing drops ranges and sizes but keeps a Tuple's or Struct's structure.
 */
import { PRegexp, PSensitive, type PuppetValue } from '../values/index.js';
import { isAssignable } from './assignable.js';
import { typesEqual } from './construct.js';
import { inferType } from './infer.js';
import {
    PAnyType, PArrayType, PBooleanType, PClassType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PNotUndefType, POptionalType,
    PPatternType, PRegexpType, PResourceType, PSensitiveType, PSimpleType, PStringType, PStructType, PTupleType, PTypeType, PVariantType
} from './model.js';

const UNIT = PSimpleType.of('Unit');

/** TypeCalculator#infer: collections as Array/Hash of their elements' common type, with their size. */
export function inferPuppet(v: PuppetValue): PAnyType {
    if (typeof v === 'string') return new PStringType(null, v);
    if (Array.isArray(v)) {
        const size = new PIntegerType(BigInt(v.length), BigInt(v.length));
        return v.length === 0 ? new PArrayType(UNIT, size) : new PArrayType(reduce(v.map(inferPuppet)), size);
    }
    if (v instanceof Map) {
        const size = new PIntegerType(BigInt(v.size), BigInt(v.size));
        if (v.size === 0) return new PHashType(UNIT, UNIT, size);
        return new PHashType(reduce([...v.keys()].map(inferPuppet)), reduce([...v.values()].map(inferPuppet)), size);
    }
    if (v instanceof PRegexp) return new PRegexpType(v);
    if (v instanceof PSensitive) return new PSensitiveType(generalizePuppet(inferPuppet(v.value)));
    return inferType(v);
}

function reduce(types: readonly PAnyType[]): PAnyType {
    let acc: PAnyType | undefined;
    for (const t of types) acc = acc === undefined ? t : commonTypePuppet(acc, t);
    return acc ?? UNIT;
}

const isUndef = (t: PAnyType): boolean => t.kind === 'Undef';

/** TypeCalculator#common_type. */
export function commonTypePuppet(a: PAnyType, b: PAnyType): PAnyType {
    if (isUndef(a)) return b;
    if (isUndef(b)) return a;
    if (a.kind === 'Unit') return b;
    if (b.kind === 'Unit') return a;
    if (isAssignable(a, b)) return a;
    if (isAssignable(b, a)) return b;
    if (a instanceof PArrayType && b instanceof PArrayType) return new PArrayType(commonTypePuppet(a.element ?? ANY, b.element ?? ANY));
    if (a instanceof PHashType && b instanceof PHashType) return new PHashType(commonTypePuppet(a.key ?? ANY, b.key ?? ANY), commonTypePuppet(a.value ?? ANY, b.value ?? ANY));
    if (a instanceof PClassType && b instanceof PClassType) return new PClassType();
    if (a instanceof PResourceType && b instanceof PResourceType) return a.typeName === b.typeName ? new PResourceType(a.typeName) : new PResourceType();
    if (a instanceof PIntegerType && b instanceof PIntegerType) return new PIntegerType(lower(a.from, b.from), upper(a.to, b.to));
    if (a instanceof PFloatType && b instanceof PFloatType) {
        return new PFloatType(a.from === null || b.from === null ? null : Math.min(a.from, b.from), a.to === null || b.to === null ? null : Math.max(a.to, b.to));
    }
    if (a instanceof PStringType && (b instanceof PStringType || b instanceof PEnumType)) {
        if (b instanceof PEnumType) return a.value === null ? new PEnumType([]) : new PEnumType([...b.values, a.value]);
        if (a.size === null || b.size === null) return a.value === null || b.value === null ? new PStringType() : new PEnumType([a.value, b.value]);
        return new PStringType(commonTypePuppet(a.size, b.size) as PIntegerType);
    }
    if (a instanceof PPatternType && b instanceof PPatternType) return new PPatternType([...a.patterns, ...b.patterns.filter(p => !a.patterns.some(q => q.source === p.source))]);
    if (a instanceof PEnumType && (b instanceof PStringType || b instanceof PEnumType)) {
        if (b instanceof PEnumType) return new PEnumType([...a.values, ...b.values]);
        return b.value === null ? new PEnumType([]) : new PEnumType([...a.values, b.value]);
    }
    if (a instanceof PVariantType && b instanceof PVariantType) return variantOf([...a.types, ...b.types]);
    if (a instanceof PRegexpType && b instanceof PRegexpType) return new PRegexpType();
    for (const abstract of ['Numeric', 'ScalarData', 'Scalar', 'Data'] as const) {
        const s = PSimpleType.of(abstract);
        if (isAssignable(s, a) && isAssignable(s, b)) return s;
    }
    if (a instanceof PTypeType && b instanceof PTypeType) return new PTypeType(commonTypePuppet(a.type ?? ANY, b.type ?? ANY));
    const rich = PSimpleType.of('RichData');
    if (isAssignable(rich, a) && isAssignable(rich, b)) return rich;
    return ANY;
}

const ANY = PSimpleType.of('Any');

function lower(x: bigint | null, y: bigint | null): bigint | null {
    return x === null || y === null ? null : x < y ? x : y;
}

function upper(x: bigint | null, y: bigint | null): bigint | null {
    return x === null || y === null ? null : x > y ? x : y;
}

/** PVariantType.maybe_create: nested variants flattened, duplicates dropped, a single type alone. */
export function variantOf(types: readonly PAnyType[]): PAnyType {
    const flat = types.flatMap(t => t instanceof PVariantType ? t.types : [t]);
    const unique = flat.filter((t, i) => flat.findIndex(u => typesEqual(u, t)) === i);
    return unique.length === 1 ? unique[0] : new PVariantType(unique);
}

/** PAnyType#generalize of each type class. */
export function generalizePuppet(t: PAnyType): PAnyType {
    if (t instanceof PIntegerType) return new PIntegerType();
    if (t instanceof PFloatType) return new PFloatType();
    if (t instanceof PStringType) return new PStringType();
    if (t instanceof PBooleanType) return new PBooleanType();
    if (t instanceof PEnumType) {
        if (t.values.length === 0) return new PStringType();
        const lengths = t.values.map(x => BigInt([...x].length));
        return new PStringType(new PIntegerType(lengths.reduce((a, b) => a < b ? a : b), lengths.reduce((a, b) => a > b ? a : b)));
    }
    if (t instanceof POptionalType) return new POptionalType(t.type === null ? null : generalizePuppet(t.type));
    if (t instanceof PNotUndefType) return new PNotUndefType(t.type === null ? null : generalizePuppet(t.type));
    if (t instanceof PTypeType) return new PTypeType(t.type === null ? null : generalizePuppet(t.type));
    if (t instanceof PSensitiveType) return new PSensitiveType(t.type === null ? null : generalizePuppet(t.type));
    if (t instanceof PIterableType) return new PIterableType(t.type === null ? null : generalizePuppet(t.type));
    if (t instanceof PStructType) return t.members.length === 0 ? t : new PStructType(t.members.map(m => ({ ...m, value: generalizePuppet(m.value) })));
    if (t instanceof PTupleType) return new PTupleType(t.types.map(generalizePuppet), t.size);
    if (t instanceof PArrayType) return t.element === null || t.element.kind === 'Any' ? new PArrayType() : new PArrayType(generalizePuppet(t.element));
    if (t instanceof PHashType) {
        // The empty hash's type (Hash[Unit, Unit, 0, 0]) stays as it is.
        if (t.key === null || t.key.kind === 'Unit') return t;
        return new PHashType(generalizePuppet(t.key), t.value === null ? null : generalizePuppet(t.value));
    }
    if (t instanceof PVariantType) return variantOf(t.types.map(generalizePuppet));
    return t;
}
