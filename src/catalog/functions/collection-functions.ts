import { hashGet, PSemVer, PSensitive, PTimespan, PTimestamp, strictEquals, type PuppetValue } from '../../values/index.js';
import { isTruthy } from '../evaluator/operators.js';
import { formatValue, inferType, typeToString } from '../../types/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Closure, PuppetFunction } from './function.js';
import { acceptsTwo, callWith, iterableOf, requireBlock, typeName } from './support.js';

/** Ruby's <=> on the values `sort`, `min` and `max` see (strings compare case-sensitively). */
function spaceship(a: PuppetValue, b: PuppetValue): number {
    if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
        return typeof a === 'bigint' && typeof b === 'bigint' ? (a < b ? -1 : a > b ? 1 : 0) : Math.sign(Number(a) - Number(b));
    }
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    throw new RuntimeFailure(CatalogIssues.EVAL_SORT_COMPARISON.message({ left: typeof a, right: typeof b }));
}

/** The `compare` function: strings ignore case unless told otherwise. */
function compareValues(a: PuppetValue, b: PuppetValue, ignoreCase: boolean): number {
    if (typeof a === 'string' && typeof b === 'string' && ignoreCase) return spaceship(a.toLowerCase(), b.toLowerCase());
    return spaceship(a, b);
}

/** min/max order: numbers (and numeric strings) numerically, anything else as strings. */
function minMaxCompare(a: PuppetValue, b: PuppetValue): number {
    const numeric = (v: PuppetValue): boolean => typeof v === 'bigint' || typeof v === 'number';
    if (numeric(a) && numeric(b)) return spaceship(a, b);
    return spaceship(formatValue(a), formatValue(b));
}

function num(v: PuppetValue): bigint | number {
    if (typeof v === 'bigint' || typeof v === 'number') return v;
    if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return /^-?\d+$/.test(v.trim()) ? BigInt(v.trim()) : Number(v);
    throw new RuntimeFailure(CatalogIssues.EVAL_EXPECTED_NUMERIC.message({ value: String(v) }));
}

/** The values min/max compare: one array's elements or the arguments; without a block there must be one. */
function minMaxItems(fname: string, args: PuppetValue[], block: Closure | undefined): PuppetValue[] {
    const items = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
    if (items.length === 0 && !block) throw new RuntimeFailure(CatalogIssues.EVAL_TOO_FEW_VALUES.message({ fname }));
    return items;
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
        if (block) items.sort((a, b) => Number(call.callLambda(block, [a, b])));
        else items.sort(spaceship);
        return typeof v === 'string' ? items.join('') : items;
    },
    unique: (_call, [v]) => {
        if (typeof v === 'string') return [...new Set(v)].join('');
        if (v instanceof Map) {
            // Keys with the same value are grouped: {[k1, k2] => [value]}.
            const groups: Array<{ keys: PuppetValue[]; value: PuppetValue }> = [];
            for (const [k, x] of v) {
                const g = groups.find(y => strictEquals(y.value, x));
                if (g) g.keys.push(k);
                else groups.push({ keys: [k], value: x });
            }
            return new Map<PuppetValue, PuppetValue>(groups.map(g => [g.keys, [g.value]]));
        }
        if (!Array.isArray(v)) return v;
        const out: PuppetValue[] = [];
        for (const x of v) if (!out.some(y => strictEquals(x, y))) out.push(x);
        return out;
    },
    flatten: (_call, args) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args).flat(Infinity as 1),
    empty: (call, [v]) => {
        if (typeof v === 'bigint' || typeof v === 'number') {
            const w = call.where;
            call.runtime.warnOnce(`empty-numeric:${w.file}:${w.line}`, CatalogIssues.EVAL_EMPTY_NUMERIC_DEPRECATED.message({ file: w.file, line: w.line }), w);
            return false;
        }
        if (v instanceof PSensitive) return v.value === '';
        return v === null || v === '' || (Array.isArray(v) && v.length === 0) || (v instanceof Map && v.size === 0);
    },
    dig: (_call, [v, ...path]) => {
        let cur: PuppetValue = v;
        const walked: PuppetValue[] = [];
        for (const k of path) {
            if (cur === null) return null;
            if (Array.isArray(cur)) cur = typeof k === 'bigint' ? cur[Number(k) < 0 ? cur.length + Number(k) : Number(k)] ?? null : null;
            else if (cur instanceof Map) cur = hashGet(cur, k) ?? null;
            else {
                const at = `[${walked.map(w => typeof w === 'string' ? JSON.stringify(w) : formatValue(w)).join(', ')}]`;
                throw new RuntimeFailure(CatalogIssues.EVAL_DIG_NOT_COLLECTION.message({ at, type: typeToString(inferType(cur)) }));
            }
            walked.push(k);
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
        return hash ? [new Map(yes.map(p => [(p as PuppetValue[])[0], (p as PuppetValue[])[1]])), new Map(no.map(p => [(p as PuppetValue[])[0], (p as PuppetValue[])[1]]))] : [yes, no];
    },
    min: (call, args, block) => {
        const items = minMaxItems('min', args, block);
        return items.length === 0 ? null : items.reduce((a, b) => (block ? Number(call.callLambda(block, [a, b])) : minMaxCompare(a, b)) <= 0 ? a : b);
    },
    max: (call, args, block) => {
        const items = minMaxItems('max', args, block);
        return items.length === 0 ? null : items.reduce((a, b) => (block ? Number(call.callLambda(block, [a, b])) : minMaxCompare(a, b)) >= 0 ? a : b);
    },
    abs: (_call, [v]) => {
        if (typeof v === 'string' && !/^\s*[-+]?(\d+(\.\d+)?([eE][-+]?\d+)?|0[xX][0-9a-fA-F]+)\s*$/.test(v)) {
            throw new RuntimeFailure(CatalogIssues.EVAL_ABS_NOT_NUMERIC.message());
        }
        const n = num(v);
        return typeof n === 'bigint' ? (n < 0n ? -n : n) : Math.abs(n);
    },
    floor: (_call, [v]) => { const n = num(v); return typeof n === 'bigint' ? n : BigInt(Math.floor(n)); },
    ceiling: (_call, [v]) => { const n = num(v); return typeof n === 'bigint' ? n : BigInt(Math.ceil(n)); },
    round: (_call, [v]) => { const n = num(v); return typeof n === 'bigint' ? n : BigInt(Math.sign(n) * Math.round(Math.abs(n))); }
};
