import { DevError, errorMessage } from '../errors.js';
import type { ApplicableType, RunEnvironment, TypeRun, CatalogResource, ApplicableResource } from '../run/harness.js';
import type { LogSink } from '../log.js';
import { AttributeBuilder, AttributeSpec, type AttributeOptions } from './attribute.js';
import { ClassicResource } from './resource.js';
import { ABSENT, PRESENT, sym, type DslValue } from './values.js';

/** A provider of a classic type: property getters/setters plus the ensure trio. */
export interface ClassicProvider {
    readonly name: string;
    exists?(): boolean;
    create?(): void;
    destroy?(): void;
    flush?(): void;
    /** The current value of a property (Puppet's `provider.<name>`). */
    get?(property: string): DslValue;
    /** Sets a property (Puppet's `provider.<name>=`). */
    set?(property: string, value: DslValue): void;
    /** Runs a named provider method (feature `methods:` and value blocks call these). */
    readonly methods?: Readonly<Record<string, (...args: DslValue[]) => DslValue>>;
}

export interface ProviderSpec {
    readonly name: string;
    /** Features declared with `has_feature`. */
    readonly features?: readonly string[];
    /** The method names the provider implements (a feature's `methods:` make it available automatically). */
    readonly methods?: readonly string[];
    readonly isDefault?: boolean;
    readonly create: (resource: ClassicResource, env: RunEnvironment) => ClassicProvider;
    /** The names of every instance on the system (the provider's `self.instances`), when it can list them. */
    readonly instances?: (env: RunEnvironment) => string[];
    /** `self.instances` of a provider whose instances hold their state (module Ruby): each with its provider object. */
    readonly instanceProviders?: (env: RunEnvironment) => Array<{ readonly name: string; readonly provider: ClassicProvider }>;
    /**
     * `self.prefetch(resources)`, when the provider defines it: called once per run, before the
     * first of its resources is evaluated, with every resource of the catalog it manages.
     */
    readonly prefetch?: (resources: readonly ClassicResource[], env: RunEnvironment) => void;
}

export interface FeatureSpec {
    readonly name: string;
    readonly doc: string;
    readonly methods: readonly string[];
}

export type TitlePatternSpec = readonly [RegExp, readonly (readonly [string, ((v: string) => DslValue)?])[]];

/** A classic type's run: the resources it made, by reference (`puppet resource` reads one back after applying it). */
export interface ClassicRun extends TypeRun {
    readonly resources: ReadonlyMap<string, ClassicResource>;
}

type AutoKind = 'autorequire' | 'autobefore' | 'autosubscribe' | 'autonotify';

/**
 * A type defined with the classic DSL. It is an ordinary object held by one environment's
 * registry (never a process-global class), so two environments can hold two versions.
 */
export class ClassicType implements ApplicableType {
    doc = '';
    readonly attributes: AttributeSpec[] = [];
    readonly validators: ((r: ClassicResource) => void)[] = [];
    readonly autoRelations: { kind: AutoKind; type: string; fn: (r: ClassicResource) => DslValue }[] = [];
    readonly features = new Map<string, FeatureSpec>();
    readonly providers: ProviderSpec[] = [];
    titlePatternList: readonly TitlePatternSpec[] | undefined;
    preRunCheckFn: ((r: ClassicResource) => void) | undefined;
    refreshFn: ((r: ClassicResource) => string | void) | undefined;
    /** The type's own `self.instances` (file lists none), replacing its providers' listing. */
    instancesFn: ((env: RunEnvironment) => string[]) | undefined;

    constructor(readonly name: string) {}

    attr(name: string): AttributeSpec | undefined {
        return this.attributes.find(a => a.name === name);
    }

    get properties(): AttributeSpec[] {
        const props = this.attributes.filter(a => a.isProperty);
        return [...props.filter(p => p.name === 'ensure'), ...props.filter(p => p.name !== 'ensure')];
    }

    get parameters(): AttributeSpec[] {
        return this.attributes.filter(a => a.kind === 'param');
    }

    keyAttributes(): string[] {
        return this.attributes.filter(a => a.kind === 'param' && (a.namevar || a.name === 'name')).map(a => a.name);
    }

    /** The patterns the type declared itself (`self.title_patterns`), if any. */
    ownTitlePatterns(): readonly TitlePatternSpec[] | undefined {
        return this.titlePatternList;
    }

    /** Default: one key → `/(.*)/m`; several without patterns → Puppet's DevError. */
    titlePatterns(): readonly TitlePatternSpec[] {
        if (this.titlePatternList) return this.titlePatternList;
        const keys = this.keyAttributes();
        if (keys.length === 0) return [];
        if (keys.length === 1) return [[/(.*)/s, [[keys[0]]]]];
        throw new DevError('you must specify title patterns when there are two or more key attributes');
    }

    /** The order values are assigned in: keys, provider, properties (ensure first), parameters, metaparams. */
    allAttributes(): AttributeSpec[] {
        const keys = this.keyAttributes();
        const byName = (n: string): AttributeSpec[] => this.attributes.filter(a => a.name === n);
        return [
            ...keys.flatMap(byName),
            ...byName('provider'),
            ...this.properties,
            ...this.parameters.filter(p => !keys.includes(p.name) && p.name !== 'provider'),
            ...this.attributes.filter(a => a.kind === 'metaparam')
        ];
    }

    providerHasFeature(provider: ProviderSpec, feature: string): boolean {
        if (provider.features?.includes(feature)) return true;
        const f = this.features.get(feature);
        return f !== undefined && f.methods.length > 0 && f.methods.every(m => provider.methods?.includes(m));
    }

    /** The provider marked default (the first of several, with Puppet's warning), else the first. */
    defaultProvider(log?: LogSink): ProviderSpec | undefined {
        const defaults = this.providers.filter(p => p.isDefault);
        if (defaults.length > 1) {
            log?.({ level: 'warning', message: `Found multiple default providers for ${this.name}: ${defaults.map(p => p.name).join(', ')}; using ${defaults[0].name}`, time: new Date() });
        }
        return defaults[0] ?? this.providers[0];
    }

    startRun(env: RunEnvironment): ClassicRun {
        const resources = new Map<string, ClassicResource>();
        const prefetched = new Set<ProviderSpec>();
        const failed = new Set<ProviderSpec>();
        return {
            resources,
            instantiate: (resource: CatalogResource): ApplicableResource => {
                const r = ClassicResource.fromCatalog(this, resource, env);
                resources.set(r.ref, r);
                return r;
            },
            prefetch: (resource: ApplicableResource): string | undefined => {
                const spec = resource instanceof ClassicResource ? resource.providerSpec : undefined;
                if (!spec?.prefetch) return undefined;
                const failure = `Prefetch failed for ${this.name} provider '${spec.name}'`;
                if (prefetched.has(spec)) return failed.has(spec) ? failure : undefined;
                prefetched.add(spec);
                // Every resource of the run managed through this provider, by name: those naming it and those it serves as the default.
                const managed = [...resources.values()].filter(r => r.providerSpec === spec);
                env.log({ level: 'debug', message: `Prefetching ${spec.name} resources for ${this.name}`, time: new Date() });
                try {
                    spec.prefetch(managed, env);
                } catch (e) {
                    failed.add(spec);
                    env.log({ level: 'err', message: `Could not prefetch ${this.name} provider '${spec.name}': ${errorMessage(e)}`, time: new Date() });
                    return failure;
                }
                return undefined;
            }
        };
    }
}

/** The DSL inside `newtype` (type-dsl.md §1). */
export class TypeBuilder {
    constructor(readonly type: ClassicType) {}

    desc(text: string): this {
        this.type.doc = text;
        return this;
    }

    newparam(name: string, options: AttributeOptions | ((p: AttributeBuilder) => void) = {}, body?: (p: AttributeBuilder) => void): AttributeSpec {
        return this.add('param', name, options, body);
    }

    newproperty(name: string, options: AttributeOptions | ((p: AttributeBuilder) => void) = {}, body?: (p: AttributeBuilder) => void): AttributeSpec {
        if (this.type.attributes.some(a => a.isProperty && a.name === name)) {
            throw new DevError(`Class ${this.type.name} already has a property named ${name}`);
        }
        return this.add('property', name, options, body);
    }

    newmetaparam(name: string, options: AttributeOptions | ((p: AttributeBuilder) => void) = {}, body?: (p: AttributeBuilder) => void): AttributeSpec {
        return this.add('metaparam', name, options, body);
    }

    /**
     * `ensurable`: without a body, present → create, absent → destroy, retrieve from exists?, and
     * a default of present only when another property is managed.
     */
    ensurable(body?: (p: AttributeBuilder) => void): AttributeSpec {
        const spec = this.add('property', 'ensure', {}, body ?? (p => {
            p.newvalue('present', {}, () => undefined);
            p.newvalue('absent', {}, () => undefined);
        }));
        spec.isEnsure = true;
        if (!body) {
            spec.defaultValue = { block: r => r.isManaged() ? PRESENT : null };
            spec.hooks.sync = function () {
                const provider = this.resource.provider;
                if (this.should === PRESENT) {
                    if (!provider.create) throw new DevError(`${provider.name} provider cannot create`);
                    provider.create();
                    return `${this.resource.type.name}_created`;
                }
                if (!provider.destroy) throw new DevError(`${provider.name} provider cannot destroy`);
                provider.destroy();
                return `${this.resource.type.name}_removed`;
            };
            spec.hooks.retrieve = function () {
                const provider = this.resource.provider;
                if (!provider.exists) throw new DevError(`No ability to determine if ${this.resource.type.name} exists`);
                return provider.exists() ? PRESENT : ABSENT;
            };
        }
        return spec;
    }

    validate(fn: (r: ClassicResource) => void): this {
        this.type.validators.push(fn);
        return this;
    }

    autorequire(type: string, fn: (r: ClassicResource) => DslValue): this { return this.auto('autorequire', type, fn); }
    autobefore(type: string, fn: (r: ClassicResource) => DslValue): this { return this.auto('autobefore', type, fn); }
    autosubscribe(type: string, fn: (r: ClassicResource) => DslValue): this { return this.auto('autosubscribe', type, fn); }
    autonotify(type: string, fn: (r: ClassicResource) => DslValue): this { return this.auto('autonotify', type, fn); }

    feature(name: string, doc = '', options: { methods?: readonly string[] } = {}): this {
        if (this.type.features.has(name)) throw new DevError(`Feature ${name} is already defined`);
        this.type.features.set(name, { name, doc, methods: options.methods ?? [] });
        return this;
    }

    titlePatterns(patterns: readonly TitlePatternSpec[]): this {
        this.type.titlePatternList = patterns;
        return this;
    }

    preRunCheck(fn: (r: ClassicResource) => void): this {
        this.type.preRunCheckFn = fn;
        return this;
    }

    /** What the resource does on a refresh event (exec re-runs, service restarts). */
    refresh(fn: (r: ClassicResource) => string | void): this {
        this.type.refreshFn = fn;
        return this;
    }

    /** `def self.instances`: what listing the type's resources yields instead of asking its providers. */
    instances(fn: (env: RunEnvironment) => string[]): this {
        this.type.instancesFn = fn;
        return this;
    }

    provide(spec: ProviderSpec): this {
        this.type.providers.push(spec);
        return this;
    }

    private auto(kind: AutoKind, type: string, fn: (r: ClassicResource) => DslValue): this {
        this.type.autoRelations.push({ kind, type: type.toLowerCase(), fn });
        return this;
    }

    private add(kind: 'param' | 'property' | 'metaparam', name: string, options: AttributeOptions | ((p: AttributeBuilder) => void), body?: (p: AttributeBuilder) => void): AttributeSpec {
        const opts = typeof options === 'function' ? {} : options;
        const fn = typeof options === 'function' ? options : body;
        const spec = new AttributeSpec(kind, name, opts);
        if (kind === 'param' && opts.namevar) spec.required = true;
        spec.isEnsure = kind === 'property' && name === 'ensure';
        fn?.(new AttributeBuilder(spec));
        const existing = this.type.attributes.findIndex(a => a.name === name);
        if (existing >= 0) this.type.attributes.splice(existing, 1, spec);
        else this.type.attributes.push(spec);
        return spec;
    }
}

/** `Puppet::Type.newtype(:name) do ... end`, as a value: register it in an environment's registry. */
export function newtype(name: string, body: (t: TypeBuilder) => void): ClassicType {
    const type = new ClassicType(name);
    body(new TypeBuilder(type));
    return type;
}

export { sym };
