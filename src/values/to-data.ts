import { formatTimespan, formatTimestamp } from './format.js';
import {
    PBinary, PDefault, PDeferred, PError, PObjectValue, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, PTypeValue, type PuppetValue
} from './values.js';

/** A JSON-shaped value as a writer takes it; each writer decides how numbers and types look. */
export type DataOut = unknown;

/**
 * How one writer spells what rich data leaves open: Integers and Floats (exact text, plain
 * numbers), type values (a type string, Pcore objects, or a reference `Type[title]`), and an
 * iterator (its elements, or nothing).
 */
export interface ToDataRules {
    integer(n: bigint): DataOut;
    float(n: number): DataOut;
    type(t: PTypeValue): DataOut;
    /** A hash key that is no string but is written as one (a catalog's stored reference); unset or undefined: none is. */
    key?(k: PuppetValue): string | undefined;
    /** Unset: an iterator is written as null. */
    iterator?(elements: readonly PuppetValue[]): DataOut;
}

const PTYPE = '__ptype';
const PVALUE = '__pvalue';

/**
 * Puppet's rich data (its ToDataConverter, as catalogs, lookups and models carry values): JSON
 * values stay as they are; a hash with a non-string key, or with a `__ptype` key of its own, is
 * the pair form `{"__ptype": "Hash", "__pvalue": [k1, v1, ...]}`; the other runtime values are
 * `{"__ptype": T, "__pvalue": V}`. The one encoder every writer uses, with its own `rules`.
 */
export function toData(v: PuppetValue, rules: ToDataRules): DataOut {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'bigint') return rules.integer(v);
    if (typeof v === 'number') return rules.float(v);
    // Loops, not a closure per call: this encodes every value of every resource a catalog writes.
    if (Array.isArray(v)) {
        const out = new Array<DataOut>(v.length);
        for (let i = 0; i < v.length; i++) out[i] = toData(v[i] as PuppetValue, rules);
        return out;
    }
    if (v instanceof Map) {
        let plain = true;
        for (const k of v.keys()) {
            const text = typeof k === 'string' ? k : rules.key?.(k);
            if (text === undefined || text === PTYPE) {
                plain = false;
                break;
            }
        }
        if (plain) {
            const out: Record<string, DataOut> = {};
            const keys: string[] = [];
            let indexLike = false;
            for (const [k, x] of v) {
                const key = typeof k === 'string' ? k : rules.key!(k)!;
                out[key] = toData(x, rules);
                keys.push(key);
                if (!indexLike && ARRAY_INDEX.test(key)) indexLike = true;
            }
            return indexLike ? inInsertionOrder(out, keys) : out;
        }
        const pairs: DataOut[] = [];
        for (const [k, x] of v) pairs.push(toData(k, rules), toData(x, rules));
        return { [PTYPE]: 'Hash', [PVALUE]: pairs };
    }
    return richData(v, rules);
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * A JS object lists the keys that are array indices ("0", "10") first, in numeric order; a
 * Puppet hash keeps its insertion order. Such an object lists its keys through a Proxy, whose
 * order JSON.stringify and Object.keys keep.
 */
function inInsertionOrder(out: Record<string, DataOut>, keys: string[]): Record<string, DataOut> {
    return new Proxy(out, { ownKeys: () => keys });
}

/** The `__ptype` form of the runtime values that are not JSON (rarely met: kept apart from toData's loops). */
function richData(v: PuppetValue, rules: ToDataRules): DataOut {
    const enc = (x: PuppetValue): DataOut => toData(x, rules);
    if (v instanceof PDefault) return { [PTYPE]: 'Default' };
    if (v instanceof PSensitive) return { [PTYPE]: 'Sensitive', [PVALUE]: enc(v.value) };
    if (v instanceof PRegexp) return { [PTYPE]: 'Regexp', [PVALUE]: v.source };
    if (v instanceof PBinary) return { [PTYPE]: 'Binary', [PVALUE]: Buffer.from(v.bytes).toString('base64') };
    if (v instanceof PTimestamp) return { [PTYPE]: 'Timestamp', [PVALUE]: formatTimestamp(v) };
    if (v instanceof PTimespan) return { [PTYPE]: 'Timespan', [PVALUE]: formatTimespan(v) };
    if (v instanceof PSemVer) return { [PTYPE]: 'SemVer', [PVALUE]: v.toString() };
    if (v instanceof PSemVerRange) return { [PTYPE]: 'SemVerRange', [PVALUE]: v.toString() };
    if (v instanceof PDeferred) return { [PTYPE]: 'Deferred', name: v.name, arguments: v.args.map(enc) };
    // An Object value is its type's name and the attributes not at their default.
    if (v instanceof PObjectValue) return { [PTYPE]: (v.type as PTypeValue & { name?: string | null }).name ?? 'Object', ...Object.fromEntries([...v.values].map(([k, x]) => [k, enc(x)])) };
    if (v instanceof PError) return { [PTYPE]: 'Error', ...Object.fromEntries(v.attributes().map(([k, x]) => [k, enc(x)])) };
    if (v instanceof PIterator) return rules.iterator ? rules.iterator(v.elementsOf()) : null;
    if (v instanceof PTypeValue) return rules.type(v);
    return null;
}
