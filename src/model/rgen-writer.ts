import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject, ModelRef } from './model-object.js';
import { ReferenceResolver } from './reference-check.js';
import { walkModel } from './model-walk.js';

/**
 * The JSON dialect of Ruby RGen's JsonInstantiator: a top-level array, `_class` with the short
 * class name, containment nested, references as `/`-joined `name` paths (objects without a
 * name are transparent, as in RGen's qualified-name resolver). RGen's own JSON lexer accepts
 * neither `null` nor exponents and does not decode `\u` escapes, so none are written.
 */
export function toRgenJson(model: Model): string {
    const resolver = new ReferenceResolver(model);
    const names = new Map<ModelObject, string>();
    for (const v of walkModel(model)) {
        const parent = v.container ? names.get(v.container) ?? '' : '';
        const own = v.obj.name;
        names.set(v.obj, typeof own === 'string' ? `${parent}/${own}` : parent);
    }
    const qualifiedName = (ref: ModelRef, feature: string): string => {
        const target = resolver.resolve(ref);
        const name = target ? names.get(target) : undefined;
        if (!target || !name || typeof target.name !== 'string') {
            throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `reference '${feature}' -> ${ref.$ref}: RGen JSON can only reference objects that have a name` });
        }
        return name;
    };
    const convert = (obj: ModelObject): Record<string, unknown> => {
        const out: Record<string, unknown> = { _class: obj.$type };
        for (const f of model.index.allFeatures(obj.$type)) {
            const v = obj[f.name];
            if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
            switch (f.kind) {
                case 'attribute':
                    out[f.name] = model.index.primitiveOf(f.type) === 'Data' ? withoutNulls(v) : v;
                    break;
                case 'reference':
                    out[f.name] = isMany(f) ? (v as ModelRef[]).map(r => qualifiedName(r, f.name)) : qualifiedName(v as ModelRef, f.name);
                    break;
                case 'containment':
                    out[f.name] = isMany(f) ? (v as ModelObject[]).map(convert) : convert(v as ModelObject);
                    break;
            }
        }
        return out;
    };
    return `${writeJson([convert(model.root)], '')}\n`;
}

/** Puppet `undef` inside data has no RGen form; it becomes the rich-data marker for Undef. */
function withoutNulls(v: unknown): unknown {
    if (v === null) return { __ptype: 'Undef' };
    if (Array.isArray(v)) return v.map(withoutNulls);
    if (typeof v === 'object') return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, withoutNulls(x)]));
    return v;
}

function writeJson(v: unknown, indent: string): string {
    const next = `${indent}  `;
    if (Array.isArray(v)) {
        return v.length === 0 ? '[]' : `[\n${v.map(x => next + writeJson(x, next)).join(',\n')}\n${indent}]`;
    }
    switch (typeof v) {
        case 'object': {
            const entries = Object.entries(v as object);
            if (entries.length === 0) return '{}';
            return `{\n${entries.map(([k, x]) => `${next}${JSON.stringify(k)}: ${writeJson(x, next)}`).join(',\n')}\n${indent}}`;
        }
        case 'number': return plainNumber(v);
        case 'bigint': return v.toString();
        default: return JSON.stringify(v);
    }
}

function plainNumber(n: number): string {
    if (!Number.isFinite(n)) throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `${n} has no JSON form` });
    const s = String(n);
    if (!/e/i.test(s)) return s;
    if (Number.isInteger(n)) return BigInt(n).toString();
    return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '.0');
}
