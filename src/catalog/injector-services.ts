import type { InjectorOverrides } from '../injector/index.js';
import { storeQueryService, type CatalogStore, type QueryProvenance, type ResourceAttributes } from '../store/index.js';
import type { Environment } from './boot.js';
import { Compiler } from './compiler.js';
import { coreType, METAPARAMS } from './core-types.js';
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
                const bare = type.replace(/\[.*$/s, '');
                const a = attributes(bare);
                // The identity (a define's name, a core or module type's namevars) is the resource's own, never joined from another.
                const t = coreType(bare.toLowerCase()) ?? typesOf().types.resourceType(bare.toLowerCase());
                const identity = new Set([t?.namevar ?? 'name', ...(t?.keyAttributes ?? [])]);
                return a ? [...a].filter(n => !METAPARAMS.has(n) && n !== 'title' && !identity.has(n)) : undefined;
            },
            isSubtype: (sub, sup) => isSubtype(typesOf(), sub, sup)
        }),
        ...(store ? {
            query: () => storeQueryService(store, { environment: env.name, attributes, ...(options.queryLog ? { provenance: options.queryLog } : {}) })
        } : {})
    };
}

/**
 * ARM-8 "The bound type must be compatible (i.e. be a subtype)": a class that inherits, directly
 * or not, from the class; a resource type that takes every parameter of the type (defines have no
 * inheritance: taking all its parameters is what lets the better type stand in). Undefined when
 * either type is unknown here (declaring it then fails as usual).
 */
function isSubtype(known: { types: Compiler; attributes: ResourceAttributes }, sub: string, sup: string): boolean | undefined {
    const cls = (t: string): string | undefined => /^Class\[['"]?(.+?)['"]?\]$/s.exec(t)?.[1].replace(/^::/, '').toLowerCase();
    const [a, b] = [cls(sub), cls(sup)];
    if (a !== undefined || b !== undefined) {
        if (a === undefined || b === undefined) return false;
        const seen = new Set<string>();
        for (let n: string | undefined = a; n !== undefined && !seen.has(n); n = known.types.loader.findClass(n)?.ast.parent?.replace(/^::/, '').toLowerCase()) {
            if (n === b) return true;
            if (!known.types.loader.findClass(n)) return undefined;
            seen.add(n);
        }
        return false;
    }
    if (sub.toLowerCase() === sup.toLowerCase()) return true;
    const [mine, theirs] = [known.attributes(sub), known.attributes(sup)];
    if (mine === undefined || theirs === undefined) return undefined;
    return [...theirs].every(p => mine.has(p));
}
