import { isAssignable } from './assignable.js';
import { typesEqual } from './construct.js';
import {
    PArrayType, PEnumType, PFloatType, PHashType, PIntegerType, PNotUndefType, POptionalType, PPatternType, PSimpleType, PStringType, PStructType,
    PTupleType, PVariantType, type PAnyType
} from './model.js';

/**
 * Puppet's Type#normalize, which the mismatch describer applies to the type it infers for a value
 * (each time a mismatch is made, again when mismatches merge): collections normalize their
 * element types; a Variant is flattened, its Undef turned into Optional, its exact strings and
 * case-sensitive Enums merged into one Enum (placed last), its Patterns into one Pattern, its
 * Integer ranges that touch or overlap (and Float ranges that overlap) merged, in Puppet's order
 * (merged ranges first).
 */
export function normalizeType(t: PAnyType): PAnyType {
    if (t instanceof PVariantType) return normalizeVariant(t);
    if (t instanceof PHashType) {
        if (t.key === null && t.value === null) return t;
        if (t.size !== null && t.size.from === 0n && t.size.to === 0n) return t;
        return new PHashType(t.key === null ? null : normalizeType(t.key), t.value === null ? null : normalizeType(t.value), t.size);
    }
    if (t instanceof PArrayType) return t.element === null || t.element.kind === 'Any' ? new PArrayType() : new PArrayType(normalizeType(t.element), t.size);
    if (t instanceof PTupleType) return t.types.length === 0 ? t : new PTupleType(t.types.map(normalizeType), t.size);
    if (t instanceof PStructType) return new PStructType(t.members.map(m => ({ ...m, value: normalizeType(m.value) })));
    if (t instanceof POptionalType) {
        if (t.type === null) return t;
        const inner = normalizeType(t.type);
        if (inner instanceof PNotUndefType) return normalizeType(new POptionalType(inner.type));
        return isAssignable(inner, PSimpleType.of('Undef')) ? inner : new POptionalType(inner);
    }
    if (t instanceof PNotUndefType) {
        if (t.type === null) return t;
        const inner = normalizeType(t.type);
        if (inner instanceof POptionalType) return normalizeType(new PNotUndefType(inner.type));
        return isAssignable(inner, PSimpleType.of('Undef')) ? new PNotUndefType(inner) : inner;
    }
    return t;
}

/** Puppet's PVariantType.maybe_create: nested variants flattened, duplicates dropped, one member alone. */
export function variantOf(types: readonly PAnyType[]): PAnyType {
    const out: PAnyType[] = [];
    for (const t of flatten(types)) if (!out.some(x => same(x, t))) out.push(t);
    return out.length === 1 ? out[0] : new PVariantType(out);
}

/** Ruby's eql? of types: a String type holding one string differs from one holding another. */
function same(a: PAnyType, b: PAnyType): boolean {
    if (a instanceof PStringType && b instanceof PStringType && a.value !== b.value) return false;
    return typesEqual(a, b);
}

function flatten(types: readonly PAnyType[]): PAnyType[] {
    return types.flatMap(t => (t instanceof PVariantType ? [...t.types] : [t]));
}

function normalizeVariant(v: PVariantType): PAnyType {
    if (v.types.length === 0) return v;
    let types = v.types.map(normalizeType);
    if (types.length === 1) return types[0];
    if (types.some(t => t.kind === 'Undef' || t instanceof POptionalType)) {
        const rest = types.filter(t => t.kind !== 'Undef').map(t => (t instanceof POptionalType && t.type !== null ? t.type : t));
        return normalizeType(new POptionalType(variantOf(rest)));
    }
    // Puppet keeps the Variant as it was (its order too) when neither a member nor a merge changed it.
    const before = types.length;
    const modified = types.some((t, i) => !same(t, v.types[i]));
    types = flatten(types);
    types = swapNotUndefs(types);
    types = mergeEnums(types);
    types = mergePatterns(types);
    types = mergeNumbers(types, t => t instanceof PIntegerType, mergeIntegers);
    types = mergeNumbers(types, t => t instanceof PFloatType, mergeFloats);
    if (types.length === 1) return types[0];
    return modified || types.length !== before ? variantOf(types) : v;
}

function swapNotUndefs(types: PAnyType[]): PAnyType[] {
    const nots = types.filter((t): t is PNotUndefType => t instanceof PNotUndefType);
    if (nots.length < 2) return types;
    return [...types.filter(t => !(t instanceof PNotUndefType)), new PNotUndefType(normalizeType(variantOf(nots.map(n => n.type ?? PSimpleType.of('Any')))))];
}

function mergeEnums(types: PAnyType[]): PAnyType[] {
    const isExact = (t: PAnyType): boolean => (t instanceof PEnumType && t.values.length > 0 && !t.caseInsensitive) || (t instanceof PStringType && t.value !== null);
    const exact = types.filter(isExact);
    if (exact.length > 1) {
        types = [...types.filter(t => !isExact(t)), new PEnumType(exact.flatMap(t => (t instanceof PEnumType ? t.values : [(t as PStringType).value as string])))];
    }
    const insensitive = types.filter((t): t is PEnumType => t instanceof PEnumType && t.values.length > 0 && t.caseInsensitive);
    if (insensitive.length > 1) {
        types = [...types.filter(t => !insensitive.includes(t as PEnumType)), new PEnumType(insensitive.flatMap(e => e.values.map(x => x.toLowerCase())), true)];
    }
    return types;
}

function mergePatterns(types: PAnyType[]): PAnyType[] {
    const patterns = types.filter((t): t is PPatternType => t instanceof PPatternType);
    if (patterns.length < 2) return types;
    const regexps = patterns.flatMap(p => p.patterns).filter((r, i, all) => all.findIndex(x => x.source === r.source) === i);
    return [...types.filter(t => !(t instanceof PPatternType)), new PPatternType(regexps)];
}

/** Puppet's merge_numbers and merge_ranges: the last range absorbs the others it can, repeatedly; merged ranges come first. */
function mergeNumbers<T extends PAnyType>(types: PAnyType[], is: (t: PAnyType) => boolean, merge: (a: T, b: T) => T | undefined): PAnyType[] {
    let ranges = types.filter(is) as T[];
    if (ranges.length < 2) return types;
    const result: T[] = [];
    while (ranges.length > 0) {
        const unmerged: T[] = [];
        let memo = ranges[ranges.length - 1];
        for (const y of ranges.slice(0, -1)) {
            const merged = merge(memo, y);
            if (merged === undefined) unmerged.push(y); else memo = merged;
        }
        result.push(memo);
        ranges = unmerged;
    }
    return [...result, ...types.filter(t => !is(t))];
}

const lo = (x: bigint | null): number | bigint => x ?? -Infinity;
const hi = (x: bigint | null): number | bigint => x ?? Infinity;

function mergeIntegers(a: PIntegerType, b: PIntegerType): PIntegerType | undefined {
    const intersect = !(hi(a.to) < lo(b.from) || hi(b.to) < lo(a.from));
    const adjacent = (a.to !== null && b.from !== null && a.to + 1n === b.from) || (b.to !== null && a.from !== null && b.to + 1n === a.from);
    if (!intersect && !adjacent) return undefined;
    return new PIntegerType(a.from === null || b.from === null ? null : a.from <= b.from ? a.from : b.from, a.to === null || b.to === null ? null : a.to >= b.to ? a.to : b.to);
}

function mergeFloats(a: PFloatType, b: PFloatType): PFloatType | undefined {
    const [af, at, bf, bt] = [a.from ?? -Infinity, a.to ?? Infinity, b.from ?? -Infinity, b.to ?? Infinity];
    if (at < bf || bt < af) return undefined;
    return new PFloatType(Math.min(af, bf) === -Infinity ? null : Math.min(af, bf), Math.max(at, bt) === Infinity ? null : Math.max(at, bt));
}
