import { PRegexp } from '../../values/index.js';
import { ObjectClass, RClass, RObject, RSymbol, RubyError, rubyError, type Method, type RValue } from '../objects.js';
import type { PluginRuntime } from './runtime.js';

/**
 * What the Resource API entry points hand to the environment's type registry: the definition as
 * plain data, keyed as the module author wrote it (`attributes`, `behaviour`, `title_patterns`),
 * symbols as strings and regexps as `{source}` (their Ruby text). The registry validates it with
 * the gem's checks; a refusal comes back as a Ruby error located in the module's file.
 */
export interface ResourceApiRegistry {
    registerResourceApiType?(definition: Record<string, unknown>): void;
    registerResourceApiTransport?(definition: Record<string, unknown>): void;
}

/** Ruby data as the registry reads a definition: symbol-keyed hashes become objects. */
export function rubyToPlain(v: RValue): unknown {
    if (v instanceof RSymbol) return v.name;
    if (v instanceof PRegexp) return { source: v.source };
    if (Array.isArray(v)) return v.map(rubyToPlain);
    if (v instanceof Map) {
        const out: Record<string, unknown> = {};
        for (const [k, x] of v) out[k instanceof RSymbol ? k.name : String(k)] = rubyToPlain(x);
        return out;
    }
    return v;
}

/** A Transport::Wrapper subclass instance (a `puppet device` shim): the transport it names and its config. */
export interface DeviceWrapper {
    readonly transport: string;
    readonly config: RValue;
}

const camel = (s: string): string => s.split('_').map(p => p.charAt(0).toUpperCase() + p.slice(1)).join('');

/**
 * `Puppet::ResourceApi`: `register_type` and `register_transport` (also as
 * `Puppet::ResourceApi::Transport.register`) into the environment's registry, the
 * `SimpleProvider` base class providers derive from, and the `Transport::Wrapper` base class of
 * device shims. Providers and transports are run by the apply stage (it owns their contexts).
 */
export interface ResourceApiClasses {
    readonly simpleProvider: RClass;
    readonly wrappers: WeakMap<RObject, DeviceWrapper>;
}

type ErrorClasses = { readonly DevError: RClass; readonly ResourceError: RClass };

export function defineResourceApi(rt: PluginRuntime, mod: (path: string, isModule?: boolean, superclass?: RClass | null) => RClass, errors: ErrorClasses): ResourceApiClasses {
    const registry = rt.registry as ResourceApiRegistry;
    const api = mod('Puppet::ResourceApi');
    const refuseHere = (what: string): never => { throw rubyError('RuntimeError', `${what} is not available while compiling: only the apply stage registers Resource API definitions`); };
    const registerType: Method = (_s, args) => {
        const def = args[0] ?? null;
        if (!registry.registerResourceApiType) refuseHere('Puppet::ResourceApi.register_type');
        guarded(errors, () => registry.registerResourceApiType?.(rubyToPlain(def) as Record<string, unknown>));
        // The gem makes the provider namespace module, so `class Puppet::Provider::Foo::Foo` resolves.
        if (def instanceof Map) {
            const name = def.get(RSymbol.of('name'));
            if (typeof name === 'string') mod(`Puppet::Provider::${camel(name)}`);
        }
        return null;
    };
    const registerTransport: Method = (_s, args) => {
        if (!registry.registerResourceApiTransport) refuseHere('Puppet::ResourceApi.register_transport');
        guarded(errors, () => registry.registerResourceApiTransport?.(rubyToPlain(args[0] ?? null) as Record<string, unknown>));
        return null;
    };
    api.defineStatic('register_type', registerType);
    api.defineStatic('register_transport', registerTransport);
    const transport = mod('Puppet::ResourceApi::Transport');
    transport.defineStatic('register', registerTransport);
    mod('Puppet::Transport');
    // A class, as in Puppet: classic providers derive from it, Resource API providers live in its namespace.
    mod('Puppet::Provider', false, ObjectClass);
    const simpleProvider = mod('Puppet::ResourceApi::SimpleProvider', false, ObjectClass);
    const wrapper = mod('Puppet::ResourceApi::Transport::Wrapper', false, ObjectClass);
    const wrappers = new WeakMap<RObject, DeviceWrapper>();
    wrapper.define('initialize', (self, args) => {
        if (self instanceof RObject) wrappers.set(self, { transport: rt.interp.toS(args[0] ?? null), config: args[1] ?? null });
        return null;
    });
    return { simpleProvider, wrappers };
}

/** A registry refusal (a JavaScript error) becomes a Ruby ArgumentError-like error of the calling file. */
function guarded(errors: ErrorClasses, f: () => void): void {
    try {
        f();
    } catch (e) {
        if (!(e instanceof Error) || e instanceof RubyError) throw e;
        const rubyClass = (e as { rubyClass?: unknown }).rubyClass;
        throw new RubyError(rubyClass === 'Puppet::ResourceError' ? errors.ResourceError : errors.DevError, e.message);
    }
}
