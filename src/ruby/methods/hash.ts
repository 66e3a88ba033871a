import { inspect } from '../inspect.js';
import { rubyError, truthy, type CallSite, type Method, type RHash, type RProc, type RValue } from '../objects.js';
import { findKey, rEql } from '../compare.js';
import { enumerableMethods, sortBy, sortValues } from './enumerable.js';
import { arity, enumerator, needBlock } from './support.js';

const H = (v: RValue): RHash => v as RHash;
const pairs = (h: RHash): RValue[] => [...h].map(([k, v]) => [k, v]);

function get(h: RHash, k: RValue): RValue | undefined {
    return findKey(h, k)?.[1];
}

/** Sets a key, reusing the stored key object when an `eql?` one exists. */
export function hashStore(h: RHash, k: RValue, v: RValue): void {
    const e = findKey(h, k);
    h.set(e ? e[0] : k, v);
}

const filterHash = (self: RValue, call: CallSite, block: RProc, keep: boolean): RHash => {
    const out: RHash = new Map();
    for (const [k, v] of H(self)) if (truthy(call.yield(block, [k, v])) === keep) out.set(k, v);
    return out;
};

export const hashMethods: Record<string, Method> = {
    ...enumerableMethods,
    each: (self, _a, block, call) => {
        if (!block) return enumerator(pairs(H(self)), 'each', () => self);
        for (const [k, v] of [...H(self)]) call.yield(block, [[k, v]]);
        return self;
    },
    each_key: (self, _a, block, call) => { for (const k of [...H(self).keys()]) call.yield(needBlock(block), [k]); return self; },
    each_value: (self, _a, block, call) => { for (const v of [...H(self).values()]) call.yield(needBlock(block), [v]); return self; },
    '[]': (self, args) => { arity(args, 1); return get(H(self), args[0]) ?? null; },
    '[]=': (self, args) => { arity(args, 2); hashStore(H(self), args[0], args[1]); return args[1]; },
    store: (self, args) => { arity(args, 2); hashStore(H(self), args[0], args[1]); return args[1]; },
    fetch: (self, args, block, call) => {
        arity(args, 1, 2);
        const v = get(H(self), args[0]);
        if (v !== undefined) return v;
        if (block) return call.yield(block, [args[0]]);
        if (args.length === 2) return args[1];
        throw rubyError('KeyError', `key not found: ${inspect(args[0])}`);
    },
    dig: (self, args, _b, call) => {
        let v: RValue = get(H(self), args[0]) ?? null;
        for (const k of args.slice(1)) { if (v === null) return null; v = call.send(v, 'dig', [k]); }
        return v;
    },
    key: (self, args, _b, call) => { for (const [k, v] of H(self)) if (call.equals(v, args[0])) return k; return null; },
    'key?': (self, args) => { arity(args, 1); return findKey(H(self), args[0]) !== undefined; },
    'value?': (self, args, _b, call) => [...H(self).values()].some(v => call.equals(v, args[0])),
    keys: self => [...H(self).keys()],
    values: self => [...H(self).values()],
    values_at: (self, args) => args.map(k => get(H(self), k) ?? null),
    fetch_values: (self, args, _b, call) => args.map(k => hashMethods.fetch(self, [k], undefined, call)),
    length: self => BigInt(H(self).size),
    size: self => BigInt(H(self).size),
    count: (self, args, block, call) => (args.length || block ? enumerableMethods.count(self, args, block, call) : BigInt(H(self).size)),
    'empty?': self => H(self).size === 0,
    select: (self, _a, block, call) => (block ? filterHash(self, call, block, true) : enumerator(pairs(H(self)), 'select', (r, it) => new Map(it.filter((_x, i) => truthy(r[i])).map(p => p as [RValue, RValue])))),
    reject: (self, _a, block, call) => (block ? filterHash(self, call, block, false) : enumerator(pairs(H(self)), 'reject', (r, it) => new Map(it.filter((_x, i) => !truthy(r[i])).map(p => p as [RValue, RValue])))),
    'select!': (self, _a, block, call) => { for (const [k, v] of [...H(self)]) if (!truthy(call.yield(needBlock(block), [k, v]))) H(self).delete(k); return self; },
    'reject!': (self, _a, block, call) => { for (const [k, v] of [...H(self)]) if (truthy(call.yield(needBlock(block), [k, v]))) H(self).delete(k); return self; },
    delete_if: (self, a, block, call) => hashMethods['reject!'](self, a, block, call),
    keep_if: (self, a, block, call) => hashMethods['select!'](self, a, block, call),
    delete: (self, args, block, call) => {
        const e = findKey(H(self), args[0]);
        if (!e) return block ? call.yield(block, [args[0]]) : null;
        H(self).delete(e[0]);
        return e[1];
    },
    merge: (self, args, block, call) => {
        const out: RHash = new Map(H(self));
        for (const o of args) {
            if (!(o instanceof Map)) throw rubyError('TypeError', `no implicit conversion of ${o === null ? 'nil' : 'Object'} into Hash`);
            for (const [k, v] of o) {
                const e = findKey(out, k);
                hashStore(out, k, e && block ? call.yield(block, [k, e[1], v]) : v);
            }
        }
        return out;
    },
    'merge!': (self, args, block, call) => {
        const merged = hashMethods.merge(self, args, block, call) as RHash;
        H(self).clear();
        for (const [k, v] of merged) H(self).set(k, v);
        return self;
    },
    to_h: (self, _a, block, call) => (block ? enumerableMethods.to_h(self, [], block, call) : self),
    to_hash: self => self,
    to_a: self => pairs(H(self)),
    to_s: self => inspect(self),
    inspect: self => inspect(self),
    invert: self => new Map([...H(self)].map(([k, v]) => [v, k])),
    transform_values: (self, _a, block, call) => new Map([...H(self)].map(([k, v]) => [k, call.yield(needBlock(block), [v])])),
    transform_keys: (self, args, block, call) => new Map([...H(self)].map(([k, v]) => [block ? call.yield(block, [k]) : args[0] instanceof Map ? (get(args[0] as RHash, k) ?? k) : k, v])),
    filter_map: (self, _a, block, call) => [...H(self)].map(([k, v]) => call.yield(needBlock(block), [k, v])).filter(truthy),
    sort: (self, _a, block, call) => sortValues(pairs(H(self)), call, block),
    sort_by: (self, _a, block, call) => sortBy(pairs(H(self)), call, needBlock(block)),
    min_by: (self, a, block, call) => enumerableMethods.min_by(self, a, block, call),
    group_by: (self, a, block, call) => enumerableMethods.group_by(self, a, block, call),
    find: (self, _a, block, call) => pairs(H(self)).find(p => truthy(call.yield(needBlock(block), [p]))) ?? null,
    'any?': (self, args, block, call) => (block ? [...H(self)].some(([k, v]) => truthy(call.yield(block, [[k, v]]))) : args.length ? enumerableMethods['any?'](self, args, block, call) : H(self).size > 0),
    'all?': (self, args, block, call) => (block ? [...H(self)].every(([k, v]) => truthy(call.yield(block, [[k, v]]))) : enumerableMethods['all?'](self, args, block, call)),
    clear: self => { H(self).clear(); return self; },
    '==': (self, args, _b, call) => call.equals(self, args[0]),
    'eql?': (self, args) => rEql(self, args[0]),
    default: () => null,
    compact: self => new Map([...H(self)].filter(([, v]) => v !== null)),
    slice: (self, args) => { const out: RHash = new Map(); for (const k of args) { const e = findKey(H(self), k); if (e) out.set(e[0], e[1]); } return out; },
    except: (self, args) => { const out: RHash = new Map(H(self)); for (const k of args) { const e = findKey(out, k); if (e) out.delete(e[0]); } return out; },
    first: (self, args) => (args.length ? pairs(H(self)).slice(0, Number(args[0])) : pairs(H(self))[0] ?? null),
};
hashMethods.each_pair = hashMethods.each;
hashMethods['has_key?'] = hashMethods['key?'];
hashMethods['include?'] = hashMethods['key?'];
hashMethods['member?'] = hashMethods['key?'];
hashMethods['has_value?'] = hashMethods['value?'];
hashMethods.filter = hashMethods.select;
hashMethods['filter!'] = hashMethods['select!'];
hashMethods.update = hashMethods['merge!'];
hashMethods.key = hashMethods.key;
