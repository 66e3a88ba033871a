import type { Diagnostic } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject, ModelRef } from './model-object.js';
import { walkModel } from './model-walk.js';

/** Resolves `$ref` fragments of one document: an id, or an EMF path from the root. */
export class ReferenceResolver {
    private readonly byId = new Map<string, ModelObject>();
    private readonly byFragment = new Map<string, ModelObject>();
    readonly duplicates: Array<{ id: string; pointer: string }> = [];

    constructor(model: Model) {
        for (const v of walkModel(model)) {
            this.byFragment.set(v.fragment, v.obj);
            const idf = model.index.idFeature(v.obj.$type);
            const id = idf ? v.obj[idf.name] : undefined;
            if (typeof id === 'string') {
                if (this.byId.has(id)) this.duplicates.push({ id, pointer: v.pointer });
                else this.byId.set(id, v.obj);
            }
        }
    }

    resolve(ref: ModelRef): ModelObject | undefined {
        return ref.$ref.startsWith('/') ? this.byFragment.get(ref.$ref) : this.byId.get(ref.$ref);
    }
}

/** Duplicate ids, dangling references and references to objects of the wrong class. */
export function checkReferences(model: Model, file: string): Diagnostic[] {
    const resolver = new ReferenceResolver(model);
    const diagnostics: Diagnostic[] = resolver.duplicates.map(d => ({
        severity: 'error', code: ModelIssues.DUPLICATE_ID, file, path: d.pointer, message: `duplicate id ${JSON.stringify(d.id)}`
    }));
    for (const v of walkModel(model)) {
        for (const f of model.index.allFeatures(v.obj.$type)) {
            if (f.kind !== 'reference' || v.obj[f.name] === undefined) continue;
            const refs = isMany(f) ? v.obj[f.name] as ModelRef[] : [v.obj[f.name] as ModelRef];
            refs.forEach((ref, i) => {
                const path = `${v.pointer}/${f.name}${isMany(f) ? `/${i}` : ''}/$ref`;
                const target = resolver.resolve(ref);
                if (!target) {
                    const why = ref.$ref.includes('#') ? ' (references into other documents are not supported)' : '';
                    diagnostics.push({ severity: 'error', code: ModelIssues.DANGLING_REF, file, path, message: `reference ${JSON.stringify(ref.$ref)} of '${f.name}' points to nothing${why}` });
                } else if (!model.index.superTypesOf(target.$type).has(f.type)) {
                    diagnostics.push({ severity: 'error', code: ModelIssues.REF_TYPE, file, path, message: `'${f.name}' must reference a ${f.type}, not a ${target.$type}` });
                }
            });
        }
    }
    return diagnostics;
}
