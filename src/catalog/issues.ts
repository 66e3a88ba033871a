import { defineIssues } from '../common/index.js';

/** A place as messages show it; the parts may be missing when the place is unknown (shown as Ruby's nil would not be). */
interface At {
    readonly file?: string;
    readonly line?: number;
}

/** "a X" or "an X", as Puppet's label provider articles a type name. */
export function article(s: string): string {
    return /^[AEIOU]/.test(s) ? `an ${s}` : `a ${s}`;
}

/** Puppet's argument count text: "expects 1 argument", "expects between 1 and 2 arguments". */
export function countText(min: number, max: number): string {
    if (min === max) return `expects ${min} argument${min === 1 ? '' : 's'}`;
    if (max === Infinity) return `expects at least ${min} argument${min === 1 ? '' : 's'}`;
    if (min === 0) return `expects at most ${max} argument${max === 1 ? '' : 's'}`;
    return `expects between ${min} and ${max} arguments`;
}

const none = (n: number): string | number => n === 0 ? 'none' : n;

/**
 * The catalog builder's issue catalogue: every message the stage reports, under a stable
 * `EVAL_` code, made from named arguments (the wording is Puppet's, byte for byte: conformance
 * compares it). `puppet` is the Puppet issue code an error of that code reports (the oracle's
 * issue_code; '' when Puppet has none) for the codes errors are reported under; `EVAL_RUNTIME`
 * is Puppet's generic RUNTIME_ERROR ("Error while evaluating a Function Call, ..."). The
 * other entries are messages of failures reported under the code that wraps them
 * (`reportedAs` for the evaluation issues among them).
 */
export const CatalogIssues = defineIssues('EVAL', {
    // ---- codes errors are reported under
    EVAL_RUNTIME: { puppet: 'RUNTIME_ERROR', message: (a: { label: string; detail: string }) => `Evaluation Error: Error while evaluating ${article(a.label)}, ${a.detail}` },
    EVAL_UNKNOWN_VARIABLE: { puppet: 'UNKNOWN_VARIABLE', message: (a: { name: string }) => `Unknown variable: '${a.name}'.` },
    EVAL_UNKNOWN_FUNCTION: { puppet: 'UNKNOWN_FUNCTION', message: (a: { name: string }) => `Unknown function: '${a.name}'.` },
    EVAL_ILLEGAL_REASSIGNMENT: {
        puppet: 'ILLEGAL_REASSIGNMENT',
        message: (a: { name: string; builtin: boolean }) => a.builtin ? `Cannot reassign built in (or already assigned) variable '$${a.name}'` : `Cannot reassign variable '$${a.name}'`
    },
    EVAL_ILLEGAL_RESERVED_ASSIGNMENT: { puppet: 'ILLEGAL_RESERVED_ASSIGNMENT', message: (a: { name: string }) => `Attempt to assign to a reserved variable name: '$${a.name}'` },
    EVAL_DIV_BY_ZERO: { puppet: 'DIV_BY_ZERO', message: () => 'Division by 0' },
    EVAL_NUMERIC_OVERFLOW: {
        puppet: 'NUMERIC_OVERFLOW',
        message: (a: { op: string; value: string }) => `A '${a.op}' expression resulted in a value outside of Puppet Integer ${a.value.startsWith('-') ? 'min' : 'max'} range, got '${a.value}'`
    },
    EVAL_COMPARISON_NOT_POSSIBLE: {
        puppet: 'COMPARISON_NOT_POSSIBLE',
        message: (a: { left: string; op: string; right: string; reason: string }) => `Comparison of: ${a.left} ${a.op} ${a.right}, is not possible. Caused by '${a.reason}'.`
    },
    EVAL_UNMATCHED_SELECTOR: { puppet: 'UNMATCHED_SELECTOR', message: (a: { value: string }) => `No matching entry for selector parameter with value '${a.value}'` },
    EVAL_DUPLICATE_ATTRIBUTE: { puppet: 'DUPLICATE_ATTRIBUE', message: (a: { name: string }) => `The attribute '${a.name}' has already been set` },
    /** `operand` with its article: "a Float", "an Undef Value". */
    EVAL_OPERATOR_NOT_APPLICABLE: { puppet: 'OPERATOR_NOT_APPLICABLE', message: (a: { op: string; operand: string }) => `Operator '${a.op}' is not applicable to ${a.operand}.` },
    EVAL_MULTI_ASSIGNMENT_SIZE: {
        puppet: 'ILLEGAL_MULTI_ASSIGNMENT_SIZE',
        message: (a: { expected: number; actual: number }) => `Mismatched number of assignable entries and values, expected ${a.expected}, got ${a.actual}`
    },
    EVAL_MISSING_MULTI_ASSIGNMENT_KEY: { puppet: 'MISSING_MULTI_ASSIGNMENT_KEY', message: (a: { key: string }) => `No value for required key '${a.key}' in assignment to variables from hash` },
    EVAL_MISSING_MULTI_ASSIGNMENT_VARIABLE: {
        puppet: 'MISSING_MULTI_ASSIGNMENT_VARIABLE',
        message: (a: { name: string }) => `No value for required variable '$${a.name}' in assignment to variables from class reference`
    },
    EVAL_BAD_STRING_SLICE_KEY_TYPE: {
        puppet: 'BAD_STRING_SLICE_KEY_TYPE',
        message: (a: { article: string; actual: string }) => `A substring operation does not accept ${a.article} ${a.actual} as a character index. Expected an Integer`
    },
    EVAL_BAD_SLICE_KEY_TYPE: { puppet: 'BAD_SLICE_KEY_TYPE', message: (a: { left: string; actual: string; expected: string }) => `${a.left}[] cannot use ${a.actual} where ${a.expected} is expected` },
    EVAL_BAD_STRING_SLICE_ARITY: { puppet: 'BAD_STRING_SLICE_ARITY', message: (a: { actual: number }) => `String supports [] with one or two arguments. Got ${a.actual}` },
    EVAL_BAD_ARRAY_SLICE_ARITY: { puppet: 'BAD_ARRAY_SLICE_ARITY', message: (a: { actual: number }) => `Array supports [] with one or two arguments. Got ${a.actual}` },
    /** A heredoc's interpolated text refused by its syntax checker (a ParseError, not wrapped as an evaluation error). */
    EVAL_ILLEGAL_JSON: { puppet: 'ILLEGAL_JSON', message: (a: { detail: string }) => a.detail },
    EVAL_ILLEGAL_BASE64: { puppet: 'ILLEGAL_BASE64', message: (a: { detail: string }) => a.detail },
    EVAL_ILLEGAL_PP: { puppet: 'ILLEGAL_PP', message: (a: { detail: string }) => a.detail },
    EVAL_ILLEGAL_EPP: { puppet: 'ILLEGAL_EPP', message: (a: { detail: string }) => a.detail },
    EVAL_NOT_NUMERIC: { puppet: 'NOT_NUMERIC', message: (a: { value: string }) => `The value '${a.value}' cannot be converted to Numeric.` },
    EVAL_MISSING_TITLE: { puppet: 'MISSING_TITLE', message: () => 'Missing title. The title expression resulted in undef' },
    EVAL_MISSING_TITLE_AT: { puppet: 'MISSING_TITLE_AT', message: (a: { index: number }) => `Missing title at index ${a.index}. The title expression resulted in an undef title` },
    EVAL_ILLEGAL_TITLE_TYPE_AT: { puppet: 'ILLEGAL_TITLE_TYPE_AT', message: (a: { index: number; actual: string }) => `Illegal title type at index ${a.index}. Expected String, got ${a.actual}` },
    EVAL_EMPTY_STRING_TITLE_AT: { puppet: 'EMPTY_STRING_TITLE_AT', message: (a: { index: number }) => `Empty string title at ${a.index}. Title strings must have a length greater than zero.` },
    EVAL_DUPLICATE_TITLE: { puppet: 'DUPLICATE_TITLE', message: (a: { title: string }) => `The title '${a.title}' has already been used in this resource expression` },
    EVAL_UNKNOWN_RESOURCE_TYPE: { puppet: 'UNKNOWN_RESOURCE_TYPE', message: (a: { type: string }) => `Resource type not found: ${a.type}` },
    EVAL_DISCONTINUED_IMPORT: {
        puppet: 'DISCONTINUED_IMPORT',
        message: () => "Use of 'import' has been discontinued in favor of a manifest directory. See http://links.puppet.com/puppet-import-deprecation"
    },
    EVAL_OPERATOR_NOT_APPLICABLE_WHEN: {
        puppet: 'OPERATOR_NOT_APPLICABLE_WHEN',
        message: (a: { op: string; left?: string; right?: string }) => `Operator '${a.op}' is not applicable to ${a.left ?? 'an Integer'} when right side is ${a.right ?? 'a Float'}.`
    },
    EVAL_TIME_ADD: { message: (a: { what: string; to: string }) => `${a.what} cannot be added to a ${a.to}` },
    EVAL_TIME_SUBTRACT: { message: (a: { what: string; from: string }) => `${a.what} cannot be subtracted from a ${a.from}` },
    EVAL_TIME_MULTIPLY: { message: (a: { what: string }) => `A Timestamp cannot be multiplied by ${a.what}` },
    /** Puppet's text repeats the article ("using a a Timespan"). */
    EVAL_TIME_MODULO: { message: (a: { what: string }) => `Can not do modulus on a Timespan using a ${a.what}` },
    EVAL_TIME_DIVIDE: { message: (a: { what: string }) => `A Timespan cannot be divided by ${a.what}` },
    EVAL_RESULT_IS_INFINITY: { puppet: 'RESULT_IS_INFINITY', message: (a: { op: string }) => `The result of the ${a.op} expression is Infinity` },
    EVAL_MATCH_NOT_STRING: { puppet: 'MATCH_NOT_STRING', message: (a: { operand: string }) => `Left match operand must result in a String value. Got ${a.operand}.` },
    EVAL_MATCH_NOT_REGEXP: {
        puppet: 'MATCH_NOT_REGEXP',
        message: (a: { cause: string }) => `Can not convert right match operand to a regular expression. Caused by '${a.cause}'.`
    },
    EVAL_MISSING_REQUIRED_PARAMETER: { puppet: 'MISSING_REQUIRED_PARAMETER', message: (a: { name: string }) => `Parameter $${a.name} is required but no value was given` },
    EVAL_ILLEGAL_OVERRIDDEN_TYPE: { puppet: 'ILLEGAL_OVERRIDDEN_TYPE', message: (a: { label: string }) => `Resource Override can only operate on resources, got: ${a.label}` },
    EVAL_UNKNOWN_RESOURCE: { puppet: 'UNKNOWN_RESOURCE', message: (a: { type: string; title: string }) => `Resource not found: ${a.type}['${a.title}']` },
    EVAL_UNKNOWN_RESOURCE_PARAMETER: {
        puppet: 'UNKNOWN_RESOURCE_PARAMETER',
        message: (a: { type: string; title: string; name: string }) => `The resource ${a.type}['${a.title}'] does not have a parameter called '${a.name}'`
    },
    EVAL_ILLEGAL_DEFINITION_LOCATION: {
        puppet: 'ILLEGAL_DEFINITION_LOCATION', message: (a: { name: string; file: string }) => `Unacceptable location. The name '${a.name}' is unacceptable in file '${a.file}'`
    },
    /** `location` is " (file: f, line: l, column: c)" or " (file: f)". */
    EVAL_SYNTAX: {
        puppet: 'SYNTAX_ERROR', message: (a: { environment: string; detail: string; location: string }) => `Could not parse for environment ${a.environment}: ${a.detail}${a.location}`
    },
    EVAL_PARSE: { puppet: '', message: (a: { detail: string }) => a.detail },
    /** A Puppet::Error (or ParseError) whose message is the failure's own. */
    EVAL_PUPPET_ERROR: { puppet: '', message: (a: { detail: string }) => a.detail },
    EVAL_LOOKUP: { puppet: '', message: (a: { detail: string }) => a.detail },
    EVAL_USAGE: { puppet: '', message: (a: { detail: string }) => a.detail },
    /**
     * What a failed compile had logged before it failed (Puppet's `Warning:`/`Notice:` lines),
     * printed as diagnostics so that stderr of a failure holds only located one-line diagnostics.
     */
    EVAL_LOGGED_WARNING: { puppet: '', message: (a: { detail: string }) => a.detail },
    EVAL_LOGGED_ERROR: { puppet: '', message: (a: { detail: string }) => a.detail },
    EVAL_LOGGED_NOTICE: { puppet: '', message: (a: { detail: string }) => a.detail },
    /** A file of the environment the compile had to read and could not (a directory, a dangling link, no permission). */
    EVAL_FILE_UNREADABLE: { puppet: '', message: (a: { file: string; reason: string }) => `Could not read ${a.file}: ${a.reason}` },
    /** A failure of the catalog builder itself (a bug), reported instead of a stack trace. */
    EVAL_INTERNAL: { puppet: '', message: (a: { detail: string }) => `Internal error: ${a.detail}` },
    /** Evaluation nested deeper than the stack allows (a very long `->` chain, deep recursion). */
    EVAL_TOO_DEEP: {
        puppet: '', message: (a: { label: string }) => `Evaluation Error: the evaluation nests too deeply (the call stack is exhausted) while evaluating a ${a.label}`
    },

    // ---- evaluation issues reported as EVAL_RUNTIME
    EVAL_SCOPE_RESERVED_ASSIGNMENT: { reportedAs: 'EVAL_RUNTIME', message: (a: { name: string }) => `Attempt to assign to a reserved variable name: '${a.name}'` },
    EVAL_ILLEGAL_ASSIGNMENT: { reportedAs: 'EVAL_RUNTIME', message: () => 'Illegal assignment' },
    EVAL_ILLEGAL_FUNCTION_CALL: { reportedAs: 'EVAL_RUNTIME', message: () => 'Illegal function call' },
    EVAL_NOT_A_TYPE: { reportedAs: 'EVAL_RUNTIME', message: (a: { value: string }) => `${a.value} is not a type` },

    // ---- the compilation (reported as EVAL_PUPPET_ERROR)
    EVAL_GENERATOR_LOOP: { message: (a: { passes: number }) => `Somehow looped more than ${a.passes} times while evaluating host catalog` },
    EVAL_TOO_MANY_RESOURCES: { message: (a: { limit: number; ref: string }) => `The catalog has more than ${a.limit} resources (a limit of modelc) while evaluating ${a.ref}` },
    EVAL_CLASS_NESTING: { message: (a: { limit: number; ref: string }) => `Classes include each other more than ${a.limit} levels deep (a limit of modelc) at ${a.ref}` },
    EVAL_ILLEGAL_CONTROL: {
        message: (a: { what: 'return' | 'break' | 'next'; at?: At }) => `${a.what}() from context where this is illegal${a.at ? ` (file: ${a.at.file}, line: ${a.at.line})` : ''}`
    },
    EVAL_NO_SUCH_DIRECTORY: { message: (a: { dir: string }) => `no such directory: ${a.dir}` },
    EVAL_ALREADY_DEFINED: {
        message: (a: { what: string; name: string; previous: At; file: string; line: number }) =>
            `${a.what} '${a.name}' is already defined (file: ${a.previous.file}, line: ${a.previous.line}); cannot redefine (file: ${a.file}, line: ${a.line})`
    },
    EVAL_DEFINE_REDEFINED_AS_CLASS: {
        message: (a: { name: string; previous: At; file: string; line: number }) =>
            `Definition '${a.name}' is already defined (file: ${a.previous.file}, line: ${a.previous.line}); cannot be redefined as a class (file: ${a.file}, line: ${a.line})`
    },
    EVAL_CLASS_REDEFINED_AS_DEFINE: {
        message: (a: { name: string; previous: At; file: string; line: number }) =>
            `'${a.name}' is already defined (file: ${a.previous.file}, line: ${a.previous.line}) as a class; cannot redefine as a definition (file: ${a.file}, line: ${a.line})`
    },
    EVAL_ENTITY_REDEFINED: {
        message: (a: { kind: string; name: string; file: string; line: number; pos?: number }) =>
            `Attempt to redefine entity 'http://puppet.com/2016.1/runtime/${a.kind}/${a.name}'. Originally set at file://${a.file}?line=${a.line}&pos=${a.pos}.`
    },

    // ---- resources, classes, defines, nodes
    EVAL_SPLAT_NOT_HASH: { message: () => `The value of '* =>' must be a Hash` },
    EVAL_UNKNOWN_TYPE: { message: (a: { type: string }) => `Unknown resource type: '${a.type}'` },
    EVAL_NO_TITLE_PATTERN: { message: (a: { title: string }) => `No set of title patterns matched the title "${a.title}".` },
    /** `previous` is where the first declaration was, when known. */
    EVAL_DUPLICATE_DECLARATION: {
        message: (a: { ref: string; previous: At | undefined; file: string; line: number }) =>
            `Duplicate declaration: ${a.ref} is already declared${a.previous ? ` at (file: ${a.previous.file}, line: ${a.previous.line})` : ''}; cannot redeclare (file: ${a.file}, line: ${a.line})`
    },
    EVAL_CANNOT_ALIAS: {
        message: (a: { ref: string; key: string; other: string; at: At | undefined; previous: At | undefined }) =>
            `Cannot alias ${a.ref} to ${a.key}${a.at ? ` at (file: ${a.at.file}, line: ${a.at.line})` : ''}; resource ${a.other} already declared${a.previous ? ` (file: ${a.previous.file}, line: ${a.previous.line})` : ''}`
    },
    EVAL_STAGE_ON_RESOURCE: { message: (a: { ref: string }) => `Only classes can set 'stage'; normal resources like ${a.ref} cannot change run stage` },
    EVAL_DEFAULT_ALREADY_DEFINED: {
        message: (a: { type: string; name: string; file: string; line: number }) => `Default already defined for ${a.type} { ${a.name} }; cannot redefine (file: ${a.file}, line: ${a.line})`
    },
    EVAL_DUPLICATE_OVERRIDE_PARAMETER: {
        message: (a: { name: string; ref: string; file: string; line: number }) => `Duplicate parameter '${a.name}' for on ${a.ref} (file: ${a.file}, line: ${a.line})`
    },
    EVAL_NO_PARAMETER_NAMED: { message: (a: { name: string }) => `has no parameter named '${a.name}'` },
    EVAL_EXPECTS_VALUE: { message: (a: { name: string }) => `expects a value for parameter '${a.name}'` },
    /** The problems of a class's or define's parameters: one on the line, several below. */
    EVAL_PARAMETER_PROBLEMS: {
        message: (a: { ref: string; problems: readonly string[] }) => a.problems.length === 1 ? `${a.ref}: ${a.problems[0]}` : `${a.ref}:\n  ${a.problems.join('\n  ')}`
    },
    EVAL_DECLARED_CLASS_NOT_FOUND: { message: (a: { name: string }) => `Could not find declared class ${a.name}` },
    EVAL_CLASS_NOT_FOUND: { message: (a: { name: string; node: string }) => `Could not find class ::${a.name} for ${a.node}` },
    EVAL_VALIDATION_GIVING_UP: { message: (a: { errors: number }) => `Language validation logged ${a.errors} errors. Giving up` },
    EVAL_VALIDATION_GIVING_UP_WARNINGS: {
        message: (a: { errors: number; warnings: number }) => `Language validation logged ${a.errors} errors, and ${a.warnings} warnings. Giving up`
    },
    EVAL_INVALID_TAG: { message: (a: { name: string }) => `Invalid tag '${a.name}'` },
    EVAL_PARENT_NOT_FOUND: { message: (a: { name: string; environment: string }) => `Could not find parent resource type '::${a.name}' of type hostclass in ${a.environment}` },
    EVAL_STAGE_NOT_FOUND: { message: (a: { stage: string; ref: string }) => `Could not find stage ${a.stage} specified by ${a.ref}` },
    EVAL_NODE_NOT_FOUND: { message: (a: { names: readonly string[] }) => `Could not find node statement with name 'default' or '${a.names.join(', ')}'` },

    // ---- collectors, overrides, relationships, finish
    EVAL_COLLECT_UNKNOWN_TYPE: { message: (a: { type: string }) => `Resource type ${a.type} doesn't exist` },
    EVAL_OVERRIDE_NOT_SUBCLASS: { message: () => 'Only subclasses can override parameters' },
    EVAL_OVERRIDE_EVALUATED: {
        message: (a: { at: string }) => (a.at === '' ? 'Attempt to override an already evaluated resource with new values'
            : `Attempt to override an already evaluated resource, defined at ${a.at}, with new values`)
    },
    EVAL_PARAMETER_ALREADY_SET: {
        message: (a: { name: string; ref: string; source: string; previous: At | undefined }) =>
            `Parameter '${a.name}' is already set on ${a.ref} by ${a.source}${a.previous ? ` at (file: ${a.previous.file}, line: ${a.previous.line})` : ''}; cannot redefine`
    },
    EVAL_OVERRIDE_NOT_FOUND: { message: (a: { ref: string }) => `Could not find resource(s) ${a.ref} for overriding` },
    EVAL_RELATIONSHIP_NOT_FOUND: { message: (a: { ref: string; side: string }) => `Could not find resource '${a.ref}' for relationship ${a.side}` },
    // Puppet's converter asks a reference without a type name for its name's segments: Ruby's NoMethodError, as Ruby prints it.
    EVAL_STORED_UNTYPED_REFERENCE: { message: () => "undefined method `include?' for nil:NilClass\n\n    if type_name.include?(':')\n                ^^^^^^^^^" },
    EVAL_NOT_A_REFERENCE_TEXT: { message: (a: { text: string }) => `No title provided and ${a.text} is not a valid resource reference` },
    EVAL_RELATIONSHIP_TARGET_NOT_FOUND: { message: (a: { ref: string; name: string }) => `Could not find resource '${a.ref}' in parameter '${a.name}'` },
    EVAL_CALL_UNKNOWN_FUNCTION: { message: (a: { name: string }) => `Unknown function '${a.name}'` },
    EVAL_UNDEF_CLASS_NAME: { message: () => 'Cannot use undef as a class name' },
    EVAL_EMPTY_CLASS_NAME: { message: () => 'Cannot use empty string as a class name' },
    EVAL_UNSPECIFIC_CLASS: { message: () => 'Cannot use an unspecific Class[] Type' },
    EVAL_UNSPECIFIC_RESOURCE_CLASS: { message: () => "Cannot use an unspecific Resource[] where a Resource['class', name] is expected" },
    EVAL_RESOURCE_NOT_CLASS: { message: (a: { type: string }) => `Cannot use a Resource[${a.type}] where a Resource['class', name] is expected` },
    EVAL_UNSPECIFIC_RESOURCE_CLASS_TITLE: { message: () => "Cannot use an unspecific Resource['class'] where a Resource['class', name] is expected" },
    /** Ruby's NoMethodError when an include-like function is given neither a name nor a class reference. */
    EVAL_REALIZE_NOT_A_REFERENCE: {
        message: (a: { ref: string }) => `Puppet::Parser::Compiler failed with error ArgumentError: No title provided and ${a.ref} is not a valid resource reference`
    },
    EVAL_FAILED_TO_REALIZE: { message: (a: { refs: readonly string[] }) => `Failed to realize virtual resources ${a.refs.join(', ')}` },
    /** `location` is the resource's " (file: f, line: l)" (Puppet shows it twice). */
    EVAL_NO_SUCH_PARAMETER: { message: (a: { name: string; ref: string; location: string }) => `no parameter named '${a.name}'${a.location} on ${a.ref}${a.location}` },

    // ---- operators and functions
    EVAL_HASH_APPEND: { message: () => 'Can only append Array or Hash to a Hash' },
    EVAL_FUNCTION_ARITY: { message: (a: { name: string; min: number; max: number; count: number }) => `'${a.name}' ${countText(a.min, a.max)}, got ${none(a.count)}` },
    EVAL_ARGUMENTS_REJECTED: { message: (a: { name: string }) => `'${a.name}' rejects its arguments` },
    EVAL_NOT_ITERABLE: { message: (a: { fname: string; value: string }) => `'${a.fname}' expects an Iterable value, got ${a.value}` },
    EVAL_BLOCK_REQUIRED: { message: (a: { fname: string }) => `'${a.fname}' expects a block` },
    EVAL_BLOCK_ARITY: {
        message: (a: { fname: string; min: number; max: number; count: number }) =>
            `'${a.fname}' block expects ${a.min === a.max ? `${a.min} argument${a.min === 1 ? '' : 's'}` : `between ${a.min} and ${a.max} arguments`}, got ${none(a.count)}`
    },
    EVAL_PARAMETER_TYPE: { message: (a: { fname: string; name: string; expected: string; actual: string }) => `'${a.fname}' parameter '${a.name}' expects ${a.expected} value, got ${a.actual}` },
    EVAL_PARAMETER_NOT: { message: (a: { fname: string; name: string; expected: string }) => `'${a.fname}' parameter '${a.name}' expects ${a.expected} value` },
    EVAL_SORT_COMPARISON: { message: (a: { left: string; right: string }) => `comparison of ${a.left} with ${a.right} failed` },
    EVAL_EXPECTED_NUMERIC: { message: (a: { value: string }) => `expected a Numeric value, got ${a.value}` },
    EVAL_INVALID_BASE64: { message: () => 'invalid base64' },
    EVAL_STRFTIME_LEGACY: {
        message: (a: { file: string; line: number }) => `The argument signature (String format, [String timezone]) is deprecated for #strftime. See #strftime documentation and Timespan type for more info\n   (file: ${a.file}, line: ${a.line})`
    },
    EVAL_NUMERIC_FUNCTION_COERCE: {
        message: (a: { fname: string; to: string }) => `The ${a.fname}() function's auto conversion of String to ${a.to} is deprecated - change to convert input before calling\n   (file & line not available)`
    },
    EVAL_CANNOT_CONVERT_TO_FLOAT: { message: (a: { fname: string }) => `${a.fname}(): cannot convert given value to a floating point value.` },
    EVAL_MINMAX_COERCE: {
        message: (a: { fname: string; what: string }) => `The ${a.fname}() function's auto conversion of ${a.what} is deprecated - change to convert input before calling, or use lambda\n   (file & line not available)`
    },
    EVAL_TOO_FEW_VALUES: { message: (a: { fname: string }) => `${a.fname}(): Wrong number of arguments need at least one` },
    EVAL_COMPARE_NOT_COMPARABLE: {
        message: (a: { left: string; right: string }) =>
            `'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got ${a.left} and ${a.right}`
    },
    EVAL_COMPARE_IGNORE_CASE: { message: () => "'compare' compare(): The third argument (ignore case) can only be used when comparing strings" },
    EVAL_COMPARE_ARITY: { message: (a: { count: number }) => `'compare' compare(): Accepts at most 3 arguments, got ${a.count}` },
    /** Puppet's own failure: its compare() names a Ruby constant that does not exist. */
    EVAL_COMPARE_BOOLEAN_CONSTANT: { message: () => 'uninitialized constant Puppet::Pops::Loader::RubyFunctionInstantiator::Boolean' },
    EVAL_COMPARE_TYPES: {
        message: (a: { left: string; right: string }) =>
            `'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got ${a.left} and ${a.right}`
    },
    EVAL_COMPARE_REJECTED: { message: () => "'compare' " },
    EVAL_DIG_NOT_COLLECTION: { message: (a: { at: string; type: string }) => `The given data does not contain a Collection at ${a.at}, got '${a.type}'` },
    EVAL_DIG_NOT_INTEGER: { message: (a: { at: string; type: string }) => `The given data requires an Integer index at ${a.at}, got '${a.type}'` },
    EVAL_GETVAR_AFTER_NAME: { message: (a: { char: string }) => `First character after var name in get string must be a '.' - got ${a.char}` },
    EVAL_GET_SYNTAX: { message: () => 'Syntax error in dotted-navigation string' },
    EVAL_ABS_NOT_NUMERIC: { message: () => 'abs(): Requires float or integer to work with - was given non decimal string' },
    EVAL_GETVAR_NAME: { message: () => "'getvar' The given string does not start with a valid variable name" },
    EVAL_FILE_NOT_FOUND: { message: (a: { names: readonly string[] }) => `Could not find any files from ${a.names.join(', ')}` },
    EVAL_EXPECTED_TYPE: { message: (a: { value: string }) => `expected a Type, got ${a.value}` },
    EVAL_ILLEGAL_RADIX: { message: (a: { radix: string }) => `Illegal radix: ${a.radix}, expected 2, 8, 10, 16, or default` },
    /** `value` as Ruby's String#inspect writes it (quoted, escaped). */
    EVAL_INVALID_INTEGER: { message: (a: { value: string }) => `invalid value for Integer(): ${a.value}` },
    EVAL_CONVERT_VALUE: { message: (a: { fname: string; type: string; target: string }) => `'${a.fname}' Value of type ${a.type} cannot be converted to ${a.target}` },
    /** `target` with its article where Puppet has one ("a SemVer"). */
    EVAL_CONVERT_STRING: { message: (a: { fname: string; value: string; target: string }) => `'${a.fname}' The string '${a.value}' cannot be converted to ${a.target}` },
    EVAL_CONVERT_TO_HASH: { message: (a: { type: string }) => `Value of type ${a.type} cannot be converted to Hash` },
    EVAL_ODD_HASH_ARGUMENTS: { message: () => 'odd number of arguments for Hash' },
    EVAL_NEW_NOT_SUPPORTED: { message: (a: { type: string }) => `Creation of new instance of type '${a.type}' is not supported` },
    EVAL_NO_IMPLICIT_CONVERSION: { message: (a: { kind: string }) => `no implicit conversion of ${a.kind} into String` },
    EVAL_INJECT_ARITY: {
        message: (a: { fname: string; count: number }) => `${a.fname}() expects (Type[, name][, hash]) or (name[, hash]), got ${a.count} argument${a.count === 1 ? '' : 's'}`
    },
    EVAL_INJECT_NO_INJECTOR: {
        message: (a: { fname: string }) => `${a.fname}() needs the ARM-8 injector: this environment has no bindings (bindings/ or a module's bindings/)`
    },
    EVAL_LOOKUP_NOT_FOUND: { message: (a: { name: string }) => `Function lookup() did not find a value for the name '${a.name}'` },

    EVAL_DEFINED_ALL_CLASSES: { message: () => 'The given class type is a reference to all classes' },
    EVAL_DEFINED_ALL_TYPES: { message: () => 'The given resource type is a reference to all kind of types' },
    EVAL_CREATE_RESOURCES_ARGUMENTS: { message: (a: { count: number }) => `create_resources(): wrong number of arguments (${a.count}; must be 2 or 3)` },
    EVAL_CREATE_RESOURCES_NOT_HASH: { message: (a: { which: 'second' | 'third' }) => a.which === 'second' ? 'create_resources(): second argument must be a hash' : 'create_resources(): third argument, if provided, must be a hash' },
    /** Ruby's TypeError when create_resources merges a non-hash entry. */
    EVAL_NO_IMPLICIT_HASH: { message: (a: { kind: string }) => `no implicit conversion of ${a.kind} into Hash` },
    EVAL_HIERA_INCLUDE_MISSING: { message: (a: { key: string }) => `Could not find data item ${a.key}` },
    EVAL_HIERA_DEPRECATED: {
        message: (a: { fname: string }) => `The function '${a.fname}' is deprecated in favor of using 'lookup'. See https://puppet.com/docs/puppet/7.23/deprecated_language.html\n   (file & line not available)`
    },
    /** Ruby's Random#rand of a max that is not positive. */
    EVAL_RAND_INVALID: { message: (a: { max: string }) => `invalid argument - ${a.max}` },
    EVAL_FQDN_NIL_DOWNCASE: { message: () => "undefined method `downcase' for nil:NilClass" },
    EVAL_BINARY_FILE_MISSING: { message: (a: { path: string }) => `binary_file(): The given file '${a.path}' does not exist` },
    EVAL_GENERATOR_NOT_QUALIFIED: { message: () => 'Generators must be fully qualified' },
    EVAL_GENERATOR_CHARACTERS: { message: () => 'Generators can only contain alphanumerics, file separators, and dashes' },
    EVAL_GENERATOR_DOTS: { message: () => "Can not use generators with '..' in them." },
    /** modelc's own refusal: a compile does not run host commands unless the host allows it. */
    EVAL_GENERATOR_REFUSED: {
        message: (a: { command: string; setting: string }) => `generate(): running '${a.command}' at compile time is refused; the setting ${a.setting}=true allows it`
    },
    EVAL_GENERATOR_FAILED: { message: (a: { command: string; line: string; status: number; output: string }) => `Failed to execute generator ${a.command}: Execution of '${a.line}' returned ${a.status}: ${a.output}` },
    /** Debian's Ruby 3.1 lacks the scanf library. */
    /**
     * Ruby's NoMethodError inside one of Puppet's Ruby functions: the receiver as Ruby names it,
     * the source line error_highlight shows (carets under `.method`), did_you_mean's suggestions.
     */
    EVAL_RUBY_NO_METHOD: {
        message: (a: { method: string; receiver: string; line?: string; suggestions?: readonly string[] }) => {
            let text = `undefined method \`${a.method}' for ${a.receiver}`;
            if (a.line !== undefined) {
                const at = a.line.indexOf(`.${a.method}`);
                text += `\n\n${a.line}\n${' '.repeat(at)}${'^'.repeat(a.method.length + 1)}`;
            }
            if (a.suggestions?.length) text += `\nDid you mean?  ${a.suggestions.join(`\n${' '.repeat(15)}`)}`;
            return text;
        }
    },
    EVAL_MATCH_REGEXP_TYPE_EMPTY: { message: () => 'Given Regexp Type has no regular expression' },
    EVAL_MATCH_PATTERN_KIND: { message: (a: { kind: string }) => `match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got ${a.kind}` },
    EVAL_ITERATOR_NOT_SUPPORTED: { message: () => 'Use of an Iterator is not supported here' },
    EVAL_SLICE_NO_PARAMETERS: { message: () => 'slice(): block must define at least one parameter. Block has 0.' },
    EVAL_SCANF_MISSING: { message: () => 'cannot load such file -- scanf' },
    EVAL_NEW_ARRAY_FROM: { message: (a: { type: string }) => `'new_array' Value of type ${a.type} cannot be converted to Array` },
    EVAL_CONVERTED_WRONG_TYPE: { message: (a: { type: string }) => `Converted value from ${a.type}.new() has wrong type,` },

    // ---- warnings
    EVAL_EXPORT_IGNORED: { message: () => 'You cannot collect exported resources without storeconfigs being set; the export is ignored' },
    EVAL_EXPORTED_COLLECTION_IGNORED: { message: () => 'You cannot collect exported resources without storeconfigs being set; the collection will be ignored' },
    EVAL_STRING_COERCED: { puppet: 'NUMERIC_COERCION', message: (a: { text: string; value: string }) => `The string '${a.text}' was automatically coerced to the numerical value ${a.value}` },
    EVAL_EMPTY_NUMERIC_DEPRECATED: { message: (a: { file: string; line: number }) => `Calling function empty() with Numeric value is deprecated.\n   (file: ${a.file}, line: ${a.line})` },
    /** `why` is "; class X could not be found" or ";". */
    /** Puppet::Util.absolute_path? of a value that is no string (Puppet's closing quote as it is). */
    EVAL_ABSOLUTE_PATH_NOT_STRING: { message: (a: { text: string; kind: string }) => `Cannot check if ${a.text} is an absolute path because it is a '${a.kind}' and not a String'` },
    EVAL_TEMPLATE_UNDEFINED_VARIABLE: { message: (a: { name: string; reason: string }) => `Undefined variable '${a.name}'; ${a.reason}\n   (file & line not available)` },

    // ---- templates
    EVAL_INVALID_EPP: {
        message: (a: { fname: string; detail: string; file: string; at?: { line: number; column: number } }) =>
            `${a.fname}(): Invalid EPP: ${a.detail} (file: ${a.file}${a.at ? `, line: ${a.at.line}, column: ${a.at.column}` : ''})`
    },
    EVAL_TEMPLATE_PARAMETER_MISSING: { message: (a: { name: string }) => `lambda: expects a value for parameter '${a.name}'` },
    EVAL_TEMPLATE_NOT_FOUND: { message: (a: { name: string }) => `Could not find template '${a.name}'` },
    EVAL_TEMPLATE_UNKNOWN_FUNCTION: { message: (a: { name: string }) => `Unknown function '${a.name}'` },
    EVAL_LEGACY_ARITY: { message: (a: { fname: string; count: number; min: number }) => `${a.fname}(): Wrong number of arguments given (${a.count} for minimum ${a.min})` },
    EVAL_LEGACY_EXACT_ARITY: { message: (a: { fname: string; count: number; arity: number }) => `${a.fname}(): Wrong number of arguments given (${a.count} for ${a.arity})` },
    EVAL_ERB_SYNTAX: { message: (a: { file: string; line: number; detail: string }) => `${a.file}:${a.line}: ${a.detail}\n` },
    EVAL_INLINE_TEMPLATE_FAILED: { message: (a: { detail: string }) => `Failed to parse inline template: ${a.detail}` },
    EVAL_INLINE_TEMPLATE_NOT_STRING: {
        message: (a: { value: string }) => `Failed to parse inline template: undefined method \`encoding' for ${a.value}\n\n      enc = s.encoding\n             ^^^^^^^^^`
    },
    EVAL_TEMPLATE_FAILED: {
        message: (a: { name: string; file: string; line: number; detail: string }) => `Failed to parse template ${a.name}:\n  Filepath: ${a.file}\n  Line: ${a.line}\n  Detail: ${a.detail}\n`
    }
});

export type CatalogIssueCode = keyof typeof CatalogIssues;

/** The Puppet issue code errors of `code` report (RUNTIME_ERROR when Puppet has none). */
export function puppetIssueOf(code: CatalogIssueCode): string {
    const issue = CatalogIssues[code];
    return ('puppet' in issue && issue.puppet) || 'RUNTIME_ERROR';
}
