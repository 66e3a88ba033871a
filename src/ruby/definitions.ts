import type { NodeOf, Param, RNode, Span } from './ast.js';
import { Frame, ReturnSignal, type Ctx, type MethodFrame } from './frame.js';
import {
    Classes, ClassClass, classOf, Exceptions, Float, Integer, ObjectClass, RClass, RMatchData, RObject, RProc, RSymbol, RubyError, rubyError, type CallSite, type Method, type RHash, type RValue
} from './objects.js';

/** The classes every interpreter shares; plugin code reopening one changes it for that interpreter only. */
const BUILTIN = new Set<RClass>([...Object.values(Classes), ...Object.values(Exceptions), Integer, Float, ClassClass]);

export const CORE_CONSTANTS = new Map<string, RValue>([
    ...Object.values(Classes).map(c => [c.name, c] as [string, RValue]),
    ...Object.values(Exceptions).map(c => [c.name, c] as [string, RValue]),
    ['Integer', Integer], ['Float', Float], ['Class', ClassClass], ['Fixnum', Integer], ['Bignum', Integer]
]);

export interface Limits {
    /** Evaluation steps one interpreter may take before its code counts as runaway. */
    readonly steps: number;
    /** Nested method and block calls. */
    readonly depth: number;
}

export const DEFAULT_LIMITS: Limits = { steps: 5_000_000, depth: 400 };

/**
 * Classes, modules, methods and constants defined by the code an interpreter runs. Everything
 * defined here belongs to this interpreter (one per environment): top-level constants, new
 * classes, and methods added to the shared core classes (kept in an overlay, never in the class).
 */
export abstract class Definitions implements CallSite {
    /** Top-level constants the code defined (`class Foo`, `FOO = 1`). */
    readonly topConstants = new Map<string, RValue>();
    /** Top-level `def`s: private methods of every object. */
    protected readonly defs = new Map<string, Method>();
    private readonly overlay = new Map<RClass, Map<string, Method>>();
    private readonly overlayStatics = new Map<RClass, Map<string, Method>>();
    protected depth = 0;
    protected steps = 0;
    line = 1;
    file: string | undefined;
    /** The method the current call is made from (Ruby's `caller` label); undefined at top level. */
    callerMethod: string | undefined;
    /** The lines of loaded source files, for the snippet Ruby's error_highlight adds to a NameError. */
    private readonly sources = new Map<string, readonly string[]>();

    /** Remembers a loaded file's text (code `load`ed from a file gets error_highlight snippets; eval'd code does not). */
    registerSource(file: string, text: string): void {
        this.sources.set(file, text.split('\n'));
    }

    /**
     * Ruby 3.1's error_highlight: a NameError raised at a node of a loaded file carries its line
     * and a marker under the node's span in its message.
     */
    protected highlighted(message: string, file: string | undefined, line: number, span: Span | undefined): string {
        const text = file === undefined ? undefined : this.sources.get(file)?.[line - 1];
        if (text === undefined || span === undefined) return message;
        const indent = text.slice(0, span.col - 1).replace(/[^\t]/g, ' ');
        return `${message}\n\n${text}\n${indent}${'^'.repeat(span.width)}`;
    }

    constructor(protected readonly limits: Limits, protected readonly extraConstants?: ReadonlyMap<string, RValue>,
        protected readonly constMissing?: (path: string) => RValue | undefined) {}

    abstract eval(node: RNode, frame: Frame): RValue;
    abstract send(self: RValue, name: string, args: RValue[], block?: RProc, fcall?: boolean): RValue;
    abstract yield(block: RProc, args: RValue[]): RValue;
    abstract toS(v: RValue): string;
    abstract equals(a: RValue, b: RValue): boolean;
    abstract caseEquals(pattern: RValue, v: RValue): boolean;
    abstract match(re: import('../values/index.js').PRegexp, s: string, from?: number): import('./objects.js').RMatchData | null;
    abstract setLastMatch(m: import('./objects.js').RMatchData | null): void;
    abstract currentMatch(): RMatchData | null;
    abstract respondsTo(v: RValue, name: string): boolean;
    protected abstract bindParams(params: readonly Param[], values: readonly RValue[], frame: Frame): void;

    protected error(cls: keyof typeof Exceptions, message: string): RubyError {
        const e = rubyError(cls, message);
        e.line = this.line;
        e.file = this.file;
        return e;
    }

    /** A new budget of steps: each call from Puppet (or file load) gets the whole limit. */
    resetSteps(): void {
        this.steps = 0;
    }

    protected tick(): void {
        if (++this.steps > this.limits.steps) throw this.error('SystemStackError', `step limit of ${this.limits.steps} exceeded (runaway code)`);
    }

    /** Runs `f` one call deeper; too deep a recursion is Ruby's SystemStackError. */
    protected deeper<T>(f: () => T): T {
        if (++this.depth > this.limits.depth) { this.depth--; throw this.error('SystemStackError', 'stack level too deep'); }
        try { return f(); } finally { this.depth--; }
    }

    // ---- method tables ----

    findMethod(cls: RClass, name: string): Method | undefined {
        for (const c of ancestors(cls)) {
            const m = this.ownMethod(c, name);
            if (m) return m;
        }
        return undefined;
    }

    private ownMethod(c: RClass, name: string): Method | undefined {
        return this.overlay.get(c)?.get(name) ?? c.methods.get(name);
    }

    findStatic(cls: RClass, name: string): Method | undefined {
        for (let c: RClass | null = cls; c; c = c.superclass) {
            const m = this.overlayStatics.get(c)?.get(name) ?? c.statics.get(name);
            if (m) return m;
            // `extend Mod` puts the module's methods on the class object.
            for (const mod of c.extended ?? []) { const mm = this.findMethod(mod, name); if (mm) return mm; }
        }
        return undefined;
    }

    defineMethod(target: RClass, name: string, m: Method, isStatic = false): void {
        if (BUILTIN.has(target)) {
            const table = isStatic ? this.overlayStatics : this.overlay;
            let t = table.get(target);
            if (!t) table.set(target, t = new Map());
            t.set(name, m);
        } else if (isStatic) target.defineStatic(name, m);
        else target.define(name, m);
    }

    /** The method `super` continues with: the next one along self's ancestors after the current owner. */
    protected superMethod(self: RValue, mf: MethodFrame): Method | undefined {
        if (mf.isStatic) {
            const sup = mf.owner.superclass;
            return sup ? this.findStatic(sup, mf.name) : undefined;
        }
        const chain = ancestors(classOf(self));
        const at = chain.indexOf(mf.owner);
        for (const c of chain.slice(at + 1)) {
            const m = this.ownMethod(c, mf.name);
            if (m) return m;
        }
        return undefined;
    }

    // ---- user methods ----

    /** A `def` as a method: a fresh frame with `self`, the method's nesting, and its parameters bound. */
    userMethod(def: NodeOf<'Def'>, owner: RClass | null, nesting: readonly RClass[], isStatic: boolean, file?: string): Method {
        const m: Method = (self, args, block) => this.invokeBody(def.params, def.body, self, args, block, {
            defTarget: owner ?? (self instanceof RClass ? self : null), nesting, owner: owner ?? ObjectClass, name: def.name, isStatic, file
        });
        methodParams.set(m, def.params);
        return m;
    }

    protected invokeBody(params: readonly Param[], body: RNode, self: RValue, args: RValue[], block: RProc | undefined,
        where: { defTarget: RClass | null; nesting: readonly RClass[]; owner: RClass; name: string; isStatic: boolean; file?: string }): RValue {
        checkArity(params, args, this);
        const method: MethodFrame = { owner: where.owner, name: where.name, args, isStatic: where.isStatic, params };
        const ctx: Ctx = { self, defTarget: where.defTarget, singletonDefs: false, nesting: where.nesting, block, method, file: where.file };
        const frame = new Frame(null, ctx);
        // `$~` belongs to the method's frame: a callee's matches leave the caller's last match as it was.
        const callerMatch = this.currentMatch();
        this.setLastMatch(null);
        try {
            return this.invokeIn(params, body, frame, args, block, method);
        } finally {
            this.setLastMatch(callerMatch);
        }
    }

    private invokeIn(params: readonly Param[], body: RNode, frame: Frame, args: RValue[], block: RProc | undefined, method: MethodFrame): RValue {
        return this.deeper(() => {
            this.bindParams(params, args, frame);
            const blockParam = params.find(p => p.kind === 'block');
            if (blockParam) frame.declare(blockParam.name, block ?? null);
            try {
                return this.eval(body, frame);
            } catch (e) {
                if (e instanceof ReturnSignal && e.method === method) return e.value;
                throw e;
            }
        });
    }

    // ---- constants ----

    lookupConstant(name: string, ctx: Ctx): RValue | undefined {
        for (const c of ctx.nesting) if (c.constants.has(name)) return c.constants.get(name) as RValue;
        const cref = ctx.nesting[0];
        if (cref) for (const c of ancestors(cref)) if (c.constants.has(name)) return c.constants.get(name) as RValue;
        return this.topConstants.get(name) ?? this.extraConstants?.get(name) ?? CORE_CONSTANTS.get(name);
    }

    scopedConstant(outer: RClass, name: string, missing = true): RValue | undefined {
        for (const c of ancestors(outer)) if (c.constants.has(name)) return c.constants.get(name) as RValue;
        const path = `${outer.name}::${name}`;
        return this.extraConstants?.get(path) ?? CORE_CONSTANTS.get(path) ?? (missing ? this.constMissing?.(path) : undefined);
    }

    protected constant(node: NodeOf<'Const'>, frame: Frame): RValue {
        if (node.scope) {
            const outer = this.eval(node.scope, frame);
            if (!(outer instanceof RClass)) throw this.error('TypeError', `${this.toS(outer)} is not a class/module`);
            const v = this.scopedConstant(outer, node.name);
            if (v === undefined) throw this.error('NameError', this.highlighted(`uninitialized constant ${outer.name}::${node.name}`, frame.ctx.file, node.line, node.span));
            return v;
        }
        const v = node.top ? this.topConstants.get(node.name) ?? this.extraConstants?.get(node.name) ?? CORE_CONSTANTS.get(node.name) : this.lookupConstant(node.name, frame.ctx);
        if (v !== undefined) return v;
        const missing = this.constMissing?.(node.name);
        if (missing !== undefined) return missing;
        const where = frame.ctx.nesting[0]?.name ?? classOf(frame.ctx.self).name;
        throw this.error('NameError', this.highlighted(`uninitialized constant ${node.top || where === 'Object' ? '' : `${where}::`}${node.name}`, frame.ctx.file, node.line, node.span));
    }

    protected assignConstant(node: { scope: RNode | null; top: boolean; name: string }, v: RValue, frame: Frame): void {
        const container = node.scope ? this.eval(node.scope, frame) : node.top ? null : frame.ctx.nesting[0] ?? null;
        if (container !== null && !(container instanceof RClass)) throw this.error('TypeError', `${this.toS(container)} is not a class/module`);
        if (container) container.constants.set(node.name, v);
        else this.topConstants.set(node.name, v);
    }

    // ---- class and module statements ----

    protected classOrModule(node: NodeOf<'ClassDef'> | NodeOf<'ModuleDef'>, frame: Frame): RValue {
        const path = node.path;
        const container = path.scope ? this.eval(path.scope, frame) : path.top ? null : frame.ctx.nesting[0] ?? null;
        if (container !== null && !(container instanceof RClass)) throw this.error('TypeError', `${this.toS(container)} is not a class/module`);
        const existing = container ? container.constants.get(path.name) ?? (path.scope ? this.scopedConstant(container, path.name, false) : undefined)
            : this.topConstants.get(path.name) ?? this.extraConstants?.get(path.name) ?? CORE_CONSTANTS.get(path.name);
        const isModule = node.$type === 'ModuleDef';
        let cls: RClass;
        const superclass = node.$type === 'ClassDef' && node.superclass ? this.eval(node.superclass, frame) : null;
        if (superclass !== null && !(superclass instanceof RClass && !superclass.isModule)) throw this.error('TypeError', 'superclass must be a Class');
        if (existing instanceof RClass) {
            if (existing.isModule !== isModule) throw this.error('TypeError', `${path.name} is not a ${isModule ? 'module' : 'class'}`);
            if (superclass && existing.superclass !== superclass && !existing.implicitSuper) throw this.error('TypeError', `superclass mismatch for class ${path.name}`);
            if (superclass && existing.implicitSuper) { existing.superclass = superclass; existing.implicitSuper = false; }
            cls = existing;
        } else {
            if (existing !== undefined) throw this.error('TypeError', `${path.name} is not a ${isModule ? 'module' : 'class'}`);
            const name = container && container !== ObjectClass ? `${container.name}::${path.name}` : path.name;
            cls = new RClass(name, isModule ? null : superclass ?? ObjectClass, [], isModule);
            if (!isModule && !superclass && isExceptionName(path.name)) cls.implicitSuper = true;
            if (container) container.constants.set(path.name, cls);
            else this.topConstants.set(path.name, cls);
        }
        const ctx: Ctx = { self: cls, defTarget: cls, singletonDefs: false, nesting: [cls, ...frame.ctx.nesting], block: undefined, method: null, file: frame.ctx.file };
        this.eval(node.body, new Frame(null, ctx));
        return null;
    }

    protected singletonClass(node: NodeOf<'SingletonClass'>, frame: Frame): RValue {
        const target = this.eval(node.target, frame);
        if (!(target instanceof RClass)) throw this.unsupported('class << object (a singleton class of a non-class object)', node.line);
        const ctx: Ctx = { ...frame.ctx, self: target, defTarget: target, singletonDefs: true };
        const outer = this.singletonOf;
        this.singletonOf = target;
        try {
            this.eval(node.body, new Frame(null, ctx));
        } finally {
            this.singletonOf = outer;
        }
        return null;
    }

    private singletonOf: RClass | null = null;
    singletonBody(): RClass | null {
        return this.singletonOf;
    }

    protected def(node: NodeOf<'Def'>, frame: Frame): RValue {
        const ctx = frame.ctx;
        if (node.singleton) {
            const target = this.eval(node.singleton, frame);
            if (target instanceof RClass) { this.defineMethod(target, node.name, this.userMethod(node, target, ctx.nesting, true, ctx.file), true); return sym(node.name); }
            if (target !== ctx.self || ctx.defTarget !== null) throw this.unsupported('def on a single object', node.line);
        }
        const target = ctx.defTarget;
        if (target === null) this.defs.set(node.name, this.userMethod(node, null, ctx.nesting, false, ctx.file));
        else if (ctx.singletonDefs) this.defineMethod(target, node.name, this.userMethod(node, target, ctx.nesting, true, ctx.file), true);
        else {
            this.defineMethod(target, node.name, this.userMethod(node, target, ctx.nesting, false, ctx.file));
            if (target.moduleFunction) this.defineMethod(target, node.name, this.userMethod(node, target, ctx.nesting, true, ctx.file), true);
        }
        return sym(node.name);
    }

    protected alias(to: string, from: string, frame: Frame): RValue {
        const target = frame.ctx.defTarget;
        if (target === null) {
            const m = this.defs.get(from) ?? this.findMethod(classOf(frame.ctx.self), from);
            if (!m) throw this.error('NameError', `undefined method \`${from}' for class \`Object'`);
            this.defs.set(to, m);
            return null;
        }
        const m = frame.ctx.singletonDefs ? this.findStatic(target, from) : this.findMethod(target, from);
        if (!m) throw this.error('NameError', `undefined method \`${from}' for class \`${target.name}'`);
        this.defineMethod(target, to, m, frame.ctx.singletonDefs);
        return null;
    }

    unsupported(what: string, line = this.line): RubyError {
        const e = this.error('NotImplementedError', `${what} is not supported`);
        e.line = line;
        e.unsupported = what;
        return e;
    }

    // ---- objects ----

    ivarsOf(self: RValue): Map<string, RValue> {
        if (self instanceof RObject || self instanceof RClass) return self.ivars;
        if (typeof self === 'object' && self !== null) {
            let m = foreignIvars.get(self);
            if (!m) foreignIvars.set(self, m = new Map());
            return m;
        }
        throw this.error('FrozenError', `can't modify frozen ${classOf(self).name}`);
    }

    /** Class variables (`@@x`) live on the innermost class of the nesting that has them (or gets them). */
    classVars(frame: Frame, name: string): Map<string, RValue> {
        const home = frame.ctx.nesting[0] ?? (frame.ctx.self instanceof RClass ? frame.ctx.self : classOf(frame.ctx.self));
        for (let c: RClass | null = home; c; c = c.superclass) if (c.ivars.has(`@@${name}`)) return c.ivars;
        return home.ivars;
    }
}

/** The parameters of methods written in Ruby (Puppet's default dispatcher reads them). */
export const methodParams = new WeakMap<Method, readonly Param[]>();

const foreignIvars = new WeakMap<object, Map<string, RValue>>();

/** Exception classes reopened before their superclass is known (`class MyError; end` then `class MyError < StandardError`). */
function isExceptionName(name: string): boolean {
    return /Error$/.test(name);
}

/** Ruby's ancestors: each class, then the modules it includes (the last included first). */
export function ancestors(cls: RClass): RClass[] {
    const out: RClass[] = [];
    const seen = new Set<RClass>();
    const add = (c: RClass): void => {
        if (seen.has(c)) return;
        seen.add(c);
        out.push(c);
        for (const m of [...c.includes].reverse()) add(m);
    };
    for (let c: RClass | null = cls; c; c = c.superclass) add(c);
    return out;
}

/** ArgumentError unless the arguments fit the parameters (keyword arguments arrive as a trailing hash). */
function checkArity(params: readonly Param[], args: readonly RValue[], site: { line: number }): void {
    const required = params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
    const positional = params.filter(p => p.kind === 'req' || p.kind === 'nested' || p.kind === 'opt').length;
    const rest = params.some(p => p.kind === 'rest');
    const takesKeys = params.some(p => p.kind === 'key' || p.kind === 'keyrest');
    const last = args[args.length - 1];
    const given = takesKeys && last instanceof Map && args.length > required ? args.length - 1 : args.length;
    if (given >= required && (rest || given <= positional)) return;
    const expected = rest ? `${required}+` : required === positional ? `${required}` : `${required}..${positional}`;
    const e = rubyError('ArgumentError', `wrong number of arguments (given ${given}, expected ${expected})`);
    e.line = site.line;
    throw e;
}

/** Keyword arguments: the trailing hash of symbol keys, bound to `key:` and `**rest` parameters. */
export function takeKeywords(params: readonly Param[], values: readonly RValue[]): { positional: readonly RValue[]; keywords: RHash | null } {
    if (!params.some(p => p.kind === 'key' || p.kind === 'keyrest')) return { positional: values, keywords: null };
    const required = params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
    const last = values[values.length - 1];
    if (last instanceof Map && values.length > required && [...last.keys()].every(k => k instanceof RSymbol)) return { positional: values.slice(0, -1), keywords: last };
    return { positional: values, keywords: null };
}

const sym = RSymbol.of;
