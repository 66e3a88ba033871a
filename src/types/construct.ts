import { capitalizeTypeName, formatFloat, parseTimespan, parseTimestamp, parseVersionRange, PDefault, PRegexp, PSemVerRange, PTimespan, PTimestamp, TimeFormatError, VersionRangeError, type PuppetValue } from '../values/index.js';
import {
    PAnyType, PCallableType, PErrorType, PArrayType, PInitType, PObjectType, PBooleanType, PClassType, PCollectionType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PIteratorType,
    PNotUndefType, POptionalType, PPatternType, PRegexpType, PResourceType, PRuntimeType, PSensitiveType, PTypeSetType, PURIType, PSimpleType, PStringType, PStructType,
    PSemVerType, PTimeType, PTupleType, PTypeAliasType, PTypeType, PVariantType, type SimpleKind, type StructMember
} from './model.js';
import { objectTypeOf, pcoreType } from './object.js';
import { typeToString } from './to-string.js';
import { typeSetOf } from './typeset.js';
import { uriType } from './uri.js';
import { generalize, inferType } from './infer.js';
import { generalizePuppet, inferPuppet } from './infer-puppet.js';

/** Raised for malformed type parameters; the evaluator turns it into a located error (at argument `argIndex` when set). */
export class TypeConstructionError extends Error {
    /** `raised`: a Ruby error raised by the type's constructor, which Puppet reports as an error while evaluating the access. */
    constructor(message: string, readonly issueCode = 'RUNTIME_ERROR', readonly argIndex?: number, readonly raised = false) {
        super(message);
    }
}

/** Puppet's range types refuse a lower bound above the upper one (its message lacks the closing parenthesis). */
function orderedRange(from: bigint | number | null, to: bigint | number | null): void {
    if (from === null || to === null || from <= to) return;
    const text = (n: bigint | number): string => typeof n === 'bigint' ? String(n) : formatFloat(n);
    throw new TypeConstructionError(`'from' must be less or equal to 'to'. Got (${text(from)}, ${text(to)}`, 'RUNTIME_ERROR', undefined, true);
}

const SIMPLE: ReadonlySet<string> = new Set<SimpleKind>([
    'Any', 'Undef', 'Default', 'Scalar', 'ScalarData', 'Data', 'RichData', 'Numeric', 'CatalogEntry', 'SemVerRange', 'Binary', 'Deferred'
]);

/** The core type named `name` (exact capitalization), unparameterized; undefined for other names. */
export function coreType(name: string): PAnyType | undefined {
    if (SIMPLE.has(name)) return PSimpleType.of(name as SimpleKind);
    switch (name) {
        case 'Integer': return new PIntegerType();
        case 'Boolean': return new PBooleanType();
        case 'Float': return new PFloatType();
        case 'String': return new PStringType();
        case 'Enum': return new PEnumType([]);
        case 'Pattern': return new PPatternType([]);
        case 'Regexp': return new PRegexpType();
        case 'NotUndef': return new PNotUndefType();
        case 'Collection': return new PCollectionType();
        case 'Array': return new PArrayType();
        case 'Hash': return new PHashType();
        case 'Struct': return new PStructType([]);
        case 'Tuple': return new PTupleType([]);
        case 'Optional': return new POptionalType();
        case 'Variant': return new PVariantType([]);
        case 'Type': return new PTypeType();
        case 'Resource': return new PResourceType();
        case 'Class': return new PClassType();
        case 'Iterable': return new PIterableType();
        case 'Iterator': return new PIteratorType();
        case 'Sensitive': return new PSensitiveType();
        case 'Timestamp': case 'Timespan': return new PTimeType(name);
        case 'SemVer': return new PSemVerType();
        case 'Error': return new PErrorType();
        case 'Init': return new PInitType();
        case 'Object': return new PObjectType();
        case 'Callable': return new PCallableType();
        case 'Runtime': return new PRuntimeType();
        case 'URI': return new PURIType();
        case 'TypeSet': return new PTypeSetType();
        default: return pcoreType(name);
    }
}

/** A Timestamp or Timespan bound in nanoseconds: a value of the kind, its string, or seconds; null for default. */
function timeBound(kind: 'Timestamp' | 'Timespan', a: PuppetValue): bigint | null {
    if (a === null || a instanceof PDefault) return null;
    if (a instanceof PTimestamp || a instanceof PTimespan) return a.nanos;
    if (typeof a === 'bigint') return a * 1_000_000_000n;
    if (typeof a === 'number') return BigInt(Math.trunc(a * 1e9));
    const parsed = (str: string, format?: PuppetValue, zone?: PuppetValue): bigint => {
        const formats = typeof format === 'string' ? format : Array.isArray(format) ? format.map(String) : undefined;
        try {
            return kind === 'Timestamp' ? parseTimestamp(str, formats, typeof zone === 'string' ? zone : undefined).nanos : parseTimespan(str, formats);
        } catch (e) {
            if (e instanceof TimeFormatError) throw new TypeConstructionError(e.message, 'RUNTIME_ERROR', undefined, true);
            throw e;
        }
    };
    if (typeof a === 'string') return parsed(a);
    // A hash is the time class's from_hash: a string with its format (and a Timestamp's zone), or a Timespan's fields.
    if (a instanceof Map) {
        const str = a.get('string');
        if (typeof str === 'string') return parsed(str, a.get('format'), a.get('timezone'));
        if (kind === 'Timestamp' || a.has('string')) {
            throw new TypeConstructionError(`no implicit conversion of ${str === null || str === undefined ? 'nil' : rubyClassOf(str)} into String`, 'RUNTIME_ERROR', undefined, true);
        }
        const [d, h, m, sec, ms, us, ns] = ['days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'].map(k => a.get(k));
        const n = (v: PuppetValue | undefined): bigint => typeof v === 'bigint' ? v : 0n;
        const total = (((((n(d) * 24n + n(h)) * 60n + n(m)) * 60n + n(sec)) * 1000n + n(ms)) * 1000n + n(us)) * 1000n + n(ns);
        return a.get('negative') === true ? -total : total;
    }
    // Puppet's time factories refuse anything else by its Ruby class.
    throw new TypeConstructionError(`Unable to create a Puppet::Pops::Time::${kind} from a ${rubyClassOf(a)}`, 'RUNTIME_ERROR', undefined, true);
}

function asType(v: PuppetValue, what: string): PAnyType {
    if (v instanceof PAnyType) return v;
    // A string where a type is expected is the type of exactly that string.
    if (typeof v === 'string') return new PStringType(null, v);
    throw new TypeConstructionError(`${what} parameter must be a Type, got ${typeof v === 'bigint' ? 'Integer' : typeof v}`);
}

function intBound(v: PuppetValue, float = false): bigint | number | null {
    if (v instanceof PDefault || v === null) return null;
    if (typeof v === 'bigint') return float ? Number(v) : v;
    if (typeof v === 'number') return float ? v : BigInt(Math.trunc(v));
    throw new TypeConstructionError(`range bound must be an Integer or default`);
}

function sizeRange(args: PuppetValue[]): PIntegerType | null {
    if (args.length === 0) return null;
    if (args.length === 1 && args[0] instanceof PIntegerType) return toSize(args[0]);
    const from = intBound(args[0]) as bigint | null;
    const to = args.length > 1 ? intBound(args[1]) as bigint | null : null;
    orderedRange(from, to);
    return toSize(new PIntegerType(from ?? 0n, to));
}

/** Puppet's PIntegerType#to_size: a size range starting below zero starts at zero (and ends there if it ended below). */
function toSize(t: PIntegerType): PIntegerType {
    if (t.from === null || t.from >= 0n) return t;
    return new PIntegerType(0n, t.to !== null && t.to < 0n ? 0n : t.to);
}

/**
 * Puppet's assert_keys: each argument of one of the accepted kinds (named as Ruby classes or
 * types are), else BAD_TYPE_SPECIALIZATION at that argument, naming its generalized type.
 */
function specializationKeys(name: string, keys: readonly PuppetValue[], accepted: ReadonlyArray<readonly [string, (k: PuppetValue) => boolean]>): void {
    keys.forEach((k, i) => {
        if (accepted.some(([, ok]) => ok(k))) return;
        const actual = keyTypeName(k);
        const base = `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}-Type`;
        throw new TypeConstructionError(`Error creating type specialization of ${base}, Cannot use ${actual} where ${accepted.map(([l]) => l).join(' or ')} is expected`, 'BAD_TYPE_SPECIALIZATION', i);
    });
}

/** A type's name as Puppet's labels give it in messages: `A Runtime-Type`, `an Array-Type`. */
function aType(name: string, upper = true): string {
    const article = /^[AEIOU]/.test(name) ? 'an' : 'a';
    return `${upper ? article.charAt(0).toUpperCase() + article.slice(1) : article} ${name}-Type`;
}

/** Puppet's BAD_TYPE_SLICE_ARITY: `base[] accepts 1 argument`, `... 1 to 2 arguments`, `... 1 or more arguments`. */
function sliceArity(base: string, min: number, max: number, actual: number): TypeConstructionError {
    const range = max === Infinity ? `${min} or more arguments` : max !== min ? `${min} to ${max} arguments` : `${min} argument${min === 1 ? '' : 's'}`;
    return new TypeConstructionError(`${base}[] accepts ${range}. Got ${actual}`, 'BAD_TYPE_SLICE_ARITY');
}

/** Puppet's BAD_TYPE_SLICE_TYPE: an argument that must be a type, named by its Ruby class. */
function sliceType(base: string, v: PuppetValue, index: number): TypeConstructionError {
    return new TypeConstructionError(`${base}[] arguments must be types. Got ${rubyClassOf(v)}`, 'BAD_TYPE_SLICE_TYPE', index);
}

/** Puppet's assert_keys: the count (its message always says from 1), then each argument's kind. */
function assertKeys(name: string, keys: readonly PuppetValue[], min: number, max: number, accepted: ReadonlyArray<readonly [string, (k: PuppetValue) => boolean]>): void {
    if (keys.length < min || keys.length > max) throw sliceArity(aType(name), 1, max, keys.length);
    specializationKeys(name, keys, accepted);
}

/** The one type argument of Optional, Sensitive, Type, Iterable and Iterator (Optional also takes a string). */
function oneType(name: string, args: readonly PuppetValue[], string = false): PAnyType {
    const keys = (args as PuppetValue[]).flat(Infinity as 1);
    if (keys.length !== 1) throw sliceArity(`${name}-Type`, 1, 1, keys.length);
    const k = keys[0];
    if (k instanceof PAnyType) return k;
    if (string && typeof k === 'string') return new PStringType(null, k);
    throw sliceType(`${name}-Type`, k, 0);
}

/** Puppet's collection_size_t: an Integer type, or one or two integers (or default), else BAD_COLLECTION_SLICE_TYPE at that argument. */
function collectionSize(start: number, keys: readonly PuppetValue[]): PIntegerType {
    if (keys.length === 1 && keys[0] instanceof PIntegerType) return keys[0];
    keys.forEach((k, i) => {
        if (typeof k === 'bigint' || k instanceof PDefault) return;
        // Puppet labels the argument's class: a type by its name (`an Enum-Type`).
        const cls = k instanceof PAnyType ? `${k.kind}-Type` : rubyClassOf(k);
        throw new TypeConstructionError(`A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got ${/^[AEIOU]/.test(cls) ? 'an' : 'a'} ${cls}`, 'BAD_COLLECTION_SLICE_TYPE', start + i);
    });
    const from = keys[0] instanceof PDefault ? null : keys[0] as bigint;
    const to = keys.length > 1 && !(keys[1] instanceof PDefault) ? keys[1] as bigint : null;
    orderedRange(from, to);
    return new PIntegerType(from, to);
}

/** The argument counts Puppet's access operator allows the types that flatten their arguments. */
const ARITY: Partial<Record<string, { min: number; max: number; message: (n: number) => string; issue: string }>> = {
    Integer: { min: 1, max: 2, issue: 'BAD_INTEGER_SLICE_ARITY', message: n => `Integer-Type supports [] with one or two arguments (from, to). Got ${n}` },
    Float: { min: 1, max: 2, issue: 'BAD_INTEGER_SLICE_ARITY', message: n => `Float-Type supports [] with one or two arguments (from, to). Got ${n}` },
    String: { min: 1, max: 2, issue: 'BAD_STRING_SLICE_ARITY', message: n => `String supports [] with one or two arguments. Got ${n}` },
    Collection: { min: 1, max: 2, issue: 'BAD_TYPE_SLICE_ARITY', message: n => `Collection-Type[] accepts 1 to 2 arguments. Got ${n}` },
    Array: { min: 1, max: 3, issue: 'BAD_TYPE_SLICE_ARITY', message: n => `Array-Type[] accepts 1 to 3 arguments. Got ${n}` }
};

/** The Ruby class Puppet names for a value that should have been a type. */
function rubyClassOf(v: PuppetValue): string {
    if (v === null) return 'NilClass';
    if (typeof v === 'bigint') return 'Integer';
    if (typeof v === 'number') return 'Float';
    if (typeof v === 'string') return 'String';
    if (typeof v === 'boolean') return v ? 'TrueClass' : 'FalseClass';
    if (Array.isArray(v)) return 'Array';
    if (v instanceof Map) return 'Hash';
    if (v instanceof PRegexp) return 'Regexp';
    if (v instanceof PDefault) return 'Symbol';
    if (v instanceof PAnyType) return `Puppet::Pops::Types::P${v.kind}Type`;
    return 'Object';
}

function checkArity(kind: string, args: readonly PuppetValue[]): void {
    const rule = ARITY[kind];
    if (!rule) return;
    const n = (args as PuppetValue[]).flat(Infinity as 1).length;
    if (n > rule.max || n < rule.min) throw new TypeConstructionError(rule.message(n), rule.issue);
}

/** `T[args]`: the parameterized form of the core type `t`, or the resource/class reference. */
export function parameterize(t: PAnyType, args: PuppetValue[]): PAnyType {
    const name = typeToString(t);
    checkArity(t.kind, args);
    switch (t.kind) {
        case 'Integer': {
            // Puppet flattens the keys: Integer[[1, 2]] is Integer[1, 2], and the first bad one is blamed by its flattened index.
            if (args.some(a => Array.isArray(a))) return parameterize(t, (args as PuppetValue[]).flat(Infinity as 1));
            const bad = args.findIndex(a => typeof a !== 'bigint' && !(a instanceof PDefault));
            if (bad >= 0) {
                throw new TypeConstructionError(`Integer-Type [] requires all arguments to be integers (or default). Got ${rubyClassOf(args[bad])}`, 'BAD_INTEGER_SLICE_TYPE', bad);
            }
            const from = intBound(args[0] ?? null) as bigint | null;
            const to = args.length > 1 ? intBound(args[1]) as bigint | null : null;
            orderedRange(from, to);
            return new PIntegerType(from, to);
        }
        case 'Callable': return callableOf(args);
        case 'TypeSet': return typeSetOf(args);
        case 'URI': return uriType(args, (message, code, index, raised) => { throw new TypeConstructionError(message, code, index, raised); });
        case 'Object': {
            if (args.length !== 1) throw new TypeConstructionError(`Object-Type[] accepts 1 argument. Got ${args.length}`, 'BAD_TYPE_SLICE_ARITY');
            return args[0] instanceof Map && args[0].size === 0 ? new PObjectType() : objectTypeOf(args[0]);
        }
        case 'Init': {
            // The first argument is the type; the others are kept as given (arrays unflattened).
            if (!(args[0] instanceof PAnyType)) throw new TypeConstructionError(`Init-Type[] arguments must be types. Got ${rubyClassOf(args[0] ?? null)}`, 'BAD_TYPE_SLICE_TYPE', 0);
            return new PInitType(args[0], args.slice(1));
        }
        case 'Error': {
            // Each of kind and issue_code: undef, a string, a regexp or a type (Puppet's check of its type parameters, a Ruby error).
            const ok = (k: PuppetValue): boolean => k === null || k instanceof PDefault || typeof k === 'string' || k instanceof PRegexp || k instanceof PAnyType;
            const flat = (args as PuppetValue[]).flat(Infinity as 1);
            // A hash names the parameters.
            if (flat.length === 1 && flat[0] instanceof Map) {
                for (const k of flat[0].keys()) {
                    if (k !== 'kind' && k !== 'issue_code') throw new TypeConstructionError(`'${String(k)}' is not a known type parameter for Error-Type`, 'RUNTIME_ERROR', undefined, true);
                }
                return new PErrorType(flat[0].get('kind') ?? null, flat[0].get('issue_code') ?? null, 2);
            }
            flat.slice(0, 2).forEach((k, i) => {
                if (ok(k)) return;
                // The type asserter names a hash by its inferred set's short name: Struct with string keys, else Hash.
                const got = k instanceof Map ? (k.size > 0 && [...k.keys()].every(x => typeof x === 'string') ? 'Struct' : 'Hash') : keyTypeName(k);
                throw new TypeConstructionError(`type_parameter Error[${i === 0 ? 'kind' : 'issue_code'}] has wrong type, expects a value of type Undef, String, Regexp, Type[Enum], Type[Pattern], Type[NotUndef], or Type[Undef], got ${got}`, 'RUNTIME_ERROR', undefined, true);
            });
            return new PErrorType(args[0] ?? null, args[1] ?? null, Math.min(args.length, 2));
        }
        case 'SemVer': assertKeys(name, args.flat(Infinity as 1), 1, Infinity, [['String', k => typeof k === 'string'], ['SemanticPuppet::VersionRange', k => k instanceof PSemVerRange]]);
            return new PSemVerType(args.flat(Infinity as 1).map(a => {
            // Each range as a range string or value; SemanticPuppet refuses what it cannot parse.
            const text = a instanceof PSemVerRange ? a.range : String(a);
            try { parseVersionRange(text); } catch (e) { if (e instanceof VersionRangeError) throw new TypeConstructionError(e.message, 'RUNTIME_ERROR', undefined, true); throw e; }
            return a instanceof PSemVerRange ? a.text : text;
        }));
        case 'Timestamp': case 'Timespan': {
            // Bounds are times, their strings, or seconds; default leaves a side open.
            args = (args as PuppetValue[]).flat(Infinity as 1);
            if (args.length > 2) throw sliceArity(aType(t.kind), 0, 2, args.length);
            const bound = (a: PuppetValue | undefined): bigint | null => timeBound(t.kind as 'Timestamp' | 'Timespan', a ?? null);
            const from = bound(args[0]);
            const to = args.length > 1 ? bound(args[1]) : null;
            if (from !== null && to !== null && from > to) throw new TypeConstructionError(`'from' must be less or equal to 'to'. Got (${args[0]}, ${args[1]}`, 'RUNTIME_ERROR', undefined, true);
            const raw = (a: PuppetValue | undefined): boolean => typeof a === 'number' && !Number.isInteger(a);
            return new PTimeType(t.kind as 'Timestamp' | 'Timespan', from, to, [raw(args[0]), raw(args[1])]);
        }
        case 'Float': {
            const bad = args.findIndex(a => typeof a !== 'bigint' && typeof a !== 'number' && !(a instanceof PDefault));
            if (bad >= 0) throw new TypeConstructionError(`Float-Type [] requires all arguments to be floats, or integers (or default). Got ${rubyClassOf(args[bad])}`, 'BAD_INTEGER_SLICE_TYPE', bad);
            const from = intBound(args[0] ?? null, true) as number | null;
            const to = args.length > 1 ? intBound(args[1], true) as number | null : null;
            orderedRange(from, to);
            return new PFloatType(from, to);
        }
        case 'String': {
            const keys = (args as PuppetValue[]).flat(Infinity as 1);
            return new PStringType(keys.length === 1 && keys[0] instanceof PIntegerType ? toSize(keys[0]) : toSize(collectionSize(0, keys)));
        }
        case 'Boolean':
            assertKeys(name, args.flat(Infinity as 1), 1, 1, [['TrueClass', k => k === true], ['FalseClass', k => k === false]]);
            return new PBooleanType(typeof args[0] === 'boolean' ? args[0] : null);
        case 'Enum': {
            const flat = args.flatMap(a => Array.isArray(a) ? a : [a]);
            const ci = flat.length > 0 && typeof flat[flat.length - 1] === 'boolean' ? flat.pop() as boolean : false;
            assertKeys(name, flat, 1, Infinity, [['String', k => typeof k === 'string']]);
            return new PEnumType(flat.map(x => String(x)), ci);
        }
        case 'Pattern':
            assertKeys(name, args.flat(Infinity as 1), 1, Infinity, [['String', k => typeof k === 'string'], ['Regexp', k => k instanceof PRegexp],
                ['Pattern-Type', k => k instanceof PPatternType], ['Regexp-Type', k => k instanceof PRegexpType]]);
            return new PPatternType(args.flatMap(a => Array.isArray(a) ? a : [a]).map(a => {
            if (a instanceof PRegexp) return a;
            if (typeof a === 'string') return new PRegexp(a);
            if (a instanceof PPatternType) return a.patterns[0];
            if (a instanceof PRegexpType && a.pattern) return a.pattern;
            throw new TypeConstructionError('Pattern parameters must be regexps or strings');
        }));
        case 'Regexp': {
            // A second argument is blamed for the count.
            const n = args.flat(Infinity as 1).length;
            if (n !== 1) throw new TypeConstructionError(sliceArity(aType(name), 1, 1, n).message, 'BAD_TYPE_SLICE_ARITY', n === 0 ? undefined : 1);
            specializationKeys(name, args.flat(Infinity as 1), [['String', k => typeof k === 'string'], ['Regexp', k => k instanceof PRegexp]]);
            const a = args[0];
            return new PRegexpType(a instanceof PRegexp ? a : typeof a === 'string' ? new PRegexp(a) : null);
        }
        case 'NotUndef': {
            const keys = (args as PuppetValue[]).flat(Infinity as 1);
            if (keys.length > 1) throw sliceArity('NotUndef-Type', 0, 1, keys.length);
            if (keys.length === 0) return t;
            const k = keys[0];
            if (typeof k === 'string') return new PNotUndefType(new PStringType(null, k));
            if (!(k instanceof PAnyType)) throw new TypeConstructionError(`NotUndef-Type[] argument must be a Type or a String. Got ${rubyClassOf(k)}`, 'BAD_NOT_UNDEF_SLICE_TYPE', 0);
            return new PNotUndefType(k.kind === 'Any' ? null : k);
        }
        case 'Collection': return new PCollectionType(toSize(collectionSize(0, (args as PuppetValue[]).flat(Infinity as 1))));
        case 'Array': {
            const keys = (args as PuppetValue[]).flat(Infinity as 1);
            if (keys.length === 0) return t;
            const typed = keys[0] instanceof PAnyType;
            if (!typed && keys.length !== 2) throw sliceType('Array-Type', keys[0], 0);
            return typed ? new PArrayType(keys[0] as PAnyType, keys.length > 1 ? toSize(collectionSize(1, keys.slice(1))) : null) : new PArrayType(null, toSize(collectionSize(0, keys)));
        }
        case 'Hash': {
            if (args.length === 0) return t;
            const flat = (args as PuppetValue[]).flat(Infinity as 1);
            if (flat.length === 2 && typeof flat[0] === 'bigint' && typeof flat[1] === 'bigint') return new PHashType(null, null, sizeRange(flat));
            flat.slice(0, 2).forEach((k, i) => {
                if (!(k instanceof PAnyType)) throw new TypeConstructionError(`Hash-Type[] arguments must be types. Got ${rubyClassOf(k)}`, 'BAD_TYPE_SLICE_TYPE', i);
            });
            // The first two arguments' types are checked before their count.
            if (flat.length < 2 || flat.length > 4) throw new TypeConstructionError(`Hash-Type[] accepts 2 to 4 arguments. Got ${flat.length}`, 'BAD_TYPE_SLICE_ARITY');
            return new PHashType(flat[0] as PAnyType, flat[1] as PAnyType, sizeRange(flat.slice(2)));
        }
        case 'Struct': {
            assertKeys(name, args, 1, 1, [['Hash', k => k instanceof Map]]);
            const h = args[0];
            if (!(h instanceof Map)) throw new TypeConstructionError('Struct parameter must be a Hash');
            const members: StructMember[] = [];
            // Ruby errors of Puppet's type factory, reported as errors while evaluating the access.
            const raise = (message: string): never => { throw new TypeConstructionError(message, 'RUNTIME_ERROR', undefined, true); };
            for (const [k, v] of h) {
                // A value that is no type stands for the type of its value.
                const value = v instanceof PAnyType || typeof v === 'string' ? asType(v, name) : generalize(inferType(v));
                if (typeof k === 'string') {
                    if (k === '') raise('Struct element key cannot be an empty String');
                    members.push({ name: k, keyType: 'plain', value });
                    continue;
                }
                if (!(k instanceof POptionalType || k instanceof PNotUndefType || k instanceof PStringType || k instanceof PEnumType)) {
                    raise(`Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: ${rubyClassOf(k)}`);
                }
                const literal = k instanceof POptionalType || k instanceof PNotUndefType ? exactString(k.type) : k instanceof PEnumType && k.values.length !== 1 ? undefined : exactString(k as PAnyType);
                if (literal === undefined) raise(`Unable to extract a non-empty literal string from Struct member key type ${typeToString(k as PAnyType)}`);
                members.push({ name: literal as string, keyType: k instanceof POptionalType ? 'optional' : k instanceof PNotUndefType ? 'notundef' : 'plain', value });
            }
            return new PStructType(members);
        }
        case 'Tuple': {
            // The last one or two arguments are the size when they are integers (or default).
            const keys = (args as PuppetValue[]).flat(Infinity as 1);
            const isRange = (k: PuppetValue | undefined): boolean => typeof k === 'bigint' || k instanceof PDefault;
            const counts = isRange(keys[keys.length - 1]) ? (isRange(keys[keys.length - 2]) ? 2 : 1) : 0;
            const types = keys.slice(0, keys.length - counts);
            assertKeys(name, types, 1, Infinity, [['Any-Type', k => k instanceof PAnyType]]);
            const rest = keys.slice(keys.length - counts);
            return new PTupleType(types as PAnyType[], rest.length ? toSize(new PIntegerType(intBound(rest[0]) as bigint ?? 0n, rest.length > 1 ? intBound(rest[1]) as bigint | null : null)) : null);
        }
        case 'Optional': return new POptionalType(oneType(name, args, true));
        case 'Variant': {
            const keys = (args as PuppetValue[]).flat(Infinity as 1);
            assertKeys(name, keys, 1, Infinity, [['Any-Type', k => k instanceof PAnyType]]);
            // Puppet's maybe_create: nested variants spliced in, duplicates dropped, one type is itself.
            const types: PAnyType[] = [];
            for (const k of (keys as PAnyType[]).flatMap(k => k instanceof PVariantType ? k.types : [k])) {
                if (!types.some(x => typeToString(x) === typeToString(k))) types.push(k);
            }
            return types.length === 1 ? types[0] : new PVariantType(types);
        }
        case 'Type': return new PTypeType(oneType(name, args));
        case 'Iterable': return new PIterableType(oneType(name, args));
        case 'Iterator': return new PIteratorType(oneType(name, args));
        // Puppet's Sensitive type keeps the general form of the type it is given.
        case 'Sensitive': return new PSensitiveType(generalizePuppet(oneType(name, args)));
        case 'Class': {
            const n = args[0];
            if (typeof n !== 'string') throw new TypeConstructionError('Class parameter must be a class name');
            return new PClassType(n.replace(/^::/, '').toLowerCase());
        }
        case 'Resource': {
            const r = t as PResourceType;
            if (r.typeName === null) {
                const [type, ...titles] = args;
                const typeName = type instanceof PResourceType ? type.typeName : typeof type === 'string' ? type : null;
                if (typeName === null) {
                    throw new TypeConstructionError(`First argument to Resource[] must be a resource type or a String. Got ${keyTypeName(type ?? null)}.`, 'ILLEGAL_RESOURCE_SPECIALIZATION', 0);
                }
                if (typeName.toLowerCase() === 'class') return titles.length ? parameterize(new PClassType(), titles) : new PClassType();
                const base = new PResourceType(capitalize(typeName));
                return titles.length ? parameterize(base, titles) : base;
            }
            if (r.title !== null) throw new TypeConstructionError(`${name} cannot be further parameterized`);
            const title = args[0];
            // Reached from Resource[type, title]: Puppet names the Resource type and blames the argument at the title's index among the titles.
            if (typeof title !== 'string') throw resourceTitleError('Resource', title ?? null, 0);
            return new PResourceType(r.typeName, title);
        }
        case 'Alias': {
            const a = t as PTypeAliasType;
            if (a.resolved === null) throw new TypeConstructionError(`${a.name} is not parameterized`);
            throw new TypeConstructionError(`Not a parameterized type: ${a.name}`);
        }
        default:
            if (t.kind === 'Runtime') {
                const keys = (args as PuppetValue[]).flat(Infinity as 1);
                assertKeys('Runtime', keys, 2, 2, [['String', k => typeof k === 'string'], ['String', k => typeof k === 'string']]);
                return new PRuntimeType(keys[0] as string, keys[1] as string);
            }
            if (t.kind === 'Deferred') throw new TypeConstructionError('The Deferred-Type cannot be parameterized using []', 'RUNTIME_ERROR', undefined, true);
            // Types Puppet's access operator has no case for.
            if (UNPARAMETERIZED.has(name)) {
                throw new TypeConstructionError(`Operator '[]' is not applicable to ${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}-Type.`, 'OPERATOR_NOT_APPLICABLE');
            }
            throw new TypeConstructionError(`${name} is not a parameterized type`);
    }
}

const UNPARAMETERIZED: ReadonlySet<string> = new Set(['Any', 'Binary', 'CatalogEntry', 'Data', 'Default', 'Numeric', 'RichData', 'Scalar', 'ScalarData', 'SemVerRange', 'Undef']);

/** Whether a Callable parameter is a count (an integer or default). */
const isCount = (v: PuppetValue | undefined): boolean => typeof v === 'bigint' || v instanceof PDefault || v === 'default';

/** Whether a type is a Callable (or an Optional Callable): a block's type, last among Callable's parameters. */
function isCallableType(v: PuppetValue | undefined): boolean {
    if (v instanceof PCallableType) return true;
    return v instanceof POptionalType && v.type instanceof PCallableType;
}

/**
 * `Callable[...]`: `[[params...], return type]`, or the parameter types, then their minimum and
 * maximum count, then the block's type; a count without types takes Unit (no particular type).
 */
function callableOf(keys: readonly PuppetValue[]): PCallableType {
    let params = [...keys];
    let returnType: PAnyType | null = null;
    if (params.length > 0 && Array.isArray(params[0])) {
        if (params.length !== 2) throw new TypeConstructionError(`A Callable-Type[] accepts 2 arguments. Got ${params.length}`, 'BAD_TYPE_SLICE_ARITY');
        returnType = asType(params[1], 'Callable');
        params = [...params[0]];
    }
    const block = isCallableType(params[params.length - 1]) ? params.pop() as PAnyType : null;
    let size: PIntegerType | null = null;
    const bound = (v: PuppetValue): bigint | null => typeof v === 'bigint' ? v : null;
    if (params.length >= 2 && isCount(params[params.length - 2]) && isCount(params[params.length - 1])) {
        // A count is never below 0: a default minimum is 0.
        size = new PIntegerType(bound(params[params.length - 2]) ?? 0n, bound(params[params.length - 1]));
        params = params.slice(0, -2);
    } else if (params.length >= 1 && isCount(params[params.length - 1])) {
        size = new PIntegerType(bound(params[params.length - 1]), null);
        params = params.slice(0, -1);
    }
    // Puppet's TypeFactory.type_of: a string names a Ruby class.
    const types = params.map(p => p instanceof PAnyType ? p : typeof p === 'string' ? new PRuntimeType('ruby', p) : generalize(inferType(p)));
    if (types.length === 0 && size !== null && (size.to === null || size.to > 0n)) types.push(PSimpleType.of('Unit'));
    return new PCallableType(new PTupleType(types, size), block, returnType);
}

/** Puppet's bad_key_type_name: Undef, Default, or the generalized type of the value. */
function keyTypeName(v: PuppetValue): string {
    if (v === null) return 'Undef';
    if (v instanceof PDefault) return 'Default';
    // Puppet's generalize keeps a regexp's pattern and generalizes the type a type value holds.
    if (v instanceof PRegexp || v instanceof PAnyType) return typeToString(v instanceof PAnyType ? new PTypeType(generalizePuppet(v)) : inferType(v));
    return typeToString(generalizePuppet(inferPuppet(v)));
}

/** A resource reference's title that is no string (BAD_TYPE_SPECIALIZATION of the resource type, at `index`). */
export function resourceTitleError(typeName: string, title: PuppetValue, index: number): TypeConstructionError {
    return new TypeConstructionError(`Error creating type specialization of ${aType(capitalize(typeName), false)}, Cannot use ${keyTypeName(title)} where a resource title String is expected`,
        'BAD_TYPE_SPECIALIZATION', index);
}

/** A class reference's name that is no string (Puppet's ILLEGAL_HOSTCLASS_NAME, at `index`). */
export function classNameError(name: PuppetValue, index: number): TypeConstructionError {
    const label = typeof name === 'bigint' ? 'Integer' : typeof name === 'number' ? 'Float' : typeof name === 'boolean' ? 'Boolean' : Array.isArray(name) ? 'Array'
        : name instanceof Map ? 'Hash' : name instanceof PAnyType ? `${typeToString(name)}-Type` : keyTypeName(name);
    return new TypeConstructionError(`Illegal Class name in class reference. ${/^[AEIOU]/.test(label) ? 'An' : 'A'} ${label} cannot be used where a String is expected`, 'ILLEGAL_HOSTCLASS_NAME', index);
}


/** The string an exact-string type (String['x'] or Enum['x']) stands for. */
function exactString(t: PAnyType | null): string | undefined {
    if (t instanceof PStringType && t.value !== null) return t.value;
    if (t instanceof PEnumType && t.values.length === 1) return t.values[0];
    return undefined;
}

/** `foo::bar` -> `Foo::Bar` (the one reference formatter, src/values). */
export const capitalize: (name: string) => string = capitalizeTypeName;

/** Types compare equal when their string forms are equal (the form is canonical). */
export function typesEqual(a: PAnyType, b: PAnyType): boolean {
    return typeToString(a) === typeToString(b);
}
