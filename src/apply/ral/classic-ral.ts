import { DevError, PuppetError } from '../errors.js';
import { ClassicResource } from '../dsl/resource.js';
import type { ClassicRun, ClassicType, ProviderSpec } from '../dsl/type.js';
import { ABSENT, toS, type DslValue } from '../dsl/values.js';
import type { CatalogResource, RunEnvironment } from '../run/harness.js';
import type { PuppetValue } from '../values.js';
import type { RalResource } from './output.js';

function providerOf(type: ClassicType, env: RunEnvironment): ProviderSpec {
    const provider = type.defaultProvider(env.log);
    if (!provider) throw new PuppetError(`${type.name} has no providers and has not overridden 'instances'`);
    return provider;
}

/** The properties a provider supports (Puppet's `supports_parameter?`: their required features). */
function supported(type: ClassicType, provider: ProviderSpec): string[] {
    return type.properties.filter(p => p.requiredFeatures.every(f => type.providerHasFeature(provider, f))).map(p => p.name);
}

/**
 * `Type.instances`: the type's own listing, else its provider's (each instance keeping the
 * provider object that holds its state); Puppet's errors for a type without providers and a
 * provider that cannot list.
 */
function instances(type: ClassicType, env: RunEnvironment): ClassicResource[] {
    if (type.instancesFn) return type.instancesFn(env).map(name => ClassicResource.create(type, { title: name }, env));
    const provider = providerOf(type, env);
    if (provider.instanceProviders) return provider.instanceProviders(env).map(i => ClassicResource.create(type, { title: i.name }, env, undefined, i.provider));
    if (!provider.instances) {
        throw new DevError(`To support listing resources of this type the '${provider.name}' provider needs to implement an 'instances' class method returning the current set of resources. We recommend porting your module to the simpler Resource API instead: https://puppet.com/search/docs?keys=resource+api`);
    }
    return provider.instances(env).map(name => ClassicResource.create(type, { title: name }, env));
}

/** `search`: one resource per instance, every property its provider supports retrieved. */
export function classicSearch(type: ClassicType, env: RunEnvironment): RalResource[] {
    const props = supported(type, providerOf(type, env));
    return instances(type, env).map(r => shown(type, r, props)).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

/**
 * The RAL's `find`: the instance of that name, else a new resource auditing every property
 * (`new(name:, audit: properties)`), which reads absent when the system has no such thing.
 */
export function classicFind(type: ClassicType, title: string, env: RunEnvironment): RalResource {
    const found = instances(type, env).find(r => r.title === title);
    const provider = type.defaultProvider(env.log);
    const props = provider ? supported(type, provider) : type.properties.map(p => p.name);
    return shown(type, found ?? ClassicResource.create(type, { title }, env), props);
}

/** `to_resource` after `puppet resource` applied a resource: the resource of the run, its managed properties (and ensure) read again. */
export function classicState(type: ClassicType, catalogResource: CatalogResource, env: RunEnvironment, run?: ClassicRun): RalResource {
    const resource = run?.resources.get(catalogResource.ref) ?? ClassicResource.fromCatalog(type, catalogResource, env);
    const managed = type.properties.filter(p => resource.has(p.name)).map(p => p.name);
    return shown(type, resource, managed);
}

/**
 * Type#to_resource then Resource#prune_parameters: the retrieved properties and the provider,
 * without empty values and without `absent` ones other than ensure.
 */
function shown(type: ClassicType, resource: ClassicResource, properties: readonly string[]): RalResource {
    const params: Array<[string, PuppetValue]> = [];
    for (const [name, value] of resource.retrieveState(properties)) {
        const v = plain(value);
        if (v === null || (typeof v === 'string' && v === '') || (Array.isArray(v) && v.length === 0)) continue;
        if (name !== 'ensure' && toS(value) === 'absent') continue;
        params.push([name, v]);
    }
    if (resource.providerSpec) params.push(['provider', resource.providerSpec.name]);
    const timeValued = type.properties.filter(p => p.valueClass === 'Time').map(p => p.name);
    return { kind: 'classic', type: type.name, title: resource.title, params, ...(timeValued.length > 0 ? { timeValued } : {}) };
}

function plain(v: DslValue): PuppetValue {
    if (v === undefined || v === null) return null;
    if (v === ABSENT) return 'absent';
    if (typeof v === 'symbol') return Symbol.keyFor(v) ?? '';
    if (Array.isArray(v)) return v.map(plain);
    if (v instanceof RegExp) return v.source;
    return v as PuppetValue;
}
