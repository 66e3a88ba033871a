import { DevError, ResourceError } from '../errors.js';
import type { ApplicableResource, ApplicableType, CatalogResource, RunEnvironment, TypeRun } from '../run/harness.js';
import type { PuppetType, TypeSystem } from '../type-system.js';
import { ProviderContext } from './context.js';
import { CUSTOM_INSYNC_TRIGGER, hasFeature, namevars, type AttributeDefinition, type TypeDefinition } from './definition.js';
import { identityOf, sameIdentity, type Identity, type ProviderFactory, type ResourceApiProvider, type ResourceHash } from './provider.js';
import { namevarsFromTitle, ResourceApiResource, strictCheck } from './rsapi-resource.js';
import { checkSchema } from './schema-check.js';


const TRIGGER_VALUE = 'do_not_specify_in_manifest';

/**
 * The Resource API glue: turns a registered definition plus its provider into something the
 * transaction applies (features.md §8): validation and defaults at construction, a per-run get
 * cache, property comparison (equality, ensure, custom_insync), and one `set` per changed
 * resource.
 */
export class ResourceApiType implements ApplicableType {
    readonly name: string;
    private readonly types = new Map<string, PuppetType>();

    constructor(readonly definition: TypeDefinition, private readonly providerFactory: ProviderFactory | undefined, private readonly ts: TypeSystem) {
        this.name = definition.name;
    }

    /** The attributes Puppet manages, including the hidden custom_insync trigger of property-less types. */
    get attributes(): AttributeDefinition[] {
        const attrs = [...this.definition.attributes];
        if (hasFeature(this.definition, 'custom_insync') && !attrs.some(a => a.behaviour === undefined)) {
            attrs.push({ name: CUSTOM_INSYNC_TRIGGER, type: `Enum[${TRIGGER_VALUE}]`, default: TRIGGER_VALUE });
        }
        return attrs;
    }

    typeOf(attr: AttributeDefinition): PuppetType {
        let t = this.types.get(attr.type);
        if (!t) {
            const parsed = this.ts.parse(attr.type);
            if (!parsed.ok) throw new DevError(`The type of the \`${attr.name}\` attribute \`${attr.type}\` could not be parsed: ${parsed.message}`);
            t = parsed.type;
            this.types.set(attr.type, t);
        }
        return t;
    }

    startRun(env: RunEnvironment): TypeRun {
        return new ResourceApiRun(this, env, this.ts);
    }

    provider(): ResourceApiProvider {
        if (!this.providerFactory) {
            const camel = this.name.split('_').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('');
            throw new DevError(`provider class Puppet::Provider::${camel}::${camel} not found in puppet/provider/${this.name}/${this.name}`);
        }
        return this.providerFactory();
    }
}

/** Per-run state: one provider instance and one get cache per type (features.md §8.5). */
export class ResourceApiRun implements TypeRun {
    private providerInstance: ResourceApiProvider | undefined;
    private readonly cache: ResourceHash[] = [];
    /** How often get was called, for tests of the "minimal get calls" promise. */
    getCalls = 0;
    schemaWarnings = 0;
    readonly context: ProviderContext;
    /** The identity of each resource instantiated in the run, by reference (`puppet resource` reads it back). */
    readonly identities = new Map<string, Identity>();

    constructor(readonly type: ResourceApiType, readonly env: RunEnvironment, readonly ts: TypeSystem) {
        this.context = new ProviderContext(type.definition, env.log, env.transport);
    }

    get provider(): ResourceApiProvider {
        this.providerInstance ??= this.type.provider();
        return this.providerInstance;
    }

    /** The provider when one is registered; undefined when only the definition is known. */
    providerIfAvailable(): ResourceApiProvider | undefined {
        try {
            return this.provider;
        } catch (e) {
            if (e instanceof DevError) return undefined;
            throw e;
        }
    }

    instantiate(resource: CatalogResource): ApplicableResource {
        return new ResourceApiResource(this, resource);
    }

    get definition(): TypeDefinition {
        return this.type.definition;
    }

    /**
     * The current state of one resource: like the gem 1.8.16, every resource asks get again (with
     * its own name under simple_get_filter) and picks its namevars' match; what get returns is
     * kept only for reading resources back after the run (`puppet resource`).
     */
    currentState(identity: Identity): ResourceHash | undefined {
        const nvs = namevars(this.definition).map(a => a.name);
        const filter = hasFeature(this.definition, 'simple_get_filter');
        this.getCalls++;
        const result = filter ? this.provider.get(this.context, [identity]) : this.provider.get(this.context);
        for (const r of result) {
            if (nvs.some(nv => r[nv] === undefined || r[nv] === null)) continue;
            this.remember(r);
        }
        return result.find(r => nvs.every(nv => r[nv] !== undefined && r[nv] !== null) && sameIdentity(identityOf(r, nvs), identity));
    }

    /**
     * Every instance on the system (`puppet resource <type>`, purging): one get for all, which
     * then serves every later lookup of the run. Titles come from `title` when the provider gives one.
     */
    instances(): { title: string; values: ResourceHash }[] {
        const nvs = namevars(this.definition).map(a => a.name);
        this.getCalls++;
        // The gem asks a simple_get_filter provider for everything with an empty list.
        const all = hasFeature(this.definition, 'simple_get_filter') ? this.provider.get(this.context, []) : this.provider.get(this.context);
        return all.map(r => {
            // Each listed state is checked as each resource's state is: the schema, then strict_check, by strict level.
            checkSchema(this, r);
            const id = identityOf(r, nvs);
            const title = r.title !== undefined ? String(r.title) : typeof id === 'object' && id !== null ? nvs.map(n => String(r[n])).join(' ') : String(id);
            strictCheck(this, r, title, nvs.length > 1 ? namevarsFromTitle(this.definition, title) : id);
            this.remember(r);
            return { title, values: r };
        });
    }

    /** The state the run holds for an identity (get's answer, or the target after a set), without calling get. */
    cachedState(identity: Identity): ResourceHash | undefined {
        const nvs = namevars(this.definition).map(a => a.name);
        return this.cache.find(r => sameIdentity(identityOf(r, nvs), identity));
    }

    remember(state: ResourceHash): void {
        const nvs = namevars(this.definition).map(a => a.name);
        const id = identityOf(state, nvs);
        const i = this.cache.findIndex(r => sameIdentity(identityOf(r, nvs), id));
        if (i >= 0) this.cache[i] = state;
        else this.cache.push(state);
    }

    strictReport(message: string, errorClass: 'dev' | 'resource' = 'dev'): void {
        if (this.env.strict === 'error') throw errorClass === 'dev' ? new DevError(message) : new ResourceError(message);
        if (this.env.strict === 'warning') this.env.log({ level: 'warning', message, time: new Date() });
    }
}
