import { classOf, Exceptions, inspect, ObjectClass, RClass, RObject, RSymbol, RubyError, rubyError, type Method, type RProc, type RValue } from '../../ruby/index.js';
import { PuppetError } from '../errors.js';
import { FatalError, type ProviderContext } from '../rsapi/context.js';
import type { Changes, Identity, ResourceApiProvider, ResourceHash } from '../rsapi/provider.js';
import { ForeignValue, SimpleProvider } from '../rsapi/provider.js';
import type { PuppetValue } from '../values.js';
import type { RubyValues } from './ruby-values.js';

const CONTEXT = 'Puppet::ResourceApi::PuppetContext';
const TYPE_DEFINITION = 'Puppet::ResourceApi::TypeDefinition';

/** Calls into a module's Ruby, with the runtime's guards: refused host access and unsupported Ruby are located failures. */
export type RubyCall = (recv: RValue, method: string, args: RValue[], block?: RProc) => RValue;

/** A Ruby exception that is no StandardError, carried through a logging block that must not swallow it. */
class FatalRubyError extends FatalError {
    constructor(readonly error: RubyError) {
        super(error.message);
    }
}

/**
 * The provider's block of a logging context (`context.creating(name) { ... }`): the gem consumes a
 * StandardError after logging it, but anything else (NotImplementedError, a bare Exception...)
 * leaves the block unlogged and goes on up the provider's stack, as Ruby raised it.
 */
function runBlock<T>(run: (body: () => unknown) => T, blk: RProc | undefined): T {
    try {
        return run(() => {
            try {
                return blk ? blk.call([]) : null;
            } catch (e) {
                if (e instanceof RubyError && !e.cls.isSubclassOf(Exceptions.StandardError)) throw new FatalRubyError(e);
                throw e;
            }
        });
    } catch (e) {
        if (e instanceof FatalRubyError) throw e.error;
        throw e;
    }
}

/** Trailing `key: value` arguments of a Ruby call, when there are any. */
function keywords(args: RValue[], names: readonly string[] = ['message']): { positional: RValue[]; kw: Map<RValue, RValue> | undefined } {
    const last = args[args.length - 1];
    // Only the method's own keywords: a trailing resource hash ({ ensure: 'present' }) stays an argument.
    if (last instanceof Map && last.size > 0 && [...last.keys()].every(k => k instanceof RSymbol && names.includes(k.name))) return { positional: args.slice(0, -1), kw: last };
    return { positional: args, kw: undefined };
}

/**
 * `context` as Ruby providers and transports see it: every method delegates to the apply stage's
 * ProviderContext (the gem's message formats live there once), blocks run the provider's Ruby.
 */
export class RubyContexts {
    private readonly cls: RClass;
    private readonly typeCls: RClass;
    private readonly contexts = new WeakMap<RObject, ProviderContext>();
    private readonly types = new WeakMap<RObject, ProviderContext>();

    constructor(private readonly values: RubyValues) {
        const constants = values.rt.ns.constants;
        const known = constants.get(CONTEXT);
        this.cls = known instanceof RClass ? known : new RClass(CONTEXT, ObjectClass);
        constants.set(CONTEXT, this.cls);
        const knownType = constants.get(TYPE_DEFINITION);
        this.typeCls = knownType instanceof RClass ? knownType : new RClass(TYPE_DEFINITION, ObjectClass);
        constants.set(TYPE_DEFINITION, this.typeCls);
        this.defineContext();
        this.defineType();
    }

    wrap(ctx: ProviderContext): RObject {
        const o = new RObject(this.cls, `#<${CONTEXT}>`);
        this.contexts.set(o, ctx);
        return o;
    }

    private of(self: RValue): ProviderContext {
        const ctx = self instanceof RObject ? this.contexts.get(self) ?? this.types.get(self) : undefined;
        if (!ctx) throw new PuppetError('a provider context used after its run');
        return ctx;
    }

    private defineContext(): void {
        const v = this.values;
        // A symbol-keyed hash (a resource hash) becomes an object, which prints with symbol keys; other hashes stay data.
        const plain = (a: RValue): unknown => (a instanceof Map && a.size > 0 && [...a.keys()].every(k => k instanceof RSymbol)
            ? Object.fromEntries([...a].map(([k, x]) => [(k as RSymbol).name, v.fromRuby(x)])) : v.fromRuby(a));
        // The gem's log methods take plain arguments only (no keywords).
        const log = (level: 'debug' | 'info' | 'notice' | 'warning' | 'err'): Method => (self, args) => {
            this.of(self)[level](...args.map(plain));
            return null;
        };
        const messageOf = (kw: Map<RValue, RValue> | undefined): { message?: string } => {
            const m = kw?.get(RSymbol.of('message'));
            return typeof m === 'string' ? { message: m } : {};
        };
        const block = (kind: 'creating' | 'updating' | 'deleting' | 'failing'): Method => (self, args, blk) => {
            const { positional, kw } = keywords(args);
            runBlock(body => this.of(self)[kind](plain(positional[0] ?? null), body, messageOf(kw)), blk);
            return null;
        };
        const action = (kind: 'created' | 'updated' | 'deleted' | 'failed'): Method => (self, args) => {
            const { positional, kw } = keywords(args);
            this.of(self)[kind](plain(positional[0] ?? null), messageOf(kw));
            return null;
        };
        const table: Record<string, Method> = {
            debug: log('debug'), info: log('info'), notice: log('notice'), warning: log('warning'), err: log('err'),
            creating: block('creating'), updating: block('updating'), deleting: block('deleting'), failing: block('failing'),
            created: action('created'), updated: action('updated'), deleted: action('deleted'), failed: action('failed'),
            processing: (self, args, blk) => {
                const { positional, kw } = keywords(args);
                const m = kw?.get(RSymbol.of('message')) ?? positional[3];
                runBlock(body => this.of(self).processing(plain(positional[0] ?? null), plain(positional[1] ?? null), plain(positional[2] ?? null), body, typeof m === 'string' ? m : undefined), blk);
                return null;
            },
            processed: (self, args) => { this.of(self).processed(plain(args[0] ?? null), plain(args[1] ?? null), plain(args[2] ?? null)); return null; },
            attribute_changed: (self, args) => {
                const { positional, kw } = keywords(args);
                const name = positional[1] ?? null;
                this.of(self).attributeChanged(plain(positional[0] ?? null), name instanceof RSymbol ? name.name : String(name), plain(positional[2] ?? null), plain(positional[3] ?? null), messageOf(kw));
                return null;
            },
            log_exception: (self, args) => {
                const { positional, kw } = keywords(args, ['message', 'trace']);
                const message = kw?.get(RSymbol.of('message'));
                // An exception interpolates as its message (Exception#to_s).
                this.of(self).logException(new Error(v.rt.interp.toS(positional[0] ?? null)), { ...(typeof message === 'string' ? { message } : {}) });
                return null;
            },
            'failed?': self => this.of(self).isFailed(),
            reset_failed: self => { this.of(self).resetFailed(); return null; },
            'feature_support?': (self, args) => this.of(self).featureSupport(v.rt.interp.toS(args[0] ?? null)),
            // The gem's PuppetContext: without a device there is no transport to reach.
            transport: self => {
                let t: unknown;
                try { t = this.of(self).transport; } catch { throw rubyError('RuntimeError', 'no device configured'); }
                return t instanceof RObject ? t : null;
            },
            type: self => {
                const o = new RObject(this.typeCls, `#<${TYPE_DEFINITION}>`);
                this.types.set(o, this.of(self));
                return o;
            }
        };
        for (const [n, m] of Object.entries(table)) this.cls.define(n, m);
    }

    private defineType(): void {
        const v = this.values;
        const attrs = (self: RValue): Map<RValue, RValue> => new Map(this.of(self).type.attributes.map(a => [RSymbol.of(a.name), new Map<RValue, RValue>([
            [RSymbol.of('type'), a.type],
            ...(a.desc !== undefined ? [[RSymbol.of('desc'), a.desc] as [RValue, RValue]] : []),
            ...(a.default !== undefined ? [[RSymbol.of('default'), v.toRuby(a.default)] as [RValue, RValue]] : []),
            ...(a.behaviour !== undefined ? [[RSymbol.of('behaviour'), RSymbol.of(a.behaviour)] as [RValue, RValue]] : []),
            ...(a.sensitive ? [[RSymbol.of('sensitive'), true] as [RValue, RValue]] : [])
        ])]));
        const table: Record<string, Method> = {
            name: self => this.of(self).type.name,
            attributes: attrs,
            definition: attrs,
            'ensurable?': self => this.of(self).type.isEnsurable(),
            'feature?': (self, args) => this.of(self).type.hasFeature(v.rt.interp.toS(args[0] ?? null)),
            namevars: self => this.of(self).type.namevars().map(n => RSymbol.of(n))
        };
        for (const [n, m] of Object.entries(table)) this.typeCls.define(n, m);
    }
}

/**
 * A module's Ruby provider class (`Puppet::Provider::<Camel>::<Camel>`) as the apply stage's
 * provider: get/set/canonicalize/insync?/generate are called in Ruby with symbol-keyed hashes.
 * A subclass of `Puppet::ResourceApi::SimpleProvider` gets the gem's set (create/update/delete in
 * the context's blocks) from the TypeScript SimpleProvider, calling its Ruby create/update/delete.
 */
export function rubyProvider(instance: RObject, values: RubyValues, contexts: RubyContexts, call: RubyCall, simple: boolean): ResourceApiProvider {
    const has = (m: string): boolean => values.rt.interp.respondsTo(instance, m);
    const ctx = (c: ProviderContext): RObject => contexts.wrap(c);
    const hashes = (r: RValue, what: string): ResourceHash[] => {
        if (!Array.isArray(r)) throw new PuppetError(`${instance.cls.name}#${what} returned ${values.rt.interp.toS(r)} instead of an Array of resource hashes`);
        return r.map(h => {
            const hash = values.hashFromRuby(h);
            if (!hash) throw new PuppetError(`${instance.cls.name}#${what} returned ${values.rt.interp.toS(h)} where a resource Hash belongs`);
            return hash;
        });
    };
    const get = (c: ProviderContext, names?: Identity[]): ResourceHash[] =>
        hashes(call(instance, 'get', [ctx(c), ...(names !== undefined ? [names.map(n => values.identityToRuby(n))] : [])]), 'get');
    const optional = {
        ...(has('canonicalize') ? { canonicalize: (c: ProviderContext, resources: ResourceHash[]) => hashes(call(instance, 'canonicalize', [ctx(c), resources.map(r => values.hashToRuby(r))]), 'canonicalize') } : {}),
        ...(has('insync?') ? {
            insync: (c: ProviderContext, name: Identity, property: string, is: ResourceHash, should: ResourceHash): unknown => {
                const r = call(instance, 'insync?', [ctx(c), values.identityToRuby(name), RSymbol.of(property), values.hashToRuby(is), values.hashToRuby(should)]);
                // Only nil, true and false are answers; anything else is reported by its Ruby class and inspect.
                const answer = (x: RValue): unknown => (x === null || typeof x === 'boolean' ? x : new ForeignValue(classOf(x).name, inspect(x)));
                return Array.isArray(r) ? [answer(r[0] ?? null), ...r.slice(1).map(x => values.fromRuby(x))] : answer(r);
            }
        } : {}),
        ...(has('generate') ? {
            generate: (c: ProviderContext, title: string, is: ResourceHash, should: ResourceHash) => {
                const r = call(instance, 'generate', [ctx(c), title, values.hashToRuby(is), values.hashToRuby(should)]);
                return (Array.isArray(r) ? r : []).map(x => {
                    const h = values.hashFromRuby(x) ?? {};
                    const params = h.parameters instanceof Map ? Object.fromEntries([...h.parameters].map(([k, p]) => [String(k), p])) : undefined;
                    return { type: String(h.type ?? ''), title: String(h.title ?? ''), ...(params ? { parameters: params as Record<string, PuppetValue> } : {}) };
                });
            }
        } : {})
    };
    // A SimpleProvider subclass that writes its own `set` keeps it.
    if (simple && !instance.cls.findMethod('set')) {
        const hooks = (m: 'create' | 'update' | 'delete') => (c: ProviderContext, name: Identity, should?: ResourceHash): void => {
            if (!has(m)) throw new Error(`${instance.cls.name} has not implemented \`${m}\``);
            call(instance, m, [ctx(c), values.identityToRuby(name), ...(should ? [values.hashToRuby(should)] : [])]);
        };
        class RubySimpleProvider extends SimpleProvider {
            get(c: ProviderContext, names?: Identity[]): ResourceHash[] { return get(c, names); }
            override create(c: ProviderContext, name: Identity, should: ResourceHash): void { hooks('create')(c, name, should); }
            override update(c: ProviderContext, name: Identity, should: ResourceHash): void { hooks('update')(c, name, should); }
            override delete(c: ProviderContext, name: Identity): void { hooks('delete')(c, name); }
        }
        return Object.assign(new RubySimpleProvider(), optional);
    }
    return {
        get,
        set: (c: ProviderContext, changes: Changes, options?: { noop: boolean }): void => {
            const rubyChanges = new Map<RValue, RValue>([...changes].map(([id, change]) => [values.identityToRuby(id), new Map<RValue, RValue>([
                ...('is' in change ? [[RSymbol.of('is'), change.is ? values.hashToRuby(change.is) : null] as [RValue, RValue]] : []),
                ...(change.should ? [[RSymbol.of('should'), values.hashToRuby(change.should)] as [RValue, RValue]] : [])
            ])]));
            call(instance, 'set', [ctx(c), rubyChanges, ...(options ? [new Map<RValue, RValue>([[RSymbol.of('noop'), options.noop]])] : [])]);
        },
        ...optional
    };
}

