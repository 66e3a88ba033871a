import type { HieraInterpolationProducerDescriptor } from '../../generated/model/bindings.js';
import { createInjector, DEPENDENCIES_KEY, escapeInstanceName, INCLUDED_CLASSES, type InjectedValue, type Injector, type InjectorOverrides } from '../injector/index.js';
import type { SourcePoint } from '../common/index.js';
import { fromRichData, type Model } from '../model/index.js';
import type { PuppetValue } from '../values/index.js';
import { PClassType, PResourceType } from '../types/index.js';
import { composeBindings, compositionOf, type Composition } from './compose.js';
import { createHieraDataBinding, type DataBindingContext, type DataBindingOptions, type DataBindingOrigin, type DataBindingResult, type HieraDataBinding } from './hiera/data-binding.js';
import type { HieraEnvironment, HieraTypeSupport } from './hiera/engine.js';
import type { WarningSink } from './hiera/data-cache.js';
import { createHieraLookup, type HieraLookup } from './hiera/service.js';
import { BindingsIssues } from './issues.js';
import type { EncAnswer } from './providers/enc-provider.js';
import { fail } from './providers/provider.js';

/** The catalog builder's data binding when the environment has ARM-8 bindings: Hiera 5 plus the injector. */
export interface InjectingDataBinding extends HieraDataBinding {
    /** ARM-8 `inject(type, name)` / `optionally_inject(...)`: the bound value, or undef when optional and unbound. */
    inject(name: string, type: string | undefined, optional: boolean, context: DataBindingContext, args?: ReadonlyMap<PuppetValue, PuppetValue>): PuppetValue;
    /** The classes bound under `/classes` (`include` − `exclude`, ENC classes), for the node's classification. */
    classes(context: DataBindingContext): string[];
    /** Where a class of `classes()` was included (its `include`), for errors about it. */
    classOrigin?(name: string, context: DataBindingContext): SourcePoint | undefined;
    /** `/var/NAME` bindings: the bound top-scope variables. */
    variables?(context: DataBindingContext): Array<[string, PuppetValue]>;
    /** `bind dependency` relationships (`/dependencies`). */
    dependencies?(context: DataBindingContext): Array<{ sources: string[]; targets: string[]; arrow: string }>;
    /**
     * ARM-8 `bind class ntp to class ntp2` / `bind MyType to MyBetterType`: the type instances of
     * `type` (`Class[ntp]`, `Mytype`) are made of instead, or undefined when nothing rebinds it.
     */
    boundType?(type: string, context: DataBindingContext): string | undefined;
    /** A resource parameter bound by `bind parameters Type[title]` (or `Type`): its value and key, or undefined. */
    resourceParameter?(type: string, title: string, name: string, context: DataBindingContext): { value: PuppetValue; key: string } | undefined;
    resourceParameterNames?(type: string, title: string, context: DataBindingContext): readonly string[];
}

/** Hiera data values with `%{}` are resolved by the request's Hiera engine when the injector produces them. */
export function hieraTemplateExtension(hiera: HieraLookup): { produce(d: { readonly $type: string }): { readonly value: PuppetValue } | undefined } {
    return {
        produce(d) {
            if (d.$type !== 'HieraInterpolationProducerDescriptor') return undefined;
            return { value: hiera.engine.interpolateValue(fromRichData((d as HieraInterpolationProducerDescriptor).template ?? null)) };
        }
    };
}

/** The parameter names among `/param/...` keys bound for `Type[title]` or for `Type`. */
export function parameterNamesOf(keys: readonly string[], type: string, title: string): string[] {
    const prefixes = [`/param/${type}[${escapeInstanceName(title)}]/`, `/param/${type}/`];
    const names = new Set<string>();
    for (const k of keys) {
        const p = prefixes.find(x => k.startsWith(x));
        if (p !== undefined && !k.includes('/', p.length)) names.add(k.slice(p.length));
    }
    return [...names];
}

/** `a::b::p` → `/param/Class[a::b]/p`: where `bind parameters` puts a class parameter; undefined for unqualified keys. */
export function parameterKeyOf(key: string): string | undefined {
    const m = /^(.+)::([a-z_]\w*)$/.exec(key);
    return m ? `/param/Class[${m[1]}]/${m[2]}` : undefined;
}

/** The winning ARM-8 binding of a key as a data-binding origin (layer, category, named bindings, where written). */
function injectorOrigin(injector: Injector, name: string): { origin?: DataBindingOrigin } {
    const w = injector.explain(name).candidates.find(c => c.status === 'winner');
    if (!w) return {};
    const at = w.location;
    return {
        origin: {
            layer: w.layer, category: w.category, namedBindings: w.namedBindings,
            ...(at ? { file: at.file, ...(at.line !== undefined ? { line: at.line } : {}), ...(at.column !== undefined ? { column: at.column } : {}) } : {})
        }
    };
}

/** Two facts maps holding the same values (the same objects) under the same names. */
function sameTopLevel(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (b.get(k) !== v) return false;
    return true;
}

/** True when the injector's winner for `name` is a Hiera level (or nothing binds it): then Hiera answers with its own semantics. */
export function hieraDecides(injector: Injector, composition: Composition, name: string, type?: string): boolean {
    const x = injector.explain(name, type);
    if (!x.found) return true;
    const w = x.candidates.find(c => c.status === 'winner');
    if (!w || w.layer !== composition.hieraLayer) return false;
    const layer = composition.layered.layers?.find(l => l.name === w.layer);
    return (layer?.bindings ?? []).some(nb => nb.$type === 'HieraLevelBindings' && nb.name === w.namedBindings);
}

/**
 * Automatic class-parameter lookup and `lookup()` through the injector (ARM-8 Integration):
 * a key an ARM-8 binding wins is answered by the injector; a key a Hiera level wins, or that
 * nothing binds, by Hiera 5 exactly as without bindings (merges, lookup_options, interpolation
 * against the compile's top scope). The composition and the injector are made once per node,
 * at the first lookup, from the facts and `trusted.certname` of the compile.
 */
export function createInjectingDataBinding(options: {
    readonly environment: HieraEnvironment;
    readonly types?: HieraTypeSupport;
    readonly warn?: WarningSink;
    /** Injector services of the catalog stage: the Puppet evaluator, type knowledge, the query service. */
    readonly injectorServices?: InjectorOverrides;
    /** A LayeredBindings model (from `modelc bindings` or any tool) that replaces what the environment's providers would compose. */
    readonly bindings?: Model;
    /** The ENC's answer already asked for this request (to choose its environment): the `enc:` provider uses it instead of running the ENC again. */
    readonly enc?: EncAnswer;
    /** The environment's manifests, whose `site {}` configures the injector (default: ROOT/manifests). */
    readonly manifests?: readonly string[];
    /** The confdir bindings directory (environments.pp's `bindingsdir`; default ROOT/bindings). */
    readonly bindingsDir?: string;
}): InjectingDataBinding {
    const hiera = createHieraDataBinding(options);
    let state: { facts: object; current: { ctx: DataBindingContext }; composition: Composition; injector: Injector; typeKeys?: Set<string>; paramKeys?: readonly string[] } | undefined;
    const stateFor = (ctx: DataBindingContext): { composition: Composition; injector: Injector; typeKeys?: Set<string>; paramKeys?: readonly string[] } => {
        if (state && state.facts === ctx.facts) return state;
        // A compile that classifies first runs two compilers with copies of the same facts: the
        // composition (which runs the ENC and external providers) is made once for both.
        if (state && sameTopLevel(state.facts as ReadonlyMap<string, unknown>, ctx.facts)) {
            state.facts = ctx.facts;
            // Hiera's interpolation reads the top scope of the compiler now asking.
            state.current.ctx = ctx;
            return state;
        }
        const current = { ctx };
        const certname = ctx.trusted.get('certname');
        const fqdn = ctx.facts.get('fqdn');
        const node = typeof certname === 'string' ? certname : typeof fqdn === 'string' ? fqdn : 'unknown';
        const lookup = createHieraLookup({
            environment: options.environment,
            context: { environment: ctx.environment, facts: ctx.facts, trusted: ctx.trusted, variable: (name, topScope) => current.ctx.variable(name, topScope) },
            types: options.types, warn: options.warn
        });
        const composition = options.bindings ? compositionOf(options.bindings) : composeBindings({
            codedir: options.environment.root, modulePath: options.environment.modulePath, environment: ctx.environment, node, facts: ctx.facts, hiera: lookup,
            ...(options.enc ? { enc: options.enc } : {}),
            ...(options.manifests ? { manifests: options.manifests } : {}),
            ...(options.bindingsDir !== undefined ? { bindingsDir: options.bindingsDir } : {}),
            ...(options.environment.fs ? { fs: options.environment.fs } : {})
        });
        const injector = createInjector(composition.model, { node, environment: ctx.environment, facts: ctx.facts }, {
            services: {
                ...options.injectorServices, extensions: () => hieraTemplateExtension(lookup),
                // ARM-8 instance references (`bind parameters Web[one] to Sql[one]`) name resources of the catalog being built.
                resolver: () => ({ resolve: reference => current.ctx.resource?.(reference) })
            }
        });
        // The injector's warnings (a reserved name, an unknown category...) are the compile's warnings, located.
        for (const d of injector.issues) {
            if (d.severity === 'warning') options.warn?.(`${d.code}: ${d.message}`, d.at?.file ?? d.file, d.at ? { line: d.at.line, column: d.at.column } : undefined);
        }
        state = { facts: ctx.facts, current, composition, injector };
        return state;
    };
    const plain = (v: InjectedValue, name: string): PuppetValue => {
        if (typeof v === 'object' && v !== null && !(v instanceof Map) && !Array.isArray(v) && typeof (v as { runtimeType?: unknown }).runtimeType === 'string') {
            fail(BindingsIssues.BIND_NOT_DATA, `'${name}' is bound to a runtime object (${(v as { runtimeType: string }).runtimeType}), not Puppet data`);
        }
        return v as PuppetValue;
    };
    return {
        lookup(key: string, opts: DataBindingOptions, ctx: DataBindingContext): DataBindingResult {
            const { composition, injector } = stateFor(ctx);
            if (!hieraDecides(injector, composition, key)) return { found: true, value: plain(injector.lookup(key), key), ...injectorOrigin(injector, key) };
            // `bind parameters CLASS to {...}` (and the ENC's class parameters) bind `/param/Class[CLASS]/NAME`:
            // the service cannot tell a class parameter from a lookup() key, so a qualified key
            // also asks that key before Hiera.
            const param = parameterKeyOf(key);
            if (param !== undefined && injector.explain(param).found) return { found: true, value: plain(injector.lookup(param), param), ...injectorOrigin(injector, param) };
            return hiera.lookup(key, opts, ctx);
        },
        inject(name, type, optional, ctx, args) {
            const { injector } = stateFor(ctx);
            if (args !== undefined) return plain(injector.lookupWith(name, type, args, optional), name);
            return plain(optional ? injector.optionallyLookup(name, type) : injector.lookup(name, type), name);
        },
        variables(ctx) {
            const { injector } = stateFor(ctx);
            return injector.boundKeys('/var/').map((k): [string, PuppetValue] => [k.slice('/var/'.length), plain(injector.lookup(k), k)]);
        },
        dependencies(ctx) {
            const v = stateFor(ctx).injector.optionallyLookup(DEPENDENCIES_KEY);
            if (!Array.isArray(v)) return [];
            const strings = (x: PuppetValue | undefined): string[] => (Array.isArray(x) ? x : x === undefined || x === null ? [] : [x]).filter((s): s is string => typeof s === 'string');
            return v.filter((d): d is Map<PuppetValue, PuppetValue> => d instanceof Map)
                .map(d => ({ sources: strings(d.get('sources')), targets: strings(d.get('targets')), arrow: String(d.get('arrow') ?? '->') }));
        },
        boundType(type, ctx) {
            const s = stateFor(ctx);
            // Type-only keys (`Class[ntp]/`, `Mytype/`) are few: found once per injector, then asked per declaration.
            s.typeKeys ??= new Set(s.injector.boundKeys('').filter(k => k.endsWith('/') && !k.startsWith('/') && !k.startsWith('Data/')));
            if (!s.typeKeys.has(`${type}/`)) return undefined;
            const v = s.injector.optionallyLookup('', type);
            if (v instanceof PClassType && v.className !== null) return `Class[${v.className}]`;
            if (v instanceof PResourceType && v.typeName !== null && v.title === null) return v.typeName;
            return undefined;
        },
        resourceParameter(type, title, name, ctx) {
            const { injector } = stateFor(ctx);
            for (const key of [`/param/${type}[${escapeInstanceName(title)}]/${name}`, `/param/${type}/${name}`]) {
                if (injector.explain(key).found) {
                    const v = injector.optionallyLookup(key);
                    if (v !== null) return { value: plain(v, key), key };
                }
            }
            return undefined;
        },
        resourceParameterNames(type, title, ctx) {
            const s = stateFor(ctx);
            // Asked for every resource declared: the few /param/ keys are found once per injector.
            s.paramKeys ??= s.injector.boundKeys('/param/');
            return parameterNamesOf(s.paramKeys, type, title);
        },
        classOrigin(name, ctx) {
            const { injector } = stateFor(ctx);
            const c = injector.explain(INCLUDED_CLASSES).candidates.find(x => x.status === 'contribution' && x.name?.replace(/^::/, '').toLowerCase() === name);
            const at = c?.location;
            return at?.line !== undefined && at.file !== undefined ? { file: at.file, line: at.line, column: at.column ?? 1 } : undefined;
        },
        classes(ctx) {
            const v = stateFor(ctx).injector.optionallyLookup('/classes');
            return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : [];
        }
    };
}
