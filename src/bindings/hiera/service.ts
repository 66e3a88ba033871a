import { resolve, join } from 'node:path';
import { inject, type Module } from 'langium';
import type { PuppetValue } from '../../values/index.js';
import type { HieraContext } from './context.js';
import { HieraFileCache, type WarningSink } from './data-cache.js';
import { HieraEngine, type HieraEnvironment, type HieraTypeSupport, type LookupRequest } from './engine.js';
import { Explainer } from './explain.js';
import type { Found } from './lookup-key.js';

/** The Hiera services, wired Langium-style so a caller can replace any of them. */
export interface HieraServices {
    /** Parsed config and data files, shared by every lookup service created from these services. */
    readonly files: HieraFileCache;
    /** Creates the engine for one environment and node. */
    readonly createEngine: (environment: HieraEnvironment, context: HieraContext, types: HieraTypeSupport | undefined, warn: WarningSink) => HieraEngine;
}

export const HieraModule: Module<HieraServices> = {
    files: () => new HieraFileCache(),
    createEngine: services => (environment, context, types, warn) => new HieraEngine(environment, context, { files: services.files, warn, types })
};

export function createHieraServices(...overrides: Module<HieraServices, Partial<HieraServices>>[]): HieraServices {
    return inject(HieraModule, ...overrides);
}

let sharedServices: HieraServices | undefined;

/** Process-wide services, so data files parsed once are shared by every compile. */
export function defaultHieraServices(): HieraServices {
    sharedServices ??= createHieraServices();
    return sharedServices;
}

export interface HieraLookupOptions {
    /** The environment directory, or a full environment description (module path...). */
    readonly environment: string | HieraEnvironment;
    /** Facts, trusted data and (during a compile) the top-scope variable callback. */
    readonly context: HieraContext;
    /** The Puppet type system's hooks for `type` and `convert_to`. */
    readonly types?: HieraTypeSupport;
    /** Receives Puppet's warnings (default: collected in `warnings`). */
    readonly warn?: WarningSink;
    readonly services?: HieraServices;
}

/** A lookup service for one node: what `lookup()` and automatic class-parameter lookup call. */
export interface HieraLookup {
    readonly engine: HieraEngine;
    /** Warnings logged so far (module keys outside the namespace, non-hash data files...). */
    readonly warnings: readonly string[];
    /** Puppet's `lookup()`: a value, the default, or a LookupError (not found, bad data...). */
    lookup(names: string | readonly string[], request?: LookupRequest): PuppetValue;
    /** The value, or NOT_FOUND when no layer has it (for automatic parameter lookup). */
    lookupOptional(name: string, request?: LookupRequest): Found;
    /** Runs the lookup with an explainer; returns the explanation text and the outcome. */
    explain(names: string | readonly string[], request?: LookupRequest): { text: string; value?: PuppetValue; error?: unknown };
}

/**
 * Creates the Hiera 5 lookup service for an environment and a node context. The catalog
 * builder creates one per compile and passes `context.variable` so `%{::var}` sees its top
 * scope; `modelc lookup` creates one per command.
 */
export function createHieraLookup(options: HieraLookupOptions): HieraLookup {
    const services = options.services ?? defaultHieraServices();
    const env: HieraEnvironment = typeof options.environment === 'string'
        ? { name: options.context.environment, root: resolve(options.environment), modulePath: [join(resolve(options.environment), 'modules')] }
        : options.environment;
    const warnings: string[] = [];
    // Puppet's log text: a warning issued with a file gets "\n   (file: F)" appended.
    const warn: WarningSink = options.warn ?? ((message, file) => { warnings.push(file === undefined ? message : `${message}\n   (file: ${file})`); });
    const engine = services.createEngine(env, options.context, options.types, warn);
    return {
        engine,
        warnings,
        lookup: (names, request) => engine.lookup(names, request),
        lookupOptional: (name, request) => engine.lookupOptional(name, request),
        explain(names, request = {}) {
            const explainer = new Explainer();
            try {
                const value = engine.lookup(names, { ...request, explainer });
                return { text: explainer.render(), value };
            } catch (error) {
                if (error instanceof Error) explainer.line(error.message);
                return { text: explainer.render(), error };
            }
        }
    };
}
