import type { BindingsObject, LayeredBindings, SourceLocation } from '../../generated/model/bindings.js';
import type { Model, ModelObject, PuppetValue } from '../model/index.js';
import type { BinderResult } from './binder.js';
import { diagnostic, fail, InjectorError, type InjectorDiagnostic } from './diagnostics.js';
import type { Candidate, Entry } from './entries.js';
import { buildEffectiveModel } from './effective-model.js';
import { explainKey, type Explanation } from './explain.js';
import { createProducer, takesArguments } from './producers.js';
import { factsMap, RequestScope, type InjectionRequest } from './request.js';
import { NOTHING, type Maybe, type ProducerRuntime } from './runtime.js';
import { createInjectorServices, type InjectorOverrides, type InjectorServices } from './services.js';
import type { InjectedValue } from './values.js';

/** Answers injections for one request; created by createInjector. */
export interface Injector {
    /** The value bound to `name` (a Data key, or a naming-scheme key like `/param/Class[ntp]/servers`); `type` selects and checks. Throws when unbound. */
    lookup(name: string, type?: string): InjectedValue;
    /** Like lookup, but undef (null) when nothing is bound. */
    optionallyLookup(name: string, type?: string): InjectedValue;
    /**
     * ARM-8 `inject(type, name, { ... })`: a value made now with the hash passed to the producer
     * (over the binding's `producer_args`) when the binding's producer is a class that takes
     * arguments; other bindings ignore the hash ("if required by provider"). Undef when optional and unbound.
     */
    lookupWith(name: string, type: string | undefined, args: ReadonlyMap<PuppetValue, PuppetValue>, optional: boolean): InjectedValue;
    /** Every candidate of the key in precedence order, with why it won or lost. */
    explain(name: string, type?: string): Explanation;
    /** The EffectiveBindings model of this request; with `produce`, every winner is looked up first so the model carries values (and lookup errors as issues). */
    effectiveBindings(options?: { readonly produce?: boolean }): Model;
    /** Warnings (and, for lenient injectors, errors) found at creation. */
    readonly issues: readonly InjectorDiagnostic[];
    /** The effective naming-scheme keys starting with `prefix` (e.g. `/var/`), sorted. */
    boundKeys(prefix: string): string[];
}

export interface CreateInjectorOptions {
    /** Replaces services: the evaluator, the query service, instance factories... */
    readonly services?: InjectorOverrides | InjectorServices;
    /** Return an injector even when creation found errors (for `modelc effective` and explanations). */
    readonly lenient?: boolean;
}

/**
 * Creates the injector of a request from a Bindings model (a LayeredBindings root): categorizes
 * the request, builds the effective bindings and reports conflicts and other binding errors now,
 * not at lookup ("as soon as possible", ARM-8 Injector).
 */
export function createInjector(layered: Model, request: InjectionRequest, options: CreateInjectorOptions = {}): Injector {
    const model = asLayered(layered.root);
    const services = isServices(options.services) ? options.services : createInjectorServices(options.services);
    const environment = request.environment ?? model.environment ?? 'production';
    const facts = factsMap(request.facts);
    const categoryScope = new RequestScope(request.node, environment, facts, undefined, request.trusted);
    const categorization = services.categorizer.categorize({
        site: model.categorization, known: model.effectiveCategories, environment, categoryValues: request.categoryValues ?? {}, scope: categoryScope
    });
    const result = services.binder.bind(model, categorization, categoryScope.variables());
    const errors = result.issues.filter(i => i.severity === 'error');
    if (errors.length > 0 && !options.lenient) throw new InjectorError(errors);
    return new InjectorImpl(services, result, { ...request, environment }, facts);
}

/**
 * The injector's input is a LayeredBindings; what one provider returns (ContributedBindings) or
 * one bindings file (NamedBindings) is taken as a single layer, so provider output can be
 * inspected with `modelc effective` directly.
 */
function asLayered(root: ModelObject): LayeredBindings {
    const b = root as unknown as BindingsObject;
    switch (b.$type) {
        case 'LayeredBindings': return b;
        case 'ContributedBindings':
            return { $type: 'LayeredBindings', ...(b.location ? { location: b.location } : {}), layers: [{ $type: 'NamedLayer', name: b.name, bindings: (b.bindings ?? []).map(nb => ({ ...nb, contributedBy: nb.contributedBy ?? b.source })) }] };
        case 'NamedBindings':
            return { $type: 'LayeredBindings', layers: [{ $type: 'NamedLayer', name: b.name ?? 'bindings', bindings: [b] }] };
        default:
            throw new InjectorError(diagnostic('error', 'INJECT_NOT_LAYERED', { locations: [(b as { location?: SourceLocation }).location] }, b.$type));
    }
}

/** A constant that is undef on purpose (Hiera's `key: ~`) binds undef; only computed producers must produce a value. */
function bindsUndef(c: Candidate): boolean {
    const spec = c.spec;
    if (spec.kind === 'value') return spec.value === null;
    return spec.kind === 'descriptor' && spec.descriptor.$type === 'ConstantProducerDescriptor' && spec.descriptor.value === null;
}

function isServices(s: CreateInjectorOptions['services']): s is InjectorServices {
    return s !== undefined && 'binder' in s && typeof (s as InjectorServices).binder === 'object' && (s as InjectorServices).binder !== undefined;
}

class InjectorImpl implements Injector, ProducerRuntime {
    readonly scope: RequestScope;
    private readonly active = new Set<string>();
    private readonly assisted = new Map<string, InjectedValue>();

    constructor(readonly services: InjectorServices, readonly result: BinderResult, private readonly request: InjectionRequest & { environment: string }, facts: ReturnType<typeof factsMap>) {
        this.scope = new RequestScope(request.node, request.environment, facts, (name, type) => this.lookup(name, type), request.trusted);
    }

    get issues(): readonly InjectorDiagnostic[] {
        return this.result.issues;
    }

    boundKeys(prefix: string): string[] {
        return [...this.result.entries.keys()].filter(k => k.startsWith(prefix)).sort();
    }

    lookup(name: string, type?: string): InjectedValue {
        const v = this.find(name, type);
        if (v === NOTHING) return fail('INJECT_NOT_FOUND', { key: this.services.keys.key(type, name) }, this.services.keys.key(type, name));
        return v;
    }

    optionallyLookup(name: string, type?: string): InjectedValue {
        const v = this.find(name, type);
        return v === NOTHING ? null : v;
    }

    lookupWith(name: string, type: string | undefined, args: ReadonlyMap<PuppetValue, PuppetValue>, optional: boolean): InjectedValue {
        const key = this.services.keys.key(type, name);
        const e = this.result.entries.get(key);
        const w = e?.winner;
        if (!e || !w || e.erasedBy || !takesArguments(w)) return optional ? this.optionallyLookup(name, type) : this.lookup(name, type);
        const made = this.produce({ ...w, callArgs: args, singleton: false, cachesValue: false, producer: undefined });
        if (made === null) return optional ? null : fail('INJECT_PRODUCED_UNDEF', { key, layers: [w.layer], locations: [w.location] }, key);
        this.check(e, w, made);
        if (type !== undefined && type !== 'Data' && !this.services.types.isInstance(made, type)) {
            return fail('INJECT_LOOKUP_TYPE', { key, layers: [w.layer], locations: [w.location] }, type, this.services.types.infer(made));
        }
        return made;
    }

    private find(name: string, type: string | undefined): Maybe {
        // The warm path: a Data name with a cached singleton value.
        if (type === undefined && name.charCodeAt(0) !== 47) {
            const e = this.result.dataEntries.get(name);
            if (e === undefined) return NOTHING;
            if (e.cached !== undefined && e.erasedBy === undefined) return e.cached.value;
            return this.produceEntry(e);
        }
        const key = this.services.keys.key(type, name);
        if (name === '' && type !== undefined && !this.result.entries.has(key)) return this.assist(key, type);
        return this.valueOfKey(key, type);
    }

    /**
     * ARM-8: "if inject(SomeType) is called and there is no binding for SomeType the injector will
     * then create an instance" (binder: assisted inject, for runtime classes): one instance per
     * injector, made by the InstanceFactory; Data types are never instantiated.
     */
    private assist(key: string, type: string): Maybe {
        const known = this.assisted.get(key);
        if (known !== undefined) return known;
        if (this.services.types.isDataCompatible(type)) return NOTHING;
        const className = /^Type\[(.*)\]$/s.exec(type.trim())?.[1]?.trim() ?? type.trim();
        const made = this.services.instances.instantiate(className, [], this.scope);
        if (made === undefined) return NOTHING;
        this.assisted.set(key, made);
        return made;
    }

    valueOfKey(key: string, type: string | undefined, ignoreErasure = false): Maybe {
        const e = this.result.entries.get(key);
        if (e === undefined) return NOTHING;
        const v = e.cached !== undefined && (ignoreErasure || e.erasedBy === undefined) ? e.cached.value : this.produceEntry(e, ignoreErasure);
        if (v !== NOTHING && v !== null && type !== undefined && type !== 'Data' && !this.services.types.isInstance(v, type) && !(isPuppetTypeKey(type) && puppetTypeOf(this.services.types.infer(v)) !== undefined)) {
            return fail('INJECT_LOOKUP_TYPE', { key, layers: e.winner ? [e.winner.layer] : [], locations: [e.winner?.location] }, type, this.services.types.infer(v));
        }
        return v;
    }

    produceEntry(e: Entry, ignoreErasure = false): Maybe {
        if (!e.winner || (e.erasedBy && !ignoreErasure)) return NOTHING;
        if (this.active.has(e.key)) fail('INJECT_LOOKUP_LOOP', { key: e.key, layers: [e.winner.layer], locations: [e.winner.location] }, e.key);
        this.active.add(e.key);
        try {
            const chain = e.fallbacks.length > 0 && e.winner.optional ? [e.winner, ...e.fallbacks] : [e.winner];
            for (const c of chain) {
                const v = this.produce(c);
                if (v === null && !bindsUndef(c)) {
                    if (c.optional) continue;
                    return fail('INJECT_PRODUCED_UNDEF', { key: e.key, layers: [c.layer], locations: [c.location] }, e.key);
                }
                this.check(e, c, v);
                if (c === e.winner && c.cachesValue) e.cached = { value: v };
                return v;
            }
            return NOTHING;
        } finally {
            this.active.delete(e.key);
        }
    }

    produce(c: Candidate): InjectedValue {
        c.producer ??= createProducer(c, this);
        return c.producer.produce();
    }

    /** Every produced value is checked against the binding's declared type (binder), and against shadowed abstract variable types. */
    private check(e: Entry, c: Candidate, v: InjectedValue): void {
        const types = this.services.types;
        const site = { key: e.key, layers: [c.layer], locations: [c.location] };
        const replaced = c.name === '' && c.declaredType !== undefined ? puppetTypeOf(types.infer(v)) : undefined;
        if (replaced !== undefined && isPuppetTypeKey(c.declaredType!)) {
            // ARM-8 Typed, Anonymous Binding: `bind class ntp to class ntp2` binds a subtype, not an instance.
            if (this.services.typeInfo.isSubtype?.(replaced, c.declaredType!) === false) fail('INJECT_NOT_A_SUBTYPE', site, c.declaredType!, replaced);
        } else if (c.declaredType !== undefined && !types.isInstance(v, c.declaredType)) {
            fail('INJECT_PRODUCER_TYPE', site, c.declaredType, types.infer(v));
        }
        for (const t of e.constraints) if (!types.isInstance(v, t)) fail('INJECT_VARIABLE_TYPE', site, c.name, t, types.infer(v));
    }

    explain(name: string, type?: string): Explanation {
        return explainKey(this.result, this.services.keys.key(type, name));
    }

    effectiveBindings(options: { readonly produce?: boolean } = {}): Model {
        const failures: InjectorDiagnostic[] = [];
        if (options.produce) {
            for (const [key, e] of this.result.entries) {
                if (!e.winner || e.erasedBy || e.winner.abstract) continue;
                try {
                    this.valueOfKey(key, undefined);
                } catch (err) {
                    if (!(err instanceof InjectorError)) throw err;
                    failures.push(...err.diagnostics);
                }
            }
        }
        return buildEffectiveModel(this.result, this.request, failures);
    }
}

/** `Class[ntp2]` from the inferred `Type[Class[ntp2]]` of a Puppet class or resource type value; undefined for any other value. */
function puppetTypeOf(inferred: string): string | undefined {
    const m = /^Type\[(.*)\]$/s.exec(inferred);
    return m && isPuppetTypeKey(m[1]) ? m[1] : undefined;
}

/** A host class (`Class[ntp]`) or a resource type (`File`, `Foo::Bar`): the keys instances are made of. */
function isPuppetTypeKey(type: string): boolean {
    if (/^Class\[.+\]$/s.test(type)) return true;
    return /^[A-Z]\w*(::[A-Z]\w*)*$/.test(type) && !PUPPET_DATA_TYPES.has(type);
}

/** Puppet's own type names: never a resource type. */
const PUPPET_DATA_TYPES = new Set([
    'Any', 'Array', 'Binary', 'Boolean', 'Callable', 'CatalogEntry', 'Class', 'Collection', 'Data', 'Default', 'Deferred', 'Enum', 'Error', 'Float',
    'Hash', 'Init', 'Integer', 'Iterable', 'Iterator', 'Literal', 'NotUndef', 'Number', 'Numeric', 'Object', 'Optional', 'Pattern', 'Producer', 'Regexp',
    'Resource', 'RichData', 'Runtime', 'Scalar', 'ScalarData', 'SemVer', 'SemVerRange', 'Sensitive', 'String', 'Struct', 'Timespan', 'Timestamp',
    'Tuple', 'Type', 'TypeSet', 'URI', 'Undef', 'Unit', 'Variant'
]);
