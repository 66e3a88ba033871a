/** Issue catalogue of the apply stage: stable codes for every diagnostic it reports. */
export const ApplyIssues = {
    /** A type definition given to registerType/newtype is invalid (the gem's DevError). */
    TYPE_DEFINITION: 'APPLY_TYPE_DEFINITION',
    /** A transport schema given to registerTransport is invalid. */
    TRANSPORT_DEFINITION: 'APPLY_TRANSPORT_DEFINITION',
    /** A catalog file cannot be read as a Puppet catalog or a Catalog model. */
    CATALOG_FORMAT: 'APPLY_CATALOG_FORMAT',
    /** The catalog names a resource type no registry knows. */
    UNKNOWN_TYPE: 'APPLY_UNKNOWN_TYPE',
    /** A relationship names a resource that is not in the catalog. */
    MISSING_TARGET: 'APPLY_MISSING_TARGET',
    /** The relationship graph has a cycle. */
    DEPENDENCY_CYCLE: 'APPLY_DEPENDENCY_CYCLE',
    /** A resource failed validation or evaluation. */
    RESOURCE_FAILED: 'APPLY_RESOURCE_FAILED',
    /** A pre-run check failed, so the run was aborted. */
    PRE_RUN_CHECK: 'APPLY_PRE_RUN_CHECK',
    /** The --root directory does not exist. */
    BAD_ROOT: 'APPLY_BAD_ROOT'
} as const;

export type ApplyIssueCode = typeof ApplyIssues[keyof typeof ApplyIssues];
