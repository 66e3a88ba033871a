import { describeSignatures, PAnyType, PTypeAliasType, signatureAccepts, type BlockArity, type Signature, type SignatureBlock, type SignatureParam } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import type { Param } from '../ast.js';
import { methodParams } from '../definitions.js';
import { evalWith } from '../methods/object-model.js';
import { RClass, RObject, RProc, RSymbol, rubyError, type RValue } from '../objects.js';
import { toPuppet } from './convert.js';
import { PluginCallError, type PuppetBlock, type ScopeHost } from './host.js';
import type { PluginRuntime } from './runtime.js';

type ParamKind = 'param' | 'optional' | 'repeated' | 'required_repeated' | 'block' | 'optional_block';

interface ParamSpec {
    readonly kind: ParamKind;
    readonly type: RValue;
    readonly name: string;
}

interface DispatchSpec {
    readonly method: string;
    readonly params: ParamSpec[];
    readonly mismatch: boolean;
    /** `scope_param`: the method receives the calling scope first. */
    scopeParam: boolean;
}

/** A function written with `Puppet::Functions.create_function`. */
export class Function4 {
    readonly kind = '4x';
    readonly dispatches: DispatchSpec[] = [];
    readonly localTypes: string[] = [];
    private compiled: Array<{ spec: DispatchSpec; sig: Signature }> | undefined;
    instance: RObject | undefined;
    constructor(readonly name: string, readonly cls: RClass, readonly file: string) {}

    signatures(rt: PluginRuntime): Array<{ spec: DispatchSpec; sig: Signature }> {
        if (!this.compiled) {
            const local = this.localResolver(rt);
            const parse = (t: RValue): PAnyType => (t instanceof PAnyType ? t : rt.host.parseType(typeof t === 'string' ? t : t instanceof RSymbol ? t.name : 'Any', local));
            const specs = this.dispatches.length ? this.dispatches : [this.defaultDispatch(rt)];
            this.compiled = specs.map(spec => ({ spec, sig: signatureOf(spec, parse) }));
        }
        return this.compiled;
    }

    /** `local_types { type 'Name = Definition' }`: aliases only this function sees. */
    private localResolver(rt: PluginRuntime): (name: string) => PAnyType | undefined {
        const bodies = new Map<string, string>();
        for (const t of this.localTypes) {
            const m = /^\s*([A-Z]\w*(?:::[A-Z]\w*)*)\s*=\s*([\s\S]*)$/.exec(t);
            if (m) bodies.set(m[1], m[2]);
        }
        const aliases = new Map<string, PTypeAliasType>();
        const resolve = (name: string): PAnyType | undefined => {
            const body = bodies.get(name);
            if (body === undefined) return undefined;
            let a = aliases.get(name);
            if (!a) {
                a = new PTypeAliasType(name);
                aliases.set(name, a);
                a.resolved = rt.host.parseType(body, resolve);
            }
            return a;
        };
        return resolve;
    }

    /** Without `dispatch`, Puppet dispatches to the method named as the function, typed Any, by its parameters. */
    private defaultDispatch(rt: PluginRuntime): DispatchSpec {
        const method = this.name.split('::').pop() as string;
        const m = rt.interp.findMethod(this.cls, method);
        if (!m) throw rubyError('ArgumentError', `Function Creation Error, cannot create a default dispatcher for function '${this.name}', no method with this name found`);
        const params: readonly Param[] = methodParams.get(m) ?? [];
        const specs: ParamSpec[] = [];
        for (const p of params) {
            if (p.kind === 'req') specs.push({ kind: 'param', type: 'Any', name: p.name });
            else if (p.kind === 'opt') specs.push({ kind: 'optional', type: 'Any', name: p.name });
            else if (p.kind === 'rest') specs.push({ kind: 'repeated', type: 'Any', name: p.name || 'args' });
            else if (p.kind === 'block') specs.push({ kind: 'optional_block', type: 'Callable', name: p.name });
        }
        return { method, params: specs, mismatch: false, scopeParam: false };
    }
}

function signatureOf(spec: DispatchSpec, parse: (t: RValue) => PAnyType): Signature {
    const params: SignatureParam[] = [];
    let required = 0;
    let repeated = false;
    let block: SignatureBlock | undefined;
    for (const p of spec.params) {
        if (p.kind === 'block' || p.kind === 'optional_block') { block = blockOf(p, p.kind === 'optional_block'); continue; }
        params.push({ name: p.name, type: parse(p.type) });
        if (p.kind === 'param' || p.kind === 'required_repeated') required++;
        if (p.kind === 'repeated' || p.kind === 'required_repeated') repeated = true;
    }
    return { params, required, repeated, block };
}

function blockOf(p: ParamSpec, optional: boolean): SignatureBlock {
    const text = typeof p.type === 'string' ? p.type.replace(/\s+/g, '') : 'Callable';
    const m = /^Callable(?:\[(.*)\])?$/.exec(text);
    if (!m || m[1] === undefined) return { name: p.name, optional, counted: false, min: 0, max: null, display: 'Callable' };
    const parts = m[1].split(',');
    const display = `Callable[${parts.join(', ')}]`;
    if (parts.every(x => /^\d+$/.test(x))) return { name: p.name, optional, counted: true, min: Number(parts[0]), max: Number(parts[1] ?? parts[0]), display };
    return { name: p.name, optional, counted: true, min: parts.length, max: parts.length, display };
}

const nameOf = (v: RValue): string => (v instanceof RSymbol ? v.name : typeof v === 'string' ? v : String(v));

/** `Puppet::Functions` and the dispatch DSL over one runtime. */
export class Functions4 {
    private readonly byName = new Map<string, Function4>();
    private readonly byClass = new WeakMap<RClass, Function4>();
    private readonly builders = new WeakMap<RObject, DispatchSpec | string[]>();
    readonly builderClass = new RClass('Puppet::Pops::Functions::DispatcherBuilder', null);

    constructor(private readonly rt: PluginRuntime) {
        const add = (kind: ParamKind) => (self: RValue, args: RValue[]): RValue => {
            const spec = this.builders.get(self as RObject);
            if (!spec || Array.isArray(spec)) throw rubyError('NoMethodError', `undefined method for ${kind}`);
            const block = kind === 'block' || kind === 'optional_block';
            // block_param may give only the name: `block_param :block`.
            const [type, name] = block && args.length === 1 ? ['Callable', args[0]] : [args[0] ?? 'Any', args[1] ?? 'arg'];
            spec.params.push({ kind, type, name: nameOf(name) });
            return null;
        };
        const b = this.builderClass;
        b.define('param', add('param'));
        b.define('required_param', add('param'));
        b.define('optional_param', add('optional'));
        b.define('repeated_param', add('repeated'));
        b.define('optional_repeated_param', add('repeated'));
        b.define('required_repeated_param', add('required_repeated'));
        b.define('block_param', add('block'));
        b.define('required_block_param', add('block'));
        b.define('optional_block_param', add('optional_block'));
        b.define('return_type', () => null);
        b.define('scope_param', self => { const s = this.builders.get(self as RObject); if (s && !Array.isArray(s)) s.scopeParam = true; return null; });
        b.define('type', (self, args) => { const s = this.builders.get(self as RObject); if (Array.isArray(s)) s.push(nameOf(args[0] ?? null)); return null; });
        this.dispatcherClass.define('dispatch', (self, args, block) => this.dispatchGiven(self, args, block));
    }

    readonly dispatcherClass = new RClass('Puppet::Pops::Functions::Dispatcher', null);
    private readonly dispatchers = new WeakMap<RObject, Function4>();

    /** `self.class.dispatcher`: what a function overriding `call` hands its (scope-first) arguments to. */
    dispatcherOf(cls: RValue): RValue {
        const fn = cls instanceof RClass ? this.byClass.get(cls) : undefined;
        if (!fn) throw rubyError('NoMethodError', 'undefined method `dispatcher\'');
        const d = new RObject(this.dispatcherClass, '#<Puppet::Pops::Functions::Dispatcher>');
        this.dispatchers.set(d, fn);
        return d;
    }

    /**
     * `dispatcher.dispatch(instance, scope, args)`: the first signature accepting `args` runs its method
     * with them. The calling scope among them is no Puppet value: it is checked as undef (its
     * parameter is typed Any in the functions that pass it).
     */
    private dispatchGiven(dispatcher: RValue, args: RValue[], block: RProc | undefined): RValue {
        const fn = dispatcher instanceof RObject ? this.dispatchers.get(dispatcher) : undefined;
        if (!fn) throw rubyError('NoMethodError', 'undefined method `dispatch\'');
        const rt = this.rt;
        const [instance, , given] = args;
        const rubyArgs = Array.isArray(given) ? given : [];
        const checked = rubyArgs.map(a => (a instanceof RObject && a.cls === rt.ns.classes.Scope ? null : toPuppet(a)));
        const sigs = fn.signatures(rt);
        const arity: BlockArity | undefined = block ? { min: Math.max(0, block.arity < 0 ? -block.arity - 1 : block.arity), max: block.arity < 0 ? null : block.arity } : undefined;
        const hit = sigs.find(x => signatureAccepts(x.sig, checked, arity));
        if (!hit) {
            const normal = sigs.filter(x => !x.spec.mismatch).map(x => x.sig);
            throw new PluginCallError(describeSignatures(fn.name, normal, checked, arity) ?? `'${fn.name}' rejects its arguments`, 'ArgumentError');
        }
        return rt.interp.send(instance ?? null, hit.spec.method, rubyArgs, block, true);
    }

    get(name: string): Function4 | undefined {
        return this.byName.get(name);
    }

    /** `Puppet::Functions.create_function(:name, base) do ... end`: the function class, its methods and dispatches. */
    create(name: string, base: RClass, block: RProc | undefined): RClass {
        const cls = new RClass(name, base);
        const fn = new Function4(name, cls, this.rt.interp.file ?? '');
        this.byClass.set(cls, fn);
        if (block) evalWith(block, cls, cls, []);
        this.byName.set(name, fn);
        return cls;
    }

    dispatch(cls: RValue, args: RValue[], block: RProc | undefined, mismatch: boolean): RValue {
        const fn = cls instanceof RClass ? this.byClass.get(cls) : undefined;
        if (!fn) throw rubyError('NoMethodError', 'dispatch outside of create_function');
        const spec: DispatchSpec = { method: nameOf(args[0] ?? null), params: [], mismatch, scopeParam: false };
        const builder = new RObject(this.builderClass, '#<Puppet::Pops::Functions::DispatcherBuilder>');
        this.builders.set(builder, spec);
        if (block) evalWith(block, builder, null, []);
        fn.dispatches.push(spec);
        return null;
    }

    localTypes(cls: RValue, block: RProc | undefined): RValue {
        const fn = cls instanceof RClass ? this.byClass.get(cls) : undefined;
        if (!fn || !block) return null;
        const builder = new RObject(this.builderClass, '#<Puppet::Pops::Functions::LocalTypeAliasesBuilder>');
        this.builders.set(builder, fn.localTypes);
        evalWith(block, builder, null, []);
        return null;
    }

    /** Calls the function as Puppet's dispatcher does: the first signature that accepts the call runs. */
    call(fn: Function4, args: PuppetValue[], block: PuppetBlock | undefined, scope: ScopeHost): PuppetValue {
        const rt = this.rt;
        return rt.withScope(scope, () => rt.guard(() => {
            if (rt.interp.findMethod(fn.cls, 'call')) {
                fn.instance ??= new RObject(fn.cls, `#<${fn.cls.name}>`);
                const own = block ? new RProc(a => block.call(a.map(toPuppet)), block.max === block.min ? block.min : -(block.min + 1), true) : undefined;
                // A function defining its own `call` gets the calling scope first, as Puppet calls it (stdlib's deprecation shims).
                return toPuppet(rt.interp.send(fn.instance, 'call', [rt.ns.scopeObject(scope), ...args], own, true));
            }
            const sigs = fn.signatures(rt);
            const arity: BlockArity | undefined = block ? { min: block.min, max: block.max } : undefined;
            const hit = sigs.find(s => signatureAccepts(s.sig, args, arity));
            if (!hit) {
                const normal = sigs.filter(s => !s.spec.mismatch).map(s => s.sig);
                throw new PluginCallError(describeSignatures(fn.name, normal, args, arity) ?? `'${fn.name}' rejects its arguments`, 'ArgumentError');
            }
            fn.instance ??= new RObject(fn.cls, `#<${fn.cls.name}>`);
            const rubyArgs: RValue[] = hit.spec.scopeParam ? [rt.ns.scopeObject(scope), ...args] : [...args];
            const rubyBlock = block ? new RProc(a => block.call(a.map(toPuppet)), block.max === block.min ? block.min : -(block.min + 1), true) : undefined;
            const result = rt.interp.send(fn.instance, hit.spec.method, rubyArgs, rubyBlock, true);
            if (hit.spec.mismatch) throw new PluginCallError(`'${fn.name}' ${rt.interp.toS(result)}`, 'ArgumentError');
            return toPuppet(result);
        }, fn.file, true));
    }
}
