import { UserError, type Diagnostic } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { parseJson, stringifyJson } from './json-text.js';
import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject, ModelRef, RichData } from './model-object.js';
import type { PackageIndex } from './package-index.js';
import { checkReferences } from './reference-check.js';
import { richDataProblem } from './rich-data.js';
import { isUnset } from './unset.js';
import { modelRegistry, type ModelRegistry } from './registry.js';
import { escapePointer } from './json-pointer.js';
import { validateAgainstSchema } from './schema-validator.js';

/** A wire (EMF-JSON v2) object: qualified `$type`, optional `$id`, features. */
export type WireObject = { readonly $type: string; readonly [key: string]: unknown };

export interface DecodeOptions {
    /** Require the document to belong to this package (by name, e.g. `bindings`). */
    readonly kind?: string;
    readonly registry?: ModelRegistry;
}

/** Parses, validates (schema + ids + references) and converts EMF-JSON v2 text. */
export function decodeJson(text: string, file = '<input>', options: DecodeOptions = {}): Model {
    return decodeWire(parseJson(text, file), file, options);
}

/**
 * How deep objects and arrays may nest in a model document. The codecs, validators and writers
 * recurse; real models (a catalog's data included) stay far below this.
 */
export const MAX_MODEL_DEPTH = 10_000;

/** The path of the first value nested deeper than MAX_MODEL_DEPTH, found without recursion. */
function tooDeep(wire: unknown): string | undefined {
    const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: wire, depth: 0, path: '' }];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        if (typeof top.v !== 'object' || top.v === null) continue;
        if (top.depth >= MAX_MODEL_DEPTH) return top.path;
        // Paths are built only for the first levels: a 10,000-step pointer would be unreadable.
        const child = (key: string): string => top.depth < 8 ? `${top.path}/${key}` : top.path.endsWith('/…') ? top.path : `${top.path}/…`;
        if (Array.isArray(top.v)) top.v.forEach((item, i) => stack.push({ v: item, depth: top.depth + 1, path: child(String(i)) }));
        else for (const [k, item] of Object.entries(top.v)) stack.push({ v: item, depth: top.depth + 1, path: child(k) });
    }
    return undefined;
}

export function decodeWire(wire: unknown, file: string, options: DecodeOptions = {}): Model {
    const registry = options.registry ?? modelRegistry();
    const deep = tooDeep(wire);
    if (deep !== undefined) {
        throw new UserError({ severity: 'error', code: ModelIssues.TOO_DEEP, message: `objects and arrays nest deeper than ${MAX_MODEL_DEPTH} levels`, file, path: deep });
    }
    const proto = findProtoKey(wire, '');
    if (proto !== undefined) {
        throw new UserError({ severity: 'error', code: ModelIssues.PROTO_KEY, message: "the key '__proto__' is not allowed in a model", file, path: proto });
    }
    if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) {
        throw new UserError({ severity: 'error', code: ModelIssues.NOT_A_MODEL, message: 'a model document is a JSON object with a "$type"', file, path: '' });
    }
    if (typeof (wire as { $type?: unknown }).$type !== 'string') {
        throw new UserError({ severity: 'error', code: ModelIssues.NOT_A_MODEL, message: 'a model document needs a string "$type"', file, path: '/$type' });
    }
    const type = (wire as WireObject).$type;
    const hash = type.indexOf('#//');
    const index = hash > 0 ? registry.byNsURI(type.slice(0, hash)) : undefined;
    if (!index) {
        const known = registry.packages.map(p => p.pkg.nsURI).join(', ');
        throw new UserError({ severity: 'error', code: ModelIssues.UNKNOWN_PACKAGE, message: `unknown model type ${JSON.stringify(type)} (known packages: ${known})`, file, path: '/$type' });
    }
    if (options.kind !== undefined) {
        const wanted = registry.byPackageName(options.kind);
        if (wanted !== index) {
            throw new UserError({ severity: 'error', code: ModelIssues.KIND_MISMATCH, message: `expected a ${options.kind} model, got ${index.pkg.name}`, file, path: '/$type' });
        }
    }
    // JSON Schema knows numbers only: 64-bit integers are checked as their (nearest) doubles.
    const schemaErrors = validateAgainstSchema(hasBigint(wire) ? withDoubles(wire) : wire, index, file);
    if (schemaErrors.length > 0) throw new UserError(schemaErrors);
    const diagnostics: Diagnostic[] = [];
    const root = fromWire(wire as WireObject, index, '', file, diagnostics);
    diagnostics.push(...checkReferences({ index, root }, file));
    if (diagnostics.length > 0) throw new UserError(diagnostics);
    return { index, root };
}

function fromWire(wire: WireObject, index: PackageIndex, path: string, file: string, diagnostics: Diagnostic[]): ModelObject {
    const className = wire.$type.slice(wire.$type.indexOf('#//') + 3);
    const out: Record<string, unknown> = { $type: className };
    for (const f of index.allFeatures(className)) {
        const v = wire[f.name];
        if (v === undefined) continue;
        const at = `${path}/${escapePointer(f.name)}`;
        switch (f.kind) {
            case 'attribute':
                if (index.primitiveOf(f.type) === 'Data') {
                    const problem = isMany(f)
                        ? (v as RichData[]).map((x, i) => richDataProblem(x, `${at}/${i}`)).find(p => p !== undefined)
                        : richDataProblem(v as RichData, at);
                    if (problem) diagnostics.push({ severity: 'error', code: ModelIssues.WRONG_DATATYPE, file, path: problem.path, message: problem.message });
                }
                out[f.name] = v;
                break;
            case 'reference':
                out[f.name] = isMany(f) ? (v as ModelRef[]).map(r => ({ $ref: r.$ref })) : { $ref: (v as ModelRef).$ref };
                break;
            case 'containment':
                out[f.name] = isMany(f)
                    ? (v as WireObject[]).map((c, i) => fromWire(c, index, `${at}/${i}`, file, diagnostics))
                    : fromWire(v as WireObject, index, at, file, diagnostics);
                break;
        }
    }
    const idFeature = index.idFeature(className);
    if (idFeature && typeof wire.$id === 'string') {
        if (out[idFeature.name] === undefined) {
            out[idFeature.name] = wire.$id;
        } else if (out[idFeature.name] !== wire.$id) {
            diagnostics.push({ severity: 'error', code: ModelIssues.ID_MISMATCH, file, path: `${path}/$id`, message: `$id ${JSON.stringify(wire.$id)} differs from ${idFeature.name} ${JSON.stringify(out[idFeature.name])}` });
        }
    }
    return out as ModelObject;
}

/** Converts to the wire form: qualified `$type`, `$id` for id-bearing classes, unset features omitted. */
export function encodeWire(model: Model): WireObject {
    return toWire(model.root, model.index);
}

export function encodeJson(model: Model): string {
    return stringifyJson(encodeWire(model));
}

function toWire(obj: ModelObject, index: PackageIndex): WireObject {
    const cls = index.cls(obj.$type);
    if (!cls) {
        throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `${obj.$type} is not a class of ${index.pkg.name}` });
    }
    const out: Record<string, unknown> = { $type: index.qualified(obj.$type) };
    const idFeature = index.idFeature(obj.$type);
    if (idFeature && obj[idFeature.name] !== undefined) out.$id = String(obj[idFeature.name]);
    for (const f of index.allFeatures(obj.$type)) {
        const v = obj[f.name];
        if (isUnset(v, f, index)) continue;
        switch (f.kind) {
            case 'attribute':
                out[f.name] = v;
                break;
            case 'reference':
                out[f.name] = isMany(f) ? (v as ModelRef[]).map(r => ({ $ref: r.$ref })) : { $ref: (v as ModelRef).$ref };
                break;
            case 'containment':
                out[f.name] = isMany(f) ? (v as ModelObject[]).map(c => toWire(c, index)) : toWire(v as ModelObject, index);
                break;
        }
    }
    return out as WireObject;
}

function hasBigint(v: unknown): boolean {
    if (typeof v === 'bigint') return true;
    if (typeof v !== 'object' || v === null) return false;
    return (Array.isArray(v) ? v : Object.values(v)).some(hasBigint);
}

function withDoubles(v: unknown): unknown {
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(withDoubles);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withDoubles(x)]));
    return v;
}

function findProtoKey(v: unknown, path: string): string | undefined {
    if (typeof v !== 'object' || v === null) return undefined;
    if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
            const found = findProtoKey(v[i], `${path}/${i}`);
            if (found !== undefined) return found;
        }
        return undefined;
    }
    for (const key of Object.keys(v)) {
        if (key === '__proto__') return `${path}/__proto__`;
        const found = findProtoKey((v as Record<string, unknown>)[key], `${path}/${escapePointer(key)}`);
        if (found !== undefined) return found;
    }
    return undefined;
}

