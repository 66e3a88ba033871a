import { RRange, rubyError, truthy, type Method, type RValue } from '../objects.js';
import { compare, rEql } from '../compare.js';
import { inspect } from '../inspect.js';
import { enumerableMethods, flatten, sortBy, sortValues, uniqValues } from './enumerable.js';
import { arity, arr, enumerator, needBlock, num, str } from './support.js';
import { asBinary, isBinary, pack } from './binary.js';

const A = (v: RValue): RValue[] => v as RValue[];

/** Normalizes a (possibly negative) index; undefined when out of range. */
function index(len: number, i: RValue): number {
    const n = num(i);
    return n < 0 ? len + n : n;
}

/** `a[i]`, `a[start, length]`, `a[range]` (shared with String#[] through `slice`). */
export function sliceOf<T>(items: T[], args: RValue[], whole: (part: T[]) => RValue, single: (x: T) => RValue): RValue {
    arity(args, 1, 2);
    const len = items.length;
    if (args.length === 2) {
        const start = index(len, args[0]);
        const count = num(args[1]);
        if (start < 0 || start > len || count < 0) return null;
        return whole(items.slice(start, start + count));
    }
    const a = args[0];
    if (a instanceof RRange) {
        const start = a.from === null ? 0 : index(len, a.from);
        let end = a.to === null ? len - 1 : index(len, a.to);
        if (a.exclusive && a.to !== null) end--;
        if (start < 0 || start > len) return null;
        return whole(items.slice(start, Math.max(start, end + 1)));
    }
    const i = index(len, a);
    return i < 0 || i >= len ? null : single(items[i]);
}

function join(items: RValue[], sep: string, toS: (v: RValue) => string, seen = new Set<RValue[]>()): string {
    return items.map(x => {
        if (Array.isArray(x)) {
            if (seen.has(x)) throw rubyError('ArgumentError', 'recursive array join');
            seen.add(x);
            return join(x, sep, toS, seen);
        }
        return toS(x);
    }).join(sep);
}

export const arrayMethods: Record<string, Method> = {
    ...enumerableMethods,
    each: (self, _a, block, call) => {
        if (!block) return enumerator(A(self), 'each', () => self);
        for (let i = 0; i < A(self).length; i++) call.yield(block, [A(self)[i]]);
        return self;
    },
    each_index: (self, _a, block, call) => { A(self).forEach((_x, i) => call.yield(needBlock(block), [BigInt(i)])); return self; },
    length: self => BigInt(A(self).length),
    size: self => BigInt(A(self).length),
    'empty?': self => A(self).length === 0,
    'any?': (self, args, block, call) => (args.length === 0 && !block ? A(self).some(truthy) : (enumerableMethods['any?'](self, args, block, call))),
    '[]': (self, args) => sliceOf(A(self), args, part => part, x => x),
    slice: (self, args) => sliceOf(A(self), args, part => part, x => x),
    // What slice gives, taken out of the array: the positions are the slice's own.
    'slice!': (self, args) => {
        const a = A(self);
        const positions: number[] = [];
        const taken = sliceOf(a.map((_x, i) => i), args, part => { positions.push(...part); return part.map(i => a[i]); }, i => { positions.push(i); return a[i]; });
        for (const i of positions.sort((x, y) => y - x)) a.splice(i, 1);
        return taken;
    },
    at: (self, args) => sliceOf(A(self), [args[0]], p => p, x => x),
    '[]=': (self, args) => {
        arity(args, 2, 3);
        const a = A(self);
        const value = args[args.length - 1];
        if (args.length === 3 || args[0] instanceof RRange) {
            let start: number;
            let count: number;
            if (args.length === 3) { start = index(a.length, args[0]); count = num(args[1]); } else {
                const r = args[0] as RRange;
                start = index(a.length, r.from ?? 0n);
                const end = r.to === null ? a.length - 1 : index(a.length, r.to) - (r.exclusive ? 1 : 0);
                count = Math.max(0, end - start + 1);
            }
            while (a.length < start) a.push(null);
            a.splice(start, count, ...(Array.isArray(value) ? value : [value]));
            return value;
        }
        const i = index(a.length, args[0]);
        if (i < 0) throw rubyError('IndexError', `index ${num(args[0])} too small for array; minimum: -${a.length}`);
        while (a.length < i) a.push(null);
        a[i] = value;
        return value;
    },
    dig: (self, args, _b, call) => {
        let v: RValue = call.send(self, '[]', [args[0]]);
        for (const k of args.slice(1)) { if (v === null) return null; v = call.send(v, 'dig', [k]); }
        return v;
    },
    fetch: (self, args, block, call) => {
        arity(args, 1, 2);
        const a = A(self);
        const i = index(a.length, args[0]);
        if (i >= 0 && i < a.length) return a[i];
        if (block) return call.yield(block, [args[0]]);
        if (args.length === 2) return args[1];
        throw rubyError('IndexError', `index ${num(args[0])} outside of array bounds: ${-a.length}...${a.length}`);
    },
    last: (self, args) => (args.length === 0 ? A(self)[A(self).length - 1] ?? null : A(self).slice(Math.max(0, A(self).length - num(args[0])))),
    push: (self, args) => { A(self).push(...args); return self; },
    append: (self, args) => { A(self).push(...args); return self; },
    '<<': (self, args) => { arity(args, 1); A(self).push(args[0]); return self; },
    pop: (self, args) => (args.length ? A(self).splice(Math.max(0, A(self).length - num(args[0]))) : A(self).pop() ?? null),
    shift: (self, args) => (args.length ? A(self).splice(0, num(args[0])) : A(self).shift() ?? null),
    unshift: (self, args) => { A(self).unshift(...args); return self; },
    prepend: (self, args) => { A(self).unshift(...args); return self; },
    insert: (self, args) => { A(self).splice(index(A(self).length + 1, args[0]), 0, ...args.slice(1)); return self; },
    concat: (self, args) => { for (const a of args) A(self).push(...arr(a)); return self; },
    '+': (self, args) => { arity(args, 1); return [...A(self), ...arr(args[0])]; },
    '-': (self, args) => { arity(args, 1); const other = arr(args[0]); return A(self).filter(x => !other.some(y => rEql(x, y))); },
    difference: (self, args) => A(self).filter(x => !args.some(o => arr(o).some(y => rEql(x, y)))),
    '*': (self, args, _b, call) => {
        arity(args, 1);
        if (typeof args[0] === 'string') return join(A(self), args[0], v => call.toS(v));
        const n = num(args[0]);
        if (n < 0) throw rubyError('ArgumentError', 'negative argument');
        return Array.from({ length: n }, () => A(self)).flat();
    },
    '&': (self, args, _b, call) => uniqValues(A(self).filter(x => arr(args[0]).some(y => rEql(x, y))), call),
    intersection: (self, args, _b, call) => uniqValues(A(self).filter(x => args.every(o => arr(o).some(y => rEql(x, y)))), call),
    '|': (self, args, _b, call) => uniqValues([...A(self), ...arr(args[0])], call),
    union: (self, args, _b, call) => uniqValues([...A(self), ...args.flatMap(arr)], call),
    '<=>': (self, args) => { const c = Array.isArray(args[0]) ? compare(self, args[0]) : null; return c === null ? null : BigInt(c); },
    join: (self, args, _b, call) => {
        arity(args, 0, 1);
        const sep = args.length === 0 || args[0] === null ? '' : str(args[0]);
        const joined = join(A(self), sep, v => call.toS(v));
        // Bytes joined with text stay bytes.
        return A(self).some(x => typeof x === 'string' && isBinary(x)) ? asBinary(joined) : joined;
    },
    reverse: self => [...A(self)].reverse(),
    rotate: (self, args) => { const a = A(self); if (a.length === 0) return []; const n = ((num(args[0] ?? 1n) % a.length) + a.length) % a.length; return [...a.slice(n), ...a.slice(0, n)]; },
    compact: self => A(self).filter(x => x !== null),
    flatten: (self, args) => flatten(A(self), args.length && args[0] !== null ? num(args[0]) : -1),
    'flatten!': (self, args) => { const f = flatten(A(self), args.length && args[0] !== null ? num(args[0]) : -1); A(self).splice(0, A(self).length, ...f); return self; },
    'compact!': self => { const before = A(self).length; const f = A(self).filter(x => x !== null); A(self).splice(0, before, ...f); return f.length === before ? null : self; },
    'uniq!': (self, _a, block, call) => { const before = A(self).length; const f = uniqValues(A(self), call, block); A(self).splice(0, before, ...f); return f.length === before ? null : self; },
    'sort!': (self, _a, block, call) => { const f = sortValues(A(self), call, block); A(self).splice(0, f.length, ...f); return self; },
    'sort_by!': (self, _a, block, call) => { const f = sortBy(A(self), call, needBlock(block)); A(self).splice(0, f.length, ...f); return self; },
    'map!': (self, _a, block, call) => { const a = A(self); for (let i = 0; i < a.length; i++) a[i] = call.yield(needBlock(block), [a[i]]); return self; },
    'collect!': (self, _a, block, call) => { const a = A(self); for (let i = 0; i < a.length; i++) a[i] = call.yield(needBlock(block), [a[i]]); return self; },
    // select!/reject! answer nil when nothing was removed (delete_if/keep_if always self).
    'select!': (self, _a, block, call) => { const before = A(self).length; const f = A(self).filter(x => truthy(call.yield(needBlock(block), [x]))); A(self).splice(0, before, ...f); return f.length === before ? null : self; },
    'filter!': (self, _a, block, call) => { const before = A(self).length; const f = A(self).filter(x => truthy(call.yield(needBlock(block), [x]))); A(self).splice(0, before, ...f); return f.length === before ? null : self; },
    'reject!': (self, _a, block, call) => { const before = A(self).length; const f = A(self).filter(x => !truthy(call.yield(needBlock(block), [x]))); A(self).splice(0, before, ...f); return f.length === before ? null : self; },
    delete_if: (self, _a, block, call) => { const f = A(self).filter(x => !truthy(call.yield(needBlock(block), [x]))); A(self).splice(0, A(self).length, ...f); return self; },
    keep_if: (self, _a, block, call) => { const f = A(self).filter(x => truthy(call.yield(needBlock(block), [x]))); A(self).splice(0, A(self).length, ...f); return self; },
    delete: (self, args, _b, call) => { const a = A(self); let found: RValue = null; for (let i = a.length - 1; i >= 0; i--) if (call.equals(a[i], args[0])) { found = a[i]; a.splice(i, 1); } return found; },
    delete_at: (self, args) => { const a = A(self); const i = index(a.length, args[0]); return i < 0 || i >= a.length ? null : a.splice(i, 1)[0]; },
    clear: self => { A(self).length = 0; return self; },
    index: (self, args, block, call) => { const i = A(self).findIndex(x => (args.length ? call.equals(x, args[0]) : truthy(call.yield(needBlock(block), [x])))); return i < 0 ? null : BigInt(i); },
    rindex: (self, args, block, call) => { const a = A(self); for (let i = a.length - 1; i >= 0; i--) if (args.length ? call.equals(a[i], args[0]) : truthy(call.yield(needBlock(block), [a[i]]))) return BigInt(i); return null; },
    values_at: (self, args) => args.map(i => sliceOf(A(self), [i], p => p, x => x)),
    assoc: (self, args, _b, call) => A(self).find(x => Array.isArray(x) && x.length > 0 && call.equals(x[0], args[0])) ?? null,
    transpose: self => { const a = A(self).map(arr); return a.length === 0 ? [] : a[0].map((_x, i) => a.map(r => r[i] ?? null)); },
    product: (self, args) => args.map(arr).reduce<RValue[][]>((acc, b) => acc.flatMap(p => b.map(x => [...p, x])), A(self).map(x => [x])),
    fill: (self, args) => { A(self).fill(args[0]); return self; },
    to_ary: self => self,
    to_a: self => self,
    to_s: self => inspect(self),
    inspect: self => inspect(self),
    hash: self => BigInt(inspect(self).length),
    sum: (self, args, block, call) => {
        let acc: RValue = args[0] ?? 0n;
        for (const x of A(self)) acc = call.send(acc, '+', [block ? call.yield(block, [x]) : x]);
        return acc;
    },
    '==': (self, args, _b, call) => call.equals(self, args[0]),
    'eql?': (self, args) => rEql(self, args[0]),
    sample: () => { throw rubyError('NotImplementedError', 'sample is random; templates must be deterministic'); },
    shuffle: () => { throw rubyError('NotImplementedError', 'shuffle is random; templates must be deterministic'); },
    cycle: () => { throw rubyError('NotImplementedError', 'cycle is not supported in templates'); },
    pack: (self, args) => pack(A(self), str(args[0] ?? '')),
    combination: (self, args) => {
        const n = num(args[0]);
        const out: RValue[] = [];
        const a = A(self);
        const rec = (start: number, acc: RValue[]): void => { if (acc.length === n) { out.push([...acc]); return; } for (let i = start; i < a.length; i++) rec(i + 1, [...acc, a[i]]); };
        rec(0, []);
        return out;
    }
};
