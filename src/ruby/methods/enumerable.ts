import { inspect } from '../inspect.js';
import { REnumerator, RObject, RRange, rubyError, truthy, type CallSite, type Method, type RProc, type RValue } from '../objects.js';
import { compare, rEql } from '../compare.js';
import { arity, enumerator, int, needBlock, num, rangeItems } from './support.js';

/** The values an Enumerable yields: an Array's elements, a Hash's [key, value] pairs, a Range's members. */
export function itemsOf(self: RValue): RValue[] {
    if (Array.isArray(self)) return self;
    if (self instanceof Map) return [...self].map(([k, v]) => [k, v]);
    if (self instanceof RRange) return rangeItems(self);
    if (self instanceof REnumerator) return self.items;
    throw rubyError('TypeError', `${inspect(self)} is not enumerable`);
}

export function sortValues(items: RValue[], call: CallSite, block?: RProc): RValue[] {
    const cmp = (a: RValue, b: RValue): number => {
        const c = block ? call.yield(block, [a, b]) : spaceship(a, b, call);
        if (c === null || (block && typeof c !== 'bigint' && typeof c !== 'number')) {
            throw rubyError('ArgumentError', `comparison of ${className(a)} with ${b === null ? 'nil' : className(b)} failed`);
        }
        return Number(c);
    };
    // A stable merge sort: Ruby's sort is not stable, but for distinct keys the order is the same.
    return mergeSort([...items], cmp);
}

function className(v: RValue): string {
    if (v === null) return 'NilClass';
    if (typeof v === 'string') return 'String';
    if (typeof v === 'bigint') return 'Integer';
    if (typeof v === 'number') return 'Float';
    if (Array.isArray(v)) return 'Array';
    if (v instanceof Map) return 'Hash';
    return inspect(v);
}
const inspectShort = (v: RValue): string => (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' ? inspect(v) : className(v));

function mergeSort<T>(a: T[], cmp: (x: T, y: T) => number): T[] {
    if (a.length < 2) return a;
    const mid = a.length >> 1;
    const l = mergeSort(a.slice(0, mid), cmp);
    const r = mergeSort(a.slice(mid), cmp);
    const out: T[] = [];
    let i = 0;
    let j = 0;
    while (i < l.length && j < r.length) out.push(cmp(l[i], r[j]) <= 0 ? l[i++] : r[j++]);
    return out.concat(l.slice(i), r.slice(j));
}

export function sortBy(items: RValue[], call: CallSite, block: RProc): RValue[] {
    const keyed = items.map(x => ({ key: call.yield(block, [x]), value: x }));
    return mergeSort(keyed, (a, b) => {
        const c = spaceship(a.key, b.key, call);
        if (c === null) throw rubyError('ArgumentError', `comparison of ${className(a.key)} with ${inspectShort(b.key)} failed`);
        return c;
    }).map(k => k.value);
}

export function uniqValues(items: RValue[], call?: CallSite, block?: RProc): RValue[] {
    const out: RValue[] = [];
    const keys: RValue[] = [];
    for (const x of items) {
        const k = block && call ? call.yield(block, [x]) : x;
        if (!keys.some(seen => rEql(seen, k))) { keys.push(k); out.push(x); }
    }
    return out;
}

export function flatten(items: RValue[], depth: number): RValue[] {
    const out: RValue[] = [];
    for (const x of items) {
        if (Array.isArray(x) && depth !== 0) out.push(...flatten(x, depth - 1));
        else out.push(x);
    }
    return out;
}

function sum(items: RValue[], init: RValue, call: CallSite): RValue {
    let acc = init;
    for (const x of items) acc = call.send(acc, '+', [x]);
    return acc;
}

function minMax(items: RValue[], call: CallSite, sign: 1 | -1, block?: RProc, by?: RProc, n?: RValue): RValue {
    const cmp = (a: RValue, b: RValue): number => {
        if (by) return compareOrFail(call.yield(by, [a]), call.yield(by, [b]), call);
        if (block) return Number(call.yield(block, [a, b]));
        return compareOrFail(a, b, call);
    };
    if (n !== undefined && n !== null) {
        const sorted = mergeSort([...items], (a, b) => sign * cmp(a, b));
        return sorted.slice(0, num(n));
    }
    let best: RValue | undefined;
    for (const x of items) if (best === undefined || sign * cmp(x, best) < 0) best = x;
    return best ?? null;
}

/** `a <=> b`: the built-in order, or the object's own `<=>` (a Comparable class of plugin code). */
export function spaceship(a: RValue, b: RValue, call: CallSite): number | null {
    if (!(a instanceof RObject)) return compare(a, b);
    const r = call.send(a, '<=>', [b]);
    return typeof r === 'bigint' || typeof r === 'number' ? Number(r) : null;
}

function compareOrFail(a: RValue, b: RValue, call: CallSite): number {
    const c = spaceship(a, b, call);
    if (c === null) throw rubyError('ArgumentError', `comparison of ${className(a)} with ${inspectShort(b)} failed`);
    return c;
}

/** Methods every Enumerable has, over `itemsOf(self)`; classes override what differs (Hash#select returns a Hash). */
export const enumerableMethods: Record<string, Method> = {
    to_a: self => [...itemsOf(self)],
    entries: self => [...itemsOf(self)],
    each_entry: (self, _a, block, call) => { for (const x of itemsOf(self)) call.yield(block!, [x]); return self; },
    map: (self, _a, block, call) => (block ? itemsOf(self).map(x => call.yield(block, [x])) : enumerator(itemsOf(self), 'map', r => r)),
    flat_map: (self, _a, block, call) => (block ? flatten(itemsOf(self).map(x => call.yield(block, [x])), 1) : enumerator(itemsOf(self), 'flat_map', r => flatten(r, 1))),
    select: (self, _a, block, call) => (block ? itemsOf(self).filter(x => truthy(call.yield(block, [x]))) : enumerator(itemsOf(self), 'select', (r, it) => it.filter((_x, i) => truthy(r[i])))),
    reject: (self, _a, block, call) => (block ? itemsOf(self).filter(x => !truthy(call.yield(block, [x]))) : enumerator(itemsOf(self), 'reject', (r, it) => it.filter((_x, i) => !truthy(r[i])))),
    filter_map: (self, _a, block, call) => itemsOf(self).map(x => call.yield(block!, [x])).filter(truthy),
    partition: (self, _a, block, call) => {
        const yes: RValue[] = [];
        const no: RValue[] = [];
        for (const x of itemsOf(self)) (truthy(call.yield(block!, [x])) ? yes : no).push(x);
        return [yes, no];
    },
    group_by: (self, _a, block, call) => {
        const h = new Map<RValue, RValue>();
        for (const x of itemsOf(self)) {
            const k = call.yield(block!, [x]);
            let key: RValue = k;
            for (const existing of h.keys()) if (rEql(existing, k)) key = existing;
            const list = (h.get(key) as RValue[] | undefined) ?? [];
            list.push(x);
            h.set(key, list);
        }
        return h;
    },
    each_with_index: (self, _a, block, call) => {
        if (!block) return enumerator(itemsOf(self).map((x, i) => [x, BigInt(i)]), 'each_with_index', () => self);
        itemsOf(self).forEach((x, i) => call.yield(block, [x, BigInt(i)]));
        return self;
    },
    each_with_object: (self, args, block, call) => {
        arity(args, 1);
        for (const x of itemsOf(self)) call.yield(block!, [x, args[0]]);
        return args[0];
    },
    each_slice: (self, args, block, call) => {
        arity(args, 1);
        const n = num(args[0]);
        if (n <= 0) throw rubyError('ArgumentError', 'invalid slice size');
        const items = itemsOf(self);
        const slices: RValue[] = [];
        for (let i = 0; i < items.length; i += n) slices.push(items.slice(i, i + n));
        if (!block) return enumerator(slices, 'each_slice', () => self);
        for (const s of slices) call.yield(block, [s]);
        return self;
    },
    each_cons: (self, args, block, call) => {
        arity(args, 1);
        const n = num(args[0]);
        const items = itemsOf(self);
        const groups: RValue[] = [];
        for (let i = 0; i + n <= items.length; i++) groups.push(items.slice(i, i + n));
        if (!block) return enumerator(groups, 'each_cons', () => self);
        for (const g of groups) call.yield(block, [g]);
        return self;
    },
    inject: (self, args, block, call) => {
        const items = [...itemsOf(self)];
        let op: string | undefined;
        let acc: RValue | undefined;
        if (args.length === 2) { acc = args[0]; op = symName(args[1]); } else if (args.length === 1 && !block) op = symName(args[0]); else if (args.length === 1) acc = args[0];
        if (acc === undefined) { if (items.length === 0) return null; acc = items.shift()!; }
        for (const x of items) acc = op ? call.send(acc, op, [x]) : call.yield(block!, [acc, x]);
        return acc;
    },
    sum: (self, args, block, call) => sum(block ? itemsOf(self).map(x => call.yield(block, [x])) : itemsOf(self), args[0] ?? 0n, call),
    count: (self, args, block, call) => {
        const items = itemsOf(self);
        if (args.length > 0) return BigInt(items.filter(x => call.send(x, '==', [args[0]]) === true).length);
        if (block) return BigInt(items.filter(x => truthy(call.yield(block, [x]))).length);
        return BigInt(items.length);
    },
    find: (self, _a, block, call) => itemsOf(self).find(x => truthy(call.yield(block!, [x]))) ?? null,
    find_index: (self, args, block, call) => {
        const i = itemsOf(self).findIndex(x => (args.length > 0 ? call.send(x, '==', [args[0]]) === true : truthy(call.yield(block!, [x]))));
        return i < 0 ? null : BigInt(i);
    },
    find_all: (self, a, block, call) => enumerableMethods.select(self, a, block, call),
    grep: (self, args, block, call) => itemsOf(self).filter(x => call.caseEquals(args[0] ?? null, x)).map(x => (block ? call.yield(block, [x]) : x)),
    grep_v: (self, args, block, call) => itemsOf(self).filter(x => !call.caseEquals(args[0] ?? null, x)).map(x => (block ? call.yield(block, [x]) : x)),
    any: (self, args, block, call) => itemsOf(self).some(x => (args.length > 0 ? call.caseEquals(args[0], x) : block ? truthy(call.yield(block, [x])) : truthy(x))),
    all: (self, args, block, call) => itemsOf(self).every(x => (args.length > 0 ? call.caseEquals(args[0], x) : block ? truthy(call.yield(block, [x])) : truthy(x))),
    none: (self, args, block, call) => !itemsOf(self).some(x => (args.length > 0 ? call.caseEquals(args[0], x) : block ? truthy(call.yield(block, [x])) : truthy(x))),
    one: (self, args, block, call) => itemsOf(self).filter(x => (args.length > 0 ? call.caseEquals(args[0], x) : block ? truthy(call.yield(block, [x])) : truthy(x))).length === 1,
    include: (self, args, _b, call) => { arity(args, 1); return itemsOf(self).some(x => call.equals(x, args[0])); },
    first: (self, args) => {
        arity(args, 0, 1);
        const items = itemsOf(self);
        if (args.length === 0) return items[0] ?? null;
        const n = num(args[0]);
        if (n < 0) throw rubyError('ArgumentError', 'negative array size');
        return items.slice(0, n);
    },
    min: (self, args, block, call) => minMax(itemsOf(self), call, 1, block, undefined, args[0]),
    max: (self, args, block, call) => minMax(itemsOf(self), call, -1, block, undefined, args[0]),
    min_by: (self, args, block, call) => minMax(itemsOf(self), call, 1, undefined, block, args[0]),
    max_by: (self, args, block, call) => minMax(itemsOf(self), call, -1, undefined, block, args[0]),
    minmax: (self, _a, block, call) => [minMax(itemsOf(self), call, 1, block), minMax(itemsOf(self), call, -1, block)],
    sort: (self, _a, block, call) => sortValues(itemsOf(self), call, block),
    sort_by: (self, _a, block, call) => sortBy(itemsOf(self), call, needBlock(block)),
    uniq: (self, _a, block, call) => uniqValues(itemsOf(self), call, block),
    zip: (self, args) => itemsOf(self).map((x, i) => [x, ...args.map(a => itemsOf(a)[i] ?? null)]),
    take: (self, args) => itemsOf(self).slice(0, num(args[0])),
    drop: (self, args) => itemsOf(self).slice(num(args[0])),
    take_while: (self, _a, block, call) => { const out: RValue[] = []; for (const x of itemsOf(self)) { if (!truthy(call.yield(block!, [x]))) break; out.push(x); } return out; },
    drop_while: (self, _a, block, call) => { const items = itemsOf(self); let i = 0; while (i < items.length && truthy(call.yield(block!, [items[i]]))) i++; return items.slice(i); },
    tally: self => {
        const h = new Map<RValue, RValue>();
        for (const x of itemsOf(self)) h.set(x, ((h.get(x) as bigint | undefined) ?? 0n) + 1n);
        return h;
    },
    to_h: (self, _a, block, call) => {
        const h = new Map<RValue, RValue>();
        for (const x of itemsOf(self)) {
            const pair = block ? call.yield(block, [x]) : x;
            if (!Array.isArray(pair) || pair.length !== 2) throw rubyError('TypeError', `wrong element type ${className(pair)} (expected array)`);
            h.set(pair[0], pair[1]);
        }
        return h;
    },
    to_set: self => uniqValues(itemsOf(self)),
    reverse_each: (self, _a, block, call) => { for (const x of [...itemsOf(self)].reverse()) call.yield(block!, [x]); return self; },
    chunk_while: (self, _a, block, call) => {
        const items = itemsOf(self);
        const out: RValue[][] = [];
        items.forEach((x, i) => { if (i === 0 || !truthy(call.yield(block!, [items[i - 1], x]))) out.push([x]); else out[out.length - 1].push(x); });
        return out;
    },
    with_index: (self, args, block, call) => {
        const offset = args.length > 0 && args[0] !== null ? int(args[0]) : 0n;
        if (!(self instanceof REnumerator)) throw rubyError('NoMethodError', 'with_index');
        const results = self.items.map((x, i) => call.yield(block!, [x, BigInt(i) + offset]));
        return self.finish(results, self.items);
    },
    with_object: (self, args, block, call) => {
        for (const x of itemsOf(self)) call.yield(block!, [x, args[0]]);
        return args[0];
    }
};
enumerableMethods.collect = enumerableMethods.map;
enumerableMethods.collect_concat = enumerableMethods.flat_map;
enumerableMethods.filter = enumerableMethods.select;
enumerableMethods.detect = enumerableMethods.find;
enumerableMethods.reduce = enumerableMethods.inject;
enumerableMethods['any?'] = enumerableMethods.any;
enumerableMethods['all?'] = enumerableMethods.all;
enumerableMethods['none?'] = enumerableMethods.none;
enumerableMethods['one?'] = enumerableMethods.one;
enumerableMethods['include?'] = enumerableMethods.include;
enumerableMethods['member?'] = enumerableMethods.include;
delete enumerableMethods.any;
delete enumerableMethods.all;
delete enumerableMethods.none;
delete enumerableMethods.one;
delete enumerableMethods.include;

function symName(v: RValue): string {
    if (typeof v === 'string') return v;
    if (v !== null && typeof v === 'object' && 'name' in v && typeof (v as { name: unknown }).name === 'string') return (v as { name: string }).name;
    throw rubyError('TypeError', `${inspect(v)} is not a symbol nor a string`);
}
