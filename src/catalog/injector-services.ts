import type { InjectorOverrides } from '../injector/index.js';
import { storeQueryService, type CatalogStore, type QueryProvenance, type ResourceAttributes } from '../store/index.js';
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
    const functions = options.functions ?? coreFunctions();
    const evaluator = createPuppetExpressionEvaluator(env, functions);
    // The environment's types are read when a parameter join first needs them: a lookup that
    // needs none does not parse the manifests (nor fail on them).
    let known: { types: Compiler; attributes: ReturnType<typeof resourceAttributes> } | undefined;
    const typesOf = (): { types: Compiler; attributes: ReturnType<typeof resourceAttributes> } => {
        if (known) return known;
        const types = new Compiler(env, functions, { node: 'types', facts: new Map() });
        // Types and classes defined in the main manifests are known only once those are loaded.
        for (const m of env.manifests) types.loader.loadManifest(m);
        known = { types, attributes: resourceAttributes(types) };
        return known;
    };
    const attributes: ResourceAttributes = type => typesOf().attributes(type);
    const store = options.store;
    return {
        evaluator: () => evaluator,
        typeInfo: () => ({
            parameterNames: type => {
                const cls = /^Class\[(.+)\]$/.exec(type);
                if (cls) return typesOf().types.loader.findClass(cls[1].toLowerCase())?.ast.params.map(p => p.name.replace(/^\$/, ''));
                const a = attributes(type.replace(/\[.*$/s, ''));
                return a ? [...a].filter(n => !METAPARAMS.has(n) && n !== 'title') : undefined;
            }
        }),
        ...(store ? {
            query: () => storeQueryService(store, { environment: env.name, attributes, ...(options.queryLog ? { provenance: options.queryLog } : {}) })
        } : {})
    };
}
