import { inject, type Module } from 'langium';
import { Binder } from './binder.js';
import { builtinProducers } from './builtin-producers.js';
import { Categorizer } from './categorization.js';
import { FactsOnlyEvaluator } from './fact-evaluator.js';
import { KeyFactory } from './keys.js';
import type { ExpressionEvaluator, InstanceFactory, InstanceResolver, ProducerExtension, QueryService, ResourceTypeInfo } from './spi.js';
import { SharedTypeService } from './types/shared-types.js';
import type { TypeService } from './types/type-service.js';

/** The injector's services, wired Langium-style: each a factory over the others, overridable by module. */
export interface InjectorServices {
    readonly types: TypeService;
    readonly evaluator: ExpressionEvaluator;
    /** Undefined when no query service is configured: query producers then fail at lookup. */
    readonly query: QueryService | undefined;
    readonly instances: InstanceFactory;
    readonly resolver: InstanceResolver;
    readonly typeInfo: ResourceTypeInfo;
    /** Producers for descriptor kinds the injector does not know. */
    readonly extensions: ProducerExtension;
    readonly keys: KeyFactory;
    readonly categorizer: Categorizer;
    readonly binder: Binder;
}

/** The defaults: no runtime classes, no catalog to resolve instances in, no parameter knowledge. */
export const InjectorModule: Module<InjectorServices> = {
    types: () => new SharedTypeService(),
    evaluator: () => new FactsOnlyEvaluator(),
    query: () => undefined,
    instances: () => builtinProducers(),
    resolver: () => ({ resolve: () => undefined }),
    typeInfo: () => ({ parameterNames: () => undefined }),
    extensions: () => ({ produce: () => undefined }),
    keys: s => new KeyFactory(s.types),
    categorizer: s => new Categorizer(s.evaluator, s.types),
    binder: s => new Binder(s.keys, s.types, s.typeInfo)
};

/** A partial module replacing some services, e.g. `{ evaluator: () => myEvaluator }`. */
export type InjectorOverrides = Module<InjectorServices, Partial<InjectorServices>>;

export function createInjectorServices(overrides: InjectorOverrides = {}): InjectorServices {
    return inject(InjectorModule, overrides);
}
