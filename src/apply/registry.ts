import { DevError } from './errors.js';
import { captureNames, rubyRegexToJs } from './ruby-regex.js';
import type { LogSink } from './log.js';
import { ClassicType, newtype, type ProviderSpec, type TypeBuilder } from './dsl/type.js';
import { resourceApiOwnTitlePatterns, type DslProviderSpec } from '../ruby/index.js';
import type { TransportDefinition, TypeDefinition } from './rsapi/definition.js';
import type { ProviderFactory } from './rsapi/provider.js';
import { validateTransportDefinition } from './rsapi/register-transport.js';
import { validateTypeDefinition } from './rsapi/register-type.js';
import { ResourceApiType } from './rsapi/rsapi-type.js';
import { connectTransport, type Transport, type TransportFactory } from './rsapi/transport.js';
import { definitionsFromModel, definitionsToModel } from './rsapi/serialize.js';
import type { Model, ModelObject } from '../model/index.js';
import type { ApplicableType, CatalogResource } from './run/harness.js';
import type { TypeSystem } from './type-system.js';
import type { PuppetValue } from './values.js';
import { deepCopy } from './value-equality.js';

/** What the compiler needs of a type, from either API, without running provider code. */
export interface TypeSchema {
    readonly name: string;
    readonly properties: readonly string[];
    readonly parameters: readonly string[];
    readonly namevars: readonly string[];
    /** A type's own title patterns (regexp and the attributes its captures set), when it has any. */
    readonly titlePatterns?: ReadonlyArray<readonly [RegExp, ReadonlyArray<readonly [string]>]>;
}

/**
 * The resource types and transports of one environment. Nothing here is process-global: two
 * environments hold two registries, so two versions of one type live side by side
 * (isolation.md §3). Per-run state (providers, get caches) lives in the runs, not here.
 */
export class TypeRegistry {
    private readonly types = new Map<string, ApplicableType>();
    private readonly providers = new Map<string, ProviderFactory>();
    private readonly transports = new Map<string, { definition: TransportDefinition; factory?: TransportFactory }>();

    constructor(readonly environment: string, private readonly typeSystem: TypeSystem, private readonly log: LogSink) {}

    /** `Puppet::ResourceApi.register_type`: validates, logs the warnings, and (re)defines the type. */
    registerType(input: unknown, provider?: ProviderFactory): TypeDefinition {
        const { definition, warnings } = validateTypeDefinition(input, this.typeSystem);
        for (const w of warnings) this.log({ level: 'warning', message: w, time: new Date() });
        if (provider) this.providers.set(definition.name, provider);
        this.define(definition.name, new ResourceApiType(definition, () => this.provider(definition.name), this.typeSystem));
        return definition;
    }

    /** The Ruby front end's `Puppet::ResourceApi.register_type` (src/ruby hands the definition over as plain data). */
    registerResourceApiType(definition: Record<string, unknown>): void {
        this.registerType(definition);
    }

    /** The Ruby front end's `register_transport`. */
    registerResourceApiTransport(definition: Record<string, unknown>): void {
        this.registerTransport(definition);
    }

    /** The implementation of a registered transport (loaded late, like providers). */
    setTransportFactory(name: string, factory: TransportFactory): void {
        const entry = this.transports.get(name);
        if (!entry) throw new DevError(`Transport for \`${name}\` not registered with \`${this.environment}\``);
        this.transports.set(name, { ...entry, factory });
    }

    /** Whether a transport of this name is registered. */
    hasTransport(name: string): boolean {
        return this.transports.has(name);
    }

    /** Loads an already validated, serialized definition (what the compiler side reads). */
    addDefinition(definition: TypeDefinition): void {
        this.define(definition.name, new ResourceApiType(definition, () => this.provider(definition.name), this.typeSystem));
    }

    /** The Resource API definitions of this environment as a ResourceApi model (types and transports). */
    exportDefinitions(): Model {
        const types = [...this.types.values()].filter((t): t is ResourceApiType => t instanceof ResourceApiType).map(t => t.definition);
        return definitionsToModel(this.environment, types, [...this.transports.values()].map(t => t.definition));
    }

    /** Loads serialized definitions (a ResourceApi model root): the compiler side, no provider code run. */
    importDefinitions(root: ModelObject): void {
        const { types, transports } = definitionsFromModel(root);
        for (const t of types) this.addDefinition(t);
        for (const t of transports) this.transports.set(t.name, { definition: t });
    }

    /** The provider of a Resource API type (loaded late, as the gem does). */
    registerProvider(typeName: string, factory: ProviderFactory): void {
        this.providers.set(typeName, factory);
    }

    /** `Puppet::Type.newtype`, into this environment only. */
    newtype(name: string, body: (t: TypeBuilder) => void): ClassicType {
        const type = newtype(name, body);
        this.define(name, type);
        return type;
    }

    /**
     * A classic provider of module Ruby (`Puppet::Type.type(:x).provide(:y)`), added to its
     * type; src/ruby runs its methods, the harness calls them as Puppet's does.
     */
    provide(typeName: string, spec: DslProviderSpec): void {
        const type = this.types.get(typeName.toLowerCase());
        if (!(type instanceof ClassicType)) throw new DevError(`Could not find type ${typeName} to add the provider ${spec.name} to`);
        const at = type.providers.findIndex(p => p.name === spec.name);
        const { instances, prefetch } = spec;
        const provider: ProviderSpec = {
            name: spec.name, features: spec.features, isDefault: spec.isDefault,
            ...(instances ? { instanceProviders: () => instances() } : {}),
            ...(prefetch ? { prefetch: resources => prefetch(resources) } : {}),
            create: r => spec.create(r)
        };
        if (at >= 0) type.providers.splice(at, 1, provider);
        else type.providers.push(provider);
    }

    /** The attribute names of a classic type (what `mk_resource_methods` makes accessors for). */
    attributeNames(typeName: string): readonly string[] | undefined {
        const type = this.types.get(typeName.toLowerCase());
        return type instanceof ClassicType ? type.attributes.filter(a => a.kind !== 'metaparam').map(a => a.name) : undefined;
    }

    addClassicType(type: ClassicType): void {
        this.define(type.name, type);
    }

    /** A built-in type with its own applicable implementation (the `resources` metatype). */
    addBuiltinType(type: ApplicableType): void {
        this.define(type.name, type);
    }

    type(name: string): ApplicableType | undefined {
        return this.types.get(name.toLowerCase());
    }

    typeNames(): string[] {
        return [...this.types.keys()];
    }

    /** The serializable definition of a Resource API type. */
    definition(name: string): TypeDefinition | undefined {
        const t = this.types.get(name);
        return t instanceof ResourceApiType ? t.definition : undefined;
    }

    schema(name: string): TypeSchema | undefined {
        const t = this.types.get(name.toLowerCase());
        if (t instanceof ResourceApiType) {
            const attrs = t.attributes;
            const own = resourceApiOwnTitlePatterns(attrs.filter(a => a.behaviour === 'namevar').map(a => a.name));
            return {
                name: t.name,
                properties: attrs.filter(a => a.behaviour === undefined || a.behaviour === 'init_only').map(a => a.name),
                parameters: attrs.filter(a => a.behaviour === 'namevar' || a.behaviour === 'parameter' || a.behaviour === 'read_only').map(a => a.name),
                namevars: attrs.filter(a => a.behaviour === 'namevar').map(a => a.name),
                // The compiler fills composite namevars from the title, as Puppet's parse_title does.
                ...(t.definition.titlePatterns ? { titlePatterns: t.definition.titlePatterns.map(p => [rubyRegexToJs(p.pattern), captureNames(p.pattern).map(n => [n] as const)] as const) }
                    : own ? { titlePatterns: own } : {})
            };
        }
        if (t instanceof ClassicType) {
            const patterns = t.ownTitlePatterns();
            return {
                name: t.name, properties: t.properties.map(p => p.name), parameters: t.parameters.map(p => p.name), namevars: t.keyAttributes(),
                ...(patterns ? { titlePatterns: patterns.map(([re, attrs]) => [re, attrs.map(a => [a[0]] as const)] as const) } : {})
            };
        }
        return undefined;
    }

    /**
     * Checks a resource against its type the way the agent will (attribute names, values against
     * their types, title patterns, mandatory parameters), without providers: what a compiler
     * reports before a catalog is ever applied. Undefined when the resource is valid or the type
     * is not a resource type of this environment (classes, defined types).
     */
    validateResource(resource: CatalogResource): string | undefined {
        const type = this.type(resource.type);
        if (!type) return undefined;
        try {
            type.startRun({ root: '/', noop: true, strict: 'off', log: () => undefined }).instantiate(resource);
            return undefined;
        } catch (e) {
            return e instanceof Error ? e.message : String(e);
        }
    }

    /** `register_transport`: a second registration of one name is an error, unlike types. */
    registerTransport(input: unknown, factory?: TransportFactory): TransportDefinition {
        const { definition, warnings } = validateTransportDefinition(input, this.typeSystem);
        for (const w of warnings) this.log({ level: 'warning', message: w, time: new Date() });
        if (this.transports.has(definition.name)) throw new DevError(`Transport \`${definition.name}\` is already registered for \`${this.environment}\``);
        this.transports.set(definition.name, { definition, ...(factory ? { factory } : {}) });
        return definition;
    }

    /** `Transport.list`: deep copies, so callers cannot change the registry. */
    listTransports(): Record<string, TransportDefinition> {
        return Object.fromEntries([...this.transports].map(([k, v]) => [k, deepCopy(v.definition) as TransportDefinition]));
    }

    connect(name: string, connectionInfo: Record<string, PuppetValue>): Transport {
        const entry = this.transports.get(name);
        if (!entry) throw new DevError(`Transport for \`${name}\` not registered with \`${this.environment}\``);
        if (!entry.factory) throw new DevError(`Transport for \`${name}\` has no implementation registered with \`${this.environment}\``);
        return connectTransport(entry.definition, entry.factory, connectionInfo, this.typeSystem, this.log).transport;
    }

    private provider(name: string): ReturnType<ProviderFactory> {
        const f = this.providers.get(name);
        if (!f) {
            const camel = name.split('_').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('');
            throw new DevError(`provider class Puppet::Provider::${camel}::${camel} not found in puppet/provider/${name}/${name}`);
        }
        return f();
    }

    /** A redefinition replaces the old type, with Puppet's info message. */
    private define(name: string, type: ApplicableType): void {
        const key = name.toLowerCase();
        if (this.types.has(key)) this.log({ level: 'info', message: `Redefining ${name} in Puppet::Type`, time: new Date() });
        this.types.set(key, type);
    }
}

/** One registry per environment name, created on first use with the core types. */
export class EnvironmentRegistries {
    private readonly registries = new Map<string, TypeRegistry>();

    constructor(private readonly create: (environment: string) => TypeRegistry) {}

    environment(name: string): TypeRegistry {
        let r = this.registries.get(name);
        if (!r) {
            r = this.create(name);
            this.registries.set(name, r);
        }
        return r;
    }

    /** Builds the new registry first and swaps it in, so readers never see a half-loaded one. */
    reload(name: string): TypeRegistry {
        const r = this.create(name);
        this.registries.set(name, r);
        return r;
    }
}
