import { coreTypes } from '../apply/index.js';

/**
 * The core resource types Puppet 7 still ships (others, like `host`, moved to modules): their
 * namevar and their parameters and properties, from Puppet's type definitions. A resource of
 * any other type must be a defined type; unknown parameters fail when the catalog is finished.
 */
export interface CoreType {
    readonly namevar: string;
    readonly attributes: ReadonlySet<string>;
}

export const METAPARAMS: ReadonlySet<string> = new Set([
    'noop', 'schedule', 'audit', 'loglevel', 'alias', 'tag', 'require', 'subscribe', 'before', 'notify', 'stage'
]);

export const RELATIONSHIP_PARAMS: ReadonlySet<string> = new Set(['require', 'subscribe', 'before', 'notify']);

function type(namevar: string, attrs: string): CoreType {
    return { namevar, attributes: new Set([namevar, ...attrs.split(/\s+/).filter(a => a !== '')]) };
}

/**
 * Types the apply stage defines (notify, file, exec, user, group, package, service) are taken
 * from its definitions, so the compiler accepts exactly the attributes the agent side applies.
 * The rest have no provider there (they are containers or server-side only) and are listed here.
 */
const NOT_APPLIED: ReadonlyArray<[string, CoreType]> = [
    ['stage', type('name', '')],
    ['schedule', type('name', 'range periodmatch period repeat weekday')],
    ['resources', type('name', 'purge unless_system_user unless_uid')],
    ['tidy', type('path', 'recurse max_files matches backup age size type rmdirs')],
    ['filebucket', type('name', 'server port path')],
    ['whit', type('name', '')],
    ['component', type('name', '')]
];

let core: ReadonlyMap<string, CoreType> | undefined;

function coreTable(): ReadonlyMap<string, CoreType> {
    core ??= new Map([
        ...coreTypes().map((t): [string, CoreType] => {
            const namevar = t.keyAttributes()[0] ?? 'name';
            const attributes = t.attributes.filter(a => a.kind !== 'metaparam').map(a => a.name);
            return [t.name, { namevar, attributes: new Set([namevar, ...attributes]) }];
        }),
        ...NOT_APPLIED
    ]);
    return core;
}

export function coreType(name: string): CoreType | undefined {
    return coreTable().get(name.toLowerCase());
}
