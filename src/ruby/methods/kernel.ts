import { PSensitive } from '../../values/index.js';
import { caseEquals, rEql } from '../compare.js';
import { inspect, toS } from '../inspect.js';
import {
    classOf, ObjectClass, RClass, RObject, RProc, RSymbol, rubyError, truthy, type Method, type RValue
} from '../objects.js';
import { itemsOf } from './enumerable.js';
import { format, toF } from './string.js';
import { raiseError } from './object-model.js';
import { arity, isError, str } from './support.js';

/** Arrays and hashes a template froze (`[1].freeze.frozen?`). */
export const frozenObjects = new WeakSet<object>();

function classArg(v: RValue): RClass {
    if (v instanceof RClass) return v;
    throw rubyError('TypeError', 'class or module required');
}

const INTEGER_TEXT = /^\s*[-+]?(?:0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0[bB][01]+(?:_[01]+)*|0[oO]?[0-7]+(?:_[0-7]+)*|\d+(?:_\d+)*)\s*$/;

function kernelInteger(args: RValue[]): RValue {
    arity(args, 1, 2);
    const v = args[0];
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') { if (!Number.isFinite(v)) throw rubyError('FloatDomainError', String(v)); return BigInt(Math.trunc(v)); }
    if (typeof v === 'string') {
        if (!INTEGER_TEXT.test(v)) throw rubyError('ArgumentError', `invalid value for Integer(): ${inspect(v)}`);
        const t = v.trim().replace(/_/g, '');
        const neg = t.startsWith('-');
        const body = t.replace(/^[-+]/, '');
        const n = /^0[0-7]/.test(body) ? BigInt(`0o${body.slice(1)}`) : /^0[oO]/.test(body) ? BigInt(`0o${body.slice(2)}`) : BigInt(body);
        return neg ? -n : n;
    }
    if (v === null) throw rubyError('TypeError', "can't convert nil into Integer");
    throw rubyError('TypeError', `can't convert ${classOf(v).name} into Integer`);
}

function kernelFloat(args: RValue[]): RValue {
    arity(args, 1);
    const v = args[0];
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'string') {
        if (!/^\s*[-+]?(\d[\d_]*)(\.\d+)?([eE][-+]?\d+)?\s*$/.test(v) && !/^\s*[-+]?\d*\.\d+([eE][-+]?\d+)?\s*$/.test(v)) throw rubyError('ArgumentError', `invalid value for Float(): ${inspect(v)}`);
        return toF(v);
    }
    if (v === null) throw rubyError('TypeError', "can't convert nil into Float");
    throw rubyError('TypeError', `can't convert ${classOf(v).name} into Float`);
}

export const kernelMethods: Record<string, Method> = {
    'nil?': () => false,
    'is_a?': (self, args) => { arity(args, 1); return classOf(self).isSubclassOf(classArg(args[0])); },
    'instance_of?': (self, args) => { arity(args, 1); return classOf(self) === classArg(args[0]); },
    class: self => classOf(self),
    to_s: self => toS(self),
    inspect: self => inspect(self),
    '==': (self, args) => self === args[0],
    'equal?': (self, args) => self === args[0],
    'eql?': (self, args) => rEql(self, args[0]),
    '!=': (self, args, _b, call) => !truthy(call.send(self, '==', [args[0]])),
    '!': self => !truthy(self),
    '===': (self, args, _b, call) => caseEquals(self, args[0], (a, b) => truthy(call.send(a, '==', [b]))),
    '=~': () => null,
    'respond_to?': (self, args, _b, call) => call.respondsTo(self, args[0] instanceof RSymbol ? args[0].name : str(args[0])),
    'frozen?': self => typeof self !== 'object' || self === null || frozenObjects.has(self),
    freeze: self => { if (typeof self === 'object' && self !== null) frozenObjects.add(self); return self; },
    dup: self => (Array.isArray(self) ? [...self] : self instanceof Map ? new Map(self) : self),
    clone: self => (Array.isArray(self) ? [...self] : self instanceof Map ? new Map(self) : self),
    itself: self => self,
    tap: (self, _a, block, call) => { call.yield(block!, [self]); return self; },
    then: (self, _a, block, call) => call.yield(block!, [self]),
    send: (self, args, block, call) => call.send(self, args[0] instanceof RSymbol ? args[0].name : str(args[0]), args.slice(1), block),
    instance_variables: () => [],
    hash: self => BigInt(inspect(self).length),
    // Kernel functions (private: callable without a receiver).
    raise: (_self, args, _b, call) => raiseError(args, call),
    fail: (_self, args, _b, call) => raiseError(args, call),
    format: (_self, args, _b, call) => { arity(args, 1, Infinity); return format(str(args[0]), args.slice(1), call); },
    Array: (_self, args) => { arity(args, 1); const v = args[0]; return v === null ? [] : Array.isArray(v) ? v : v instanceof Map ? itemsOf(v) : [v]; },
    String: (_self, args, _b, call) => { arity(args, 1); return call.toS(args[0]); },
    Integer: (_self, args) => kernelInteger(args),
    Float: (_self, args) => kernelFloat(args),
    Hash: (_self, args) => { arity(args, 1); const v = args[0]; if (v === null || (Array.isArray(v) && v.length === 0)) return new Map(); if (v instanceof Map) return v; throw rubyError('TypeError', `can't convert ${classOf(v).name} into Hash`); },
    puts: () => null,
    print: () => null,
    p: (_self, args) => (args.length === 0 ? null : args.length === 1 ? args[0] : args),
    pp: (_self, args) => (args.length === 0 ? null : args.length === 1 ? args[0] : args),
    warn: () => null,
    require: () => false,
    lambda: () => { throw rubyError('ArgumentError', 'tried to create Proc object without a block'); },
    proc: () => { throw rubyError('ArgumentError', 'tried to create Proc object without a block'); },
    loop: (_self, _a, block, call) => {
        try { for (;;) call.yield(block!, []); } catch (e) { if (isError(e, 'StopIteration')) return null; throw e; }
    },
    catch: (_self, args, block, call) => {
        const tag = args.length > 0 ? args[0] : new RObject(ObjectClass, '#<Object>');
        activeCatches.push(tag);
        try {
            return call.yield(block!, [tag]);
        } catch (e) {
            if (e instanceof ThrowSignal && rEql(e.tag, tag)) return e.value;
            throw e;
        } finally {
            activeCatches.pop();
        }
    },
    throw: (_self, args) => {
        arity(args, 1, 2);
        const tag = args[0];
        // Ruby raises at the throw when no enclosing catch waits for the tag.
        if (!activeCatches.some(t => rEql(t, tag))) throw rubyError('UncaughtThrowError', `uncaught throw ${inspect(tag)}`);
        throw new ThrowSignal(tag, args[1] ?? null);
    },
    rand: () => { throw rubyError('NotImplementedError', 'rand is not supported in templates: a catalog must not change from one compilation to the next'); },
    srand: () => { throw rubyError('NotImplementedError', 'srand is not supported in templates'); },
    sleep: () => { throw rubyError('NotImplementedError', 'sleep is not supported in templates'); },
    binding: () => { throw rubyError('NotImplementedError', 'binding is not supported in templates'); },
    caller: () => []
};
kernelMethods['kind_of?'] = kernelMethods['is_a?'];
kernelMethods.yield_self = kernelMethods.then;
kernelMethods.public_send = kernelMethods.send;
kernelMethods.__send__ = kernelMethods.send;
kernelMethods.sprintf = kernelMethods.format;
kernelMethods['object_id'] = () => { throw rubyError('NotImplementedError', 'object_id is not supported in templates'); };

/** Methods of `nil`, `true` and `false`. */
export const nilMethods: Record<string, Method> = {
    'nil?': () => true,
    to_s: () => '',
    to_a: () => [],
    to_h: () => new Map(),
    to_i: () => 0n,
    to_f: () => 0,
    inspect: () => 'nil',
    '&': () => false,
    '|': (_s, args) => truthy(args[0]),
    '==': (_s, args) => args[0] === null
};
export const boolMethods: Record<string, Method> = {
    to_s: self => String(self),
    inspect: self => String(self),
    '&': (self, args) => self === true && truthy(args[0]),
    '|': (self, args) => self === true || truthy(args[0]),
    '^': (self, args) => (self === true) !== truthy(args[0]),
    '==': (self, args) => self === args[0]
};

export const sensitiveMethods: Record<string, Method> = {
    unwrap: (self, _a, block, call) => (block ? call.yield(block, [(self as PSensitive).value]) : (self as PSensitive).value),
    to_s: () => 'Sensitive [value redacted]',
    inspect: () => '#<Sensitive [value redacted]>'
};

export const procMethods: Record<string, Method> = {
    call: (self, args, block) => (self as RProc).call(args, block),
    '()': (self, args, block) => (self as RProc).call(args, block),
    '[]': (self, args, block) => (self as RProc).call(args, block),
    yield: (self, args, block) => (self as RProc).call(args, block),
    '===': (self, args) => (self as RProc).call(args),
    to_proc: self => self,
    arity: self => BigInt((self as RProc).arity),
    'lambda?': self => (self as RProc).isLambda
};

/** What a class object answers: `String.name`, `Integer === 1`, `Hash.new`, `Regexp.escape`. */
export const classObjectMethods: Record<string, Method> = {
    name: self => (self as RClass).name,
    to_s: self => (self as RClass).name,
    inspect: self => (self as RClass).name,
    '===': (self, args) => classOf(args[0]).isSubclassOf(self as RClass),
    '==': (self, args) => self === args[0],
    '<': (self, args) => self !== args[0] && (self as RClass).isSubclassOf(classArg(args[0])),
    '<=': (self, args) => (self as RClass).isSubclassOf(classArg(args[0])),
    ancestors: self => { const out: RValue[] = []; for (let c: RClass | null = self as RClass; c; c = c.superclass) out.push(c, ...c.includes); return out; },
    superclass: self => (self as RClass).superclass
};


/** `throw`: unwinds to the `catch` of its tag (not an exception: `rescue` does not see it). */
export class ThrowSignal extends Error {
    constructor(readonly tag: RValue, readonly value: RValue) {
        super('throw');
    }
}

/** The tags of the `catch` blocks running now, innermost last. */
const activeCatches: RValue[] = [];

/** Whether a `catch` of this tag is running (Puppet's Scope throws :undefined_variable only then). */
export function isCatching(tag: RValue): boolean {
    return activeCatches.some(t => rEql(t, tag));
}
