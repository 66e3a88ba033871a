/**
 * The schema of a resource type as the compiler needs it and the apply stage implements it: plain,
 * JSON-serializable data (no behaviour), so both stages can share it without importing each other.
 */
export interface ResourceTypeSchema {
    /** The type name, lower case (`file`). */
    readonly name: string;
    /** The attribute that identifies a resource when its title does not. */
    readonly namevar: string;
    /** Whether the apply stage applies the type (false: containers and server-side types). */
    readonly applied: boolean;
    /** Parameters and properties in definition order; metaparameters are not listed. */
    readonly attributes: readonly ResourceAttributeSchema[];
}

export interface ResourceAttributeSchema {
    readonly name: string;
    /** A property is read from and synced to the system; a param only steers how. */
    readonly kind: 'param' | 'property';
}

/** The metaparameters every resource accepts. */
export const METAPARAMS: ReadonlySet<string> = new Set([
    'noop', 'schedule', 'audit', 'loglevel', 'alias', 'tag', 'require', 'subscribe', 'before', 'notify', 'stage'
]);

/** The metaparameters that become relationship edges. */
export const RELATIONSHIP_PARAMS: ReadonlySet<string> = new Set(['require', 'subscribe', 'before', 'notify']);
