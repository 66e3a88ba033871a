/**
 * The data-binding port the catalog builder asks for automatic class parameter values and for
 * the `lookup()` function. Its one definition lives with the providers (`src/bindings`): Hiera 5
 * and the injecting data binding both implement it; the catalog builder names it here. Errors
 * are thrown as Error objects whose message is Puppet's.
 */
export type {
    DataBindingCall as LookupCall,
    DataBindingContext as LookupContext,
    DataBindingOptions as LookupOptions,
    DataBindingResult as LookupResult,
    HieraDataBinding as LookupService
} from '../bindings/index.js';
