import { assertUnreachable } from '../common/index.js';
import { PDefault } from '../values/index.js';
import {
    PAnyType, PErrorType, PSemVerType, PTimeType, PArrayType, PBooleanType, PClassType, PCollectionType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PNotUndefType,
    POptionalType, PPatternType, PRegexpType, PResourceType, PSensitiveType, PStringType, PStructType, PTupleType, PTypeAliasType,
    PTypeType, PVariantType, PSimpleType, PInitType, PObjectType, PCallableType
} from './model.js';
import { isInitAssignable } from './init.js';
import { isObjectAssignable } from './object.js';

export function resolveAlias(t: PAnyType): PAnyType {
    let cur = t;
    for (let i = 0; cur instanceof PTypeAliasType && i < 100; i++) cur = cur.resolved ?? PSimpleType.of('Any');
    return cur;
}

type Range = { from: bigint | number | null; to: bigint | number | null };

function rangeWithin(outer: Range | null, inner: Range | null): boolean {
    if (outer === null) return true;
    const ifrom = inner?.from ?? null;
    const ito = inner?.to ?? null;
    if (outer.from !== null && (ifrom === null || ifrom < outer.from)) return false;
    if (outer.to !== null && (ito === null || ito > outer.to)) return false;
    return true;
}

function sizeOf(n: number): PIntegerType {
    return new PIntegerType(BigInt(n), BigInt(n));
}

const SCALAR_DATA = new Set(['Integer', 'Float', 'Numeric', 'String', 'Enum', 'Pattern', 'Boolean', 'ScalarData']);
const SCALAR = new Set([...SCALAR_DATA, 'Regexp', 'Timestamp', 'Timespan', 'SemVer', 'SemVerRange', 'Scalar']);

/** Puppet's `assignable?`: whether every instance of `other` is an instance of `t`. */
export function isAssignable(target: PAnyType, source: PAnyType): boolean {
    const t = resolveAlias(target);
    const o = resolveAlias(source);
    if (t.kind === 'Any') return true;
    if (o instanceof PVariantType) return o.types.every(x => isAssignable(t, x));
    if (o.kind === 'Unit') return true;
    const k = t.kind;
    switch (k) {

        case 'Undef': return o.kind === 'Undef';
        case 'Default': return o.kind === 'Default';
        case 'NotUndef': {
            if (o.kind === 'Undef' || o.kind === 'Optional' || o.kind === 'Any') return false;
            const c = (t as PNotUndefType).type;
            return c === null || isAssignable(c, o);
        }
        case 'Scalar': return SCALAR.has(o.kind);
        case 'ScalarData': return SCALAR_DATA.has(o.kind);
        case 'Data': return isDataType(o);
        // RichData's Variant has Object (Pcore objects: Object types, Deferred), not Error.
        case 'RichData': return !['Callable', 'Runtime', 'Iterator', 'Any', 'Init', 'Error'].includes(o.kind);
        case 'Numeric': return o.kind === 'Integer' || o.kind === 'Float' || o.kind === 'Numeric';
        case 'Integer': return o instanceof PIntegerType && rangeWithin(t as PIntegerType, o);
        case 'Float': return o instanceof PFloatType && rangeWithin(t as PFloatType, o);
        case 'String': {
            const size = (t as PStringType).size;
            const exact = (t as PStringType).value;
            if (exact !== null) return (o instanceof PStringType && o.value === exact) || (o instanceof PEnumType && o.values.length === 1 && o.values[0] === exact);
            if (o instanceof PStringType && o.value !== null) return rangeWithin(size, new PIntegerType(BigInt([...o.value].length), BigInt([...o.value].length)));
            if (o instanceof PStringType) return rangeWithin(size, o.size ?? new PIntegerType(0n, null));
            if (o instanceof PEnumType) return o.values.length > 0 && o.values.every(v => rangeWithin(size, sizeOf([...v].length)));
            if (o instanceof PPatternType) return size === null;
            return false;
        }
        case 'Enum': {
            const e = t as PEnumType;
            if (o instanceof PEnumType) return e.values.length === 0 || o.values.every(v => e.values.includes(v) || (e.caseInsensitive && e.values.some(x => x.toLowerCase() === v.toLowerCase())));
            // The type of one exact string is an instance of the Enum that lists it.
            if (o instanceof PStringType && o.value !== null) return e.values.length === 0 || e.values.includes(o.value) || (e.caseInsensitive && e.values.some(x => x.toLowerCase() === o.value?.toLowerCase()));
            if (o instanceof PStringType || o instanceof PPatternType) return e.values.length === 0;
            return false;
        }
        case 'Pattern': {
            const p = t as PPatternType;
            if (p.patterns.length === 0) return o instanceof PStringType || o instanceof PEnumType || o instanceof PPatternType;
            if (o instanceof PStringType && o.value !== null) return p.patterns.some(r => r.regexp.test(o.value as string));
            if (o instanceof PEnumType) return o.values.length > 0 && o.values.every(v => p.patterns.some(r => r.regexp.test(v)));
            if (o instanceof PPatternType) return o.patterns.length > 0 && o.patterns.every(x => p.patterns.some(r => r.source === x.source));
            return false;
        }
        case 'Boolean': return o instanceof PBooleanType && ((t as PBooleanType).value === null || (t as PBooleanType).value === o.value);
        case 'Regexp': {
            const p = (t as PRegexpType).pattern;
            return o instanceof PRegexpType && (p === null || (o.pattern !== null && o.pattern.source === p.source));
        }
        case 'Collection': {
            const size = (t as PCollectionType).size;
            if (o instanceof PArrayType || o instanceof PHashType || o instanceof PCollectionType) return rangeWithin(size, o.size);
            if (o instanceof PTupleType) return rangeWithin(size, o.size ?? sizeOf(o.types.length));
            if (o instanceof PStructType) return rangeWithin(size, sizeOf(o.members.length));
            return false;
        }
        case 'Array': {
            const a = t as PArrayType;
            if (o instanceof PArrayType) return rangeWithin(a.size, o.size) && (a.element === null || o.element === null ? a.element === null || a.element.kind === 'Any' : isAssignable(a.element, o.element));
            if (o instanceof PTupleType) return rangeWithin(a.size, o.size ?? sizeOf(o.types.length)) && (a.element === null || o.types.every(x => isAssignable(a.element as PAnyType, x)));
            return false;
        }
        case 'Hash': {
            const h = t as PHashType;
            if (o instanceof PHashType) {
                if (o.size !== null && o.size.to === 0n) return rangeWithin(h.size, o.size);
                return rangeWithin(h.size, o.size) && (h.key === null || o.key === null ? h.key === null || h.key.kind === 'Any' : isAssignable(h.key, o.key))
                    && (h.value === null || o.value === null ? h.value === null || h.value.kind === 'Any' : isAssignable(h.value, o.value));
            }
            if (o instanceof PStructType) {
                return rangeWithin(h.size, sizeOf(o.members.length)) && (h.key === null || o.members.every(m => isAssignable(h.key as PAnyType, new PEnumType([m.name]))))
                    && (h.value === null || o.members.every(m => isAssignable(h.value as PAnyType, m.value)));
            }
            return false;
        }
        case 'Struct': {
            const s = t as PStructType;
            if (!(o instanceof PStructType)) return o instanceof PHashType && o.size !== null && o.size.to === 0n && s.members.every(m => m.keyType === 'optional');
            return o.members.every(m => s.members.some(x => x.name === m.name && isAssignable(x.value, m.value)))
                && s.members.every(x => x.keyType === 'optional' || o.members.some(m => m.name === x.name));
        }
        case 'Tuple': {
            const tu = t as PTupleType;
            if (o instanceof PTupleType) {
                return rangeWithin(tu.size ?? sizeOf(tu.types.length), o.size ?? sizeOf(o.types.length))
                    && o.types.every((x, i) => isAssignable(tu.types[Math.min(i, tu.types.length - 1)] ?? PSimpleType.of('Any'), x));
            }
            if (o instanceof PArrayType) {
                return o.size !== null && rangeWithin(tu.size ?? sizeOf(tu.types.length), o.size) && tu.types.every(x => o.element === null || isAssignable(x, o.element));
            }
            return false;
        }
        case 'Optional': {
            if (o.kind === 'Undef') return true;
            const c = (t as POptionalType).type;
            if (c === null) return true;
            return o instanceof POptionalType ? o.type !== null && isAssignable(c, o.type) : isAssignable(c, o);
        }
        case 'Variant': return (t as PVariantType).types.some(x => isAssignable(x, o));
        case 'Type': {
            const c = (t as PTypeType).type;
            return o instanceof PTypeType && (c === null || (o.type !== null && isAssignable(c, o.type)));
        }
        case 'Resource': {
            const r = t as PResourceType;
            if (o instanceof PClassType) return r.typeName === null;
            if (!(o instanceof PResourceType)) return false;
            if (r.typeName === null) return true;
            return o.typeName !== null && o.typeName.toLowerCase() === r.typeName.toLowerCase() && (r.title === null || r.title === o.title);
        }
        case 'Class': {
            const c = t as PClassType;
            return o instanceof PClassType && (c.className === null || c.className === o.className);
        }
        case 'CatalogEntry': return o instanceof PResourceType || o instanceof PClassType || o.kind === 'CatalogEntry';
        case 'Iterable': {
            const c = (t as PIterableType).type;
            const iterable = ['Array', 'Hash', 'String', 'Enum', 'Pattern', 'Tuple', 'Struct', 'Iterable', 'Iterator', 'Collection'].includes(o.kind)
                || (o instanceof PIntegerType && o.from !== null && o.to !== null);
            if (!iterable) return false;
            if (c === null) return true;
            // The element types: a hash iterates [key, value] tuples, a string its characters.
            if (o instanceof PArrayType) return o.element === null || isAssignable(c, o.element);
            if (o instanceof PTupleType) return o.types.every(x => isAssignable(c, x));
            if (o instanceof PHashType) return isAssignable(c, new PTupleType([o.key ?? PSimpleType.of('Any'), o.value ?? PSimpleType.of('Any')]));
            if (o instanceof PStructType) return o.members.every(m => isAssignable(c, new PTupleType([new PStringType(), m.value])));
            if (o instanceof PStringType || o instanceof PEnumType || o instanceof PPatternType) return isAssignable(c, new PStringType());
            if (o instanceof PIterableType) return o.type !== null && isAssignable(c, o.type);
            return true;
        }
        case 'Sensitive': {
            const c = (t as PSensitiveType).type;
            return o instanceof PSensitiveType && (c === null || o.type === null || isAssignable(c, o.type));
        }
        case 'Timestamp': case 'Timespan': {
            // A range holds every range inside it.
            const r = t as PTimeType;
            if (!(o instanceof PTimeType) || o.kind !== k) return false;
            return (r.from === null || (o.from !== null && o.from >= r.from)) && (r.to === null || (o.to !== null && o.to <= r.to));
        }
        case 'SemVer': {
            // A ranged SemVer holds the versions of the ranges it lists.
            const r = (t as PSemVerType).ranges;
            return o instanceof PSemVerType && (r.length === 0 || (o.ranges.length > 0 && o.ranges.every(x => r.includes(x))));
        }
        case 'Callable': {
            // Calls are what is constrained: the other's parameters (and block) must take these.
            const c = t as PCallableType;
            if (!(o instanceof PCallableType)) return false;
            if (c.returnType !== null && !isAssignable(c.returnType, o.returnType ?? PSimpleType.of('Any'))) return false;
            if (c.params === null) return true;
            if (o.params === null || !isAssignable(o.params, c.params)) return false;
            return isAssignable(o.block ?? PSimpleType.of('Undef'), c.block ?? PSimpleType.of('Undef'));
        }
        case 'Iterator': case 'Runtime': case 'SemVerRange':
        case 'Error': {
            // Each parameter given here (not default) must be given there alike, or there as a type this one's takes.
            const e = t as PErrorType;
            if (!(o instanceof PErrorType)) return false;
            const fits = (i: number, want: unknown, got: unknown): boolean => i >= e.given || want instanceof PDefault
                || (i < o.given && !(got instanceof PDefault) && (want === got || typesOrValuesEqual(want, got) || (want instanceof PAnyType && got instanceof PAnyType && isAssignable(want, got))));
            return fits(0, e.errorKind, o.errorKind) && fits(1, e.issueCode, o.issueCode);
        }
        case 'Init': return isInitAssignable(t as PInitType, o);
        case 'Object': return isObjectAssignable(t as PObjectType, o);
        case 'Binary': case 'Deferred': case 'Unit':
            return o.kind === k;
        case 'Alias': return false;
        default: return assertUnreachable(k);
    }
}

function isDataType(o: PAnyType): boolean {
    // Unit (the element type of an empty array or hash's type) is assignable to every type.
    if (SCALAR_DATA.has(o.kind) || o.kind === 'Undef' || o.kind === 'Data' || o.kind === 'Unit') return true;
    if (o instanceof PArrayType) return o.element === null ? false : isDataType(o.element);
    if (o instanceof PHashType) return o.key !== null && o.value !== null && isAssignable(new PStringType(), o.key) && isDataType(o.value);
    if (o instanceof PTupleType) return o.types.every(isDataType);
    if (o instanceof PStructType) return o.members.every(m => isDataType(m.value));
    if (o instanceof POptionalType) return o.type === null || isDataType(o.type);
    if (o instanceof PTypeAliasType) return isDataType(resolveAlias(o));
    return false;
}

/** Error parameters are equal when both are the same string or print as the same type. */
function typesOrValuesEqual(a: unknown, b: unknown): boolean {
    return a === b || (a instanceof PAnyType && b instanceof PAnyType && a.equalsType(b));
}
