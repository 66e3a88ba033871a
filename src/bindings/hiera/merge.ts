import { copyValue, PBinary, PSensitive, type PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { LookupError } from './errors.js';
import { rubyInspect, rubyToS } from './ruby-format.js';
import { rubyClassName } from './lookup-key.js';
import { isInstanceOf, typeAssertionMessage } from './type-support.js';
import { NOT_FOUND, type Found } from './lookup-key.js';

export type MergeStrategyName = 'first' | 'unique' | 'hash' | 'deep' | 'unconstrained_deep' | 'reverse_deep';

export interface DeepMergeOptions {
    readonly knockoutPrefix?: string;
    readonly sortMergedArrays?: boolean;
    readonly mergeHashArrays?: boolean;
}

/** Each strategy's name as `merge` gives it, and the type its options hash must match (MergeStrategy.options_t). */
const STRATEGIES: Readonly<Record<string, { readonly name: MergeStrategyName; readonly options: string }>> = {
    first: { name: 'first', options: 'Struct[{strategy=>Optional[Pattern[/first/]]}]' },
    default: { name: 'first', options: 'Struct[{strategy=>Optional[Pattern[/default/]]}]' },
    unique: { name: 'unique', options: 'Struct[{strategy=>Optional[Pattern[/unique/]]}]' },
    hash: { name: 'hash', options: 'Struct[{strategy=>Optional[Pattern[/hash/]]}]' },
    deep: {
        name: 'deep',
        options: 'Struct[{strategy=>Optional[Pattern[deep]],knockout_prefix=>Optional[String],merge_debug=>Optional[Boolean],merge_hash_arrays=>Optional[Boolean],sort_merged_arrays=>Optional[Boolean]}]'
    },
    unconstrained_deep: { name: 'unconstrained_deep', options: 'Hash[String[1],Any]' },
    reverse_deep: { name: 'reverse_deep', options: 'Hash[String[1],Any]' }
};

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
     * MergeStrategy.strategy(merge): a name, or a hash with 'strategy' and options checked against
     * the strategy's options type; unset means first found.
     */
    static from(merge: PuppetValue | MergeStrategy | undefined): MergeStrategy {
        if (merge === undefined || merge === null) return MergeStrategy.FIRST;
        if (merge instanceof MergeStrategy) return merge;
        let name: PuppetValue | undefined = merge;
        let options: Map<PuppetValue, PuppetValue> | undefined;
        if (merge instanceof Map) {
            name = merge.get('strategy');
            if (name === undefined || name === null) {
                throw new LookupError("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'", { code: BindingsIssues.LOOKUP_BAD_MERGE, puppetClass: 'ArgumentError' });
            }
            options = merge.size > 1 ? merge : undefined;
        }
        const known = typeof name === 'string' && Object.hasOwn(STRATEGIES, name) ? STRATEGIES[name] : undefined;
        if (known === undefined) {
            throw new LookupError(`Unknown merge strategy: '${rubyToS(name)}'`, { code: BindingsIssues.LOOKUP_BAD_MERGE, puppetClass: 'ArgumentError' });
        }
        if (!options) {
            if (known.name === 'first') return MergeStrategy.FIRST;
            if (known.name === 'unique') return MergeStrategy.UNIQUE;
            if (known.name === 'hash') return MergeStrategy.HASH;
            if (known.name === 'deep') return MergeStrategy.DEEP;
            return new MergeStrategy(known.name);
        }
        assertValue('The merge options', known.options, options);
        const given = new Map([...options].filter(([k]) => k !== 'strategy'));
        if (known.name === 'first' || known.name === 'unique' || known.name === 'hash') return new MergeStrategy(known.name, {}, given);
        const ko = options.get('knockout_prefix');
        return new MergeStrategy(known.name, {
            knockoutPrefix: typeof ko === 'string' ? ko : undefined,
            sortMergedArrays: options.get('sort_merged_arrays') === true,
            mergeHashArrays: options.get('merge_hash_arrays') === true
        }, given);
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
            case 'deep': case 'unconstrained_deep':
                return deepMerge(e1, copyValue(e2), this.deep);
            case 'reverse_deep':
                return deepMerge(e2, copyValue(e1), this.deep);
        }
    }
}

/** MergeStrategy#assert_type: the value must be an instance of the strategy's value type. */
function assertValue(what: string, type: string, v: PuppetValue): void {
    if (isInstanceOf(type, v)) return;
    throw new LookupError(typeAssertionMessage(what, type, v), { code: BindingsIssues.LOOKUP_MERGE_TYPE, puppetClass: 'Puppet::Pops::Types::TypeAssertionError' });
}

function assertHash(what: string, v: PuppetValue): Map<PuppetValue, PuppetValue> {
    assertValue(what, 'Hash[String,Data]', v);
    return v as Map<PuppetValue, PuppetValue>;
}

function assertUniqueValue(what: string, v: PuppetValue): void {
    assertValue(what, 'Variant[Scalar,Array[Data]]', v);
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
    if (a instanceof PBinary && b instanceof PBinary) return Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
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
            if (o.sortMergedArrays) rubySort(d);
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

/**
 * Array#sort! as Ruby on glibc runs it: qsort_r is glibc's merge sort (halves of n/2 and the
 * rest, merged taking the left element while it compares <= 0), so the first failing
 * comparison, which names its operands, is the one Ruby meets.
 */
function rubySort(list: PuppetValue[]): void {
    const sorted = mergeSort(list);
    for (let i = 0; i < sorted.length; i++) list[i] = sorted[i];
}

function mergeSort(b: readonly PuppetValue[]): PuppetValue[] {
    if (b.length <= 1) return [...b];
    const n1 = Math.floor(b.length / 2);
    const left = mergeSort(b.slice(0, n1));
    const right = mergeSort(b.slice(n1));
    const out: PuppetValue[] = [];
    let i = 0;
    let j = 0;
    while (i < left.length && j < right.length) out.push(rubyCompare(left[i], right[j]) <= 0 ? left[i++] : right[j++]);
    return [...out, ...left.slice(i), ...right.slice(j)];
}

/** Ruby's `a <=> b` for data: numbers numerically, strings by bytes, arrays element-wise, equal others 0. */
function spaceship(a: PuppetValue, b: PuppetValue): number | undefined {
    const num = (x: PuppetValue): x is number | bigint => typeof x === 'number' || typeof x === 'bigint';
    if (num(a) && num(b)) return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
    if (Array.isArray(a) && Array.isArray(b)) {
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
            const c = spaceship(a[i], b[i]);
            if (c !== 0) return c;
        }
        return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
    }
    return valueEquals(a, b) ? 0 : undefined;
}

/** Ruby's comparison for sort; a failed one raises rb_cmperr's "comparison of A with B failed". */
function rubyCompare(a: PuppetValue, b: PuppetValue): number {
    const c = spaceship(a, b);
    if (c !== undefined) return c;
    throw new LookupError(`comparison of ${rubyClassName(a)} with ${cmperrOperand(b)} failed`, { code: BindingsIssues.LOOKUP_MERGE_TYPE, puppetClass: 'ArgumentError' });
}

/** rb_cmperr names the right operand by inspect when it is an immediate (nil, booleans, small integers) or a Float, else by class. */
function cmperrOperand(b: PuppetValue): string {
    const fixnum = typeof b === 'bigint' && b >= -(2n ** 62n) && b < 2n ** 62n;
    if (b === null || typeof b === 'boolean' || fixnum || typeof b === 'number') return rubyInspect(b);
    return rubyClassName(b);
}
