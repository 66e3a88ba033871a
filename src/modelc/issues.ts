/**
 * Issue catalogue of the generator stage (`modelc generate` and the metamodel language).
 * Codes are stable: tests and users match on them.
 */
export const MetaIssues = {
    SYNTAX: 'META_SYNTAX',
    NO_NAMESPACE: 'META_NO_NAMESPACE',
    DUPLICATE_CLASSIFIER: 'META_DUPLICATE_CLASSIFIER',
    DUPLICATE_FEATURE: 'META_DUPLICATE_FEATURE',
    DUPLICATE_LITERAL: 'META_DUPLICATE_LITERAL',
    UNKNOWN_TYPE: 'META_UNKNOWN_TYPE',
    WRONG_TYPE_KIND: 'META_WRONG_TYPE_KIND',
    INHERITANCE_CYCLE: 'META_INHERITANCE_CYCLE',
    BAD_MULTIPLICITY: 'META_BAD_MULTIPLICITY',
    BAD_ID: 'META_BAD_ID',
    BAD_OPPOSITE: 'META_BAD_OPPOSITE',
    BAD_DEFAULT: 'META_BAD_DEFAULT',
    DUPLICATE_PACKAGE: 'META_DUPLICATE_PACKAGE',
    NO_INPUT: 'META_NO_INPUT',
    STALE: 'META_STALE'
} as const;

export type MetaIssueCode = typeof MetaIssues[keyof typeof MetaIssues];
