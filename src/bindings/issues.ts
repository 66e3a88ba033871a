/**
 * Issue catalogue of the bindings stage. Codes are stable: tests, docs and tools match on them.
 * `LOOKUP_` codes are Hiera 5 lookup failures (each also carries Puppet's own class and, where
 * Puppet has one, its issue code); `BIND_` codes are problems of the bindings providers.
 */
export const BindingsIssues = {
    /** No value for the key (Puppet: "Function lookup() did not find a value for the name ..."). */
    LOOKUP_NOT_FOUND: 'LOOKUP_NOT_FOUND',
    /** A key that cannot be split into segments (quotes or dots misplaced). */
    LOOKUP_KEY_SYNTAX: 'LOOKUP_KEY_SYNTAX',
    /** Digging into a value that is neither a hash nor an array. */
    LOOKUP_DIG_TYPE_MISMATCH: 'LOOKUP_DIG_TYPE_MISMATCH',
    /** A lookup that (through interpolation) looks itself up. */
    LOOKUP_RECURSION: 'LOOKUP_RECURSION',
    /** `%{alias(...)}` mixed with other text. */
    LOOKUP_ALIAS_NOT_ENTIRE_STRING: 'LOOKUP_ALIAS_NOT_ENTIRE_STRING',
    /** `%{name(...)}` with a method other than lookup, hiera, alias, scope, literal. */
    LOOKUP_UNKNOWN_INTERPOLATION_METHOD: 'LOOKUP_UNKNOWN_INTERPOLATION_METHOD',
    /** Method syntax in a place that only allows variables (hiera.yaml paths, options). */
    LOOKUP_INTERPOLATION_METHOD_NOT_ALLOWED: 'LOOKUP_INTERPOLATION_METHOD_NOT_ALLOWED',
    /** A data file that cannot be parsed (YAML or JSON syntax, forbidden classes such as Date). */
    LOOKUP_DATA_PARSE: 'LOOKUP_DATA_PARSE',
    /** A data value that is not valid lookup data (a Ruby Symbol from `:name` in YAML). */
    LOOKUP_DATA_VALUE_TYPE: 'LOOKUP_DATA_VALUE_TYPE',
    /** A data file whose top level is not a hash (a warning; the file counts as empty). */
    LOOKUP_DATA_NOT_A_HASH: 'LOOKUP_DATA_NOT_A_HASH',
    /** Module data with keys outside the module's namespace (a warning; the keys are ignored). */
    LOOKUP_MODULE_KEY_NOT_QUALIFIED: 'LOOKUP_MODULE_KEY_NOT_QUALIFIED',
    /** lookup_options that are not a hash. */
    LOOKUP_OPTIONS_NOT_A_HASH: 'LOOKUP_OPTIONS_NOT_A_HASH',
    /** Module lookup_options for keys outside the module. */
    LOOKUP_OPTIONS_NOT_IN_MODULE: 'LOOKUP_OPTIONS_NOT_IN_MODULE',
    /** A merge given as a hash without 'strategy', or an unknown strategy name. */
    LOOKUP_BAD_MERGE: 'LOOKUP_BAD_MERGE',
    /** A value of the wrong type for the chosen merge strategy. */
    LOOKUP_MERGE_TYPE: 'LOOKUP_MERGE_TYPE',
    /** convert_to failed, or names a type that does not parse. */
    LOOKUP_CONVERT_TO: 'LOOKUP_CONVERT_TO',
    /** The found (or default) value does not match the requested type. */
    LOOKUP_TYPE_MISMATCH: 'LOOKUP_TYPE_MISMATCH',
    /** A found value JSON cannot carry (a NaN or infinite Float): the lookup command fails as Ruby's JSON generator does. */
    LOOKUP_NOT_JSON: 'LOOKUP_NOT_JSON',
    /** A data provider function (data_hash, lookup_key, data_dig) that failed: it did not parse, or raised an error. */
    LOOKUP_FUNCTION_FAILED: 'LOOKUP_FUNCTION_FAILED',
    /** A feature that needs a stage that is not available (type system, compiler). */
    LOOKUP_UNSUPPORTED: 'LOOKUP_UNSUPPORTED',
    /** hiera.yaml problems, in Puppet's wording (HIERA_* issue codes). */
    LOOKUP_CONFIG_UNSUPPORTED_VERSION: 'LOOKUP_CONFIG_UNSUPPORTED_VERSION',
    LOOKUP_CONFIG_V3_IGNORED: 'LOOKUP_CONFIG_V3_IGNORED',
    LOOKUP_CONFIG_NOT_A_HASH: 'LOOKUP_CONFIG_NOT_A_HASH',
    LOOKUP_CONFIG_WRONG_TYPE: 'LOOKUP_CONFIG_WRONG_TYPE',
    LOOKUP_CONFIG_MISSING_FUNCTION: 'LOOKUP_CONFIG_MISSING_FUNCTION',
    LOOKUP_CONFIG_MULTIPLE_FUNCTIONS: 'LOOKUP_CONFIG_MULTIPLE_FUNCTIONS',
    LOOKUP_CONFIG_MULTIPLE_FUNCTIONS_IN_DEFAULT: 'LOOKUP_CONFIG_MULTIPLE_FUNCTIONS_IN_DEFAULT',
    LOOKUP_CONFIG_MULTIPLE_LOCATIONS: 'LOOKUP_CONFIG_MULTIPLE_LOCATIONS',
    LOOKUP_CONFIG_RESERVED_OPTION: 'LOOKUP_CONFIG_RESERVED_OPTION',
    LOOKUP_CONFIG_NAME_TWICE: 'LOOKUP_CONFIG_NAME_TWICE',
    LOOKUP_CONFIG_V3_BACKEND: 'LOOKUP_CONFIG_V3_BACKEND',
    LOOKUP_CONFIG_DEFAULT_HIERARCHY_NOT_IN_MODULE: 'LOOKUP_CONFIG_DEFAULT_HIERARCHY_NOT_IN_MODULE',
    LOOKUP_CONFIG_UNKNOWN_FUNCTION: 'LOOKUP_CONFIG_UNKNOWN_FUNCTION',
    /** A Puppet 4 `environment_data_provider` (environment.conf) or `data_provider` (metadata.json) other than none, hiera, function. */
    LOOKUP_CONFIG_UNKNOWN_PROVIDER: 'LOOKUP_CONFIG_UNKNOWN_PROVIDER',
    /** The code directory is not an environment directory. */
    BIND_NOT_AN_ENVIRONMENT: 'BIND_NOT_AN_ENVIRONMENT',
    /** A bindings .pp file that does not parse. */
    BIND_PARSE: 'BIND_PARSE',
    /** An explicit (non-optional, wildcard-free) bindings URI with nothing behind it (binder: "Cannot load bindings '<uri>' - no bindings found."). */
    BIND_NOT_FOUND: 'BIND_NOT_FOUND',
    /** A bindings file whose `bindings NAME` does not match the symbolic name of its path. */
    BIND_WRONG_NAME: 'BIND_WRONG_NAME',
    /** A layer URI whose scheme has no provider (binder: "Unknown bindings provider scheme: '<s>'"). */
    BIND_UNKNOWN_SCHEME: 'BIND_UNKNOWN_SCHEME',
    /** A layer URI without a scheme, or a path the provider cannot address. */
    BIND_BAD_URI: 'BIND_BAD_URI',
    /** Two layers with the same name. */
    BIND_DUPLICATE_LAYER: 'BIND_DUPLICATE_LAYER',
    /** More than one `site {}` definition. */
    BIND_SITE_TWICE: 'BIND_SITE_TWICE',
    /** A layer that is not `layer { NAME: include => URIs, exclude => URIs }`. */
    BIND_LAYER: 'BIND_LAYER',
    /** A `when` category value that is not a literal. */
    BIND_CATEGORY_VALUE: 'BIND_CATEGORY_VALUE',
    /** A bound name that is not a literal string. */
    BIND_NAME: 'BIND_NAME',
    /** A bind option with a value of the wrong kind (combinator not a lambda, map not a hash...). */
    BIND_OPTION_VALUE: 'BIND_OPTION_VALUE',
    /** `bind parameters` / `bind map` without its target types. */
    BIND_MISSING_TARGET: 'BIND_MISSING_TARGET',
    /** `bind abstract variables` not given names. */
    BIND_VARIABLES_VALUE: 'BIND_VARIABLES_VALUE',
    /** `bind dependency` without a relationship arrow. */
    BIND_DEPENDENCY: 'BIND_DEPENDENCY',
    /** bindings/providers.yaml that cannot be read or has the wrong shape. */
    BIND_PROVIDERS_CONFIG: 'BIND_PROVIDERS_CONFIG',
    /** The external node classifier could not be run or exited non-zero. */
    BIND_ENC_FAILED: 'BIND_ENC_FAILED',
    /** The ENC's output is not Puppet's ENC YAML (a hash with classes/parameters/environment). */
    BIND_ENC_OUTPUT: 'BIND_ENC_OUTPUT',
    /** An external bindings provider could not be run or exited non-zero. */
    BIND_EXTERNAL_FAILED: 'BIND_EXTERNAL_FAILED',
    /** An external provider printed something that is not a valid Bindings model (the JSON path says where). */
    BIND_EXTERNAL_MODEL: 'BIND_EXTERNAL_MODEL',
    /** A value the catalog needs as Puppet data is a runtime object made by an instance producer. */
    BIND_NOT_DATA: 'BIND_NOT_DATA',
    /** $environment names neither a declared nor a dynamic environment (ARM-8: "unknown environment"). */
    BIND_UNKNOWN_ENVIRONMENT: 'BIND_UNKNOWN_ENVIRONMENT',
    /** An environment declared twice in environments.pp. */
    BIND_ENVIRONMENT_DUPLICATE: 'BIND_ENVIRONMENT_DUPLICATE',
    /** envdir given for dynamic environments (ARM-8: "automatically set and cannot be changed"). */
    BIND_ENVIRONMENT_ENVDIR: 'BIND_ENVIRONMENT_ENVDIR',
    /** environments.pp code that cannot be evaluated before an environment exists. */
    BIND_ENVIRONMENTS_EVAL: 'BIND_ENVIRONMENTS_EVAL',
    /** inject() in environments.pp (ARM-8: values "may not use injection"). */
    BIND_ENVIRONMENTS_INJECT: 'BIND_ENVIRONMENTS_INJECT',
    /** An EffectiveBindings model given to a compile was made for another node. */
    BIND_EFFECTIVE_NODE: 'BIND_EFFECTIVE_NODE',
    /** An EffectiveBindings model given to a compile carries no value for a key the compile needs (made without --values). */
    BIND_EFFECTIVE_NO_VALUE: 'BIND_EFFECTIVE_NO_VALUE'
} as const;

export type BindingsIssueCode = typeof BindingsIssues[keyof typeof BindingsIssues];
