import type { DslAttributeBuilder as AttributeBuilder, DslAttributeOptions as AttributeOptions, DslTypeBuilder as TypeBuilder } from './type-dsl.js';
import { PRegexp } from '../../values/index.js';
import { evalWith } from '../methods/object-model.js';
import { inspect } from '../inspect.js';
import { RClass, RObject, RProc, RSymbol, RubyError, rubyError, truthy, type Method, type RValue } from '../objects.js';
import type { PluginRuntime } from './runtime.js';
import { camel, fromDsl, nameOf, toDsl } from './dsl-values.js';
import { defineProviders, type DslResourceView } from './providers.js';
import { defineResourceObjects } from './resource-objects.js';

function valueName(v: RValue): string | symbol | boolean | RegExp {
    if (v instanceof RSymbol) return Symbol.for(v.name);
    if (v instanceof PRegexp) {
        // Puppet's messages show the pattern as Ruby inspects it (`/\Ahttps?:\/\//`), not as translated.
        const re = new RegExp(v.regexp.source, v.regexp.flags);
        Object.defineProperty(re, 'rubyInspect', { value: inspect(v) });
        return re;
    }
    if (typeof v === 'boolean') return v;
    return String(v);
}

/**
 * `Puppet::Type.newtype` over the apply stage's type DSL: the type lands in the environment's
 * one TypeRegistry (the same registry TypeScript-defined types fill), its attribute bodies
 * become the attribute hooks. Providers are not loaded: the compiler needs only the type.
 */
export function defineTypes(rt: PluginRuntime): void {
    const { Type, Parameter } = rt.ns.classes;
    const typeBuilders = new WeakMap<RClass, TypeBuilder>();
    const attrBuilders = new WeakMap<RClass, AttributeBuilder>();
    const call = (block: RProc, self: RValue, args: RValue[]): RValue => evalWith(block, self, self instanceof RClass ? self : null, args);
    const builderOf = (self: RValue): TypeBuilder => {
        const b = self instanceof RClass ? typeBuilders.get(self) : undefined;
        if (!b) throw rubyError('NoMethodError', 'type DSL used outside of Puppet::Type.newtype');
        return b;
    };
    const attrOf = (self: RValue): AttributeBuilder => {
        const b = self instanceof RClass ? attrBuilders.get(self) : undefined;
        if (!b) throw rubyError('NoMethodError', 'attribute DSL used outside of newparam/newproperty');
        return b;
    };
    const stubTypes = new Map<string, RClass>();
    /** The type name of each type class (`newtype`'s and `Puppet::Type.type`'s), for `provide`. */
    const typeNames = new WeakMap<RClass, string>();
    const providerBase = rt.ns.constants.get('Puppet::Provider');
    const resources = defineResourceObjects(rt, Type, Parameter);
    const provide = providerBase instanceof RClass ? defineProviders(rt, providerBase, Type, resources) : undefined;
    /** The type class each attribute class belongs to, for the resource object its blocks see. */
    const attrTypes = new WeakMap<RClass, RClass>();
    const deferred = new WeakMap<RClass, Array<() => RValue>>();

    const attribute = (kind: 'newparam' | 'newproperty' | 'newmetaparam'): Method => (self, args, block) => {
        const tb = builderOf(self);
        const name = nameOf(args[0] ?? null);
        const opts = args[1] instanceof Map ? args[1] : new Map<RValue, RValue>();
        const opt = (k: string): RValue => opts.get(RSymbol.of(k)) ?? null;
        const parent = opt('parent');
        const boolean = parent instanceof RClass && /::Boolean$/.test(parent.name);
        const options: AttributeOptions = {
            ...(truthy(opt('namevar')) ? { namevar: true } : {}),
            ...(truthy(opt('boolean')) ? { boolean: true } : {}),
            ...(boolean ? { parent: 'boolean' as const } : {}),
            ...(opt('required_features') !== null ? { requiredFeatures: ([] as RValue[]).concat(opt('required_features')).map(nameOf) } : {}),
            ...(opt('array_matching') !== null ? { arrayMatching: nameOf(opt('array_matching')) } : {})
        };
        // Puppet's own attribute classes (Puppet::Type::File::Owner) are not modelled: their subclasses get the plain DSL.
        const base = parent instanceof RClass && parent.isSubclassOf(Parameter) ? parent : kind === 'newproperty' ? rt.ns.classes.Property : Parameter;
        const cls = new RClass(`${(self as RClass).name}::${kind === 'newproperty' ? 'Property' : 'Parameter'}${camel(name)}`, base);
        attrTypes.set(cls, self as RClass);
        const body = (b: AttributeBuilder): void => {
            attrBuilders.set(cls, b);
            // The DSL calls of hand-written parent classes, base first, on this attribute.
            const chain: RClass[] = [];
            for (let c: RClass | null = base; c && c !== Parameter; c = c.superclass) chain.unshift(c);
            for (const c of chain) for (const replay of deferred.get(c) ?? []) { attrBuilders.set(c, b); try { replay(); } finally { attrBuilders.delete(c); } }
            if (block) call(block, cls, []);
        };
        if (kind === 'newparam') tb.newparam(name, options, body);
        else if (kind === 'newproperty') tb.newproperty(name, options, body);
        else tb.newmetaparam(name, options, body);
        return cls;
    };

    const hookBlock = (block: RProc | undefined, what: string): RProc => {
        if (!block) throw rubyError('ArgumentError', `${what} needs a block`);
        return block;
    };
    /** `self` of a type's validate and autorelation blocks: the object of the resource they run for. */
    const typeSelf = (cls: RClass, resource: unknown): RObject => {
        const typeName = typeNames.get(cls);
        return resource && typeName !== undefined ? resources.objectFor(cls, typeName, resource as DslResourceView) : new RObject(cls, `#<${cls.name}>`);
    };
    /**
     * `self` of an attribute's blocks (validate, munge, defaultto, newvalue): the attribute, whose
     * `resource` (also `@resource`) is the resource's object and whose `value`/`should` is the one at hand.
     */
    const attrSelf = (cls: RClass, context: unknown): RObject => {
        const ctx = (context ?? {}) as { resource?: unknown; should?: unknown };
        const typeCls = attrTypes.get(cls);
        const resource = ctx.resource && typeCls ? typeSelf(typeCls, ctx.resource) : null;
        return resources.attributeObject(cls, resource, ctx.should);
    };

    const typeStatics: Record<string, Method> = {
        newtype: (_self, args, block) => {
            const name = nameOf(args[0] ?? null);
            const cls = new RClass(`Puppet::Type::${camel(name)}`, Type);
            Type.constants.set(camel(name), cls);
            typeNames.set(cls, name.toLowerCase());
            // The registry's own checks (a property defined twice, an alias of no value) are Ruby errors of the type's file.
            asRubyError(() => rt.registry.newtype(name, tb => {
                typeBuilders.set(cls, tb);
                if (block) call(block, cls, []);
                // Puppet gives a type with providers its `provider` parameter when it loads them.
                if (rt.hasProviders(name) && !tb.type.attributes.some(a => a.name === 'provider')) tb.newparam('provider', {}, () => undefined);
                const patterns = rt.interp.findStatic(cls, 'title_patterns');
                if (patterns && patterns !== typeStatics.title_patterns) tb.titlePatterns(titlePatterns(patterns(cls, [], undefined, rt.interp)));
            }));
            return cls;
        },
        type: (_self, args) => {
            const name = nameOf(args[0] ?? null).toLowerCase();
            rt.coreTypeLoaded(name);
            const defined = Type.constants.get(camel(name));
            if (defined instanceof RClass && typeNames.get(defined) === name) return defined;
            let c = stubTypes.get(name);
            if (!c) {
                stubTypes.set(name, c = new RClass(`Puppet::Type::${camel(name)}`, Type));
                typeNames.set(c, name);
            }
            return c;
        },
        newparam: attribute('newparam'),
        newproperty: attribute('newproperty'),
        newmetaparam: attribute('newmetaparam'),
        ensurable: (self, _args, block) => {
            const tb = builderOf(self);
            const cls = new RClass(`${(self as RClass).name}::Ensure`, rt.ns.classes.Property);
            attrTypes.set(cls, self as RClass);
            tb.ensurable(block ? b => { attrBuilders.set(cls, b); call(block, cls, []); } : undefined);
            return cls;
        },
        validate: (self, _a, block) => {
            const b = hookBlock(block, 'validate');
            builderOf(self).validate(r => { call(b, typeSelf(self as RClass, r), []); });
            return null;
        },
        autorequire: (self, args, block) => { builderOf(self).autorequire(nameOf(args[0] ?? null), r => toDsl(call(hookBlock(block, 'autorequire'), typeSelf(self as RClass, r), []))); return null; },
        autobefore: (self, args, block) => { builderOf(self).autobefore(nameOf(args[0] ?? null), r => toDsl(call(hookBlock(block, 'autobefore'), typeSelf(self as RClass, r), []))); return null; },
        autosubscribe: (self, args, block) => { builderOf(self).autosubscribe(nameOf(args[0] ?? null), r => toDsl(call(hookBlock(block, 'autosubscribe'), typeSelf(self as RClass, r), []))); return null; },
        autonotify: (self, args, block) => { builderOf(self).autonotify(nameOf(args[0] ?? null), r => toDsl(call(hookBlock(block, 'autonotify'), typeSelf(self as RClass, r), []))); return null; },
        feature: (self, args) => {
            const opts = args[2] instanceof Map ? args[2] : undefined;
            const methods = opts?.get(RSymbol.of('methods'));
            builderOf(self).feature(nameOf(args[0] ?? null), typeof args[1] === 'string' ? args[1] : '', { methods: Array.isArray(methods) ? methods.map(nameOf) : [] });
            return null;
        },
        desc: (self, args) => { const b = self instanceof RClass ? typeBuilders.get(self) : undefined; b?.desc(rt.interp.toS(args[0] ?? null)); return null; },
        doc: () => '',
        title_patterns: () => [],
        providify: () => null,
        newcheck: attribute('newparam'),
        paramclass: (self, args) => (self as RClass).constants.get(`Parameter${camel(nameOf(args[0] ?? null))}`) ?? null,
        apply_to_all: () => null, apply_to_device: () => null, apply_to_host: () => null,
        provide: (self, args, block, site) => {
            const name = self instanceof RClass ? typeNames.get(self) : undefined;
            return provide && name !== undefined && self instanceof RClass ? provide(self, name)(self, args, block, site) : null;
        },
        // `Puppet::Type.type(:x).provider(:y)` (a parent for another provider): autoloads the type and that provider file.
        provider: (self, args) => {
            const typeName = self instanceof RClass ? typeNames.get(self) : undefined;
            if (typeName === undefined) return null;
            const name = nameOf(args[0] ?? null);
            const find = (): RValue => {
                const cls = Type.constants.get(camel(typeName));
                return cls instanceof RClass ? cls.constants.get(`Provider${camel(name)}`) ?? null : null;
            };
            if (find() === null) {
                rt.findType(typeName);
                // Puppet's provider autoloader searches the modules, not `$LOAD_PATH`.
                if (find() === null) rt.loadProvider(typeName, name);
            }
            return find();
        },
        defaultprovider: () => null, suppress_prefetch: () => null, 'self_refresh=': () => null
    };
    for (const [n, m] of Object.entries(typeStatics)) Type.defineStatic(n, m);

    const attrStatics: Record<string, Method> = {
        desc: (self, args) => { attrBuilders.get(self as RClass)?.desc(rt.interp.toS(args[0] ?? null)); return null; },
        isnamevar: self => { attrOf(self).isnamevar(); return null; },
        isrequired: self => { attrOf(self).isrequired(); return null; },
        newvalues: (self, args) => { attrOf(self).newvalues(...args.map(valueName)); return null; },
        newvalue: (self, args, block) => {
            attrOf(self).newvalue(valueName(args[0] ?? null), {}, block ? function (this: unknown, v) { call(block, attrSelf(self as RClass, this), [fromDsl(v)]); } : undefined);
            return null;
        },
        aliasvalue: (self, args) => { attrOf(self).aliasvalue(nameOf(args[0] ?? null), nameOf(args[1] ?? null)); return null; },
        defaultvalues: self => {
            const b = attrOf(self);
            b.newvalue(Symbol.for('present'));
            b.newvalue(Symbol.for('absent'));
            return null;
        },
        defaultto: (self, args, block) => {
            const b = attrOf(self);
            if (block) b.defaultto(r => toDsl(call(block, attrSelf(self as RClass, { resource: r }), [])));
            else b.defaultto(toDsl(args[0] ?? null) as string | symbol);
            return null;
        },
        validate: (self, _a, block) => {
            const b = hookBlock(block, 'validate');
            attrOf(self).validate(function (this: unknown, v) { call(b, attrSelf(self as RClass, this), [fromDsl(v)]); });
            return null;
        },
        munge: (self, _a, block) => {
            const b = hookBlock(block, 'munge');
            attrOf(self).munge(function (this: unknown, v) { return toDsl(call(b, attrSelf(self as RClass, this), [fromDsl(v)])); });
            return null;
        },
        unmunge: (self, _a, block) => {
            const b = hookBlock(block, 'unmunge');
            attrOf(self).unmunge(function (this: unknown, v) { return toDsl(call(b, attrSelf(self as RClass, this), [fromDsl(v)])); });
            return null;
        },
        'array_matching=': () => null,
        'required_features=': () => null,
        sensitive: self => { attrOf(self).sensitive(); return null; },
        doc: () => ''
    };
    // A class derived from Puppet::Parameter/Property by hand (`class CronParam < Puppet::Property`) uses the DSL
    // before any attribute exists: its calls are kept and replayed on each attribute that names it as parent.
    for (const [n, m] of Object.entries(attrStatics)) {
        Parameter.defineStatic(n, (self, args, block, site) => {
            if (self instanceof RClass && !attrBuilders.has(self)) {
                const list = deferred.get(self) ?? [];
                list.push(() => m(self, args, block, site));
                deferred.set(self, list);
                return null;
            }
            return m(self, args, block, site);
        });
    }
}

function asRubyError<T>(f: () => T): T {
    try {
        return f();
    } catch (e) {
        if (e instanceof RubyError || !(e instanceof Error)) throw e;
        throw rubyError('ArgumentError', e.message);
    }
}

/** `def self.title_patterns`: `[[regexp, [[:attr, munger?], ...]], ...]` as the DSL takes them. */
function titlePatterns(v: RValue): Array<readonly [RegExp, ReadonlyArray<readonly [string]>]> {
    if (!Array.isArray(v)) return [];
    return v.flatMap(entry => {
        if (!Array.isArray(entry) || !(entry[0] instanceof PRegexp) || !Array.isArray(entry[1])) return [];
        const attrs = entry[1].map(a => [nameOf(Array.isArray(a) ? a[0] ?? null : a)] as const);
        return [[entry[0].regexp, attrs] as const];
    });
}
