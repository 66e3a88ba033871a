import {
    rubyInspectString, describeMismatch, formatMismatches, formatValue, generalize, generalizePuppet, inferPuppet, inferType, isInstance, isIterableValue, joinMismatchLines, PAnyType, PArrayType,
    parseTypeString, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PNotUndefType, POptionalType, PStringType, PStructType, PTupleType,
    PTypeType, PVariantType, resolveAlias, PInitType, initResolution, newNotSupported, PObjectType, newObject, rubyFloat, convertToString, StringFormatError, typeToString, TypeSyntaxError, type TypeNameResolver
} from '../../types/index.js';
import { compileRubyRegexp, hashGet, hashSet, parseTimespan, parseTimestamp, parseVersionRange, RubyRegexpError, PBinary, PDefault, PDeferred, PError, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, TIMESPAN_FORMATS, TimeFormatError, VersionRangeError, type PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { FunctionContext, PuppetFunction } from './function.js';
import { checkNewSignature, checkObjectNewSignature } from './signatures.js';
import { iterableOf } from './support.js';

function typeArg(call: FunctionContext, t: PuppetValue): PAnyType {
    if (t instanceof PAnyType) return t;
    if (typeof t === 'string') return parseTypeString(t, call.runtime.typeResolver);
    throw new RuntimeFailure(CatalogIssues.EVAL_EXPECTED_TYPE.message({ value: formatValue(t) }));
}

/** String conversion as String.new does it: strings quoted inside collections, Floats with %f. */

/** String.new: Puppet's string converter; a refused format is the function's error, not an internal one. */
function formatWith(v: PuppetValue, formats: PuppetValue | undefined): string {
    try {
        return convertToString(v, formats);
    } catch (e) {
        if (e instanceof StringFormatError) throw new RuntimeFailure(e.message);
        throw e;
    }
}

/** Hash.new of [path, value] pairs with 'tree' (or 'hash_tree': arrays become hashes by index): the nested hash they describe. */
function hashFromTree(pairs: PuppetValue[][], allHashes: boolean): Map<PuppetValue, PuppetValue> {
    const asHash = (x: PuppetValue): PuppetValue => Array.isArray(x) ? new Map(x.map((y, i) => [BigInt(i), asHash(y)])) : x;
    const result = new Map<PuppetValue, PuppetValue>();
    for (const [path, value] of pairs) {
        const keys = path as PuppetValue[];
        if (keys.length === 0) {
            if (Array.isArray(value)) value.forEach((x, i) => hashSet(result, BigInt(i), x));
            else if (value instanceof Map) for (const [k, x] of value) hashSet(result, k, x);
            continue;
        }
        let node: PuppetValue = result;
        for (const k of keys.slice(0, -1)) {
            if (Array.isArray(node)) { node = node[Number(k)] ?? null; continue; }
            const m = node as Map<PuppetValue, PuppetValue>;
            const next = hashGet(m, k);
            if (next === undefined) { const h = new Map<PuppetValue, PuppetValue>(); hashSet(m, k, h); node = h; } else node = next;
        }
        const last = keys[keys.length - 1];
        const v = allHashes ? asHash(value) : value;
        if (Array.isArray(node)) node[Number(last)] = v;
        else hashSet(node as Map<PuppetValue, PuppetValue>, last, v);
    }
    return result;
}

/** Seconds as nanoseconds, truncated as Ruby's to_i does. */
function secondsToNanos(v: bigint | number): bigint {
    return typeof v === 'bigint' ? v * 1_000_000_000n : BigInt(Math.trunc(v * 1e9));
}

/** Timespan.new: seconds, days/hours/minutes/seconds[/ms/us/ns] fields, a string in the given or default formats, or a hash of either. */
function newTimespan(args: readonly PuppetValue[]): PTimespan {
    const [v, format] = args;
    const parse = (str: string, f: PuppetValue | undefined): PTimespan => {
        try {
            return new PTimespan(parseTimespan(str, typeof f === 'string' ? f : Array.isArray(f) ? f.map(String) : TIMESPAN_FORMATS));
        } catch (e) {
            if (e instanceof TimeFormatError) throw new RuntimeFailure(e.message);
            throw e;
        }
    };
    const fields = (negative: boolean, ...n: PuppetValue[]): PTimespan => {
        const [d, h, m, sec, ms, us, ns] = n.map(x => (x ?? 0n) as bigint);
        const total = (((((d * 24n + h) * 60n + m) * 60n + sec) * 1000n + (ms ?? 0n)) * 1000n + (us ?? 0n)) * 1000n + (ns ?? 0n);
        return new PTimespan(negative ? -total : total);
    };
    if (typeof v === 'bigint' && args.length >= 4) return fields(false, ...args);
    if (typeof v === 'bigint' || typeof v === 'number') return new PTimespan(secondsToNanos(v));
    if (typeof v === 'string') return parse(v, format);
    const h = v as Map<PuppetValue, PuppetValue>;
    if (h.has('string')) return parse(String(h.get('string')), h.get('format') ?? undefined);
    return fields(h.get('negative') === true, ...['days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'].map(k => h.get(k) ?? 0n));
}

/** Binary.new: bytes from an array, or a string in base64 (%B strict, %b relaxed, %u URL-safe), UTF-8 (%s) or raw (%r). */
function newBinary(v: PuppetValue, format: PuppetValue): PBinary {
    if (Array.isArray(v)) return new PBinary(Uint8Array.from(v.map(b => Number(b))));
    const s = String(v);
    switch (format ?? '%B') {
        case '%b': return new PBinary(Buffer.from(s, 'base64'));
        case '%u': return strictBase64((!s.endsWith('=') && s.length % 4 !== 0 ? s.padEnd((s.length + 3) & ~3, '=') : s).replace(/-/g, '+').replace(/_/g, '/'));
        case '%s': case '%r': return new PBinary(Buffer.from(s, 'utf8'));
        default: return strictBase64(s);
    }
}

/** Ruby's strict_decode64: canonical RFC 4648 text only. */
function strictBase64(s: string): PBinary {
    const bytes = Buffer.from(s, 'base64');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) || bytes.toString('base64') !== s) {
        throw new RuntimeFailure(CatalogIssues.EVAL_INVALID_BASE64.message());
    }
    return new PBinary(bytes);
}

/** Puppet's label of a value that cannot be converted: its generalized type. */
/** TypeCalculator#infer then #generalize, as `new`'s conversion errors name the value's type (an Array of Strings keeps their length range). */
function valueType(v: PuppetValue): string {
    return typeToString(generalizePuppet(inferPuppet(v)));
}

/** A Timestamp's or Timespan's seconds: to_i rounds down (Ruby's Integer division), to_f keeps the fraction. */
function timeSeconds(v: PTimestamp | PTimespan, whole: boolean): bigint | number {
    const s = 1_000_000_000n;
    if (!whole) return Number(v.nanos) / 1e9;
    return v.nanos >= 0n ? v.nanos / s : -((-v.nanos + s - 1n) / s);
}

function toInteger(v: PuppetValue, radix: PuppetValue): bigint {
    if (typeof v === 'bigint') return v;
    if (v instanceof PTimestamp || v instanceof PTimespan) return timeSeconds(v, true) as bigint;
    if (typeof v === 'number') return BigInt(Math.trunc(v));
    if (typeof v === 'boolean') return v ? 1n : 0n;
    if (radix !== null && !(radix instanceof PDefault) && ![2n, 8n, 10n, 16n].includes(radix as bigint)) {
        throw new RuntimeFailure(CatalogIssues.EVAL_ILLEGAL_RADIX.message({ radix: formatValue(radix) }));
    }
    if (typeof v !== 'string') throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_VALUE.message({ fname: 'new', type: valueType(v), target: 'Integer' }));
    // The text must be a Puppet integer literal (decimal, 0x hex, 0 octal, 0b binary) before any
    // radix applies, after a sign and whitespace (Puppet's lenient pattern); Ruby's Integer() then
    // takes leading whitespace, and whitespace after a sign only when it is blanks (Puppet retries without them).
    const m = /^([+-]?)([ \t\r\n\f\v]*)(0[xX][0-9a-fA-F]+|0[bB][01]+|0\d+|\d+)$/.exec(v);
    if (!m) throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new', value: v, target: 'Integer' }));
    const [, sign, space, body] = m;
    if (sign !== '' && /[^ \t]/.test(space)) throw new RuntimeFailure(CatalogIssues.EVAL_INVALID_INTEGER.message({ value: rubyInspectString(v) }));
    const r = typeof radix === 'bigint' ? Number(radix) : undefined;
    let n: bigint;
    if (/^0[xX]/.test(body)) n = BigInt(body);
    else if (/^0[bB]/.test(body)) n = BigInt(body);
    else if (r !== undefined && r !== 10) {
        const digits = body.toLowerCase();
        if (![...digits].every(ch => parseInt(ch, 36) < r)) throw new RuntimeFailure(CatalogIssues.EVAL_INVALID_INTEGER.message({ value: rubyInspectString(v) }));
        n = [...digits].reduce((acc, ch) => acc * BigInt(r) + BigInt(parseInt(ch, 36)), 0n);
    } else if (/^0\d/.test(body) && r === undefined) {
        if (/[89]/.test(body)) throw new RuntimeFailure(CatalogIssues.EVAL_INVALID_INTEGER.message({ value: rubyInspectString(v) }));
        n = BigInt(`0o${body.slice(1)}`);
    } else n = BigInt(body);
    return sign === '-' ? -n : n;
}

/** Float.new and Numeric.new (as `fname`) of a non-string: numbers as they are, booleans as 1 and 0. */
function numberOf(v: PuppetValue, fname: string, what: string): bigint | number | undefined {
    if (typeof v === 'number' || typeof v === 'bigint') return v;
    if (typeof v === 'boolean') return v ? 1n : 0n;
    if (v instanceof PTimestamp || v instanceof PTimespan) return timeSeconds(v, false);
    if (typeof v !== 'string') throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_VALUE.message({ fname, type: valueType(v), target: what }));
    return undefined;
}

function toFloat(v: PuppetValue): number {
    const n = numberOf(v, 'new_float', 'Float');
    if (n !== undefined) return Number(n);
    // Ruby's Float(), after a 0b binary integer, and again without spaces between sign and digits.
    const s = v as string;
    if (!FLOAT_PATTERN.test(s)) throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new_float', value: s, target: 'Float' }));
    if (/^0[bB]/.test(s) && /^0[bB][01]+(_[01]+)*$/.test(s)) return Number(BigInt(s.replace(/_/g, '')));
    const f = rubyFloat(s) ?? (/^\s*[-+]\s+\S/.test(s) ? rubyFloat(s.replace(/^(\s*[-+])\s+/, '$1')) : undefined);
    if (f !== undefined) return f;
    throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new_float', value: s, target: 'Float' }));
}

/** The texts Float.new and Numeric.new take (Puppet's FLOAT_PATTERN: a sign and whitespace, then a number, nothing after). */
const FLOAT_PATTERN = /^[+-]?[ \t\r\n\f\v]*(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?|0[xX][0-9A-Fa-f]+|0[0-7]+|0[bB][01]+)$/;

function toNumeric(v: PuppetValue): bigint | number {
    const n = numberOf(v, 'new_numeric', 'Numeric');
    if (n !== undefined) return n;
    const s = (v as string).trim();
    if (!FLOAT_PATTERN.test(v as string)) throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new_numeric', value: v as string, target: 'Numeric' }));
    try {
        return /^[+-]?(\d+|0[xX][0-9a-fA-F]+|0[bB][01]+)$/.test(s) ? toInteger(s, null) : toFloat(s);
    } catch {
        throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new_numeric', value: v as string, target: 'Numeric' }));
    }
}

/** `abs` of a conversion's result when asked for. */
function absIf(n: bigint | number, abs: PuppetValue): bigint | number {
    if (abs !== true) return n;
    return typeof n === 'bigint' ? (n < 0n ? -n : n) : Math.abs(n);
}

/** The arguments of Integer/Float/Numeric.new given as one hash ({from, radix, abs}). */
function namedArgs(args: readonly PuppetValue[], names: readonly string[]): PuppetValue[] {
    const [h] = args;
    if (args.length !== 1 || !(h instanceof Map) || !h.has('from')) return [...args];
    return names.map(n => (h.get(n) ?? null) as PuppetValue);
}

/** Integer.new's `Convertible` and `NamedArgs` (its hash form); `from` is checked apart, as on_error_hash checks it first. */
const INTEGER_CONVERTIBLE = 'Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp]';
const INTEGER_NAMED_ARGS = `Struct[{from => ${INTEGER_CONVERTIBLE}, Optional[radix] => Variant[Default, Integer[2,2], Integer[8,8], Integer[10,10], Integer[16,16]], Optional[abs] => Boolean}]`;
let integerTypes: { convertible: PAnyType; namedArgs: PAnyType } | undefined;

/**
 * Integer.new given one Hash: unless it is NamedArgs, Puppet's on_error_hash reports why: a
 * `from` that is not Convertible as a conversion error, a bad radix, else the hash's mismatch
 * against NamedArgs ("Integer.new has wrong type, ...").
 */
function checkIntegerNamedArgs(h: Map<PuppetValue, PuppetValue>): void {
    integerTypes ??= { convertible: parseTypeString(INTEGER_CONVERTIBLE), namedArgs: parseTypeString(INTEGER_NAMED_ARGS) };
    const from = h.get('from');
    if (h.has('from') && !isInstance(integerTypes.convertible, from ?? null)) {
        if (typeof from === 'string') throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new', value: from, target: 'Integer' }));
        throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_VALUE.message({ fname: 'new', type: valueType(from ?? null), target: 'Integer' }));
    }
    const radix = h.get('radix') ?? null;
    if (radix !== null && !(radix instanceof PDefault) && !(typeof radix === 'bigint' && [2n, 8n, 10n, 16n].includes(radix))) {
        throw new RuntimeFailure(CatalogIssues.EVAL_ILLEGAL_RADIX.message({ radix: formatValue(radix) }));
    }
    if (!isInstance(integerTypes.namedArgs, h)) throw new RuntimeFailure(joinMismatchLines(formatMismatches('Integer.new has wrong type,', describeMismatch(integerTypes.namedArgs, h))));
}

const REGEXP_ESCAPES: Readonly<Record<string, string>> = { ' ': '\\ ', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\f': '\\f', '\v': '\\v' };

/** Ruby's Regexp.escape: the characters special in a pattern backslashed, whitespace as escapes. */
function rubyRegexpEscape(s: string): string {
    return s.replace(/[.*?+^$|()[\]{}\\#\- \t\n\r\f\v]/g, c => REGEXP_ESCAPES[c] ?? `\\${c}`);
}

/** `Type.new(value)` / `Type(value)`: Puppet's conversions for the core types. */
export function convert(type: PAnyType, args: readonly PuppetValue[], resolve?: TypeNameResolver): PuppetValue {
    const t = resolveAlias(type);
    const [v, a2] = args;
    let out: PuppetValue;
    switch (t.kind) {
        case 'Integer': {
            if (args.length === 1 && v instanceof Map) checkIntegerNamedArgs(v);
            const [from, radix, abs] = namedArgs(args, ['from', 'radix', 'abs']);
            out = absIf(toInteger(from, radix ?? null), abs ?? null);
            break;
        }
        case 'Float': {
            const [from, abs] = namedArgs(args, ['from', 'abs']);
            out = absIf(toFloat(from), abs ?? null);
            break;
        }
        case 'Numeric': {
            const [from, abs] = namedArgs(args, ['from', 'abs']);
            out = absIf(toNumeric(from), abs ?? null);
            break;
        }
        case 'String': out = formatWith(v, a2); break;
        case 'Boolean': {
            if (typeof v === 'boolean') out = v;
            else if (typeof v === 'bigint' || typeof v === 'number') out = Number(v) !== 0;
            else if (typeof v === 'string' && /^(true|yes|y)$/i.test(v)) out = true;
            else if (typeof v === 'string' && /^(false|no|n)$/i.test(v)) out = false;
            else if (typeof v === 'string') throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new_boolean', value: v, target: 'Boolean' }));
            else throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_VALUE.message({ fname: 'new_boolean', type: valueType(v), target: 'Boolean' }));
            break;
        }
        case 'Array': case 'Tuple': {
            if (Array.isArray(v)) out = v;
            else if (a2 === true) out = [v];
            else if (v instanceof Map) out = [...v].map(([k, x]): PuppetValue => [k, x]);
            else if (v instanceof PBinary) out = [...v.bytes].map(b => BigInt(b));
            // Anything Iterable gives its values: an Integer counts up to it, a finite Integer range or an Enum gives its members.
            else if (isIterableValue(v)) out = iterableOf(v, 'new').items;
            else throw new RuntimeFailure(CatalogIssues.EVAL_NEW_ARRAY_FROM.message({ type: typeToString(v instanceof PAnyType ? new PTypeType(generalizeType(v)) : generalize(inferType(v))) }));
            break;
        }
        case 'Hash': case 'Struct': {
            if (v instanceof Map) { out = v; break; }
            if (Array.isArray(v) && (a2 === 'tree' || a2 === 'hash_tree')) { out = hashFromTree(v as PuppetValue[][], a2 === 'hash_tree'); break; }
            // Anything else iterable is taken as a flat list of keys and values (Hash.new(1) iterates [0]).
            if (!Array.isArray(v) && !isIterableValue(v)) throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_TO_HASH.message({ type: valueType(v) }));
            const items = Array.isArray(v) ? v : iterableOf(v, 'new').items;
            const m = new Map<PuppetValue, PuppetValue>();
            if (Array.isArray(v) && v.length > 0 && v.every(x => Array.isArray(x) && x.length === 2)) for (const p of v as PuppetValue[][]) m.set(p[0], p[1]);
            else {
                if (items.length % 2 !== 0) throw new RuntimeFailure(CatalogIssues.EVAL_ODD_HASH_ARGUMENTS.message());
                for (let i = 0; i + 1 < items.length; i += 2) m.set(items[i], items[i + 1]);
            }
            out = m;
            break;
        }
        case 'Binary': out = newBinary(v instanceof Map ? v.get('value') ?? null : v, v instanceof Map ? v.get('format') ?? null : a2 ?? null); break;
        case 'Sensitive': out = new PSensitive(v); break;
        case 'Regexp': {
            // Regexp(string, true) escapes the string as Ruby's Regexp.escape does.
            const r = v instanceof PRegexp ? v : new PRegexp(a2 === true ? rubyRegexpEscape(String(v)) : String(v));
            out = r;
            // Ruby's Regexp.new refuses a bad pattern at once.
            try { compileRubyRegexp(r.source); } catch (e) { if (e instanceof RubyRegexpError) throw new RuntimeFailure(e.message); throw e; }
            break;
        }
        // Type.new parses a type string as the type parser does (aliases and resource types by name).
        case 'Type':
            try { out = parseTypeString(String(v), resolve); } catch (e) { if (e instanceof TypeSyntaxError) throw new RuntimeFailure(e.detail); throw e; }
            break;
        case 'SemVer': {
            // From major, minor, patch (and prerelease, build) given as arguments or as a hash.
            const parts = typeof v === 'bigint' ? args : v instanceof Map ? ['major', 'minor', 'patch', 'prerelease', 'build'].map(k => v.get(k) ?? null) : undefined;
            if (parts && parts.slice(0, 3).every(x => typeof x === 'bigint')) {
                out = new PSemVer(parts[0] as bigint, parts[1] as bigint, parts[2] as bigint, typeof parts[3] === 'string' ? parts[3] : '', typeof parts[4] === 'string' ? parts[4] : '');
                break;
            }
            const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(String(v));
            if (!m) throw new RuntimeFailure(CatalogIssues.EVAL_CONVERT_STRING.message({ fname: 'new_Version', value: formatValue(v), target: 'a SemVer' }));
            out = new PSemVer(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]), m[4] ?? '', m[5] ?? '');
            break;
        }
        case 'SemVerRange': {
            if (typeof v === 'string') {
                try { parseVersionRange(v); } catch (e) { if (e instanceof VersionRangeError) throw new RuntimeFailure(e.message); throw e; }
                out = new PSemVerRange(v);
                break;
            }
            // From two versions (or a hash of them), default for an open end: SemanticPuppet writes its
            // text with the bounds swapped, an open end as its MIN (0.0.0-) or MAX (Infinity.0.0) version.
            const [min, max = PDefault.instance, exclude = false] = v instanceof Map ? [v.get('min') ?? null, v.has('max') ? v.get('max') ?? null : undefined, v.get('exclude_max')] : args;
            const bound = (x: PuppetValue): boolean => x instanceof PSemVer || x instanceof PDefault;
            if (!bound(min) || !bound(max)) throw new RuntimeFailure(CatalogIssues.EVAL_NEW_NOT_SUPPORTED.message({ type: typeToString(type) }));
            const minText = min instanceof PSemVer ? String(min) : '0.0.0-';
            const maxText = max instanceof PSemVer ? String(max) : 'Infinity.0.0';
            const range = [min instanceof PSemVer ? `>=${min}` : '', max instanceof PSemVer ? `${exclude === true ? '<' : '<='}${max}` : ''].filter(Boolean).join(' ') || '*';
            out = new PSemVerRange(exclude === true ? `>=${maxText} <${minText}` : `${maxText} - ${minText}`, range);
            break;
        }
        case 'Error': {
            const [msg, kind, details, code] = v instanceof Map ? ['msg', 'kind', 'details', 'issue_code'].map(k => v.get(k) ?? null) : [v, a2 ?? null, args[2] ?? null, args[3] ?? null];
            out = new PError(String(msg), typeof kind === 'string' ? kind : null, details ?? null, typeof code === 'string' ? code : null);
            break;
        }
        case 'Deferred': {
            const [name, list] = v instanceof Map ? [v.get('name'), v.get('arguments')] : [v, a2];
            out = new PDeferred(String(name), Array.isArray(list) ? list : []);
            break;
        }
        case 'Timestamp': {
            if (v === undefined) { out = new PTimestamp(BigInt(Date.now()) * 1_000_000n); break; }
            if (typeof v === 'bigint' || typeof v === 'number') { out = new PTimestamp(secondsToNanos(v)); break; }
            const [text, format, zone] = v instanceof Map ? [v.get('string'), v.get('format'), v.get('timezone')] : [v, a2, args[2]];
            try {
                out = parseTimestamp(String(text), (format ?? undefined) as string | string[] | undefined, (zone ?? undefined) as string | undefined);
            } catch (e) {
                if (e instanceof TimeFormatError) throw new RuntimeFailure(e.message);
                throw e;
            }
            break;
        }
        case 'Timespan': out = newTimespan(args); break;
        case 'Optional': case 'NotUndef': {
            // new of Optional[T] / NotUndef[T] is new of T.
            const inner = (t as POptionalType | PNotUndefType).type;
            return inner === null ? v : convert(inner, args, resolve);
        }
        default: throw new RuntimeFailure(CatalogIssues.EVAL_NEW_NOT_SUPPORTED.message({ type: typeToString(type) }));
    }
    if (!isInstance(type, out)) {
        throw new RuntimeFailure(joinMismatchLines(formatMismatches(CatalogIssues.EVAL_CONVERTED_WRONG_TYPE.message({ type: typeToString(type) }), describeMismatch(type, out))));
    }
    return out;
}

/**
 * A type with its value ranges dropped, its structure kept (Puppet's PAnyType#generalize): an
 * Integer or Float range becomes the plain type, an Enum the String of its lengths.
 */
function generalizeType(t: PAnyType): PAnyType {
    if (t instanceof PIntegerType) return new PIntegerType();
    if (t instanceof PFloatType) return new PFloatType();
    if (t instanceof PStringType) return new PStringType();
    if (t instanceof PEnumType) {
        if (t.values.length === 0) return new PStringType();
        const lengths = t.values.map(x => BigInt([...x].length));
        return new PStringType(new PIntegerType(lengths.reduce((a, b) => a < b ? a : b), lengths.reduce((a, b) => a > b ? a : b)));
    }
    if (t instanceof PVariantType) return new PVariantType(t.types.map(generalizeType));
    if (t instanceof PTupleType) return new PTupleType(t.types.map(generalizeType), t.size);
    if (t instanceof PStructType) return new PStructType(t.members.map(m => ({ ...m, value: generalizeType(m.value) })));
    if (t instanceof PArrayType) return new PArrayType(t.element === null ? null : generalizeType(t.element), t.size);
    if (t instanceof PHashType) return new PHashType(t.key === null ? null : generalizeType(t.key), t.value === null ? null : generalizeType(t.value), t.size);
    if (t instanceof PTypeType) return new PTypeType(t.type === null ? null : generalizeType(t.type));
    if (t instanceof PIterableType) return new PIterableType(t.type === null ? null : generalizeType(t.type));
    if (t instanceof POptionalType) return new POptionalType(t.type === null ? null : generalizeType(t.type));
    return t;
}

/** `new` as Puppet calls it: the type's new function dispatches the arguments first. */
export function checkedConvert(type: PAnyType, args: readonly PuppetValue[], resolve?: TypeNameResolver): PuppetValue {
    const init = resolveAlias(type);
    if (init instanceof PInitType) return initNew(init, args, resolve);
    if (init instanceof PObjectType) {
        if (args.length === 1 && isInstance(type, args[0])) return args[0];
        checkObjectNewSignature(init, args);
        return newObject(init, args);
    }
    // A lone value that already is an instance is returned as it is.
    if (args.length === 1 && isInstance(type, args[0])) return args[0];
    let t = resolveAlias(type);
    while ((t instanceof POptionalType || t instanceof PNotUndefType) && t.type !== null) t = resolveAlias(t.type);
    checkNewSignature(t.kind, args);
    return convert(type, args, resolve);
}

/**
 * `Init[T](value)` (Puppet's new_Init): T.new of the value followed by the init args; without init
 * args an array that is not itself a value T.new takes alone is spread into T.new's arguments.
 */
function initNew(t: PInitType, args: readonly PuppetValue[], resolve?: TypeNameResolver): PuppetValue {
    if (t.type === null) throw newNotSupported(t);
    const r = initResolution(t);
    checkNewSignature('Init', args);
    const [v] = args;
    if (t.initArgs.length > 0) return checkedConvert(t.type, [v, ...t.initArgs], resolve);
    const spread = Array.isArray(v) && !(r.single !== null && isInstance(r.single, v));
    return checkedConvert(t.type, spread ? v : [v], resolve);
}

export const typeFunctions: Record<string, PuppetFunction> = {
    type: (_call, [v, mode]) => {
        if (mode === 'reduced') return inferPuppet(v);
        if (mode === 'generalized') return generalizePuppet(inferPuppet(v));
        return inferType(v);
    },
    assert_type: (call, [t, v], block) => {
        const type = typeArg(call, t);
        if (isInstance(type, v)) return v;
        if (block) return call.callLambda(block, [type, inferType(v)]);
        throw new RuntimeFailure(joinMismatchLines(formatMismatches('assert_type():', describeMismatch(type, v))));
    },
    new: (call, [t, ...args], block) => {
        const out = checkedConvert(typeArg(call, t), args, call.runtime.typeResolver);
        return block ? call.callLambda(block, [out]) : out;
    },
    convert_to: (call, [v, t, ...rest], block) => {
        const out = checkedConvert(typeArg(call, t), [v, ...rest], call.runtime.typeResolver);
        return block ? call.callLambda(block, [out]) : out;
    },
    unwrap: (call, [v], block) => {
        const inner = v instanceof PSensitive ? v.value : v;
        return block ? call.callLambda(block, [inner]) : inner;
    },
    Sensitive: (_call, [v]) => new PSensitive(v)
};
