import { coreTypes } from './core/index.js';
import { ResourcesType } from './core/resources-type.js';
import type { LogSink } from './log.js';
import { EnvironmentRegistries, TypeRegistry } from './registry.js';
import { SharedTypeSystem } from './shared-type-system.js';
import type { TypeSystem } from './type-system.js';

/** The services of the apply stage. */
export interface ApplyServices {
    readonly typeSystem: TypeSystem;
    /** Where registration warnings and infos go when no run is listening. */
    readonly log: LogSink;
    readonly registries: EnvironmentRegistries;
}

/** A module maps each service to a factory that may use the others (Langium's style). */
export type ApplyModule = { readonly [K in keyof ApplyServices]: (services: ApplyServices) => ApplyServices[K] };

export const defaultApplyModule: ApplyModule = {
    typeSystem: () => new SharedTypeSystem(),
    log: () => () => undefined,
    registries: s => new EnvironmentRegistries(env => {
        const registry = new TypeRegistry(env, s.typeSystem, m => s.log(m));
        for (const t of coreTypes()) registry.addClassicType(t);
        registry.addBuiltinType(new ResourcesType(registry));
        return registry;
    })
};

/** Creates the services lazily, each once; `overrides` replace single factories (tests inject fakes). */
export function createApplyServices(overrides: Partial<ApplyModule> = {}): ApplyServices {
    const module: ApplyModule = { ...defaultApplyModule, ...overrides };
    const cache = new Map<keyof ApplyServices, unknown>();
    const services = {} as ApplyServices;
    for (const key of Object.keys(module) as (keyof ApplyServices)[]) {
        Object.defineProperty(services, key, {
            enumerable: true,
            get: () => {
                if (!cache.has(key)) cache.set(key, module[key](services));
                return cache.get(key);
            }
        });
    }
    return services;
}
