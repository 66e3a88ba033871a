import type { InjectedValue } from '../values.js';

/**
 * What the injector needs from the Puppet type system. The injector never interprets a type
 * string itself; it asks this service. The default implementation (provisional-types.ts) is a
 * stop-gap until `src/types` lands, at which point an adapter over it replaces the default.
 */
export interface TypeService {
    /** The canonical string form of a type (used in keys and messages); the input when unreadable. */
    normalize(type: string): string;
    /** True when every value of the type is Data, so bindings of it share the Data name space. */
    isDataCompatible(type: string): boolean;
    /** True when the value is an instance of the type (types we cannot judge accept every value). */
    isInstance(value: InjectedValue, type: string): boolean;
    /** True when every instance of `source` is an instance of `target`. */
    isAssignable(target: string, source: string): boolean;
    /** The generalized type of a value, as printed in type errors. */
    infer(value: InjectedValue): string;
    /** The element type of an Array type, or the key and value types of a Hash type. */
    collectionOf(type: string): { readonly kind: 'array'; readonly element: string } | { readonly kind: 'hash'; readonly key: string; readonly value: string } | undefined;
}
