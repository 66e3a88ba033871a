/**
 * The in-memory form of every model: plain objects with a short `$type`, containment nested,
 * cross references as `{ $ref }` fragments (an id, or an EMF path such as `//@layers.0`).
 * Plain data keeps models cheap to build, clone, diff and hand to workers.
 */
export interface ModelObject {
    readonly $type: string;
    readonly [feature: string]: unknown;
}

export interface ModelRef {
    readonly $ref: string;
}

/** A Puppet value in rich-data JSON form (`__ptype`/`__pvalue` for non-JSON values). */
export type RichData = null | boolean | number | string | RichData[] | { [key: string]: RichData };

export function isModelObject(v: unknown): v is ModelObject {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { $type?: unknown }).$type === 'string';
}

export function isModelRef(v: unknown): v is ModelRef {
    return typeof v === 'object' && v !== null && typeof (v as { $ref?: unknown }).$ref === 'string';
}

/** Generated interfaces are closed (no index signature); every one of them is a ModelObject. */
export function asModelObject<T extends { readonly $type: string }>(obj: T): ModelObject {
    return obj as ModelObject;
}
