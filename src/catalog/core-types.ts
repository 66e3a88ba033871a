import { CORE_RESOURCE_TYPES, METAPARAMS, RELATIONSHIP_PARAMS } from '../resource-types/index.js';

export { METAPARAMS, RELATIONSHIP_PARAMS };

/**
 * A core resource type as the compiler checks it: its namevar and the names it accepts. A resource
 * of any other type must be a defined type; unknown parameters fail when the catalog is finished.
 * The table itself is the shared schema in src/resource-types (the apply stage implements it).
 */
export interface CoreType {
    readonly namevar: string;
    readonly attributes: ReadonlySet<string>;
}

const table: ReadonlyMap<string, CoreType> = new Map(CORE_RESOURCE_TYPES.map(t =>
    [t.name, { namevar: t.namevar, attributes: new Set([t.namevar, ...t.attributes.map(a => a.name)]) }]));

export function coreType(name: string): CoreType | undefined {
    return table.get(name.toLowerCase());
}
