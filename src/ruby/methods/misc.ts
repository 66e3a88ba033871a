import { PDefault, PRegexp } from '../../values/index.js';
import { inspect, regexpToS, toS } from '../inspect.js';
import { rangeIncludes } from '../compare.js';
import { REnumerator, RMatchData, RProc, RRange, RSymbol, rubyError, sym, type Method, type RValue } from '../objects.js';
import { escapeRegexp, globalRegExp, regexpOf, regexpOptions } from '../regexp.js';
import { sliceOf } from './array.js';
import { enumerableMethods } from './enumerable.js';
import { stringMethods } from './string.js';
import { arity, enumerator, num, rangeItems, str } from './support.js';

const R = (v: RValue): RRange => v as RRange;

export const rangeMethods: Record<string, Method> = {
    ...enumerableMethods,
    each: (self, _a, block, call) => {
        if (!block) return enumerator(rangeItems(R(self)), 'each', () => self);
        for (const x of rangeItems(R(self))) call.yield(block, [x]);
        return self;
    },
    begin: self => R(self).from,
    first: (self, args) => (args.length ? rangeItems(R(self)).slice(0, num(args[0])) : R(self).from),
    end: self => R(self).to,
    last: (self, args) => (args.length ? rangeItems(R(self)).slice(-num(args[0])) : R(self).to),
    min: (self, args, block, call) => (args.length || block ? enumerableMethods.min(self, args, block, call) : rangeItems(R(self))[0] ?? null),
    max: (self, args, block, call) => (args.length || block ? enumerableMethods.max(self, args, block, call) : rangeItems(R(self)).slice(-1)[0] ?? null),
    size: self => BigInt(rangeItems(R(self)).length),
    count: (self, args, block, call) => (args.length || block ? enumerableMethods.count(self, args, block, call) : BigInt(rangeItems(R(self)).length)),
    'exclude_end?': self => R(self).exclusive,
    'include?': (self, args) => rangeIncludes(R(self), args[0]),
    'member?': (self, args) => rangeIncludes(R(self), args[0]),
    'cover?': (self, args) => rangeIncludes(R(self), args[0]),
    '===': (self, args) => rangeIncludes(R(self), args[0]),
    step: (self, args, block, call) => {
        const items = rangeItems(R(self)).filter((_x, i) => i % num(args[0]) === 0);
        if (!block) return enumerator(items, 'step', () => self);
        for (const x of items) call.yield(block, [x]);
        return self;
    },
    to_s: self => toS(self),
    inspect: self => inspect(self)
};

const RE = (v: RValue): PRegexp => v as PRegexp;

export const regexpMethods: Record<string, Method> = {
    source: self => RE(self).source,
    to_s: self => regexpToS(RE(self)),
    inspect: self => inspect(self),
    match: (self, args, _b, call) => (args[0] === null ? (call.setLastMatch(null), null) : call.match(RE(self), args[0] instanceof RSymbol ? args[0].name : str(args[0]))),
    'match?': (self, args) => args[0] !== null && globalRegExp(RE(self)).test(args[0] instanceof RSymbol ? args[0].name : str(args[0])),
    '=~': (self, args, _b, call) => { if (args[0] === null) { call.setLastMatch(null); return null; } const m = call.match(RE(self), str(args[0])); return m ? BigInt(m.match.index) : null; },
    '===': (self, args, _b, call) => (typeof args[0] === 'string' || args[0] instanceof RSymbol) && call.match(RE(self), typeof args[0] === 'string' ? args[0] : args[0].name) !== null,
    options: self => BigInt((regexpOptions(RE(self)).includes('i') ? 1 : 0) + (regexpOptions(RE(self)).includes('x') ? 2 : 0) + (regexpOptions(RE(self)).includes('m') ? 4 : 0)),
    names: self => [...RE(self).source.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map(m => m[1]),
    'casefold?': self => regexpOptions(RE(self)).includes('i')
};

const M = (v: RValue): RMatchData => v as RMatchData;

export const matchDataMethods: Record<string, Method> = {
    '[]': (self, args) => {
        arity(args, 1, 2);
        const k = args[0];
        const groups = [...M(self).match].map(g => g ?? null);
        if (k instanceof RRange) return sliceOf(groups, args, part => part, x => x);
        if (args.length === 2) {
            // Ruby 3.1 pads `m[start, length]` with nils up to length when it runs past the groups
            const len = num(args[1]);
            const start = num(k) < 0 ? num(k) + groups.length : num(k);
            if (start < 0 || start > groups.length || len < 0) return null;
            if (start === groups.length) return [];
            const part = groups.slice(start, start + len);
            return [...part, ...new Array<RValue>(len - part.length).fill(null)];
        }
        if (typeof k === 'string' || k instanceof RSymbol) return M(self).match.groups?.[typeof k === 'string' ? k : k.name] ?? null;
        const i = num(k);
        return M(self).group(i < 0 ? M(self).match.length + i : i);
    },
    captures: self => M(self).match.slice(1).map(g => g ?? null),
    named_captures: self => new Map(Object.entries(M(self).match.groups ?? {}).map(([k, v]) => [k, v ?? null] as [RValue, RValue])),
    names: self => Object.keys(M(self).match.groups ?? {}),
    to_a: self => [...M(self).match].map(g => g ?? null),
    to_s: self => M(self).match[0],
    pre_match: self => M(self).input.slice(0, M(self).match.index),
    post_match: self => M(self).input.slice(M(self).match.index + M(self).match[0].length),
    begin: (self, args) => (num(args[0]) === 0 ? BigInt(M(self).match.index) : null),
    size: self => BigInt(M(self).match.length),
    length: self => BigInt(M(self).match.length),
    values_at: (self, args) => args.map(a => M(self).group(num(a))),
    string: self => M(self).input,
    inspect: self => inspect(self)
};

const E = (v: RValue): REnumerator => v as REnumerator;

export const enumeratorMethods: Record<string, Method> = {
    ...enumerableMethods,
    each: (self, _a, block, call) => (block ? E(self).finish(E(self).items.map(x => call.yield(block, [x])), E(self).items) : self),
    next: self => {
        const e = E(self);
        if (e.position >= e.items.length) throw rubyError('StopIteration', 'iteration reached an end');
        return e.items[e.position++];
    },
    peek: self => {
        const e = E(self);
        if (e.position >= e.items.length) throw rubyError('StopIteration', 'iteration reached an end');
        return e.items[e.position];
    },
    rewind: self => { E(self).position = 0; return self; },
    'hash_style?': self => E(self).hashStyle,
    size: self => BigInt(E(self).items.length),
    with_index: enumerableMethods.with_index,
    each_with_index: (self, args, block, call) => enumerableMethods.with_index(self, args, block, call),
    inspect: self => inspect(self),
    to_s: self => inspect(self)
};

/** A Symbol, or Puppet's `default` (the Symbol :default in Ruby). */
const Y = (v: RValue): RSymbol => (v instanceof RSymbol ? v : sym('default'));
const symbolFromString = (name: string): Method => (self, args, block, call) => {
    const r = stringMethods[name](Y(self).name, args, block, call);
    return typeof r === 'string' ? sym(r) : r;
};

export const symbolMethods: Record<string, Method> = {
    to_s: self => Y(self).name,
    id2name: self => Y(self).name,
    name: self => Y(self).name,
    to_sym: self => self,
    inspect: self => inspect(self),
    to_proc: (self, _a, _b, call) => new RProc(args => {
        if (args.length === 0) throw rubyError('ArgumentError', 'no receiver given');
        return call.send(args[0], Y(self).name, args.slice(1));
    }, -2, true),
    length: self => BigInt([...Y(self).name].length),
    size: self => BigInt([...Y(self).name].length),
    '<=>': (self, args) => (args[0] instanceof RSymbol ? BigInt(Y(self).name < args[0].name ? -1 : Y(self).name > args[0].name ? 1 : 0) : null),
    '==': (self, args) => (args[0] instanceof RSymbol || args[0] instanceof PDefault) && Y(self) === Y(args[0]),
    '[]': (self, args, b, call) => stringMethods['[]'](Y(self).name, args, b, call),
    'start_with?': (self, args, b, call) => stringMethods['start_with?'](Y(self).name, args, b, call),
    'end_with?': (self, args, b, call) => stringMethods['end_with?'](Y(self).name, args, b, call),
    'empty?': self => Y(self).name === '',
    upcase: symbolFromString('upcase'),
    downcase: symbolFromString('downcase'),
    capitalize: symbolFromString('capitalize'),
    succ: symbolFromString('succ'),
    '=~': (self, args, b, call) => stringMethods['=~'](Y(self).name, args, b, call),
    match: (self, args, b, call) => stringMethods.match(Y(self).name, args, b, call)
};

/** Class-level methods: `Regexp.escape`, `Regexp.new`, `Hash.new`, `Array.new`, `String.new`, `File.join`. */
export const staticMethods: Record<string, Record<string, Method>> = {
    Regexp: {
        escape: (_s, args) => escapeRegexp(str(args[0] instanceof RSymbol ? args[0].name : args[0])),
        quote: (_s, args) => escapeRegexp(str(args[0])),
        new: (_s, args) => (args[0] instanceof PRegexp ? args[0] : regexpOf(str(args[0]), args[1] === true ? 'i' : typeof args[1] === 'bigint' ? `${(args[1] & 4n) ? 'm' : ''}${(args[1] & 1n) ? 'i' : ''}${(args[1] & 2n) ? 'x' : ''}` : '')),
        compile: (s, args, b, call) => (staticMethods.Regexp.new as Method)(s, args, b, call),
        last_match: (_s, args, _b, call) => {
            const m = call.currentMatch();
            return args.length === 0 || m === null ? m : m.group(Number(args[0] as bigint));
        },
        union: (_s, args) => {
            const parts = (args.length === 1 && Array.isArray(args[0]) ? args[0] : args).map(a => (a instanceof PRegexp ? regexpToS(a) : escapeRegexp(str(a))));
            return regexpOf(parts.join('|'), '');
        }
    },
    Array: {
        new: (_s, args, block, call) => {
            const n = args.length ? num(args[0]) : 0;
            return Array.from({ length: n }, (_x, i) => (block ? call.yield(block, [BigInt(i)]) : args[1] ?? null));
        }
    },
    String: { new: (_s, args) => (args.length ? str(args[0]) : '') },
    Hash: {
        '[]': (_s, args) => {
            const v = args.length === 1 ? args[0] : null;
            if (v instanceof Map) return new Map(v);
            if (Array.isArray(v)) return new Map(v.map(p => (Array.isArray(p) ? [p[0] ?? null, p[1] ?? null] : (() => { throw rubyError('ArgumentError', `wrong element type ${inspect(p)} (expected array)`); })()) as [RValue, RValue]));
            if (args.length % 2 !== 0) throw rubyError('ArgumentError', 'odd number of arguments for Hash');
            const h = new Map<RValue, RValue>();
            for (let i = 0; i < args.length; i += 2) h.set(args[i], args[i + 1]);
            return h;
        }
    },
    File: {
        basename: (_s, args) => {
            let b = str(args[0]).replace(/\/+$/, '').split('/').pop() ?? '';
            if (args.length > 1) { const suffix = str(args[1]); if (suffix === '.*') b = b.replace(/(?<=.)\.[^.]*$/, ''); else if (b.endsWith(suffix) && b !== suffix) b = b.slice(0, -suffix.length); }
            return b;
        },
        dirname: (_s, args) => { const p = str(args[0]).replace(/\/+$/, ''); const i = p.lastIndexOf('/'); return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i); },
        extname: (_s, args) => { const b = str(args[0]).split('/').pop() ?? ''; const m = /(?<=.)\.[^.]*$/.exec(b); return m ? m[0] : ''; },
        join: (_s, args) => args.flatMap(a => (Array.isArray(a) ? a : [a])).map(a => str(a)).join('/').replace(/\/{2,}/g, '/')
    }
};

