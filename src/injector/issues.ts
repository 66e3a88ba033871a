/**
 * The injector's issue catalogue. Codes are stable API; messages keep the Ruby binder's wording
 * (behaviour.md) where it had one, with `%s` placeholders filled in order.
 */
export const InjectIssues = {
    // categorization (ARM-8 "Categorization" rules; binder define_categories)
    INJECT_CATEGORY_COMMON_SPECIFIED: "The category 'common' may not be specified: it is always present with the lowest precedence",
    INJECT_CATEGORY_ENVIRONMENT_NOT_TRUE: "The category 'environment' may only be set to true (it always evaluates to $environment), got: %s",
    INJECT_CATEGORY_NODE_BELOW_ENVIRONMENT: "The category 'node' must have higher precedence than 'environment'",
    INJECT_CATEGORY_REDEFINED: 'Attempt to redefine categorization: %s',
    INJECT_CATEGORY_LIMIT: 'Category limit (1000) exceeded',
    INJECT_CATEGORY_PRECEDENCE_ORDER: "Category precedences must descend strictly: '%s' (%s) is not below '%s' (%s)",
    INJECT_CATEGORY_VALUE_NOT_LITERAL: "The value of category '%s' must be a String, Boolean or Number, got: %s",
    INJECT_CATEGORY_EVALUATION_FAILED: "The value of category '%s' could not be evaluated: %s",
    INJECT_CATEGORY_INJECTION: 'Injection is not allowed in a category value expression (the injector is not set up yet)',
    INJECT_UNKNOWN_CATEGORY: "No categorization '%s' is defined; the bindings in 'when %s %s' are skipped",
    // composition (binder LayerProcessor)
    INJECT_NO_LAYERS: 'The layered bindings have no layers',
    INJECT_NOT_LAYERED: 'An injector is made from LayeredBindings, ContributedBindings or NamedBindings, got: %s',
    INJECT_CONFLICT_SAME_BINDINGS: "Conflicting binding for name: '%s' in layer: '%s',  both from: '%s', in %s",
    INJECT_CONFLICT: "Conflicting binding for name: '%s' in layer: '%s', from: '%s', and '%s', in %s",
    INJECT_FINAL_OVERRIDDEN: "Conflicting binding for '%s' being resolved across layers '%s' and '%s'. Override of final binding not allowed",
    INJECT_FINAL_OVERRIDDEN_IN_LAYER: "Conflicting binding for name: '%s' in layer: '%s', from: '%s', and '%s'. Override of final binding not allowed",
    INJECT_ABSTRACT_NOT_OVERRIDDEN: "The abstract binding '%s' in '%s' in layer '%s' was not overridden",
    INJECT_ABSTRACT_WITH_PRODUCER: "The abstract binding '%s' binds a producer; an abstract binding binds no value",
    INJECT_UNRESOLVED_OVERRIDE: "Binding with unresolved 'override' detected: binding: '%s' in: '%s' in layer: '%s'",
    INJECT_RESERVED_NAME: "The name '%s' starts with '/', which is reserved for the naming scheme (/param, /map, /var, /classes)",
    INJECT_EXCLUDED_CONTRIBUTION: "The bindings '%s' (%s) are excluded from layer '%s'",
    // rebinding
    INJECT_REBIND_MISSING: "The rebound key '%s' is not bound",
    INJECT_REBIND_NOT_HIGHER: "The rebinding of '%s' does not have a higher precedence than the binding it rebinds and has no effect",
    INJECT_REBIND_PRODUCER: 'A %s does not accept a producer',
    // multibinds
    INJECT_MULTIBIND_TYPE: "A Multibinding is expected to bind a collection type, but got: '%s'",
    INJECT_DUPLICATE_MULTIBIND_ID: "The multibind id '%s' is used by both '%s' and '%s'",
    INJECT_ORPHAN_CONTRIBUTION: "No effective multibinding has the id '%s'; the contribution is unused",
    INJECT_HASH_CONTRIBUTION_UNNAMED: "A Hash Multibind contribution to '%s' must have a name.",
    INJECT_DUPLICATE_HASH_KEY_PRIORITY: "Duplicate key (same priority) contributed to Hash Multibinding '%s', key: '%s'.",
    INJECT_DUPLICATE_HASH_KEY: "Duplicate key contributed to Hash Multibinding '%s', key: '%s'.",
    INJECT_DUPLICATE_ARRAY_KEY: "Duplicate key (same priority) contributed to Array Multibinding '%s', key: '%s'.",
    INJECT_DUPLICATE_ARRAY_UNNAMED: "Duplicate key (same priority) contributed to Array Multibinding '%s' with unnamed entry.",
    INJECT_MULTIBIND_NOT_COLLECTION_PRODUCER: 'A Multibinding must have an Array or Hash multibind producer, got: %s',
    INJECT_MULTIBIND_INCOMPATIBLE_TYPE: '%s Multibind Producer cannot bind a %s value',
    INJECT_ARRAY_CONTRIBUTION_TYPE: "Type Error: contribution to '%s' does not match type of multibind, expected: %s, or Array[%s], got: %s",
    INJECT_HASH_KEY_TYPE: "Type Error: key contribution to %s['%s'] is incompatible with key type: %s",
    INJECT_HASH_VALUE_TYPE: "Type Error: value contribution to %s['%s'] is incompatible, expected: %s, got: %s",
    INJECT_HASH_OPTIONS: 'Options %s cannot be used with a Multibind of type %s',
    INJECT_MERGE_NOT_HASH: "Conflict resolution 'merge' needs hash values, but the contribution to %s['%s'] is a %s",
    INJECT_COMBINATOR_ARITY: "A combinator for an %s multibind must take %s parameters (%s), got: %s",
    INJECT_COMBINATOR_RESULT: "The combinator of '%s' must return an Array, got: %s",
    // parameters, variables, maps, classes
    INJECT_ABSTRACT_PARAMETERS: "Parameters of '%s' cannot be bound abstract: parameters are already declared to exist",
    INJECT_MAP_REQUIRED: "map required: the parameters of '%s' cannot be bound to '%s' without a parameter map (no common parameter names)",
    INJECT_PARAMETERS_TYPE_TWICE: "It is not allowed to bind a type more than once as a parameters producer: '%s' is bound to '%s' and '%s'",
    INJECT_PARAMETERS_NOT_KEYED: "The parameters producer for '%s' produced a %s, which has no keyed access",
    INJECT_VARIABLES_NOT_HASH: 'Variables must be bound to a literal hash of name => value',
    INJECT_VARIABLE_TYPE: "Type error: variable '$%s' must be %s, got: %s",
    INJECT_VARIABLES_NO_NAMES: 'An abstract variables binding must name the variables',
    // producers and lookups (binder injector / producers)
    INJECT_NOT_FOUND: "No binding for key '%s'",
    INJECT_MISSING_PRODUCER: "A Binding has no producer: '%s'",
    INJECT_CONSTANT_TYPE: "A Binding with a Producer[%s] has an incompatible type: expected a %s, but got a %s.",
    INJECT_MISSING_CLASS_NAME: "A Binding with an Instance producer has no class name: '%s'",
    INJECT_MISSING_KEY: "A Binding with a HashLookup producer has no key: '%s'",
    INJECT_PRODUCED_UNDEF: "The producer of '%s' produced undef; bind it 'to optional' if that is allowed",
    INJECT_PRODUCER_TYPE: 'Type error: incompatible type returned by producer, expected: %s, got: %s',
    INJECT_LOOKUP_TYPE: 'Type error: incompatible type, expected: %s, got: %s',
    INJECT_LOOKUP_PRODUCER_TYPE: 'A Binding with a Lookup producer has an incompatible type: expected a %s, but got a %s.',
    INJECT_LOOKUP_LOOP: 'Lookup loop detected for key: %s',
    INJECT_REGISTERED_PRODUCER_TYPE: "The producer '%s' is registered as a Producer[%s], which cannot produce the %s this binding declares",
    INJECT_INSTANCE_NOT_FOUND: "The instance %s is not in the catalog (needed by '%s'); bind it 'to optional' if it may be missing",
    INJECT_NOT_A_SUBTYPE: "The type bound to '%s' must be a subtype of it, and '%s' is not (a class must inherit from it; a resource type must take all its parameters)",
    INJECT_CLASS_NOT_FOUND: "Can not load the class %s specified in binding named: '%s'",
    INJECT_NOT_A_PRODUCER: "The producer of '%s' must produce a producer, got: %s",
    INJECT_NESTED_NON_CACHING: 'A non-caching producer may not wrap another non-caching producer',
    INJECT_TRANSFORMER_ARITY: 'Transformer lambda must take one argument; value.',
    INJECT_QUERY_RESULT_COUNT: "The query for '%s' returned %s results; exactly one is needed unless select_result is given",
    INJECT_NO_QUERY_SERVICE: "No query service is configured to answer the query of '%s'",
    INJECT_NO_EVALUATOR: "Cannot evaluate '%s': %s",
    INJECT_EVALUATION_FAILED: "Evaluation of '%s' failed: %s",
    INJECT_FIRST_FOUND_EMPTY: 'A first-found producer needs at least one lookup',
    INJECT_UNSUPPORTED_PRODUCER: "No producer extension handles a %s (binding '%s')"
} as const;

export type InjectIssueCode = keyof typeof InjectIssues;

export function formatIssue(code: InjectIssueCode, ...args: readonly (string | number)[]): string {
    let i = 0;
    return InjectIssues[code].replace(/%s/g, () => String(args[i++] ?? ''));
}
