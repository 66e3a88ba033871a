import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject } from './model-object.js';

export interface Visit {
    readonly obj: ModelObject;
    /** JSON pointer of the object in the wire document. */
    readonly pointer: string;
    /** EMF fragment path (`//@layers.0/@bindings.1`; the root is `/`). */
    readonly fragment: string;
    readonly container?: ModelObject;
}

/** Every object of a model, containers before their contents, in feature order. */
export function* walkModel(model: Model): Generator<Visit> {
    yield* walk(model, model.root, '', '/', undefined);
}

function* walk(model: Model, obj: ModelObject, pointer: string, fragment: string, container: ModelObject | undefined): Generator<Visit> {
    yield container ? { obj, pointer, fragment, container } : { obj, pointer, fragment };
    const base = fragment === '/' ? '//' : `${fragment}/`;
    for (const f of model.index.allFeatures(obj.$type)) {
        if (f.kind !== 'containment') continue;
        const v = obj[f.name];
        if (v === undefined || v === null) continue;
        if (isMany(f)) {
            const list = v as ModelObject[];
            for (let i = 0; i < list.length; i++) {
                yield* walk(model, list[i], `${pointer}/${f.name}/${i}`, `${base}@${f.name}.${i}`, obj);
            }
        } else {
            yield* walk(model, v as ModelObject, `${pointer}/${f.name}`, `${base}@${f.name}`, obj);
        }
    }
}
