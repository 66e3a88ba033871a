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
     * The attributes a title sets when the type's title patterns are not the identity (Puppet's
     * `parse_title`: the first pattern that matches, its captures in order); they join the
     * serialized parameters unless given, the namevar only when it differs from the title.
     */
    /** The attributes the title gives; undefined when none of the type's title patterns matches it. */
    readonly fromTitle?: (title: string) => ReadonlyArray<readonly [string, string]> | undefined;
    /**
     * The attribute a `name` parameter stands for (Puppet::Resource#parameter_name): the type's
     * only key attribute when that is not `name` (File's path, Exec's command). A type with
     * several key attributes keeps `name` as it is.
     */
    readonly nameAlias?: string;
    /**
     * A type's key attributes when it has several (Package's name, provider and command; a module
     * type's namevars): its uniqueness key is their values, taken from the title's patterns and the
     * parameters, in the order of their names.
     */
    readonly keyAttributes?: readonly string[];
}

/** Puppet's parse_title over a type's own patterns. */
export function titleParser(patterns: ReadonlyArray<readonly [RegExp, ReadonlyArray<readonly [string]>]>): (title: string) => ReadonlyArray<readonly [string, string]> | undefined {
    return title => {
        for (const [re, attrs] of patterns) {
            const m = new RegExp(re.source, re.flags.replace('g', '')).exec(title);
            if (m) return attrs.flatMap(([name], i) => (m[i + 1] === undefined ? [] : [[name, m[i + 1]] as const]));
        }
        return undefined;
    };
}

/** File's title pattern: trailing slashes are not part of the path (the root `/` and `C:/` stay). */
const fileTitle = (title: string): string => (title.endsWith('/') ? /^(\/|.+:\/|[\s\S]*[^/])\/*$/.exec(title)?.[1] ?? title : title);

const table: ReadonlyMap<string, CoreType> = new Map(CORE_RESOURCE_TYPES.map(t =>
    [t.name, {
        namevar: t.namevar, attributes: new Set([t.namevar, ...t.attributes.map(a => a.name)]), ...(t.namevar !== 'name' ? { nameAlias: t.namevar } : {}),
        ...(t.name === 'file' ? { fromTitle: (title: string) => [['path', fileTitle(title)] as const] } : {}),
        ...(t.name === 'package' ? { keyAttributes: ['name', 'provider', 'command'] } : {})
    }]));

export function coreType(name: string): CoreType | undefined {
    return table.get(name.toLowerCase());
}
