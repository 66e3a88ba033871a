import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject, ModelRef } from './model-object.js';
import { ReferenceResolver } from './reference-check.js';
import { walkModel } from './model-walk.js';
import { isUnset } from './unset.js';

/**
 * The JSON dialect of Ruby RGen's JsonInstantiator: a top-level array, `_class` with the short
 * class name, containment nested, references as `/`-joined `name` paths (objects without a
 * name are transparent, as in RGen's qualified-name resolver). RGen's own JSON lexer accepts
 * neither `null` nor exponents and does not decode `\u` escapes, so none are written.
 */
export function toRgenJson(model: Model): string {
    const resolver = new ReferenceResolver(model);
    // RGen's resolver names an object by the `name`s on its containment path. An object of a
    // class without a `name` feature is transparent; one whose `name` is unset hides its subtree.
    const names = new Map<ModelObject, string | null>();
    for (const v of walkModel(model)) {
        const parent = v.container ? names.get(v.container) ?? null : '';
        const hasName = model.index.feature(v.obj.$type, 'name') !== undefined;
        const own = v.obj.name;
        names.set(v.obj, parent === null ? null : typeof own === 'string' ? `${parent}/${own}` : hasName ? null : parent);
    }
    const qualifiedName = (ref: ModelRef, feature: string): string => {
        const target = resolver.resolve(ref);
        const name = target ? names.get(target) : undefined;
        if (!target || !name || typeof target.name !== 'string') {
            // No name, or a name RGen cannot reach: it would not resolve on the Ruby side.
            throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `reference '${feature}' -> ${ref.$ref}: RGen JSON can only reference objects that have a name` });
        }
        return name;
    };
    const convert = (obj: ModelObject): Record<string, unknown> => {
        const out: Record<string, unknown> = { _class: obj.$type };
        for (const f of model.index.allFeatures(obj.$type)) {
            const v = obj[f.name];
            if (isUnset(v, f, model.index)) continue;
            switch (f.kind) {
                case 'attribute':
                    out[f.name] = model.index.primitiveOf(f.type) === 'Data' ? rgenTopData(v) : v;
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

/** RGen drops an empty list given to a single-valued attribute, so it travels as a marker. */
function rgenTopData(v: unknown): unknown {
    return Array.isArray(v) && v.length === 0 ? { __ptype: 'Array', __pvalue: [] } : rgenData(v);
}

/**
 * RGen's JSON reader has no `null` and reads `{}` as nil: Puppet `undef` becomes the rich-data
 * marker for Undef, and an empty hash its pair form.
 */
function rgenData(v: unknown): unknown {
    if (v === null) return { __ptype: 'Undef' };
    if (Array.isArray(v)) return v.map(rgenData);
    if (typeof v === 'object') {
        const entries = Object.entries(v as object);
        if (entries.length === 0) return { __ptype: 'Hash', __pvalue: [] };
        return Object.fromEntries(entries.map(([k, x]) => [k, rgenData(x)]));
    }
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
            return `{\n${entries.map(([k, x]) => `${next}${rgenString(k)}: ${writeJson(x, next)}`).join(',\n')}\n${indent}}`;
        }
        case 'number': return plainNumber(v);
        case 'bigint': return v.toString();
        case 'string': return rgenString(v);
        default: return JSON.stringify(v);
    }
}

/**
 * RGen unescapes `\\` before `\n` (and `\r \t \f \b`), so a backslash followed by one of those
 * letters cannot survive; other control characters must be written raw, as it keeps `\u` escapes
 * literally.
 */
function rgenString(s: string): string {
    if (/\\[nrtfb]/.test(s)) {
        throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `RGen JSON cannot carry a backslash before n, r, t, f or b: ${JSON.stringify(s)}` });
    }
    const escaped = s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
        .replace(/\t/g, '\\t').replace(/\f/g, '\\f').replace(/\u0008/g, '\\b');
    return `"${escaped}"`;
}

function plainNumber(n: number): string {
    if (!Number.isFinite(n)) throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `${n} has no JSON form` });
    const s = String(n);
    if (!/e/i.test(s)) return s;
    if (Number.isInteger(n)) return BigInt(n).toString();
    return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '.0');
}
