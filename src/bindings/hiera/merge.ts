import { copyValue, dataClassName, PSensitive, type PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { LookupError } from './errors.js';
import { NOT_FOUND, type Found } from './lookup-key.js';

export type MergeStrategyName = 'first' | 'unique' | 'hash' | 'deep';

export interface DeepMergeOptions {
    readonly knockoutPrefix?: string;
    readonly sortMergedArrays?: boolean;
    readonly mergeHashArrays?: boolean;
}

/**
 * Hiera's merge strategies (Puppet::Pops::MergeStrategy). `lookup` folds the values found
 * for a list of variants (layers, levels, paths) highest precedence first, exactly as Puppet's
 * reduce does, so nested folds (layers of levels of paths) give Puppet's results and orders.
 */
export class MergeStrategy {
    private constructor(
        readonly name: MergeStrategyName,
        readonly deep: DeepMergeOptions = {},
        /** The options as given (without 'strategy'), for explanations. */
        readonly options?: ReadonlyMap<PuppetValue, PuppetValue>
    ) {}

    static readonly FIRST = new MergeStrategy('first');
    static readonly UNIQUE = new MergeStrategy('unique');
    static readonly HASH = new MergeStrategy('hash');
    static readonly DEEP = new MergeStrategy('deep');

    static deepWith(options: DeepMergeOptions, given?: ReadonlyMap<PuppetValue, PuppetValue>): MergeStrategy {
        return new MergeStrategy('deep', options, given);
    }

    /**
     * MergeStrategy.strategy(merge): a name, or a hash with 'strategy' and (deep) options; unset
     * means first found.
     */
    static from(merge: PuppetValue | MergeStrategy | undefined): MergeStrategy {
        if (merge === undefined || merge === null) return MergeStrategy.FIRST;
        if (merge instanceof MergeStrategy) return merge;
        let name: PuppetValue | undefined = merge;
        let options: Map<PuppetValue, PuppetValue> | undefined;
        if (merge instanceof Map) {
            name = merge.get('strategy');
            if (typeof name !== 'string') {
                throw new LookupError("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'", { code: BindingsIssues.LOOKUP_BAD_MERGE });
            }
            options = merge.size > 1 ? merge : undefined;
        }
        switch (name) {
            case 'first': case 'default': return MergeStrategy.FIRST;
            case 'unique': return MergeStrategy.UNIQUE;
            case 'hash': return MergeStrategy.HASH;
            case 'deep': {
                if (!options) return MergeStrategy.DEEP;
                const ko = options.get('knockout_prefix');
                return MergeStrategy.deepWith({
                    knockoutPrefix: typeof ko === 'string' ? ko : undefined,
                    sortMergedArrays: options.get('sort_merged_arrays') === true,
                    mergeHashArrays: options.get('merge_hash_arrays') === true
                }, new Map([...options].filter(([k]) => k !== 'strategy')));
            }
            default:
                throw new LookupError(`Unknown merge strategy: '${typeof name === 'string' ? name : String(name)}'`, { code: BindingsIssues.LOOKUP_BAD_MERGE });
        }
    }

    /** Folds `find` over the variants; NOT_FOUND when no variant has the key. */
    lookup<T>(variants: readonly T[], find: (v: T) => Found): Found {
        if (this.name === 'first') {
            for (const v of variants) {
                const r = find(v);
                if (r !== NOT_FOUND) return r;
            }
            return NOT_FOUND;
        }
        if (variants.length === 0) return NOT_FOUND;
        if (variants.length === 1) {
            const r = find(variants[0]);
            return r === NOT_FOUND ? r : this.mergeSingle(r);
        }
        let memo: Found = NOT_FOUND;
        for (const v of variants) {
            const r = find(v);
            if (r === NOT_FOUND) continue;
            memo = memo === NOT_FOUND ? this.convertValue(r) : this.merge(memo, r);
        }
        return memo;
    }

    private convertValue(v: PuppetValue): PuppetValue {
        return this.name === 'unique' ? (Array.isArray(v) ? flatten(v) : [v]) : v;
    }

    private mergeSingle(v: PuppetValue): PuppetValue {
        return this.name === 'unique' && Array.isArray(v) ? uniq(v) : v;
    }

    /** Merges a higher-precedence value `e1` with a lower one `e2`. */
    merge(e1: PuppetValue, e2: PuppetValue): PuppetValue {
        switch (this.name) {
            case 'first': return e1;
            case 'hash': {
                const h1 = assertHash('The first element of the merge', e1);
                const h2 = assertHash('The second element of the merge', e2);
                // Ruby e2.merge(e1): e2's key order, e1's values win, e1's new keys appended.
                const out = new Map(h2);
                for (const [k, v] of h1) out.set(k, v);
                return out;
            }
            case 'unique':
                assertUniqueValue('The first element of the merge', e1);
                assertUniqueValue('The second element of the merge', e2);
                return union(this.convertValue(e1) as PuppetValue[], this.convertValue(e2) as PuppetValue[]);
            case 'deep':
                return deepMerge(e1, copyValue(e2), this.deep);
        }
    }
}

function assertHash(what: string, v: PuppetValue): Map<PuppetValue, PuppetValue> {
    if (v instanceof Map) return v;
    throw new LookupError(`${what} has wrong type, expects a Hash value, got ${typeName(v)}`, { code: BindingsIssues.LOOKUP_MERGE_TYPE, puppetClass: 'Puppet::Pops::Types::TypeAssertionError' });
}

function assertUniqueValue(what: string, v: PuppetValue): void {
    if (v instanceof Map) {
        throw new LookupError(`${what} has wrong type, expects a value of type Scalar or Array, got Hash`, { code: BindingsIssues.LOOKUP_MERGE_TYPE, puppetClass: 'Puppet::Pops::Types::TypeAssertionError' });
    }
}

function typeName(v: PuppetValue): string {
    // The type asserter describes the inferred type: a non-empty array is a Tuple.
    if (Array.isArray(v) && v.length > 0) return 'Tuple';
    return dataClassName(v) ?? (v instanceof PSensitive ? 'Sensitive' : 'Object');
}

/** Structural equality with Ruby eql? semantics (1 and 1.0 differ). */
export function valueEquals(a: PuppetValue, b: PuppetValue): boolean {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => valueEquals(x, b[i]));
    if (a instanceof Map) {
        if (!(b instanceof Map) || a.size !== b.size) return false;
        for (const [k, v] of a) {
            if (!b.has(k) || !valueEquals(v, b.get(k) as PuppetValue)) return false;
        }
        return true;
    }
    if (a instanceof PSensitive && b instanceof PSensitive) return valueEquals(a.value, b.value);
    return false;
}

function indexOfValue(list: readonly PuppetValue[], v: PuppetValue): number {
    for (let i = 0; i < list.length; i++) if (valueEquals(list[i], v)) return i;
    return -1;
}

function uniq(list: readonly PuppetValue[]): PuppetValue[] {
    const out: PuppetValue[] = [];
    for (const x of list) if (indexOfValue(out, x) < 0) out.push(x);
    return out;
}

/** Ruby Array#|: elements of a then b, duplicates removed, first occurrence kept. */
function union(a: readonly PuppetValue[], b: readonly PuppetValue[]): PuppetValue[] {
    return uniq([...a, ...b]);
}

function flatten(list: readonly PuppetValue[]): PuppetValue[] {
    return list.flatMap(x => Array.isArray(x) ? flatten(x) : [x]);
}

/** Ruby truthiness: only nil and false are false (DeepMerge tests `if dest[key]`). */
function truthy(v: PuppetValue | undefined): boolean {
    return v !== undefined && v !== null && v !== false;
}

/**
 * The deep_merge gem's `deep_merge!(source, dest)` with Puppet's options (overwrite
 * unmergeables, knockout prefix, sort/merge-hash arrays). `dest` is a private copy and is
 * modified; the result keeps dest's key order with source's new keys appended.
 */
function deepMerge(source: PuppetValue, dest: PuppetValue, o: DeepMergeOptions): PuppetValue {
    const ko = o.knockoutPrefix;
    if (ko === '') throw new LookupError('knockout_prefix cannot be an empty string in deep_merge!', { code: BindingsIssues.LOOKUP_BAD_MERGE });
    if (source === null) return dest;
    if (!truthy(dest)) return source;
    if (source instanceof Map) {
        for (const [k, sv] of source) {
            if (dest instanceof Map) {
                if (truthy(dest.get(k))) dest.set(k, deepMerge(sv, dest.get(k) as PuppetValue, o));
                else dest.set(k, deepMerge(sv, copyValue(sv), o));
            } else {
                dest = overwriteUnmergeables(source, o);
            }
        }
        return dest;
    }
    if (Array.isArray(source)) {
        // Ruby deletes knocked-out entries from `source` in place (it is the higher-precedence
        // value, a fresh copy from interpolation); explanations show the edited value.
        const src = source;
        if (ko !== undefined && src.some(x => x === ko)) {
            dest = Array.isArray(dest) ? [] : (dest instanceof Map ? new Map() : null);
            removeWhere(src, x => x === ko);
        }
        if (Array.isArray(dest)) {
            let d: PuppetValue[] = dest;
            if (ko !== undefined) {
                const re = knockoutRegExp(ko);
                removeWhere(src, item => {
                    if (typeof item !== 'string') return false;
                    const stripped = item.replace(re, '');
                    if (stripped === item) return false;
                    d = d.filter(x => !valueEquals(x, stripped) && !valueEquals(x, item));
                    return true;
                });
            }
            const allHashes = (l: PuppetValue[]): boolean => l.every(x => x instanceof Map);
            if (o.mergeHashArrays && allHashes(src) && allHashes(d)) {
                const list: PuppetValue[] = d.map((x, i) => deepMerge(src[i] ?? new Map(), x, o));
                if (src.length > d.length) list.push(...src.slice(d.length));
                d = list;
            } else {
                d = union(d, src);
            }
            if (o.sortMergedArrays) d.sort(rubyCompare);
            return d;
        }
        return overwriteUnmergeables(src, o);
    }
    return overwriteUnmergeables(source, o);
}

/** Array#delete_if: removes matching elements in place. */
function removeWhere(list: PuppetValue[], test: (x: PuppetValue) => boolean): void {
    let j = 0;
    for (const x of list) if (!test(x)) list[j++] = x;
    list.length = j;
}

/** Ruby interpolates the prefix into a regexp, and `^` matches at every line start. */
function knockoutRegExp(prefix: string): RegExp {
    return new RegExp(`^${prefix}`, 'gm');
}

/** DeepMerge.overwrite_unmergeables: the source replaces dest, knockout strings becoming "". */
function overwriteUnmergeables(source: PuppetValue, o: DeepMergeOptions): PuppetValue {
    if (o.knockoutPrefix === undefined) return source;
    const re = knockoutRegExp(o.knockoutPrefix);
    if (typeof source === 'string') {
        const tmp = source.replace(re, '');
        return tmp === source ? source : '';
    }
    if (Array.isArray(source)) {
        // delete_if edits source in place, so Ruby's comparison afterwards is with itself.
        const test = new RegExp(`^${o.knockoutPrefix}`, 'm');
        removeWhere(source, x => typeof x === 'string' && test.test(x));
        return source;
    }
    return source;
}

/** Array#sort with Ruby's <=>: numbers numerically, strings by bytes, mixed types fail. */
function rubyCompare(a: PuppetValue, b: PuppetValue): number {
    const num = (x: PuppetValue): x is number | bigint => typeof x === 'number' || typeof x === 'bigint';
    if (num(a) && num(b)) return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
    throw new LookupError(`comparison of ${typeName(a)} with ${typeName(b)} failed`, { code: BindingsIssues.LOOKUP_MERGE_TYPE, puppetClass: 'ArgumentError' });
}
