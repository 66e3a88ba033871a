import { inject, type Module } from 'langium';
import { createHieraDataBinding, createTypeSupport, type EncAnswer } from '../bindings/index.js';
import {
    describeMismatch, formatMismatches, isAssignable, isInstance, PAnyType, parseTypeString, typeToString, type Mismatch, type TypeNameResolver
} from '../types/index.js';
import { createSharedServices, type ModelcSharedServices, type SharedServicesContext } from '../common/index.js';
import type { PuppetValue } from '../values/index.js';
import { ParsedFileCache } from '../parse/index.js';
import { bootEnvironment, filesOf, type Environment } from './boot.js';
import { Compiler, type CompileOptions, type CompileResult } from './compiler.js';
import { coreFunctions, type FunctionTable } from './functions/index.js';
import { checkedConvert } from './functions/type-functions.js';
import type { LookupService } from './lookup.js';

/** Creates the data-binding service for one compile; `warn` logs Puppet's lookup warnings. */
export type LookupFactory = (env: Environment, warn: (message: string, file?: string, at?: { readonly line: number; readonly column?: number }) => void, request?: LookupRequest) => LookupService | undefined;

/** What a lookup factory may use of the compile request beside the environment. */
export interface LookupRequest {
    /** The ENC's answer already asked for this request (when choosing its environment). */
    readonly enc?: EncAnswer;
}

/** The Puppet type system as the catalog stage uses it (and hands to others). */
export interface TypeSystem {
    parse(text: string, resolve?: TypeNameResolver): PAnyType;
    isInstance(type: PAnyType, value: PuppetValue): boolean;
    isAssignable(type: PAnyType, other: PAnyType): boolean;
    toString(type: PAnyType): string;
    describeMismatch(type: PAnyType, value: PuppetValue): Mismatch[];
    formatMismatches(subject: string, mismatches: readonly Mismatch[]): string[];
    /** Puppet's `new`: converts a value to an instance of the type. */
    convert(type: PAnyType, value: PuppetValue, args?: readonly PuppetValue[]): PuppetValue;
}

export interface CompileRequest {
    readonly codedir: string;
    readonly environment: string;
    readonly options: Omit<CompileOptions, 'lookup'>;
    readonly basemodulepath?: readonly string[];
}

/**
 * The catalog stage's services in Langium's style (a module of factories, `inject`ed): the core
 * function table, the lookup (data binding) factory, the type system, environment boot, and the
 * compile service built from them. Replace any by passing an override module.
 */
export interface CatalogServices {
    /** The services every stage shares: the source of files the environment is booted and read from. */
    readonly shared: ModelcSharedServices;
    readonly Functions: FunctionTable;
    readonly Lookup: LookupFactory;
    readonly TypeSystem: TypeSystem;
    readonly Boot: (codedir: string, environment: string, basemodulepath: readonly string[]) => Environment;
    readonly Compile: (request: CompileRequest) => CompileResult;
    /** Compiles CODEDIR for a node: boot, load, evaluate, finish. Never throws for errors in the code. */
    compile(codedir: string, environment: string, options: Omit<CompileOptions, 'lookup'>, basemodulepath?: readonly string[]): CompileResult;
}

/** Hiera 5 (src/bindings/hiera) as the lookup service, with Puppet's `new` for convert_to. */
export function hieraLookupFactory(types: TypeSystem): LookupFactory {
    return (env, warn) => createHieraDataBinding({
        environment: { name: env.name, root: env.dir, modulePath: env.modulepath, ...(env.fs ? { fs: env.fs } : {}) },
        types: createTypeSupport((type, value, args) => types.convert(type instanceof PAnyType ? type : types.parse(String(type)), value, args)),
        warn
    });
}

export const defaultTypeSystem: TypeSystem = {
    parse: parseTypeString, isInstance, isAssignable, toString: typeToString, describeMismatch, formatMismatches,
    convert: (type, value, args = []) => checkedConvert(type, [value, ...args])
};

/** The request's environment: booted by the Boot service, through the request's cache when it has one. */
export function bootFor(services: CatalogServices, request: CompileRequest): Environment {
    const basemodulepath = request.basemodulepath ?? [];
    const cache = request.options.cache;
    if (cache) return cache.environment(request.codedir, request.environment, basemodulepath, services.Boot);
    // Without a cache the compile still parses each file once, however many compilers it runs
    // (the injector's, the classification's, the catalog's).
    const env = services.Boot(request.codedir, request.environment, basemodulepath);
    return env.files ? env : { ...env, files: new ParsedFileCache(filesOf(env)) };
}

export const CatalogModule: Module<CatalogServices> = {
    shared: () => createSharedServices(),
    Functions: () => coreFunctions(),
    TypeSystem: () => defaultTypeSystem,
    Lookup: services => hieraLookupFactory(services.TypeSystem),
    Boot: services => (codedir, environment, basemodulepath) => bootEnvironment(codedir, environment, basemodulepath, services.shared.fileSystemProvider),
    Compile: services => request => {
        const env = bootFor(services, request);
        const warnings: Array<{ message: string; file?: string; at?: { readonly line: number; readonly column?: number } }> = [];
        const lookup = services.Lookup(env, (message, file, at) => { warnings.push({ message, file, ...(at ? { at } : {}) }); });
        const compiler = new Compiler(env, services.Functions, { ...request.options, lookup, lookupWarnings: warnings });
        return compiler.compile();
    },
    compile: services => (codedir: string, environment: string, options: Omit<CompileOptions, 'lookup'>, basemodulepath?: readonly string[]) =>
        services.Compile({ codedir, environment, options, basemodulepath })
};

/**
 * The service tree of a compile, as Langium's `createXServices(context)`: the shared services
 * (today the `FileSystemProvider` every stage reads through: the disk by default, or files in
 * memory) and the catalog services built on them. Override modules replace any factory.
 */
export function createModelcServices(context: SharedServicesContext = {}, ...overrides: Array<Module<CatalogServices, Partial<CatalogServices>>>): CatalogServices {
    return inject(CatalogModule, { shared: () => createSharedServices(context) }, ...overrides);
}

/** The catalog services; pass override modules to replace factories (e.g. `{ Lookup: () => myFactory }`). */
export function createCatalogServices(...overrides: Array<Module<CatalogServices, Partial<CatalogServices>>>): CatalogServices {
    return inject(CatalogModule, ...overrides);
}
