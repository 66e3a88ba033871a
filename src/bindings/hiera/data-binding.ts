import type { HieraFunctions } from './function-provider.js';
import type { PuppetValue } from '../../values/index.js';
import type { HieraContext } from './context.js';
import type { HieraEnvironment, HieraTypeSupport } from './engine.js';
import { LookupTrace } from './invocation.js';
import { NOT_FOUND } from './lookup-key.js';
import { createHieraLookup, type HieraLookup, type HieraServices } from './service.js';
import type { WarningSink } from './data-cache.js';

/** The per-call context the catalog builder passes (facts, trusted, top scope). */
export interface DataBindingContext {
    readonly facts: ReadonlyMap<string, PuppetValue>;
    readonly trusted: ReadonlyMap<string, PuppetValue>;
    /**
     * A variable as the scope the lookup is made from sees it (`%{x}`; `%{::x}` is the top
     * scope's, `topScope` true), undefined when unset. Name without `::`.
     */
    variable(name: string, topScope?: boolean): PuppetValue | undefined;
    /** Whether the environment has a class of that name (an unset `%{cls::x}` is reported as not evaluated, else as not found). */
    classExists?(name: string): boolean;
    readonly environment: string;
    /**
     * A resource of the catalog being built (`Sql[one]`, `Class[ntp]`): its parameters as a hash,
     * or undefined when it is not (yet) in the catalog or there is no catalog.
     */
    resource?(reference: string): PuppetValue | undefined;
    /** The environment's functions, which Hiera levels may name as their data provider. */
    readonly functions?: HieraFunctions;
}

/** Options of one data-binding call: an explicit merge, and a default when the caller has one. */
export interface DataBindingOptions {
    readonly merge?: PuppetValue;
    readonly defaultValue?: PuppetValue;
    /** A hiera(), hiera_array() or hiera_hash() call (Hiera 5 then reads only the global layer unless the environment has a version 5 hiera.yaml). */
    readonly hieraCall?: boolean;
}

/** Where a bound value came from: Hiera's data sources, or the ARM-8 binding that won. */
export interface DataBindingOrigin {
    /** The layer: Hiera's global, environment or `module NAME`, or the bindings layer's name. */
    readonly layer?: string;
    /** The hierarchy level or the binding's category. */
    readonly category?: string;
    /** The named bindings (or Hiera data provider) the value was in. */
    readonly namedBindings?: string;
    readonly contributedBy?: string;
    readonly file?: string;
    readonly line?: number;
    readonly column?: number;
    /** The merge strategy, when sources were merged. */
    readonly merge?: string;
    /** Every source of a merged value, highest precedence first. */
    readonly contributors?: ReadonlyArray<{ readonly file: string; readonly line?: number; readonly column?: number }>;
}

export type DataBindingResult = { readonly found: true; readonly value: PuppetValue; readonly origin?: DataBindingOrigin } | { readonly found: false };

/** A Hiera trace as a binding origin: the highest-precedence source wins the location. */
export function hieraOrigin(trace: LookupTrace): DataBindingOrigin | undefined {
    const first = trace.sources[0];
    if (!first) return undefined;
    const where = (s: { file: string; line?: number; column?: number }): { file: string; line?: number; column?: number } =>
        ({ file: s.file, ...(s.line !== undefined ? { line: s.line } : {}), ...(s.column !== undefined ? { column: s.column } : {}) });
    return {
        layer: first.layer === 'module' ? `module ${first.module ?? ''}` : first.layer,
        category: first.level,
        namedBindings: 'hiera',
        ...where(first),
        ...(trace.sources.length > 1 ? { merge: trace.merge, contributors: trace.sources.map(where) } : {})
    };
}

/** A `lookup()` call as Puppet's Lookup.lookup takes it. */
export interface DataBindingCall {
    /** The type the value must have (a type value), if given. */
    readonly type?: PuppetValue;
    readonly merge?: PuppetValue;
    readonly default?: { readonly value: PuppetValue };
    /** The default block, called with the name(s) as given. */
    readonly defaultFn?: (names: string | readonly string[]) => PuppetValue;
    readonly overrides?: ReadonlyMap<PuppetValue, PuppetValue>;
    readonly defaultValues?: ReadonlyMap<PuppetValue, PuppetValue>;
}

/** The data-binding service the catalog builder calls for automatic class parameters and `lookup()`. */
export interface HieraDataBinding {
    lookup(key: string, options: DataBindingOptions, context: DataBindingContext): DataBindingResult;
    /**
     * Puppet's Lookup.lookup for the `lookup()` function (names in turn, the override hash, the
     * default values hash, the default block or value, the type check), when the binding does it all.
     */
    call?(names: string | readonly string[], request: DataBindingCall, context: DataBindingContext): PuppetValue;
}

/**
 * Hiera 5 as the catalog builder's data-binding service. One lookup service is kept per node
 * (per facts/trusted pair), so config, hierarchies and lookup_options are resolved once per
 * compile; `%{::var}` reads the compile's current top scope through the latest context.
 * Failures are thrown as LookupErrors carrying Puppet's message.
 */
export function createHieraDataBinding(options: {
    readonly environment: string | HieraEnvironment;
    readonly types?: HieraTypeSupport;
    readonly services?: HieraServices;
    readonly warn?: WarningSink;
    /** A lookup service to answer with instead of one per node, once it exists (the lookup command's own, so lookups its data provider functions make share its recursion guard). */
    readonly service?: () => HieraLookup | undefined;
}): HieraDataBinding {
    const perNode = new WeakMap<object, WeakMap<object, { lookup: HieraLookup; current: { ctx: DataBindingContext } }>>();
    const serviceFor = (ctx: DataBindingContext): HieraLookup => {
        const given = options.service?.();
        if (given) return given;
        let byTrusted = perNode.get(ctx.facts);
        if (!byTrusted) { byTrusted = new WeakMap(); perNode.set(ctx.facts, byTrusted); }
        let entry = byTrusted.get(ctx.trusted);
        if (!entry) {
            const current = { ctx };
            const context: HieraContext = {
                environment: ctx.environment, facts: ctx.facts, trusted: ctx.trusted,
                variable: (name, topScope) => current.ctx.variable(name, topScope),
                classExists: name => current.ctx.classExists?.(name) ?? false,
                functions: {
                    has: name => current.ctx.functions?.has(name) ?? false,
                    call: (name, args) => {
                        const f = current.ctx.functions;
                        if (!f) throw new Error(`no function ${name}`);
                        return f.call(name, args);
                    }
                }
            };
            entry = { lookup: createHieraLookup({ environment: options.environment, context, types: options.types, services: options.services, warn: options.warn }), current };
            byTrusted.set(ctx.trusted, entry);
        }
        entry.current.ctx = ctx;
        return entry.lookup;
    };
    return {
        lookup(key, opts, ctx) {
            const svc = serviceFor(ctx);
            const merge = opts.merge ?? undefined;
            const trace = new LookupTrace();
            const origin = (): { origin?: DataBindingOrigin } => {
                const o = hieraOrigin(trace);
                return o ? { origin: o } : {};
            };
            const hieraCall = opts.hieraCall === true ? { hieraCall: true } : {};
            if (opts.defaultValue !== undefined) return { found: true, value: svc.lookup(key, { merge, default: { value: opts.defaultValue }, trace, ...hieraCall }), ...origin() };
            const v = svc.lookupOptional(key, { merge, trace, ...hieraCall });
            return v === NOT_FOUND ? { found: false } : { found: true, value: v, ...origin() };
        },
        call(names, request, ctx) {
            return serviceFor(ctx).lookup(names, {
                ...(request.merge !== undefined && request.merge !== null ? { merge: request.merge } : {}),
                ...(request.type !== undefined && request.type !== null ? { type: request.type } : {}),
                ...(request.default ? { default: request.default } : {}),
                ...(request.defaultFn ? { defaultFn: request.defaultFn } : {}),
                ...(request.overrides ? { overrides: request.overrides } : {}),
                ...(request.defaultValues ? { defaultValues: request.defaultValues } : {})
            });
        }
    };
}
