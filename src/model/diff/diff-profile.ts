import type { ModelObject } from '../model-object.js';

/** Where a value was written, for showing both sides of a change. */
export interface Provenance {
    readonly file: string;
    readonly line?: number;
    readonly column?: number;
}

/** The binding that produced a value, when the model knows it. */
export interface BindingOrigin {
    readonly key: string;
    readonly layer?: string;
    readonly category?: string;
    readonly namedBindings?: string;
    readonly location?: Provenance;
}

/**
 * How to compare the models of one package: natural keys for objects without an id, lists
 * whose order carries no meaning, what is secret, and where provenance lives.
 */
export interface DiffProfile {
    /** Natural key of an object of the class, used to match list elements. */
    readonly keys?: Readonly<Record<string, (obj: ModelObject) => string | undefined>>;
    /**
     * Classes that are the units of review: a change below one is reported with its key and
     * location. Without it, the nearest ancestor that has a key is used.
     */
    readonly anchors?: ReadonlySet<string>;
    /** `Class.feature` that are not compared: where a thing was written is provenance, not content. */
    readonly ignored?: ReadonlySet<string>;
    /** `Class.feature` of lists whose order does not matter (no moves are reported). */
    readonly unordered?: ReadonlySet<string>;
    /** True when the value of `feature` of `obj` must not be shown. */
    readonly isSecret?: (obj: ModelObject, feature: string, container: ModelObject | undefined) => boolean;
    readonly provenance?: (obj: ModelObject) => Provenance | undefined;
    readonly binding?: (obj: ModelObject) => BindingOrigin | undefined;
    /**
     * octocatalog-diff's type, title and structure for a change inside (or of) `owner`, given the
     * feature names and list keys on the way down from it.
     */
    readonly octocatalog?: (owner: ModelObject, structure: readonly string[]) => OctocatalogFields | undefined;
}

export interface OctocatalogFields {
    readonly type: string;
    readonly title: string;
    readonly structure: readonly string[];
}
