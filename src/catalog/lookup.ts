import type { PuppetValue } from '../values/index.js';

/** What a lookup may interpolate: the node's facts, trusted data and top-scope variables. */
export interface LookupContext {
    readonly facts: ReadonlyMap<string, PuppetValue>;
    readonly trusted: ReadonlyMap<string, PuppetValue>;
    /** A top-scope variable (`%{::x}`, `%{x}`), undefined when unset. */
    variable(name: string): PuppetValue | undefined;
    readonly environment: string;
}

export interface LookupOptions {
    readonly merge?: PuppetValue;
    /** The value type the caller asserts (checked by the caller). */
    readonly defaultValue?: PuppetValue;
}

/** A lookup answer: found with a value, or not found. */
export type LookupResult = { readonly found: true; readonly value: PuppetValue } | { readonly found: false };

/**
 * The data-binding service the catalog builder asks for automatic class parameter values and
 * for the `lookup()` function (Hiera 5 lives in src/bindings/hiera). Errors are thrown as
 * Error objects whose message is Puppet's.
 */
export interface LookupService {
    lookup(key: string, options: LookupOptions, context: LookupContext): LookupResult;
}
