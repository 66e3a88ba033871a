import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject, ModelRef } from './model-object.js';
import { ReferenceResolver } from './reference-check.js';
import { walkModel } from './model-walk.js';
import { isUnset } from './unset.js';
import { escapePointer } from './json-pointer.js';

/**
 * The JSON dialect of Ruby RGen's JsonInstantiator: a top-level array, `_class` with the short
 * class name, containment nested, references as `/`-joined `name` paths (objects without a
 * name are transparent, as in RGen's qualified-name resolver), `Data` values as their rich-data
 * JSON text. RGen's own JSON lexer accepts neither `null` nor exponents and does not decode `\u`
 * escapes, so none are written outside that text.
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
    const convert = (obj: ModelObject, pointer: string): Record<string, unknown> => {
        const out: Record<string, unknown> = { _class: obj.$type };
        for (const f of model.index.allFeatures(obj.$type)) {
            const v = obj[f.name];
            if (isUnset(v, f, model.index)) continue;
            const at = `${pointer}/${escapePointer(f.name)}`;
            switch (f.kind) {
                case 'attribute':
                    if (model.index.primitiveOf(f.type) === 'Data') out[f.name] = isMany(f) ? (v as unknown[]).map(dataText) : dataText(v);
                    else out[f.name] = isMany(f) ? (v as unknown[]).map((x, i) => carriable(x, `${at}/${i}`)) : carriable(v, at);
                    break;
                case 'reference':
                    out[f.name] = isMany(f) ? (v as ModelRef[]).map(r => qualifiedName(r, f.name)) : qualifiedName(v as ModelRef, f.name);
                    break;
                case 'containment':
                    out[f.name] = isMany(f) ? (v as ModelObject[]).map((c, i) => convert(c, `${at}/${i}`)) : convert(v as ModelObject, at);
                    break;
            }
        }
        return out;
    };
    return `${writeJson([convert(model.root, '')], '')}\n`;
}

/**
 * RGen unescapes `\\` before `\n` (and `\r \t \f \b`), so no string it reads can hold a
 * backslash followed by one of those letters: such a value is refused where it is.
 */
function carriable(v: unknown, path: string): unknown {
    if (typeof v === 'string' && /\\[nrtfb]/.test(v)) {
        throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, path, message: `RGen JSON cannot carry a backslash before n, r, t, f or b: ${JSON.stringify(v)}` });
    }
    return v;
}

/**
 * A `Data` value as its rich-data JSON text (the RGen profile's `Data` is an EString, so RGen
 * reads and writes it back unchanged). Inside the text every escape is a `\u` escape, because
 * RGen keeps those literally: a backslash or quote in the value never meets RGen's unescaping.
 */
function dataText(v: unknown): string {
    if (v === null || typeof v === 'boolean') return String(v);
    if (typeof v === 'number') return plainNumber(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'string') return `"${v.replace(/["\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
    if (Array.isArray(v)) return `[${v.map(dataText).join(',')}]`;
    if (typeof v === 'object') return `{${Object.entries(v as object).map(([k, x]) => `${dataText(k)}:${dataText(x)}`).join(',')}}`;
    throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `a ${typeof v} is not rich data` });
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
