import type { InjectorOverrides } from '../injector/index.js';
import { storeQueryService, type CatalogStore, type QueryProvenance } from '../store/index.js';
import type { Environment } from './boot.js';
import { Compiler } from './compiler.js';
import { METAPARAMS } from './core-types.js';
import { createPuppetExpressionEvaluator } from './expression-evaluator.js';
import { coreFunctions } from './functions/index.js';
import type { FunctionTable } from './functions/function.js';
import { resourceAttributes } from './store-access.js';

/**
 * What the injector takes from the catalog stage for an environment: the Puppet evaluator (for
 * combinators, producers, select_result), the parameters of its classes and resource types (for
 * unmapped `bind parameters` joins), and, with a store, the query service for `Type[?? ...]`.
 */
export function catalogInjectorServices(env: Environment, options: {
    readonly functions?: FunctionTable;
    readonly store?: CatalogStore;
    readonly queryLog?: QueryProvenance[];
} = {}): InjectorOverrides {
    // Without a store they depend on the environment alone: made once for an environment a cache
    // keeps (every compile of a batch asks), with the same functions.
    if (options.store || !options.functions) return makeServices(env, options);
    let known = servicesOf.get(env);
    if (!known) servicesOf.set(env, known = new Map());
    let made = known.get(options.functions);
    if (!made) known.set(options.functions, made = makeServices(env, options));
    return made;
}

const servicesOf = new WeakMap<Environment, Map<FunctionTable, InjectorOverrides>>();

function makeServices(env: Environment, options: {
    readonly functions?: FunctionTable;
    readonly store?: CatalogStore;
    readonly queryLog?: QueryProvenance[];
}): InjectorOverrides {
    const functions = options.functions ?? coreFunctions();
    const evaluator = createPuppetExpressionEvaluator(env, functions);
    const types = new Compiler(env, functions, { node: 'types', facts: new Map() });
    // Types and classes defined in the main manifests are known only once those are loaded.
    for (const m of env.manifests) types.loader.loadManifest(m);
    const attributes = resourceAttributes(types);
    const store = options.store;
    return {
        evaluator: () => evaluator,
        typeInfo: () => ({
            parameterNames: type => {
                const cls = /^Class\[(.+)\]$/.exec(type);
                if (cls) return types.loader.findClass(cls[1].toLowerCase())?.ast.params.map(p => p.name.replace(/^\$/, ''));
                const a = attributes(type.replace(/\[.*$/s, ''));
                return a ? [...a].filter(n => !METAPARAMS.has(n) && n !== 'title') : undefined;
            }
        }),
        ...(store ? {
            query: () => storeQueryService(store, { environment: env.name, attributes, ...(options.queryLog ? { provenance: options.queryLog } : {}) })
        } : {})
    };
}
