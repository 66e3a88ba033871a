import { assertUnreachable } from '../common/index.js';
import {
    PBinary, PBinaryString, PDefault, PDeferred, PError, PObjectValue, semverRangeIncludes, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, type PuppetValue
} from '../values/index.js';
import {
    PAnyType, PErrorType, PSemVerType, PTimeType, PArrayType, PBooleanType, PCollectionType, PEnumType, PFloatType, PHashType, PIntegerType, PInitType, PObjectType, PIterableType, PNotUndefType,
    POptionalType, PPatternType, PRegexpType, PSensitiveType, PStringType, PStructType, PTupleType, PTypeAliasType,
    PTypeType, PVariantType
} from './model.js';
import { isAssignable } from './assignable.js';
import { isInitInstance } from './init.js';
import { isObjectInstance } from './object.js';
import { commonType, generalize, inferType } from './infer.js';

function inSize(size: PIntegerType | null, n: number): boolean {
    if (size === null) return true;
    const b = BigInt(n);
    return (size.from === null || b >= size.from) && (size.to === null || b <= size.to);
}

export function isScalarData(v: PuppetValue): boolean {
    // A Ruby binary string (YAML's !!binary) is a String to the type system.
    return typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' || v instanceof PBinaryString;
}

function isScalar(v: PuppetValue): boolean {
    return isScalarData(v) || v instanceof PRegexp || v instanceof PTimestamp || v instanceof PTimespan || v instanceof PSemVer
        || v instanceof PSemVerRange;
}

export function isData(v: PuppetValue): boolean {
    if (v === null || isScalarData(v)) return true;
    if (Array.isArray(v)) return v.every(isData);
    if (v instanceof Map) return [...v].every(([k, x]) => typeof k === 'string' && isData(x));
    return false;
}

function isRichData(v: PuppetValue): boolean {
    if (v === null || isScalar(v) || v instanceof PDefault || v instanceof PBinary || v instanceof PSensitive || v instanceof PAnyType
        || v instanceof PDeferred || v instanceof PError || v instanceof PObjectValue) return true;
    if (Array.isArray(v)) return v.every(isRichData);
    if (v instanceof Map) return [...v].every(([k, x]) => isRichData(k) && isRichData(x));
    return false;
}

export function isIterableValue(v: PuppetValue): boolean {
    return typeof v === 'string' || typeof v === 'bigint' || Array.isArray(v) || v instanceof Map || v instanceof PIterator
        || (v instanceof PIntegerType && v.from !== null && v.to !== null) || v instanceof PEnumType;
}

/** Puppet's `instance?`: whether `v` is an instance of type `t` (what `=~ Type` and parameter checks use). */
export function isInstance(t: PAnyType, value: PuppetValue): boolean {
    // A Ruby binary string is a String to the type system.
    const v = value instanceof PBinaryString ? value.text : value;
    const k = t.kind;
    switch (k) {
        case 'Any': return true;
        case 'Undef': return v === null;
        case 'Default': return v instanceof PDefault;
        case 'NotUndef': {
            const c = (t as PNotUndefType).type;
            return v !== null && (c === null || isInstance(c, v));
        }
        case 'Scalar': return isScalar(v);
        case 'ScalarData': return isScalarData(v);
        case 'Data': return isData(v);
        case 'RichData': return isRichData(v);
        case 'Numeric': return typeof v === 'bigint' || typeof v === 'number';
        case 'Integer': {
            const i = t as PIntegerType;
            return typeof v === 'bigint' && (i.from === null || v >= i.from) && (i.to === null || v <= i.to);
        }
        case 'Float': {
            const f = t as PFloatType;
            return typeof v === 'number' && (f.from === null || v >= f.from) && (f.to === null || v <= f.to);
        }
        case 'String': {
            const st = t as PStringType;
            return typeof v === 'string' && (st.value === null ? inSize(st.size, [...v].length) : v === st.value);
        }
        case 'Enum': {
            const e = t as PEnumType;
            if (typeof v !== 'string') return false;
            if (e.values.length === 0) return true;
            return e.caseInsensitive ? e.values.some(x => x.toLowerCase() === v.toLowerCase()) : e.values.includes(v);
        }
        case 'Pattern': {
            const p = t as PPatternType;
            return typeof v === 'string' && (p.patterns.length === 0 || p.patterns.some(r => r.regexp.test(v)));
        }
        case 'Boolean': return typeof v === 'boolean' && ((t as PBooleanType).value === null || (t as PBooleanType).value === v);
        case 'Regexp': {
            const p = (t as PRegexpType).pattern;
            return v instanceof PRegexp && (p === null || p.source === v.source);
        }
        case 'Collection': return (Array.isArray(v) && inSize((t as PCollectionType).size, v.length))
            || (v instanceof Map && inSize((t as PCollectionType).size, v.size));
        case 'Array': {
            const a = t as PArrayType;
            return Array.isArray(v) && inSize(a.size, v.length) && (a.element === null || v.every(x => isInstance(a.element as PAnyType, x)));
        }
        case 'Hash': {
            const h = t as PHashType;
            if (!(v instanceof Map) || !inSize(h.size, v.size)) return false;
            for (const [key, x] of v) {
                if (h.key !== null && !isInstance(h.key, key)) return false;
                if (h.value !== null && !isInstance(h.value, x)) return false;
            }
            return true;
        }
        case 'Struct': {
            const s = t as PStructType;
            if (!(v instanceof Map)) return false;
            let matched = 0;
            for (const m of s.members) {
                if (v.has(m.name)) {
                    matched++;
                    if (!isInstance(m.value, v.get(m.name) as PuppetValue)) return false;
                } else if (m.keyType !== 'optional' && !(m.keyType === 'plain' && isInstance(m.value, null))) {
                    return false;
                }
            }
            return matched === v.size;
        }
        case 'Tuple': {
            const tu = t as PTupleType;
            if (!Array.isArray(v)) return false;
            // The unparameterized Tuple takes any array.
            if (tu.types.length === 0 && tu.size === null) return true;
            const size = tu.size ?? new PIntegerType(BigInt(tu.types.length), BigInt(tu.types.length));
            if (!inSize(size, v.length)) return false;
            return v.every((x, i) => {
                const et = tu.types[Math.min(i, tu.types.length - 1)];
                return et === undefined || isInstance(et, x);
            });
        }
        case 'Optional': {
            const c = (t as POptionalType).type;
            return v === null || c === null || isInstance(c, v);
        }
        case 'Variant': return (t as PVariantType).types.some(x => isInstance(x, v));
        case 'Type': {
            const c = (t as PTypeType).type;
            return v instanceof PAnyType && (c === null || isAssignable(c, v));
        }
        // References are types, not instances: nothing at runtime is an instance of a resource or class type.
        case 'Resource': case 'Class': case 'CatalogEntry': return false;
        case 'Callable': return false;
        case 'Iterable': {
            const c = (t as PIterableType).type;
            if (!isIterableValue(v)) return false;
            if (c === null) return true;
            // Puppet infers a collection's type (elements reduced to their common type, a hash iterating
            // [key, value] tuples) and asks whether that is assignable, so ['a', 1] is no Iterable[Variant[String, Numeric]].
            if (Array.isArray(v)) return v.length === 0 || isAssignable(c, commonType(v.map(elementType)));
            if (v instanceof Map) {
                return v.size === 0 || isAssignable(c, new PTupleType([commonType([...v.keys()].map(elementType)), commonType([...v.values()].map(elementType))]));
            }
            return isAssignable(c, iterableElementType(v));
        }
        case 'Iterator': return v instanceof PIterator;
        case 'Sensitive': {
            const c = (t as PSensitiveType).type;
            return v instanceof PSensitive && (c === null || isInstance(c, v.value));
        }
        case 'Runtime': return false;
        case 'Timestamp': case 'Timespan': {
            const r = t as PTimeType;
            const ok = r.kind === 'Timestamp' ? v instanceof PTimestamp : v instanceof PTimespan;
            return ok && (r.from === null || (v as PTimestamp).nanos >= r.from) && (r.to === null || (v as PTimestamp).nanos <= r.to);
        }
        case 'SemVer': return v instanceof PSemVer && ((t as PSemVerType).ranges.length === 0 || (t as PSemVerType).ranges.some(r => semverRangeIncludes(r, v)));
        case 'SemVerRange': return v instanceof PSemVerRange;
        case 'Binary': return v instanceof PBinary;
        case 'Deferred': return v instanceof PDeferred;
        case 'Init': return isInitInstance(t as PInitType, v);
        case 'Object': return isObjectInstance(t as PObjectType, v);
        case 'Error': {
            // The kind and issue code match as strings, or as instances of a type (a Pattern) given for them;
            // one not given (or default) matches any, an undef one only undef.
            const e = t as PErrorType;
            const fits = (i: number, want: PuppetValue, got: string | null): boolean => i >= e.given || want instanceof PDefault
                || (want === null ? got === null : typeof want === 'string' ? want === got : want instanceof PAnyType && isInstance(want, got));
            return v instanceof PError && fits(0, e.errorKind, v.kind) && fits(1, e.issueCode, v.issueCode);
        }
        case 'Unit': return true;
        case 'TypeReference': case 'URI': case 'TypeSet': return false;
        case 'Alias': {
            const r = (t as PTypeAliasType).resolved;
            return r !== null && isInstance(r, v);
        }
        default: return assertUnreachable(k);
    }
}

/** The type Puppet infers for an element of a collection (collections as Array[T] and Hash[K, V]). */
function elementType(v: PuppetValue): PAnyType {
    return Array.isArray(v) || v instanceof Map ? generalize(inferType(v)) : inferType(v);
}

function iterableElementType(v: PuppetValue): PAnyType {
    if (Array.isArray(v)) return inferType(v) instanceof PArrayType ? ((inferType(v) as PArrayType).element ?? new PStringType()) : new PStringType();
    if (typeof v === 'string') return new PStringType();
    if (typeof v === 'bigint') return new PIntegerType();
    return new PStringType();
}
