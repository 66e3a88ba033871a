import { evalWith } from '../methods/object-model.js';
import { RClass, RObject, RSymbol, rubyError, truthy, type Method, type RProc, type RValue } from '../objects.js';
import type { PluginRuntime } from './runtime.js';
import { camel, fromDsl, nameOf, toDsl } from './dsl-values.js';
import type { ResourceObjects } from './resource-objects.js';

/** A resource as a classic provider sees it (`resource[:name]`, `resource.provider = p`). */
export interface DslResourceView {
    readonly title: string;
    /** Puppet's `Type#name`: the namevar's value (what `self.prefetch` is keyed by). */
    readonly name: unknown;
    get(name: string): unknown;
    /** The provider the resource is managed through now (made on first use, as Puppet makes it with the resource). */
    readonly provider: unknown;
    /** `resource.provider = instance`: from now on the resource is managed through that provider object. */
    adopt(provider: DslProviderInstance): void;
    /** `resource[:name] = value`, through the attribute's validation and munging. */
    set?(name: string, value: unknown): void;
    /** The resources of the run the resource is part of (`catalog.resources`), with their type names. */
    catalog?(): ReadonlyArray<{ readonly typeName: string; readonly resource: DslResourceView }>;
    /** `resource.warning(message)` and the other levels: a log line of the resource. */
    log?(level: 'debug' | 'info' | 'notice' | 'warning' | 'err', message: string): void;
}

/** One provider object: Puppet's provider API over the Ruby instance. */
export interface DslProviderInstance {
    readonly name: string;
    exists(): boolean;
    create(): void;
    destroy(): void;
    flush(): void;
    get(property: string): unknown;
    set(property: string, value: unknown): void;
}

/** A classic provider (`Puppet::Type.type(:x).provide(:y) do ... end`) as the type registry takes it. */
export interface DslProviderSpec {
    readonly name: string;
    readonly features: readonly string[];
    readonly isDefault: boolean;
    /** `self.instances`: each instance's name and the provider object holding its state. */
    instances?(): Array<{ readonly name: string; readonly provider: DslProviderInstance }>;
    /**
     * `self.prefetch(resources)`, present only when the provider class defines it (Puppet's base
     * provider has none): the resources managed through this provider, keyed by name in the
     * order given; the provider may give each one another provider object.
     */
    prefetch?(resources: readonly DslResourceView[]): void;
    create(resource: DslResourceView): DslProviderInstance;
}

/** What a registry needs to take classic providers; the apply stage's registry implements it. */
export interface DslProviderRegistry {
    provide?(typeName: string, spec: DslProviderSpec): void;
    attributeNames?(typeName: string): readonly string[] | undefined;
}



interface ProviderMeta {
    readonly typeName: string;
    readonly name: string;
    readonly features: Set<string>;
    isDefault: boolean;
}

/**
 * `Puppet::Provider` and `provide` for module Ruby: a provider class is defined by running its
 * body (instance methods, `def self.instances`, `mk_resource_methods`, `has_feature`), then handed
 * to the environment's registry, which calls it as Puppet's harness does (exists?/create/destroy,
 * property getters and setters, flush). Commands a provider declares are refused when called:
 * module Ruby gets no access to the host.
 */
export function defineProviders(rt: PluginRuntime, base: RClass, typeBase: RClass, resources: ResourceObjects): (typeClass: RClass, typeName: string) => Method {
    const metas = new WeakMap<RClass, ProviderMeta>();
    // The Ruby provider object behind each provider the registry holds, and back.
    const objects = new WeakMap<DslProviderInstance, RObject>();
    const wrappers = new WeakMap<RObject, DslProviderInstance>();
    const resourceOf = (self: RValue): DslResourceView | undefined => resources.boundOf(self)?.resource;
    typeBase.define('provider', self => {
        const current = resourceOf(self)?.provider;
        return current !== undefined && current !== null ? objects.get(current as DslProviderInstance) ?? null : null;
    });
    // Puppet's Type#provider=: a provider object is taken as it is (the resource becomes its
    // resource); a provider's name makes a fresh provider of that class for the resource.
    typeBase.define('provider=', (self, args) => {
        const view = resources.boundOf(self);
        const given = args[0] ?? null;
        if (!view) return given;
        let obj: RValue = given;
        if (!(given instanceof RObject && given.cls.isSubclassOf(base))) {
            const cls = view.typeClass.constants.get(`Provider${camel(nameOf(given))}`);
            if (!(cls instanceof RClass)) throw rubyError('ArgumentError', `Could not find ${nameOf(given)} provider of ${view.typeName}`);
            obj = call(cls, 'new', [self]);
        }
        const provider = obj as RObject;
        provider.ivars.set('resource', self);
        const meta = metaOf(provider.cls);
        if (meta) view.resource.adopt(wrap(provider, meta));
        return given;
    });
    const hashOf = (self: RValue): Map<RValue, RValue> => {
        if (!(self instanceof RObject)) throw rubyError('TypeError', 'not a provider');
        const h = self.ivars.get('property_hash');
        if (h instanceof Map) return h as Map<RValue, RValue>;
        const fresh = new Map<RValue, RValue>();
        self.ivars.set('property_hash', fresh);
        return fresh;
    };
    const metaOf = (cls: RValue): ProviderMeta | undefined => {
        for (let c: RClass | null = cls instanceof RClass ? cls : null; c; c = c.superclass) {
            const m = metas.get(c);
            if (m) return m;
        }
        return undefined;
    };
    base.define('initialize', (self, args) => {
        const given = args[0] ?? null;
        if (given instanceof Map) {
            if (self instanceof RObject) self.ivars.set('property_hash', new Map([...given].map(([k, v]) => [typeof k === 'string' ? RSymbol.of(k) : k, v])));
        } else {
            hashOf(self);
            if (self instanceof RObject) self.ivars.set('resource', given);
        }
        return null;
    });
    base.define('resource', self => (self instanceof RObject ? self.ivars.get('resource') ?? null : null));
    base.define('resource=', (self, args) => { if (self instanceof RObject) self.ivars.set('resource', args[0] ?? null); return args[0] ?? null; });
    base.define('name', self => {
        const own = hashOf(self).get(RSymbol.of('name'));
        if (own !== undefined && own !== null) return own;
        const r = self instanceof RObject ? self.ivars.get('resource') : null;
        return r instanceof RObject ? fromDsl(resources.boundOf(r)?.resource.name) : null;
    });
    base.define('properties', self => new Map(hashOf(self)));
    base.define('get', (self, args) => hashOf(self).get(RSymbol.of(nameOf(args[0] ?? null))) ?? RSymbol.of('absent'));
    base.define('set', (self, args) => { for (const [k, v] of (args[0] as Map<RValue, RValue>) ?? []) hashOf(self).set(k, v); return null; });
    base.define('flush', () => null);
    // Puppet's logging of a provider: a provider class logs as itself, a provider object as
    // `Resource[title](provider=name)` (Provider#to_s).
    const levels = ['debug', 'info', 'notice', 'warning', 'err'] as const;
    for (const level of levels) {
        base.defineStatic(level, (self, args) => { rt.host.log(level, rt.interp.toS(args[0] ?? null), self instanceof RClass ? self.name : undefined); return null; });
        base.define(level, (self, args) => {
            const r = self instanceof RObject ? self.ivars.get('resource') ?? null : null;
            const ref = r === null ? '' : rt.interp.toS(rt.interp.send(r, 'to_s', []));
            rt.host.log(level, rt.interp.toS(args[0] ?? null), `${ref}(provider=${self instanceof RObject ? metaOf(self.cls)?.name ?? '' : ''})`);
            return null;
        });
    }
    const statics: Record<string, Method> = {
        // defaultfor/confine name facts of the node a provider suits; modelc has no host facts, so they decide nothing
        // (the type's first provider serves, in file-name order).
        desc: () => null, doc: () => '', confine: () => null, initvars: () => null, defaultfor: () => null,
        notdefaultfor: () => null, 'has_feature': (self, args) => { for (const a of args) metaOf(self)?.features.add(nameOf(a)); return null; },
        has_features: (self, args) => { for (const a of args) metaOf(self)?.features.add(nameOf(a)); return null; },
        commands: (self, args) => { declareCommands(self, args); return null; },
        optional_commands: (self, args) => { declareCommands(self, args); return null; },
        mk_resource_methods: self => {
            const m = metaOf(self);
            const names = m ? (rt.registry as DslProviderRegistry).attributeNames?.(m.typeName) ?? [] : [];
            // `name` stays Puppet::Provider#name (the property hash's, else the resource's), as Puppet skips it.
            for (const n of names.filter(x => x !== 'name')) {
                (self as RClass).define(n, s => hashOf(s).get(RSymbol.of(n)) ?? RSymbol.of('absent'));
                (self as RClass).define(`${n}=`, (s, a) => { hashOf(s).set(RSymbol.of(n), a[0] ?? null); return a[0] ?? null; });
            }
            return null;
        },
        instances: self => { throw rubyError('RuntimeError', `To support listing resources of this type the '${metaOf(self)?.name ?? ''}' provider needs to implement an 'instances' class method returning the current set of resources. We recommend porting your module to the simpler Resource API instead: https://puppet.com/search/docs?keys=resource+api`); }
    };
    for (const [n, m] of Object.entries(statics)) base.defineStatic(n, m);
    function declareCommands(self: RValue, args: RValue[]): void {
        const table = args[0];
        if (!(table instanceof Map) || !(self instanceof RClass)) return;
        for (const [k] of table) {
            const command = nameOf(k);
            const refuse: Method = () => {
                const e = rubyError('SecurityError', `the command ${command} is not run: modelc runs module Ruby without access to the host`);
                e.unsupported = `the provider command ${command}`;
                throw e;
            };
            self.define(command, refuse);
            self.defineStatic(command, refuse);
        }
    }

    const call = (recv: RValue, method: string, args: RValue[] = []): RValue => rt.guard(() => rt.interp.send(recv, method, args), rt.envDir, true);
    const wrap = (obj: RObject, meta: ProviderMeta): DslProviderInstance => {
        const known = wrappers.get(obj);
        if (known) return known;
        const made = wrapObject(obj, meta);
        wrappers.set(obj, made);
        objects.set(made, obj);
        return made;
    };
    const wrapObject = (obj: RObject, meta: ProviderMeta): DslProviderInstance => ({
        name: meta.name,
        exists: () => truthy(call(obj, 'exists?')),
        create: () => { call(obj, 'create'); },
        destroy: () => { call(obj, 'destroy'); },
        flush: () => { if (rt.interp.respondsTo(obj, 'flush')) call(obj, 'flush'); },
        get: property => (rt.interp.respondsTo(obj, property) ? toDsl(call(obj, property)) : Symbol.for('absent')),
        set: (property, value) => { call(obj, `${property}=`, [fromDsl(value)]); }
    });

    // `Puppet::Type.type(:x).provide(:y, parent: ...) do ... end`
    return (typeClass, typeName) => (_self, args, block?: RProc) => {
        const name = nameOf(args[0] ?? null);
        const options = args[1] instanceof Map ? args[1] : new Map<RValue, RValue>();
        const parent = options.get(RSymbol.of('parent'));
        // A parent Puppet ships (Puppet::Provider::ParsedFile, ...Package) is not modelled: say so, not "undefined method".
        if (parent instanceof RClass && !parent.isSubclassOf(base)) {
            const e = rubyError('NotImplementedError', `${parent.name} providers are not supported`);
            e.unsupported = `${parent.name} (the parent of the ${name} provider)`;
            throw e;
        }
        const superclass = parent instanceof RClass ? parent : base;
        const cls = new RClass(`${typeClass.name}::Provider${camel(name)}`, superclass);
        typeClass.constants.set(`Provider${camel(name)}`, cls);
        const meta: ProviderMeta = { typeName, name, features: new Set(metaOf(superclass)?.features ?? []), isDefault: false };
        metas.set(cls, meta);
        if (block) evalWith(block, cls, cls, []);
        const instance = (resource: DslResourceView): RObject => call(cls, 'new', [resources.objectFor(typeClass, typeName, resource)]) as RObject;
        const ownInstances = rt.interp.findStatic(cls, 'instances') !== statics.instances;
        const ownPrefetch = rt.interp.findStatic(cls, 'prefetch') !== undefined;
        (rt.registry as DslProviderRegistry).provide?.(typeName, {
            name, features: [...meta.features], isDefault: meta.isDefault,
            ...(ownInstances ? {
                instances: () => {
                    const list = call(cls, 'instances');
                    return (Array.isArray(list) ? list : []).filter((o): o is RObject => o instanceof RObject)
                        .map(o => ({ name: rt.interp.toS(call(o, 'name')), provider: wrap(o, meta) }));
                }
            } : {}),
            ...(ownPrefetch ? {
                prefetch: managed => {
                    const hash = new Map<RValue, RValue>();
                    for (const r of managed) hash.set(fromDsl(r.name), resources.objectFor(typeClass, typeName, r));
                    call(cls, 'prefetch', [hash]);
                }
            } : {}),
            create: resource => wrap(instance(resource), meta)
        });
        return cls;
    };
}
