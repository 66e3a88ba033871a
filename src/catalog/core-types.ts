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
    /**
     * The namevar's value a title gives when the type's title pattern is not the identity
     * (Puppet's `parse_title`); a value differing from the title is kept as a parameter.
     */
    readonly namevarFromTitle?: (title: string) => string;
}

/** File's title pattern: trailing slashes are not part of the path (the root `/` and `C:/` stay). */
const fileTitle = (title: string): string => /^(\/|.+:\/|[\s\S]*[^/])\/*$/.exec(title)?.[1] ?? title;

const table: ReadonlyMap<string, CoreType> = new Map(CORE_RESOURCE_TYPES.map(t =>
    [t.name, { namevar: t.namevar, attributes: new Set([t.namevar, ...t.attributes.map(a => a.name)]), ...(t.name === 'file' ? { namevarFromTitle: fileTitle } : {}) }]));

export function coreType(name: string): CoreType | undefined {
    return table.get(name.toLowerCase());
}
