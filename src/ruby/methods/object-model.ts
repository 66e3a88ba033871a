import { inspect } from '../inspect.js';
import {
    Classes, ClassClass, classOf, Exceptions, Kernel, ObjectClass, RClass, RObject, RProc, RSymbol, RubyError, rubyError, sym, truthy, type CallSite, type Method, type RValue
} from '../objects.js';
import { str } from './support.js';

/**
 * The object model plugin code uses: `new`/`initialize`, attributes, `include`/`extend`,
 * `define_method`, `class_eval`, instance variables by name, `Struct`, exception objects, and the
 * host calls refused to plugin code.
 */
const nameOf = (v: RValue): string => (v instanceof RSymbol ? v.name : str(v));

function cls(v: RValue): RClass {
    if (v instanceof RClass) return v;
    throw rubyError('TypeError', `wrong argument type ${classOf(v).name} (expected Module)`);
}

/** A new object of a class: its `initialize` runs with the arguments. */
export function instantiate(c: RClass, args: RValue[], block: RProc | undefined, call: CallSite): RObject {
    if (c.isModule) throw rubyError('NoMethodError', `undefined method \`new' for ${c.name}:Module`);
    const o = new RObject(c, `#<${c.name}>`);
    call.send(o, 'initialize', args, block, true);
    return o;
}

function attr(reader: boolean, writer: boolean): Method {
    return (self, args, _b, call) => {
        const target = cls(self);
        // In `class << self` the accessors belong to the class object (its own instance variables).
        const isStatic = call.singletonBody() === target;
        for (const a of args) {
            const n = nameOf(a);
            if (reader) call.defineMethod(target, n, o => call.ivarsOf(o).get(n) ?? null, isStatic);
            if (writer) call.defineMethod(target, `${n}=`, (o, v) => { call.ivarsOf(o).set(n, v[0] ?? null); return v[0] ?? null; }, isStatic);
        }
        return null;
    };
}

/** A block run with `self` (and the `def` target) changed; a block written in Ruby keeps its locals. */
export function evalWith(block: RProc | undefined, self: RValue, defTarget: RClass | null, args: RValue[]): RValue {
    if (!block) throw rubyError('ArgumentError', 'no block given');
    if (!block.callAs) return block.call(args);
    return block.callAs(self, defTarget, args, undefined, null);
}

export const moduleMethods: Record<string, Method> = {
    attr_accessor: attr(true, true),
    attr_reader: attr(true, false),
    attr: attr(true, false),
    attr_writer: attr(false, true),
    include: (self, args) => { const c = cls(self); for (const m of args) if (!c.includes.includes(cls(m))) c.includes.push(cls(m)); return self; },
    extend: (self, args) => { const c = cls(self); c.extended ??= []; for (const m of args) c.extended.push(cls(m)); return self; },
    'include?': (self, args) => cls(self).isSubclassOf(cls(args[0])) && self !== args[0],
    private: (_s, args) => args[0] ?? null,
    public: (_s, args) => args[0] ?? null,
    protected: (_s, args) => args[0] ?? null,
    private_class_method: () => null,
    public_class_method: () => null,
    private_constant: () => null,
    module_function: self => { cls(self).moduleFunction = true; return null; },
    define_method: (self, args, block, call) => {
        const name = nameOf(args[0]);
        const body = block ?? (args[1] instanceof RProc ? args[1] : undefined);
        if (!body) throw rubyError('ArgumentError', 'tried to create Proc object without a block');
        call.defineMethod(cls(self), name, (o, a, b) => (body.callAs ? body.callAs(o, cls(self), a, b, name) : body.call(a, b)));
        return sym(name);
    },
    alias_method: (self, args, _b, call) => {
        const m = call.findMethod(cls(self), nameOf(args[1] ?? null));
        if (!m) throw rubyError('NameError', `undefined method \`${nameOf(args[1] ?? null)}' for class \`${cls(self).name}'`);
        call.defineMethod(cls(self), nameOf(args[0] ?? null), m);
        return self;
    },
    'method_defined?': (self, args, _b, call) => call.findMethod(cls(self), nameOf(args[0])) !== undefined,
    'public_method_defined?': (self, args, _b, call) => call.findMethod(cls(self), nameOf(args[0])) !== undefined,
    instance_methods: self => [...cls(self).methods.keys()].map(sym),
    const_get: (self, args) => {
        let v: RValue = self;
        for (const part of nameOf(args[0]).split('::')) {
            const c = cls(v);
            if (!c.constants.has(part)) throw rubyError('NameError', `uninitialized constant ${c.name}::${part}`);
            v = c.constants.get(part) as RValue;
        }
        return v;
    },
    const_set: (self, args) => { cls(self).constants.set(nameOf(args[0]), args[1] ?? null); return args[1] ?? null; },
    'const_defined?': (self, args) => cls(self).constants.has(nameOf(args[0])),
    constants: self => [...cls(self).constants.keys()].map(sym),
    class_eval: (self, args, block) => evalWith(block, self, cls(self), [self, ...args]),
    module_eval: (self, args, block) => evalWith(block, self, cls(self), [self, ...args]),
    class_exec: (self, args, block) => evalWith(block, self, cls(self), args),
    instance_variable_get: (self, args, _b, call) => call.ivarsOf(self).get(nameOf(args[0]).replace(/^@/, '')) ?? null,
    instance_variable_set: (self, args, _b, call) => { call.ivarsOf(self).set(nameOf(args[0]).replace(/^@/, ''), args[1] ?? null); return args[1] ?? null; },
    allocate: self => new RObject(cls(self), `#<${cls(self).name}>`)
};

/** Puppet and Ruby refuse nothing here; modelc does: plugin code never reaches the host. */
function refused(what: string): Method {
    return () => {
        const e = rubyError('SecurityError', `${what} is not allowed in plugin code (modelc runs module Ruby without access to the host)`);
        e.unsupported = what;
        throw e;
    };
}

export const objectMethods: Record<string, Method> = {
    initialize: () => null,
    'respond_to_missing?': () => false,
    instance_variable_get: moduleMethods.instance_variable_get,
    instance_variable_set: moduleMethods.instance_variable_set,
    'instance_variable_defined?': (self, args, _b, call) => call.ivarsOf(self).has(nameOf(args[0]).replace(/^@/, '')),
    instance_variables: (self, _a, _b, call) => (self instanceof RObject || self instanceof RClass ? [...call.ivarsOf(self).keys()].filter(k => !k.startsWith('_')).map(k => sym(`@${k}`)) : []),
    instance_eval: (self, _a, block) => evalWith(block, self, self instanceof RClass ? self : null, [self]),
    instance_exec: (self, args, block) => evalWith(block, self, self instanceof RClass ? self : null, args),
    method: (self, args, _b, call) => { const n = nameOf(args[0]); return new RProc((a, b) => call.send(self, n, a, b, true), -1, true); },
    singleton_class: self => classOf(self),
    _: (_s, args) => args[0] ?? null,
    n_: (_s, args) => args[0] ?? null,
    N_: (_s, args) => args[0] ?? null,
    system: refused('system'),
    exec: refused('exec'),
    spawn: refused('spawn'),
    fork: refused('fork'),
    '`': refused('backticks'),
    open: refused('open'),
    exit: refused('exit'),
    'exit!': refused('exit!'),
    abort: refused('abort'),
    at_exit: refused('at_exit'),
    trap: refused('trap'),
    eval: refused('eval'),
    syscall: refused('syscall')
};

/** The message an exception object carries (`e.message`). */
function messageOf(self: RValue): string {
    const o = self as RObject;
    const m = o.ivars.get('__message');
    return typeof m === 'string' ? m : o.toSText;
}

export const exceptionMethods: Record<string, Method> = {
    initialize: (self, args, _b, call) => {
        const o = self as RObject;
        o.ivars.set('__message', args.length && args[0] !== null ? call.toS(args[0]) : o.cls.name);
        return null;
    },
    message: (self, _a, _b, call) => call.send(self, 'to_s', []),
    to_s: messageOf,
    full_message: messageOf,
    inspect: self => `#<${(self as RObject).cls.name}: ${messageOf(self)}>`,
    backtrace: () => null,
    set_backtrace: () => null,
    cause: () => null,
    exception: (self, args, _b, call) => {
        if (args.length === 0) return self;
        const o = new RObject((self as RObject).cls, '');
        o.ivars.set('__message', call.toS(args[0]));
        return o;
    }
};

/** `Struct.new(:a, :b)`: a class with those attributes, positional (or keyword) `new`, `to_h`, `==`. */
function structNew(_self: RValue, args: RValue[], block: RProc | undefined, call: CallSite): RValue {
    const options = args[args.length - 1] instanceof Map ? args.pop() as Map<RValue, RValue> : undefined;
    const keywordInit = options !== undefined && truthy(options.get(sym('keyword_init')) ?? null);
    const fields = args.map(nameOf);
    const c = new RClass('#<Class:Struct>', ObjectClass);
    for (const f of fields) {
        call.defineMethod(c, f, o => call.ivarsOf(o).get(f) ?? null);
        call.defineMethod(c, `${f}=`, (o, v) => { call.ivarsOf(o).set(f, v[0] ?? null); return v[0] ?? null; });
    }
    call.defineMethod(c, 'initialize', (o, a) => {
        if (a.length > fields.length) throw rubyError('ArgumentError', 'struct size differs');
        const kw = keywordInit && a[0] instanceof Map ? a[0] : undefined;
        fields.forEach((f, i) => call.ivarsOf(o).set(f, kw ? kw.get(sym(f)) ?? null : a[i] ?? null));
        return null;
    });
    call.defineMethod(c, 'to_h', o => new Map(fields.map(f => [sym(f), call.ivarsOf(o).get(f) ?? null])));
    call.defineMethod(c, 'to_a', o => fields.map(f => call.ivarsOf(o).get(f) ?? null));
    call.defineMethod(c, 'members', () => fields.map(sym));
    call.defineMethod(c, '[]', (o, a) => call.ivarsOf(o).get(typeof a[0] === 'bigint' ? fields[Number(a[0])] : nameOf(a[0])) ?? null);
    call.defineMethod(c, '==', (o, a) => a[0] instanceof RObject && a[0].cls === c && fields.every(f => call.equals(call.ivarsOf(o).get(f) ?? null, call.ivarsOf(a[0]).get(f) ?? null)));
    call.defineMethod(c, 'to_s', o => `#<struct ${fields.map(f => `${f}=${inspect(call.ivarsOf(o).get(f) ?? null)}`).join(', ')}>`);
    if (block?.callAs) block.callAs(c, c, [c], undefined, null);
    return c;
}

export const Struct = Classes.Struct;

/** Comparable over a class's own `<=>`. */
const cmp = (self: RValue, other: RValue, call: CallSite): number => {
    const r = call.send(self, '<=>', [other]);
    if (typeof r !== 'bigint' && typeof r !== 'number') throw rubyError('ArgumentError', `comparison of ${classOf(self).name} with ${inspect(other)} failed`);
    return Number(r);
};
export const comparableMethods: Record<string, Method> = {
    '<': (s, a, _b, c) => cmp(s, a[0] ?? null, c) < 0,
    '<=': (s, a, _b, c) => cmp(s, a[0] ?? null, c) <= 0,
    '>': (s, a, _b, c) => cmp(s, a[0] ?? null, c) > 0,
    '>=': (s, a, _b, c) => cmp(s, a[0] ?? null, c) >= 0,
    '==': (s, a, _b, c) => s === a[0] || (a[0] instanceof RObject && c.send(s, '<=>', [a[0]]) === 0n),
    'between?': (s, a, _b, c) => cmp(s, a[0] ?? null, c) >= 0 && cmp(s, a[1] ?? null, c) <= 0,
    clamp: (s, a, _b, c) => (cmp(s, a[0] ?? null, c) < 0 ? a[0] ?? null : cmp(s, a[1] ?? null, c) > 0 ? a[1] ?? null : s)
};

export function installObjectModel(): void {
    for (const [n, m] of Object.entries(comparableMethods)) if (!Classes.Comparable.methods.has(n)) Classes.Comparable.define(n, m);
    for (const [n, m] of Object.entries(moduleMethods)) { ClassClass.define(n, m); Classes.Module.define(n, m); }
    for (const [n, m] of Object.entries(objectMethods)) Kernel.define(n, m);
    for (const [n, m] of Object.entries(exceptionMethods)) Classes.Exception.define(n, m);
    ObjectClass.defineStatic('new', (self, args, block, call) => instantiate(cls(self), args, block, call));
    ClassClass.defineStatic('new', (_self, args, block) => {
        const sup = args[0] instanceof RClass ? args[0] : ObjectClass;
        const c = new RClass(`#<Class:${sup.name}>`, sup);
        if (block?.callAs) block.callAs(c, c, [c], undefined, null);
        return c;
    });
    Classes.Module.defineStatic('new', (_self, _args, block) => {
        const c = new RClass('#<Module>', null, [], true);
        if (block?.callAs) block.callAs(c, c, [c], undefined, null);
        return c;
    });
    Struct.defineStatic('new', structNew);
    Classes.Exception.defineStatic('exception', (self, args, block, call) => instantiate(cls(self), args, block, call));
}

/** `raise` with a class, a class and a message, an exception object, or a message. */
export function raiseError(args: RValue[], call: CallSite): never {
    if (args.length === 0) throw rubyError('RuntimeError', '');
    const [a, b] = args;
    let obj: RValue = a;
    if (typeof a === 'string') throw rubyError('RuntimeError', a);
    if (a instanceof RClass) obj = call.send(a, 'new', b === undefined ? [] : [b]);
    else if (a instanceof RObject && b !== undefined) obj = call.send(a, 'exception', [b]);
    if (obj instanceof RObject && obj.cls.isSubclassOf(Exceptions.Exception)) {
        const e = new RubyError(obj.cls, call.toS(call.send(obj, 'message', [])));
        e.exception = obj;
        throw e;
    }
    throw rubyError('TypeError', 'exception class/object expected');
}
