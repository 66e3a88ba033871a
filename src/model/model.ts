import type { ModelObject } from './model-object.js';
import type { PackageIndex } from './package-index.js';

/** A model document in memory: its root object and the package that gives it meaning. */
export interface Model {
    readonly index: PackageIndex;
    readonly root: ModelObject;
}
