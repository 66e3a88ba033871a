/**
 * The catalog builder's issue catalogue. Each code maps to the Puppet issue code the oracle
 * reports (`puppet`), so an error object can be compared with real Puppet's; `EVAL_RUNTIME`
 * is Puppet's generic RUNTIME_ERROR ("Error while evaluating a Function Call, ...").
 */
export const CatalogIssues = {
    EVAL_RUNTIME: { puppet: 'RUNTIME_ERROR' },
    EVAL_UNKNOWN_VARIABLE: { puppet: 'UNKNOWN_VARIABLE' },
    EVAL_UNKNOWN_FUNCTION: { puppet: 'UNKNOWN_FUNCTION' },
    EVAL_ILLEGAL_REASSIGNMENT: { puppet: 'ILLEGAL_REASSIGNMENT' },
    EVAL_ILLEGAL_RESERVED_ASSIGNMENT: { puppet: 'ILLEGAL_RESERVED_ASSIGNMENT' },
    EVAL_DIV_BY_ZERO: { puppet: 'DIV_BY_ZERO' },
    EVAL_NUMERIC_OVERFLOW: { puppet: 'NUMERIC_OVERFLOW' },
    EVAL_COMPARISON_NOT_POSSIBLE: { puppet: 'COMPARISON_NOT_POSSIBLE' },
    EVAL_UNMATCHED_SELECTOR: { puppet: 'UNMATCHED_SELECTOR' },
    EVAL_DUPLICATE_ATTRIBUTE: { puppet: 'DUPLICATE_ATTRIBUE' },
    EVAL_OPERATOR_NOT_APPLICABLE: { puppet: 'OPERATOR_NOT_APPLICABLE' },
    EVAL_NOT_NUMERIC: { puppet: 'NOT_NUMERIC' },
    EVAL_UNKNOWN_RESOURCE_TYPE: { puppet: 'UNKNOWN_RESOURCE_TYPE' },
    EVAL_DISCONTINUED_IMPORT: { puppet: 'DISCONTINUED_IMPORT' },
    EVAL_OPERATOR_NOT_APPLICABLE_WHEN: { puppet: 'OPERATOR_NOT_APPLICABLE_WHEN' },
    EVAL_RESULT_IS_INFINITY: { puppet: 'RESULT_IS_INFINITY' },
    EVAL_MATCH_NOT_STRING: { puppet: 'MATCH_NOT_STRING' },
    EVAL_MATCH_NOT_REGEXP: { puppet: 'MATCH_NOT_REGEXP' },
    EVAL_MISSING_REQUIRED_PARAMETER: { puppet: 'MISSING_REQUIRED_PARAMETER' },
    EVAL_ILLEGAL_OVERRIDDEN_TYPE: { puppet: 'ILLEGAL_OVERRIDDEN_TYPE' },
    EVAL_UNKNOWN_RESOURCE: { puppet: 'UNKNOWN_RESOURCE' },
    EVAL_UNKNOWN_RESOURCE_PARAMETER: { puppet: 'UNKNOWN_RESOURCE_PARAMETER' },
    EVAL_ILLEGAL_DEFINITION_LOCATION: { puppet: 'ILLEGAL_DEFINITION_LOCATION' },
    EVAL_SYNTAX: { puppet: 'SYNTAX_ERROR' },
    EVAL_PARSE: { puppet: '' },
    EVAL_PUPPET_ERROR: { puppet: '' },
    EVAL_LOOKUP: { puppet: '' },
    EVAL_USAGE: { puppet: '' },
    /** A failure of the catalog builder itself (a bug), reported instead of a stack trace. */
    EVAL_INTERNAL: { puppet: '' }
} as const;

export type CatalogIssueCode = keyof typeof CatalogIssues;
