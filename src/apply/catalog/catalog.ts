import type { CatalogResource } from '../run/harness.js';

export type RelationshipKind = 'before' | 'notify';

/** A relationship edge: source is applied before target; `notify` also sends refresh events. */
export interface Relationship {
    readonly source: string;
    readonly target: string;
    readonly kind: RelationshipKind;
    /** Where the relationship was declared: the resource carrying the metaparameter. */
    readonly declaredBy: string;
    /** The relationship metaparameter that declared it, when one did (not an edge of a Catalog model). */
    readonly param?: 'require' | 'subscribe' | 'before' | 'notify';
}

/** A catalog as the apply stage needs it, from either input format. */
export interface ApplyCatalog {
    readonly name: string;
    readonly environment: string;
    readonly version?: string;
    readonly catalogUuid?: string;
    readonly codeId?: string;
    /** In catalog order: the order Puppet's manifest ordering follows. */
    readonly resources: readonly CatalogResource[];
    /** [container, contained] pairs. */
    readonly containment: readonly (readonly [string, string])[];
    readonly relationships: readonly Relationship[];
    readonly file: string;
}
