import type { PuppetValue } from '../values/index.js';
import {
    PAnyType, PArrayType, PEnumType, PHashType, PIntegerType, PIterableType, PNotUndefType, POptionalType,
    PObjectType, PPatternType, PSensitiveType, PSimpleType, PStringType, PStructType, type StructMember, PTupleType, PTypeAliasType, PTypeReferenceType, PTypeType, PVariantType
} from './model.js';
import { isAssignable, resolveAlias } from './assignable.js';
import { coreType, typesEqual } from './construct.js';
import { generalize, inferType } from './infer.js';
import { isInstance } from './instance.js';
import { normalizeType, variantOf } from './normalize.js';
import { typeToString } from './to-string.js';

/**
 * The kinds of Puppet's TypeMismatchDescriber mismatch classes. `pattern` is a kind of `type`
 * (PatternMismatch < TypeMismatch) and `count` (of arguments) is a kind of `size`.
 */
export type MismatchKind = 'type' | 'pattern' | 'size' | 'count' | 'key' | 'missing-block' | 'unexpected-block';

/** An inclusive range; `to` null is unbounded. */
export interface Range {
    readonly from: bigint;
    readonly to: bigint | null;
}

/** One reason why a value does not match a type; `path` is e.g. ["index 1"] or ["entry 'a'"]. */
export interface Mismatch {
    readonly kind: MismatchKind;
    readonly path: readonly string[];
    /** The message after the path ("expects an Integer value, got String"). */
    readonly text: string;
    /** Type and pattern mismatches: the expected types (the members of the Variant Puppet holds), undef also expected, and the value. */
    readonly expected?: readonly PAnyType[];
    readonly optional?: boolean;
    readonly value?: PuppetValue;
    /** Type mismatches: the type inferred for the value, normalized (Puppet's TypeMismatch#actual). */
    readonly actual?: PAnyType;
    /** Size and count mismatches: the expected and the actual range. */
    readonly size?: Range;
    readonly actualSize?: Range;
}

/**
 * Why `value` is not an instance of `expected`, in the words of Puppet's TypeMismatchDescriber
 * ("index 1 expects an Integer value, got String", "expects a value for key 'name'", ...).
 * Empty when the value matches.
 */
export function describeMismatch(expected: PAnyType, value: PuppetValue): Mismatch[] {
    if (isInstance(expected, value)) return [];
    // Puppet's UnresolvedTypeFinder: a type holding an unresolved reference is reported for that alone.
    const unresolved = unresolvedReference(expected);
    if (unresolved !== undefined) return [{ kind: 'type', path: [], text: `references an unresolved type '${unresolved}'` }];
    return describe(expected, value, []);
}

/** The text of the first TypeReference among a type and the types it holds. */
function unresolvedReference(t: PAnyType | null): string | undefined {
    if (t === null) return undefined;
    if (t instanceof PTypeReferenceType) return t.typeString;
    const inner: Array<PAnyType | null> = t instanceof PArrayType ? [t.element] : t instanceof PHashType ? [t.key, t.value]
        : t instanceof POptionalType || t instanceof PNotUndefType || t instanceof PTypeType || t instanceof PSensitiveType || t instanceof PIterableType ? [t.type]
            : t instanceof PVariantType || t instanceof PTupleType ? [...t.types] : t instanceof PStructType ? t.members.map(m => m.value) : [];
    for (const i of inner) {
        const found = unresolvedReference(i);
        if (found !== undefined) return found;
    }
    return undefined;
}

/**
 * Several mismatch lines as Puppet's TypeAsserter joins them after "...Function Call,": one line
 * as is, several as ` line1\n  line2`.
 */
export function joinMismatchLines(lines: readonly string[]): string {
    return lines.length > 1 ? ` ${lines.join('\n  ')}` : (lines[0] ?? '');
}

/** The mismatches as Puppet joins them after a subject: `subject index 1 expects ...`. */
export function formatMismatches(subject: string, mismatches: readonly Mismatch[]): string[] {
    return mismatches.map(m => `${subject}${formatMismatch(m)}`);
}

/** Puppet's Mismatch#format: the path and the message, each after a space. */
export function formatMismatch(m: Mismatch): string {
    return `${m.path.length > 0 ? ` ${m.path.join(' ')}` : ''} ${m.text}`;
}

/**
 * The path without the variant and signature ("1.", "2.") elements: mismatches of different
 * alternatives at the same place are alike.
 */
function canonicalPath(m: Mismatch): string {
    return m.path.filter(p => !/^(variant \d+|\d+\.)$/.test(p)).join(' ');
}

function isKind(m: Mismatch, kind: MismatchKind): boolean {
    return m.kind === kind || (kind === 'type' && m.kind === 'pattern');
}

/**
 * Puppet's merge_descriptions: when every alternative (variant member, function signature) failed
 * with the same kind of mismatch at the same place, they merge into one (expected types joined,
 * ranges widened); otherwise all are kept, without duplicates. A single result loses the path
 * element at `varyingAt` (the variant or signature it came from).
 */
export function mergeMismatches(varyingAt: number, sizeKind: 'size' | 'count', alternatives: readonly (readonly Mismatch[])[]): Mismatch[] {
    let all: Mismatch[] = alternatives.flat();
    for (const kind of [sizeKind, 'missing-block', 'unexpected-block', 'type'] as const) {
        const same = all.filter(m => isKind(m, kind));
        if (same.length !== alternatives.length) continue;
        if (same.some(m => canonicalPath(m) !== canonicalPath(same[0]))) continue;
        all = [same.reduce(mergeTwo)];
        break;
    }
    const seen = new Set<string>();
    const unique = all.filter(m => {
        const key = `${m.kind}|${canonicalPath(m)}|${m.text}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
    });
    if (unique.length !== 1) return unique;
    const only = unique[0];
    return [varyingAt < only.path.length ? { ...only, path: only.path.filter((_, i) => i !== varyingAt) } : only];
}

function mergeTwo(a: Mismatch, b: Mismatch): Mismatch {
    if (a.size && b.size && a.actualSize) {
        const from = a.size.from < b.size.from ? a.size.from : b.size.from;
        const to = a.size.to === null || b.size.to === null ? null : a.size.to > b.size.to ? a.size.to : b.size.to;
        return a.kind === 'count' ? countMismatch(a.path, { from, to }, a.actualSize) : sizeMismatch(a.path, { from, to }, a.actualSize);
    }
    if (a.expected && b.expected) {
        const { types, optional } = normalizeMembers([...a.expected, ...b.expected], (a.optional ?? false) || (b.optional ?? false));
        const value = a.value ?? null;
        // Puppet's TypeMismatch#merge keeps the first one's actual type, normalized once more.
        return a.kind === 'pattern' ? patternMismatch(a.path, types, optional, value) : typeMismatch(a.path, types, optional, value, a.actual);
    }
    return a;
}

/**
 * The members of a Variant as Puppet normalizes it: nested variants flattened, duplicates
 * dropped, Undef and Optional turned into the `optional` flag, case-sensitive enums (and exact
 * strings) merged into one Enum, patterns into one Pattern.
 */
function normalizeMembers(types: readonly PAnyType[], optional: boolean): { types: PAnyType[]; optional: boolean } {
    let opt = optional;
    const flat: PAnyType[] = [];
    const add = (t: PAnyType): void => {
        if (t instanceof PVariantType) t.types.forEach(add);
        else if (t.kind === 'Undef') opt = true;
        else if (t instanceof POptionalType) { opt = true; if (t.type !== null) add(t.type); }
        else if (!flat.some(x => typesEqual(x, t))) flat.push(t);
    };
    types.forEach(add);
    let out = flat;
    const enums = out.filter(t => (t instanceof PEnumType && t.values.length > 0 && !t.caseInsensitive) || (t instanceof PStringType && t.value !== null));
    if (enums.length > 1) {
        const values = enums.flatMap(t => t instanceof PEnumType ? t.values : [(t as PStringType).value as string]);
        out = [...out.filter(t => !enums.includes(t)), new PEnumType(values)];
    }
    const patterns = out.filter((t): t is PPatternType => t instanceof PPatternType);
    if (patterns.length > 1) {
        const regexps = patterns.flatMap(p => p.patterns).filter((r, i, all) => all.findIndex(x => x.source === r.source) === i);
        out = [...out.filter(t => !(t instanceof PPatternType)), new PPatternType(regexps)];
    }
    return { types: out, optional: opt };
}

/** Puppet's Type#normalize where it changes what the describer sees: a Variant's members. */
function normalize(t: PAnyType): PAnyType {
    if (!(t instanceof PVariantType) || t.types.length === 0) return t;
    const { types, optional } = normalizeMembers(t.types, false);
    const inner = types.length === 1 ? types[0] : new PVariantType(types);
    return optional ? new POptionalType(types.length === 0 ? null : inner) : inner;
}

/** The expected types of a mismatch against `original`, as Puppet's TypeMismatch#message unwraps them. */
function membersOf(original: PAnyType): { types: PAnyType[]; optional: boolean } {
    return normalizeMembers([original instanceof PVariantType ? normalize(original) : original], false);
}

function describe(expected: PAnyType, v: PuppetValue, path: string[]): Mismatch[] {
    return describeAs(normalize(expected), expected, v, path);
}

/** Describes `v` against `e`, reporting a mismatch of the whole value against `original` (what was asked for). */
function describeAs(e: PAnyType, original: PAnyType, v: PuppetValue, path: string[]): Mismatch[] {
    if (e instanceof PTypeAliasType) {
        const r = e.resolved ?? PSimpleType.of('Any');
        // Data and RichData are aliases in Puppet: an alias of one of them is reported as that alias.
        if (r instanceof PSimpleType && (r.kind === 'Data' || r.kind === 'RichData')) return describeAs(r, r, v, path);
        return describeAs(normalize(r), e, v, path);
    }
    if (e instanceof POptionalType) {
        if (v === null || e.type === null) return [];
        return describeAs(normalize(e.type), original instanceof PTypeAliasType ? original : e, v, path);
    }
    if (e instanceof PVariantType) return describeVariant(e, original, v, path);
    if ((e instanceof PArrayType || e instanceof PTupleType) && Array.isArray(v)) {
        const size = e instanceof PArrayType ? e.size : e.size ?? new PIntegerType(BigInt(e.types.length), BigInt(e.types.length));
        if (size !== null && !inRange(size, v.length)) return [sizeMismatch(path, rangeOf(size), exactly(v.length))];
        const out: Mismatch[] = [];
        v.forEach((x, i) => {
            // Puppet's describe_tuple names the index of the tuple's type, not of the element (the last type repeats).
            const at = e instanceof PArrayType ? i : Math.min(i, e.types.length - 1);
            const et = e instanceof PArrayType ? e.element : e.types[at];
            if (et && !isInstance(et, x)) out.push(...describe(et, x, [...path, `index ${at}`]));
        });
        return out;
    }
    if (e instanceof PHashType && v instanceof Map) {
        if (e.size !== null && !inRange(e.size, v.size)) return [sizeMismatch(path, rangeOf(e.size), exactly(v.size))];
        // Puppet infers a hash with only string keys as a Struct and describes each entry (key, then value);
        // any other hash is reported as a mismatch of the whole hash.
        if (![...v.keys()].every(k => typeof k === 'string')) {
            if (isInstance(e, v)) return [];
            // Puppet's describe_PHashType reports the inferred Hash without its size.
            const inferred = inferSetType(v);
            return [mismatchOf(path, original, v, inferred instanceof PHashType ? new PHashType(inferred.key, inferred.value) : inferred)];
        }
        const out: Mismatch[] = [];
        for (const [k, x] of v) {
            if (e.key !== null && !isInstance(e.key, k)) out.push(...describe(e.key, k, [...path, `key of entry '${String(k)}'`]));
            if (e.value !== null && !isInstance(e.value, x)) out.push(...describe(e.value, x, [...path, `entry '${String(k)}'`]));
        }
        return out;
    }
    if (e instanceof PStructType && v instanceof Map) {
        // Puppet infers a non-empty hash whose keys are all non-empty strings as a Struct and compares
        // it member by member; any other hash only by its size, then as a whole.
        if (v.size === 0 || ![...v.keys()].every(k => typeof k === 'string' && k !== '')) {
            const required = e.members.filter(keyRequired).length;
            if (v.size < required || v.size > e.members.length) return [sizeMismatch(path, { from: BigInt(required), to: BigInt(e.members.length) }, exactly(v.size))];
            if (isInstance(e, v)) return [];
            const inferred = inferSetType(v);
            return [mismatchOf(path, original, v, inferred instanceof PHashType ? new PHashType(inferred.key, inferred.value) : inferred)];
        }
        const out: Mismatch[] = [];
        for (const m of e.members) {
            if (!v.has(m.name)) {
                if (keyRequired(m)) out.push({ kind: 'key', path, text: `expects a value for key '${m.name}'` });
            } else if (!isInstance(m.value, v.get(m.name) as PuppetValue)) {
                out.push(...describe(m.value, v.get(m.name) as PuppetValue, [...path, `entry '${m.name}'`]));
            }
        }
        for (const k of v.keys()) {
            if (typeof k !== 'string' || !e.members.some(m => m.name === k)) out.push({ kind: 'key', path, text: `unrecognized key '${String(k)}'` });
        }
        return out;
    }
    if (e instanceof PIterableType && e.type !== null && (Array.isArray(v) || v instanceof Map)) {
        // Puppet describes the inferred Tuple (or Struct), element by element, where its instance
        // check reduced the elements to a common type first: ['a', 1] is no Iterable[Variant[String,
        // Numeric]], yet nothing is found to describe.
        const c = e.type;
        const ok = Array.isArray(v) ? v.every(x => isInstance(c, x)) : [...v].every(([k, x]) => isInstance(c, [k, x]));
        return ok ? [] : [mismatchOf(path, original, v)];
    }
    if (e instanceof PEnumType || e instanceof PPatternType) {
        const { types, optional } = membersOf(original);
        return [patternMismatch(path, types, optional, v)];
    }
    return isInstance(e, v) ? [] : [mismatchOf(path, original, v)];
}

/**
 * Each member is described; when all fail alike they merge into one ("expects a value of type A
 * or B"), otherwise each is reported with its variant ("variant 1 index 0 ..."). An alias whose
 * members all failed alike is reported by its name.
 */
function describeVariant(e: PVariantType, original: PAnyType, v: PuppetValue, path: string[]): Mismatch[] {
    const members = original instanceof POptionalType ? [PSimpleType.of('Undef'), ...e.types] : e.types;
    const described: Mismatch[][] = [];
    for (const [i, t] of members.entries()) {
        const d = describe(t, v, [...path, `variant ${i}`]);
        if (d.length === 0) return [];
        described.push(d);
    }
    const merged = mergeMismatches(path.length, 'size', described);
    return original instanceof PTypeAliasType && merged.length === 1 ? [typeMismatch(path, [original], false, v)] : merged;
}

/** A Struct key must be present unless Optional, or plain with a value type accepting undef (NotUndef keeps it required). */
function keyRequired(m: StructMember): boolean {
    return m.keyType === 'notundef' || (m.keyType === 'plain' && !isInstance(m.value, null));
}

function mismatchOf(path: readonly string[], original: PAnyType, v: PuppetValue, actual?: PAnyType): Mismatch {
    const { types, optional } = membersOf(original);
    return typeMismatch(path, types, optional, v, actual);
}

function inRange(size: PIntegerType, n: number): boolean {
    const b = BigInt(n);
    return (size.from === null || b >= size.from) && (size.to === null || b <= size.to);
}

function rangeOf(size: PIntegerType): Range {
    return { from: size.from ?? 0n, to: size.to };
}

export function exactly(n: number): Range {
    return { from: BigInt(n), to: BigInt(n) };
}

/** Puppet's SizeMismatch#range_to_s. */
function rangeText(r: Range, zero: string): string {
    if (r.to !== null && r.from === r.to) return r.from === 0n ? zero : String(r.from);
    if (r.from === 0n) return r.to === null ? 'unlimited' : `at most ${r.to}`;
    if (r.to === null) return `at least ${r.from}`;
    return `between ${r.from} and ${r.to}`;
}

function sizeMismatch(path: readonly string[], size: Range, actual: Range): Mismatch {
    return { kind: 'size', path, text: `expects size to be ${rangeText(size, '0')}, got ${rangeText(actual, '0')}`, size, actualSize: actual };
}

/** A wrong number of arguments (Puppet's CountMismatch): "expects between 1 and 2 arguments, got none". */
export function countMismatch(path: readonly string[], size: Range, actual: Range): Mismatch {
    const one = (size.from === 1n && (size.to === 1n || size.to === null)) || (size.from === 0n && size.to === 1n);
    return { kind: 'count', path, text: `expects ${rangeText(size, 'no')} argument${one ? '' : 's'}, got ${rangeText(actual, 'none')}`, size, actualSize: actual };
}

const WITH_CONTAINED = ['Optional', 'NotUndef', 'Sensitive', 'Type', 'Iterable', 'Iterator', 'Init'];

/** Puppet's short name: the type's name, with the contained type for Optional, NotUndef, Sensitive, Type, Iterable, Iterator. */
function shortName(t: PAnyType): string {
    if (t instanceof PTypeAliasType) return t.name;
    // A named Object type goes by its name.
    const named = (x: PAnyType): string => x instanceof PTypeAliasType ? x.name : x instanceof PObjectType && x.name !== null ? x.name : x.kind;
    if (WITH_CONTAINED.includes(t.kind)) {
        const c = mergedRanges((t as POptionalType | PNotUndefType | PSensitiveType | PTypeType).type);
        if (c !== null && c.kind !== 'Any') return `${t.kind}[${named(c)}]`;
    }
    return named(t);
}

/**
 * A Variant of Integer ranges as Puppet's normalize leaves it: ranges that overlap or touch are
 * one (an iterator over 1 and 2 holds Integer[1, 2]); anything else as it is.
 */
function mergedRanges(t: PAnyType | null): PAnyType | null {
    if (!(t instanceof PVariantType) || !t.types.every(x => x instanceof PIntegerType && x.from !== null && x.to !== null)) return t;
    const ranges = (t.types as PIntegerType[]).map(x => [x.from!, x.to!] as [bigint, bigint]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const merged: Array<[bigint, bigint]> = [];
    for (const r of ranges) {
        const last = merged[merged.length - 1];
        if (last && r[0] <= last[1] + 1n) last[1] = r[1] > last[1] ? r[1] : last[1];
        else merged.push([r[0], r[1]]);
    }
    return merged.length === 1 ? new PIntegerType(merged[0][0], merged[0][1]) : t;
}

function aAn(s: string): string {
    return /^[AEIOU]/i.test(s) ? `an ${s}` : `a ${s}`;
}

/** Puppet's PatternMismatch: "expects a match for Enum['a'], got 'b'". */
function patternMismatch(path: readonly string[], expected: readonly PAnyType[], optional: boolean, v: PuppetValue): Mismatch {
    const e = expected.length === 1 ? expected[0] : new PVariantType([...expected]);
    const got = typeof v === 'string' ? `'${v}'` : shortName(inferType(v));
    return { kind: 'pattern', path, text: `expects ${optional ? 'an undef value or ' : ''}a match for ${typeToString(e)}, got ${got}`, expected, optional, value: v };
}

/** Puppet's TypeMismatch: "expects a value of type A or B, got C", detailed where the names alone would not tell. */
function typeMismatch(path: readonly string[], expected: readonly PAnyType[], optional: boolean, v: PuppetValue, given?: PAnyType): Mismatch {
    // Puppet's TypeMismatch normalizes the actual type it is given (infer_set of the value by default).
    const actual = normalizeType(given ?? inferSetType(v));
    const detailed = expected.some(e => alwaysDetailed(e, actual)) || expected.some(e => defaultAssignable(e, actual));
    let es: string[];
    let a: string;
    if (detailed) {
        const resolved = expected.map(resolveAlias);
        a = resolved.some(e => alwaysDetailed(e, actual)) || resolved.some(e => isAssignable(e, generalize(actual)))
            ? typeToString(actual) : actual.kind === 'Alias' ? (actual as PTypeAliasType).name : actual.kind;
        es = expected.map(typeToString);
    } else {
        es = [...new Set(expected.map(shortName))];
        a = shortName(actual);
    }
    if (optional) es.unshift('Undef');
    const base = { kind: 'type' as const, path, expected, optional, value: v, actual };
    if (es.length === 1) return { ...base, text: `expects ${aAn(es[0])} value, got ${a}` };
    const list = es.length === 2 ? `${es[0]} or ${es[1]}` : `${es.slice(0, -1).join(', ')}, or ${es[es.length - 1]}`;
    return { ...base, text: `expects a value of type ${list}, got ${a}` };
}

/** A type mismatch between two types (a block's parameter and the lambda's): "expects a String value, got Integer". */
export function typeMismatchOf(path: readonly string[], expected: PAnyType, actual: PAnyType): Mismatch {
    return typeMismatch(path, [expected], false, null, actual);
}

/**
 * The type the describer infers for a value (Puppet's infer_set): a string's type holds the string
 * (so that normalizing merges several into an Enum), an array is a Tuple, a hash whose keys are
 * all non-empty strings a Struct, any other hash the Variants of its key and value types with its size.
 */
export function inferSetType(v: PuppetValue): PAnyType {
    if (typeof v === 'string') return new PStringType(null, v);
    if (Array.isArray(v)) return v.length === 0 ? inferType(v) : new PTupleType(v.map(inferSetType));
    if (!(v instanceof Map) || v.size === 0) return inferType(v);
    if ([...v.keys()].every(k => typeof k === 'string' && k !== '')) {
        return new PStructType([...v].map(([k, x]): StructMember => ({ name: k as string, keyType: 'plain', value: inferSetType(x) })));
    }
    return new PHashType(variantOf([...v.keys()].map(inferSetType)), variantOf([...v.values()].map(inferSetType)), new PIntegerType(BigInt(v.size), BigInt(v.size)));
}

function alwaysDetailed(e: PAnyType, a: PAnyType): boolean {
    return e.kind === a.kind || e instanceof PTypeAliasType || a instanceof PTypeAliasType
        || (e instanceof PStructType && a instanceof PHashType) || (e instanceof PTupleType && a instanceof PArrayType);
}

function defaultAssignable(e: PAnyType, a: PAnyType): boolean {
    const r = resolveAlias(e);
    const dflt = defaultOf(r);
    return dflt !== null && isAssignable(dflt, a);
}

/** The kinds whose unparameterized form `defaultOf` gives (Ruby's `e.class::DEFAULT`); Variant and the rest have none. */
const DEFAULTED_KINDS: ReadonlySet<string> = new Set([
    'Integer', 'String', 'Array', 'Hash', 'Enum', 'Pattern', 'Optional', 'Float', 'Boolean', 'Regexp', 'Collection',
    'Iterable', 'Iterator', 'Sensitive', 'Type', 'NotUndef', 'Init'
]);

/** The unparameterized form of a type (Ruby's `e.class::DEFAULT`). */
function defaultOf(t: PAnyType): PAnyType | null {
    if (DEFAULTED_KINDS.has(t.kind)) return coreType(t.kind) ?? null;
    return t instanceof PSimpleType ? t : null;
}
