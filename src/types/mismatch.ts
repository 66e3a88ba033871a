import type { PuppetValue } from '../values/index.js';
import { PAnyType, PArrayType, PEnumType, PHashType, PIntegerType, POptionalType, PPatternType, PSimpleType, PStringType, PStructType, PTupleType, PTypeAliasType, PVariantType, PNotUndefType, PSensitiveType, PTypeType } from './model.js';
import { isAssignable, resolveAlias } from './assignable.js';
import { generalize, inferType } from './infer.js';
import { isInstance } from './instance.js';
import { typeToString } from './to-string.js';

/** One reason why a value does not match a type; `path` is e.g. ["index 1"] or ["entry 'a'"]. */
export interface Mismatch {
    readonly path: readonly string[];
    readonly text: string;
    /** What kind of mismatch (type and pattern mismatches of variant members merge into one). */
    readonly kind?: 'type' | 'pattern' | 'size' | 'key';
}

/**
 * Why `value` is not an instance of `expected`, in the words of Puppet's TypeMismatchDescriber
 * ("index 1 expects an Integer value, got String", "expects a value for key 'name'", ...).
 * Empty when the value matches.
 */
export function describeMismatch(expected: PAnyType, value: PuppetValue): Mismatch[] {
    if (isInstance(expected, value)) return [];
    return describe(expected, value, []);
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
    return mismatches.map(m => [subject, ...m.path, m.text].filter(s => s !== '').join(' '));
}

function describe(expected: PAnyType, v: PuppetValue, path: string[]): Mismatch[] {
    const e = resolveAlias(expected);
    if (e instanceof POptionalType && v !== null && e.type !== null) {
        const inner = resolveAlias(e.type);
        if (isStructural(inner, v)) return describe(e.type, v, path);
        return [typeMismatch(path, [e.type], v, true, expected)];
    }
    if (e instanceof PVariantType) {
        // Each member is described; simple type or pattern mismatches at the root merge into one
        // ("expects a value of type A or B"), anything deeper is reported per member ("variant N ...").
        const members = e.types.filter(t => t.kind !== 'Undef');
        const described = members.map(t => describe(t, v, []));
        const simple = described.every(d => d.length === 1 && d[0].path.length === 0 && (d[0].kind === 'type' || d[0].kind === 'pattern'));
        if (simple) return [typeMismatch(path, members, v, e.types.some(t => t.kind === 'Undef'), expected)];
        return described.flatMap((d, i) => d.map(m => ({ ...m, path: [...path, `variant ${i}`, ...m.path] })));
    }
    if ((e instanceof PArrayType || e instanceof PTupleType) && Array.isArray(v)) {
        const size = e instanceof PArrayType ? e.size : e.size ?? new PIntegerType(BigInt(e.types.length), BigInt(e.types.length));
        if (size !== null && !inRange(size, v.length)) return [sizeMismatch(path, size, v.length)];
        const out: Mismatch[] = [];
        v.forEach((x, i) => {
            const et = e instanceof PArrayType ? e.element : e.types[Math.min(i, e.types.length - 1)];
            if (et && !isInstance(et, x)) out.push(...describe(et, x, [...path, `index ${i}`]));
        });
        return out;
    }
    if (e instanceof PHashType && v instanceof Map) {
        if (e.size !== null && !inRange(e.size, v.size)) return [sizeMismatch(path, e.size, v.size)];
        // A key of the wrong type is reported as a mismatch of the whole hash.
        if (e.key !== null && [...v.keys()].some(k => !isInstance(e.key as PAnyType, k))) return [typeMismatch(path, [expected], v, false, expected)];
        const out: Mismatch[] = [];
        for (const [k, x] of v) {
            if (e.value !== null && !isInstance(e.value, x)) out.push(...describe(e.value, x, [...path, `entry '${String(k)}'`]));
        }
        return out;
    }
    if (e instanceof PStructType && v instanceof Map) {
        const required = e.members.filter(m => m.keyType !== 'optional' && !isInstance(m.value, null)).length;
        if (v.size < required || v.size > e.members.length) return [sizeMismatch(path, new PIntegerType(BigInt(required), BigInt(e.members.length)), v.size)];
        const out: Mismatch[] = [];
        for (const m of e.members) {
            if (!v.has(m.name)) {
                if (m.keyType !== 'optional' && !isInstance(m.value, null)) out.push({ path, text: `expects a value for key '${m.name}'`, kind: 'key' });
            } else if (!isInstance(m.value, v.get(m.name) as PuppetValue)) {
                out.push(...describe(m.value, v.get(m.name) as PuppetValue, [...path, `entry '${m.name}'`]));
            }
        }
        for (const k of v.keys()) {
            if (typeof k !== 'string' || !e.members.some(m => m.name === k)) out.push({ path, text: `unrecognized key '${String(k)}'`, kind: 'key' });
        }
        return out;
    }
    if (e instanceof PEnumType || e instanceof PPatternType) {
        const got = typeof v === 'string' ? `'${v}'` : shortName(inferType(v));
        return [{ path, text: `expects a match for ${typeToString(expected)}, got ${got}`, kind: 'pattern' }];
    }
    return [typeMismatch(path, [expected], v, false, expected)];
}

function isStructural(t: PAnyType, v: PuppetValue): boolean {
    if (Array.isArray(v)) return t instanceof PArrayType || t instanceof PTupleType;
    if (v instanceof Map) return t instanceof PHashType || t instanceof PStructType;
    if (typeof v === 'string') return t instanceof PEnumType || t instanceof PPatternType;
    return false;
}

function inRange(size: PIntegerType, n: number): boolean {
    const b = BigInt(n);
    return (size.from === null || b >= size.from) && (size.to === null || b <= size.to);
}

function sizeMismatch(path: string[], size: PIntegerType, actual: number): Mismatch {
    const min = size.from ?? 0n;
    const max = size.to;
    let range: string;
    if (max !== null && min === max) range = min === 0n ? '0' : String(min);
    else if (min === 0n) range = max === null ? 'unlimited' : `at most ${max}`;
    else if (max === null) range = `at least ${min}`;
    else range = `between ${min} and ${max}`;
    return { path, text: `expects size to be ${range}, got ${actual}`, kind: 'size' };
}

const WITH_CONTAINED = ['Optional', 'NotUndef', 'Sensitive', 'Type'];

/** Puppet's short name: the type's name, with the contained type for Optional, NotUndef, Sensitive, Type. */
function shortName(t: PAnyType): string {
    if (t instanceof PTypeAliasType) return t.name;
    if (WITH_CONTAINED.includes(t.kind)) {
        const c = (t as POptionalType | PNotUndefType | PSensitiveType | PTypeType).type;
        if (c !== null && c.kind !== 'Any') return `${t.kind}[${shortName(c)}]`;
    }
    return t.kind;
}

function aAn(s: string): string {
    return /^[AEIOU]/i.test(s) ? `an ${s}` : `a ${s}`;
}

function typeMismatch(path: string[], expected: PAnyType[], v: PuppetValue, optional: boolean, _whole: PAnyType): Mismatch {
    // The describer infers a hash's type without its size (Puppet's infer_set).
    const inferred = inferType(v);
    const actual = inferred instanceof PHashType && inferred.size !== null && inferred.size.to !== 0n ? new PHashType(inferred.key, inferred.value) : inferred;
    const detailed = expected.some(e => alwaysDetailed(e, actual)) || expected.some(e => defaultAssignable(e, actual));
    let es: string[];
    let a: string;
    if (detailed) {
        const resolved = expected.map(resolveAlias);
        a = resolved.some(e => alwaysDetailed(e, actual)) || expected.some(e => alwaysDetailed(e, actual)) || resolved.some(e => isAssignable(e, generalize(actual)))
            ? typeToString(actual) : actual.kind === 'Alias' ? (actual as PTypeAliasType).name : actual.kind;
        es = expected.map(typeToString);
    } else {
        es = [...new Set(expected.map(shortName))];
        a = shortName(actual);
    }
    if (optional) es.unshift('Undef');
    if (es.length === 1) return { path, text: `expects ${aAn(es[0])} value, got ${a}`, kind: 'type' };
    const list = es.length === 2 ? `${es[0]} or ${es[1]}` : `${es.slice(0, -1).join(', ')}, or ${es[es.length - 1]}`;
    return { path, text: `expects a value of type ${list}, got ${a}`, kind: 'type' };
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

function defaultOf(t: PAnyType): PAnyType | null {
    switch (t.kind) {
        case 'Integer': return new PIntegerType();
        case 'String': return new PStringType();
        case 'Array': return new PArrayType();
        case 'Hash': return new PHashType();
        case 'Enum': return new PEnumType([]);
        case 'Pattern': return new PPatternType([]);
        case 'Optional': return new POptionalType();
        case 'Variant': return null;
        default: return t instanceof PSimpleType ? t : null;
    }
}
