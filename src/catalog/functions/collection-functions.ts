import { hashGet, PBinary, PError, PSemVer, PSensitive, PTimespan, PTimestamp, strictEquals, type PuppetValue } from '../../values/index.js';
import { isTruthy } from '../evaluator/operators.js';
import { formatValue, inferType, rubyFloat, rubyInspect, typeToString } from '../../types/index.js';
import { DataFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Closure, FunctionContext, PuppetFunction } from './function.js';
import { acceptsTwo, callWith, iterableOf, requireBlock, typeName } from './support.js';

/** Ruby's <=> on the values `sort`, `min` and `max` see (strings compare case-sensitively). */
function spaceship(a: PuppetValue, b: PuppetValue): number {
    if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
        return typeof a === 'bigint' && typeof b === 'bigint' ? (a < b ? -1 : a > b ? 1 : 0) : Math.sign(Number(a) - Number(b));
    }
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    const cls = (v: PuppetValue): string => v === null ? 'nil' : typeof v === 'boolean' ? String(v) : typeName(v);
    throw new RuntimeFailure(CatalogIssues.EVAL_SORT_COMPARISON.message({ left: cls(a), right: cls(b) }));
}

/**
 * Ruby's Array#sort on Linux is glibc's qsort_r, a top-down merge sort: stable, and calling a
 * sort block on the same pairs in the same order (what a block with side effects shows).
 */
function mergeSort(items: PuppetValue[], cmp: (a: PuppetValue, b: PuppetValue) => number): void {
    if (items.length <= 1) return;
    const n1 = Math.floor(items.length / 2);
    const left = items.slice(0, n1);
    const right = items.slice(n1);
    mergeSort(left, cmp);
    mergeSort(right, cmp);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < left.length && j < right.length) items[k++] = cmp(left[i], right[j]) <= 0 ? left[i++] : right[j++];
    while (i < left.length) items[k++] = left[i++];
    while (j < right.length) items[k++] = right[j++];
}

/** The `compare` function: strings ignore case unless told otherwise. */
function compareValues(a: PuppetValue, b: PuppetValue, ignoreCase: boolean): number {
    if (typeof a === 'string' && typeof b === 'string' && ignoreCase) return spaceship(a.toLowerCase(), b.toLowerCase());
    return spaceship(a, b);
}

/** A string min/max takes for a number (Puppet's pattern, and Ruby's String#to_f). */
const NUMERIC_TEXT = /^-?\d+([._eE]\d+)?$/;

function rubyToF(s: string): number {
    const m = /^\s*[-+]?(\d[\d_]*)?(\.\d+)?([eE][-+]?\d+)?/.exec(s);
    const n = Number((m?.[0] ?? '').replace(/_/g, '').trim());
    return Number.isNaN(n) ? 0 : n;
}

/** Ruby's #to_s of a value given to a Ruby function: collections as their inspect, undef empty. */
function rubyToS(v: PuppetValue): string {
    return v === null ? '' : Array.isArray(v) || v instanceof Map ? rubyInspect(v) : formatValue(v);
}

/**
 * min/max as Puppet dispatches them: all numbers compare as numbers; all strings as strings,
 * unless both look numeric; anything else by their strings, again unless both look numeric.
 * Each coercion warns once (deprecated).
 */
function minMax(call: FunctionContext, fname: 'min' | 'max', args: PuppetValue[], block: Closure | undefined): PuppetValue {
    const single = args.length === 1 && Array.isArray(args[0]);
    const items = single ? args[0] as PuppetValue[] : args;
    const numeric = (v: PuppetValue): boolean => typeof v === 'bigint' || typeof v === 'number';
    const better = (c: number): boolean => fname === 'max' ? c > 0 : c < 0;
    let cmp: (a: PuppetValue, b: PuppetValue) => number;
    if (block) {
        cmp = (a, b) => Number(call.callLambda(block, [a, b]));
    } else {
        if (items.length === 0) throw new RuntimeFailure(CatalogIssues.EVAL_TOO_FEW_VALUES.message({ fname }));
        const coerce = (a: string, b: string, key: string): number | undefined => {
            if (!NUMERIC_TEXT.test(a) || !NUMERIC_TEXT.test(b)) return undefined;
            call.runtime.warnOnce(`deprecations:${fname}_function_numeric_coerce_string`, CatalogIssues.EVAL_MINMAX_COERCE.message({ fname, what: key }), call.where);
            return Math.sign(rubyToF(a) - rubyToF(b));
        };
        if (items.every(numeric)) cmp = spaceship;
        else if (items.every(x => typeof x === 'string')) cmp = (a, b) => coerce(a as string, b as string, 'String to Numeric') ?? spaceship(a, b);
        else {
            cmp = (a, b) => {
                const as = rubyToS(a);
                const bs = rubyToS(b);
                const n = coerce(as, bs, 'String to Numeric');
                if (n !== undefined) return n;
                call.runtime.warnOnce(`deprecations:${fname}_function_string_coerce_any`, CatalogIssues.EVAL_MINMAX_COERCE.message({ fname, what: 'Any to String' }), call.where);
                return spaceship(as, bs);
            };
        }
    }
    if (items.length === 0) return null;
    // Ruby's Array#max/min: each element against the best so far, (element, best); ties keep the first.
    let best = items[0];
    for (const x of items.slice(1)) if (better(cmp(x, best))) best = x;
    return best;
}


function warnCoerce(call: FunctionContext, fname: string, to: string): void {
    call.runtime.warnOnce(`deprecations:${fname}_function_numeric_coerce_string`, CatalogIssues.EVAL_NUMERIC_FUNCTION_COERCE.message({ fname, to }), call.where);
}

/** floor/ceiling of a number, or (deprecated) of a string as Ruby's Float() reads it. */
function floatOf(call: FunctionContext, fname: string, v: PuppetValue): number {
    if (typeof v !== 'string') return Number(v);
    warnCoerce(call, fname, 'Float');
    const f = rubyFloat(v);
    if (f === undefined) throw new RuntimeFailure(CatalogIssues.EVAL_CANNOT_CONVERT_TO_FLOAT.message({ fname }));
    return f;
}

/** Values `compare` can compare at all (its local type Comparable). */
function comparable(v: PuppetValue): boolean {
    return typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' || v instanceof PSemVer || v instanceof PTimespan || v instanceof PTimestamp;
}

/** The Ruby class `compare` tells values apart by (Integer and Float differ). */
function rubyClass(v: PuppetValue): string {
    return v instanceof PSemVer ? 'Version' : v instanceof PTimespan ? 'Timespan' : v instanceof PTimestamp ? 'Timestamp' : typeName(v);
}

/** Puppet's compare() argument_mismatch dispatches (on_error, on_not_comparable): the reason no signature took the call. */
function compareMismatch([a, b, ...ignoreCase]: PuppetValue[]): never {
    if (!comparable(a) || !comparable(b)) {
        throw new RuntimeFailure(CatalogIssues.EVAL_COMPARE_NOT_COMPARABLE.message({ left: typeName(a), right: typeName(b) }));
    }
    if (ignoreCase.length > 0) {
        if (typeof a !== 'string' || typeof b !== 'string') throw new RuntimeFailure(CatalogIssues.EVAL_COMPARE_IGNORE_CASE.message());
        if (ignoreCase.length !== 1) throw new RuntimeFailure(CatalogIssues.EVAL_COMPARE_ARITY.message({ count: 2 + ignoreCase.length }));
        // Puppet's on_error tests `is_a?(Boolean)`, a constant Ruby does not have, so it fails with a NameError.
        throw new RuntimeFailure(CatalogIssues.EVAL_COMPARE_BOOLEAN_CONSTANT.message());
    }
    if (rubyClass(a) !== rubyClass(b)) {
        throw new RuntimeFailure(CatalogIssues.EVAL_COMPARE_TYPES.message({ left: typeName(a), right: typeName(b) }));
    }
    throw new RuntimeFailure(CatalogIssues.EVAL_COMPARE_REJECTED.message());
}

export const collectionFunctions: Record<string, PuppetFunction> = {
    keys: (_call, [h]) => h instanceof Map ? [...h.keys()] : [],
    values: (_call, [h]) => h instanceof Map ? [...h.values()] : [],
    sort: (call, [v], block) => {
        const items = typeof v === 'string' ? [...v] : Array.isArray(v) ? [...v] : [];
        if (block) mergeSort(items, (a, b) => Number(call.callLambda(block, [a, b])));
        else mergeSort(items, spaceship);
        return typeof v === 'string' ? items.join('') : items;
    },
    unique: (call, [v], block) => {
        // Ruby's uniq: the first of the elements whose block results (or selves) are eql?.
        const by = (x: PuppetValue): PuppetValue => block ? call.callLambda(block, [x]) : x;
        const uniq = (xs: PuppetValue[]): PuppetValue[] => {
            const seen: PuppetValue[] = [];
            const out: PuppetValue[] = [];
            for (const x of xs) {
                const key = by(x);
                if (!seen.some(y => strictEquals(key, y))) { seen.push(key); out.push(x); }
            }
            return out;
        };
        if (typeof v === 'string') return uniq([...v]).join('');
        if (v instanceof Map) {
            // Keys whose values (or block results) are the same are grouped: {[k1, k2] => [values]}.
            const groups: Array<{ key: PuppetValue; keys: PuppetValue[]; values: PuppetValue[] }> = [];
            for (const [k, x] of v) {
                const key = by(x);
                const g = groups.find(y => strictEquals(y.key, key));
                if (g) { g.keys.push(k); g.values.push(x); } else groups.push({ key, keys: [k], values: [x] });
            }
            return new Map<PuppetValue, PuppetValue>(groups.map(g => {
                const values: PuppetValue[] = [];
                for (const x of g.values) if (!values.some(y => strictEquals(x, y))) values.push(x);
                return [g.keys, values];
            }));
        }
        return uniq(iterableOf(v, 'unique').items);
    },
    flatten: (_call, args) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args).flat(Infinity as 1),
    empty: (call, [v]) => {
        if (typeof v === 'bigint' || typeof v === 'number') {
            const w = call.where;
            call.runtime.warnOnce(`empty-numeric:${w.file}:${w.line}`, CatalogIssues.EVAL_EMPTY_NUMERIC_DEPRECATED.message({ file: w.file, line: w.line }), w);
            return false;
        }
        if (v instanceof PSensitive) return v.value === '';
        if (v instanceof PBinary) return v.bytes.length === 0;
        return v === null || v === '' || (Array.isArray(v) && v.length === 0) || (v instanceof Map && v.size === 0);
    },
    dig: (_call, [v, ...path]) => {
        let cur: PuppetValue = v;
        const walked: PuppetValue[] = [];
        const at = (): string => `[${walked.map(w => typeof w === 'string' ? JSON.stringify(w) : formatValue(w)).join(', ')}]`;
        for (const k of path) {
            if (cur === null || k === null) return null;
            if (!Array.isArray(cur) && !(cur instanceof Map)) {
                const type = inferType(cur);
                const msg = CatalogIssues.EVAL_DIG_NOT_COLLECTION.message({ at: at(), type: typeToString(type) });
                throw new DataFailure(msg, new PError(msg, 'SLICE_ERROR', new Map<PuppetValue, PuppetValue>([['walked_path', [...walked]], ['value_type', type]]), 'EXPECTED_COLLECTION'));
            }
            walked.push(k);
            if (Array.isArray(cur)) {
                if (typeof k !== 'bigint') {
                    const type = inferType(k);
                    const msg = CatalogIssues.EVAL_DIG_NOT_INTEGER.message({ at: at(), type: typeToString(type) });
                    throw new DataFailure(msg, new PError(msg, 'SLICE_ERROR', new Map<PuppetValue, PuppetValue>([['walked_path', [...walked]], ['index_type', type]]), 'EXPECTED_INTEGER_INDEX'));
                }
                cur = cur[Number(k) < 0 ? cur.length + Number(k) : Number(k)] ?? null;
            } else cur = hashGet(cur, k) ?? null;
        }
        return cur;
    },
    then: (call, [v], block) => v === null ? null : call.callLambda(requireBlock(block, 'then', 1, 1), [v]),
    lest: (call, [v], block) => v === null ? call.callLambda(requireBlock(block, 'lest', 0, 0), []) : v,
    compare: (call, args) => {
        if (call.argumentMismatch) return compareMismatch(args);
        const [a, b, ic] = args;
        return BigInt(compareValues(a, b, ic !== false));
    },
    group_by: (call, [v], block) => {
        const b = requireBlock(block, 'group_by');
        const { items, hash } = iterableOf(v, 'group_by');
        const two = acceptsTwo(b);
        const out = new Map<PuppetValue, PuppetValue>();
        items.forEach((x, i) => {
            const k = callWith(call, b, x, i, hash, two);
            const key = [...out.keys()].find(y => strictEquals(y, k)) ?? k;
            const list = (out.get(key) as PuppetValue[] | undefined) ?? [];
            list.push(x);
            out.set(key, list);
        });
        return out;
    },
    partition: (call, [v], block) => {
        const b = requireBlock(block, 'partition');
        const { items, hash } = iterableOf(v, 'partition');
        const two = acceptsTwo(b);
        const yes: PuppetValue[] = [];
        const no: PuppetValue[] = [];
        items.forEach((x, i) => (isTruthy(callWith(call, b, x, i, hash, two)) ? yes : no).push(x));
        // Ruby's Hash#partition gives arrays of [key, value] pairs.
        return [yes, no];
    },
    min: (call, args, block) => minMax(call, 'min', args, block),
    max: (call, args, block) => minMax(call, 'max', args, block),
    abs: (call, [v]) => {
        if (typeof v === 'string') {
            warnCoerce(call, 'abs', 'Numeric');
            if (/^-?\d+\.\d+$/m.test(v)) return Math.abs(Number(/-?\d+\.\d+/.exec(v)![0]));
            if (/^-?\d+$/m.test(v)) { const n = BigInt(/-?\d+/.exec(v)![0]); return n < 0n ? -n : n; }
            throw new RuntimeFailure(CatalogIssues.EVAL_ABS_NOT_NUMERIC.message());
        }
        return typeof v === 'bigint' ? (v < 0n ? -v : v) : Math.abs(v as number);
    },
    floor: (call, [v]) => typeof v === 'bigint' ? v : BigInt(Math.floor(floatOf(call, 'floor', v))),
    ceiling: (call, [v]) => typeof v === 'bigint' ? v : BigInt(Math.ceil(floatOf(call, 'ceiling', v))),
    round: (_call, [v]) => typeof v === 'bigint' ? v : BigInt(Math.sign(v as number) * Math.round(Math.abs(v as number)))
};
