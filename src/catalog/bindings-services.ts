import type { Module } from 'langium';
import { createEffectiveDataBinding, createInjectingDataBinding, createTypeSupport, usesBindings } from '../bindings/index.js';
import type { Model } from '../model/index.js';
import { PAnyType } from '../types/index.js';
import { Compiler } from './compiler.js';
import { catalogInjectorServices } from './injector-services.js';
import type { CatalogStore, QueryProvenance } from '../store/index.js';
import type { FunctionTable } from './functions/function.js';
import { isInjecting } from './functions/inject-functions.js';
import { bootFor, hieraLookupFactory, type CatalogServices, type LookupFactory, type TypeSystem } from './services.js';

/**
 * The lookup factory of an environment with ARM-8 bindings: automatic class-parameter lookup and
 * `lookup()` go through the injector (Hiera 5 being one provider among the layers), and
 * `inject()` works. Environments without bindings keep Hiera 5 alone.
 */
export function bindingsLookupFactory(types: TypeSystem, functions?: FunctionTable, store?: { store?: CatalogStore; queryLog?: QueryProvenance[] }): LookupFactory {
    const hiera = hieraLookupFactory(types);
    return (env, warn, request) => {
        // An ENC's answer is applied through the injector (its `enc:` layer).
        if (request?.enc === undefined && !usesBindings({ envDir: env.dir, modulePath: env.modulepath, manifests: env.manifests, ...(env.bindingsDir !== undefined ? { bindingsDir: env.bindingsDir } : {}), ...(env.fs ? { fs: env.fs } : {}) })) return hiera(env, warn);
        return createInjectingDataBinding({
            environment: { name: env.name, root: env.dir, modulePath: env.modulepath, ...(env.fs ? { fs: env.fs } : {}) },
            types: createTypeSupport((type, value, args) => types.convert(type instanceof PAnyType ? type : types.parse(String(type)), value, args)),
            warn,
            injectorServices: catalogInjectorServices(env, { ...(functions ? { functions } : {}), ...store }),
            manifests: env.manifests,
            ...(env.bindingsDir !== undefined ? { bindingsDir: env.bindingsDir } : {}),
            ...(request?.enc ? { enc: request.enc } : {})
        });
    };
}

/**
 * The lookup factory of a compile fed a model made by an earlier stage: a LayeredBindings model
 * (`modelc bindings`, any tool) replaces what the environment's providers would compose; an
 * EffectiveBindings model (`modelc effective --values`) answers with what the injector decided.
 * Hiera 5 keeps answering the keys its levels win, from the environment's data.
 */
export function modelLookupFactory(types: TypeSystem, given: { readonly bindings: Model } | { readonly effective: Model; readonly file: string }): LookupFactory {
    return (env, warn) => {
        const environment = { name: env.name, root: env.dir, modulePath: env.modulepath, ...(env.fs ? { fs: env.fs } : {}) };
        const typeSupport = createTypeSupport((type, value, args) => types.convert(type instanceof PAnyType ? type : types.parse(String(type)), value, args));
        return 'bindings' in given
            ? createInjectingDataBinding({ environment, types: typeSupport, warn, bindings: given.bindings })
            : createEffectiveDataBinding({ environment, types: typeSupport, warn, effective: given.effective, file: given.file });
    };
}

/**
 * Catalog services with ARM-8 bindings, as an override module:
 * `createCatalogServices(BindingsCatalogModule)`. The classes bound under `/classes` (ENC
 * classes, `include`/`exclude`) join the classifier's classes. Not the default module: with it,
 * bindings change class parameters, and the default compile stays Puppet 7's.
 */
export const BindingsCatalogModule: Module<CatalogServices, Partial<CatalogServices>> = {
    Lookup: services => bindingsLookupFactory(services.TypeSystem, services.Functions),
    Compile: services => request => {
        const env = bootFor(services, request);
        const warnings: Array<{ message: string; file?: string; at?: { readonly line: number; readonly column?: number } }> = [];
        const warn = (message: string, file?: string, at?: { readonly line: number; readonly column?: number }): void => { warnings.push({ message, file, ...(at ? { at } : {}) }); };
        // With a store, `Type[?? ...]` in bindings is answered from it (other nodes' catalogs).
        const { store, queryLog } = request.options;
        const asked = request.options.enc ? { enc: request.options.enc } : {};
        const lookup = store ? bindingsLookupFactory(services.TypeSystem, services.Functions, { store, ...(queryLog ? { queryLog } : {}) })(env, warn, asked) : services.Lookup(env, warn, asked);
        const first = new Compiler(env, services.Functions, { ...request.options, lookup, lookupWarnings: warnings });
        // The classification needs the request's own context (facts, trusted certname).
        const bound = isInjecting(lookup) ? lookup.classes(first.lookupContext()) : [];
        const given = request.options.classes ?? [];
        const compiler = bound.length === 0 ? first : new Compiler(env, services.Functions, { ...request.options, classes: [...given, ...bound.filter(c => !given.includes(c))], lookup, lookupWarnings: warnings });
        return compiler.compile();
    }
};
