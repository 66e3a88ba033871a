/**
 * Issue catalogue of the apply stage: stable codes for every diagnostic it reports. Registration
 * problems are not diagnostics but the gem's exceptions (DevError, ResourceError), raised in code.
 */
export const ApplyIssues = {
    /** A catalog file cannot be read as a Puppet catalog or a Catalog model. */
    CATALOG_FORMAT: 'APPLY_CATALOG_FORMAT',
    /** A relationship names a resource that is not in the catalog. */
    MISSING_TARGET: 'APPLY_MISSING_TARGET',
    /** The relationship graph has a cycle. */
    DEPENDENCY_CYCLE: 'APPLY_DEPENDENCY_CYCLE',
    /** A resource failed validation or evaluation. */
    RESOURCE_FAILED: 'APPLY_RESOURCE_FAILED',
    /** A pre-run check failed, so the run was aborted. */
    PRE_RUN_CHECK: 'APPLY_PRE_RUN_CHECK',
    /** The --root directory does not exist. */
    BAD_ROOT: 'APPLY_BAD_ROOT',
    /** A signal (SIGTERM, SIGINT) stopped the run before every resource was reached. */
    INTERRUPTED: 'APPLY_INTERRUPTED',
    /** An output (the --report file) cannot be written where it was asked for. */
    BAD_OUTPUT: 'APPLY_BAD_OUTPUT',
    /** `modelc resource` could not run (Puppet's `Could not run:` errors: unknown type, bad attribute setting, provider failure). */
    RESOURCE: 'APPLY_RESOURCE',
    /** A device.conf or a device's connection-info file cannot be read. */
    DEVICE_CONFIG: 'APPLY_DEVICE_CONFIG',
    /** A device target could not be connected (`Can't load <type> for <target>: ...`). */
    DEVICE_CONNECT: 'APPLY_DEVICE_CONNECT'
} as const;

export type ApplyIssueCode = typeof ApplyIssues[keyof typeof ApplyIssues];
