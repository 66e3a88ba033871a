import { UserError } from '../common/index.js';
import { decodeWire, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import { parseJson } from './json-text.js';
import { escapePointer } from './json-pointer.js';
import { isMany } from './metamodel.js';
import type { Model } from './model.js';
import type { PackageIndex } from './package-index.js';
import { modelRegistry } from './registry.js';

type RgenObject = Record<string, unknown>;

interface Pending {
    readonly out: Record<string, unknown>;
    readonly feature: string;
    readonly many: boolean;
    readonly names: readonly string[];
    readonly path: string;
}

/**
 * Reads the JSON dialect of Ruby RGen (what modelc's `--to rgen` writes and what RGen's
 * JsonSerializer writes back): a top-level array holding the root, `_class` with the short class
 * name, references as `/`-joined qualified names, `Data` values as their rich-data JSON text
 * (the RGen profile types `Data` as EString, since RGen writes any other attribute with Ruby's
 * `to_s`). The result is validated exactly as a JSON model is.
 */
export function decodeRgenJson(text: string, file = '<input>', options: DecodeOptions = {}): Model {
    // RGen writes control characters other than \n \r \t \f \b raw inside strings; JSON wants them escaped.
    const parsed = parseJson(text.replace(/[\u0000-\u0008\u000b\u000e-\u001f]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), file);
    const fail = (code: string, message: string, path: string): never => { throw new UserError({ severity: 'error', code, message, file, path }); };
    const roots = Array.isArray(parsed) ? parsed : [parsed];
    if (roots.length !== 1) fail(ModelIssues.NOT_A_MODEL, `a model document has one root object, this one has ${roots.length}`, '');
    const rootPath = Array.isArray(parsed) ? '/0' : '';
    const root = roots[0] as unknown;
    if (typeof root !== 'object' || root === null || Array.isArray(root) || typeof (root as RgenObject)._class !== 'string') {
        return fail(ModelIssues.NOT_A_MODEL, 'an RGen JSON model is an object with a string "_class"', rootPath);
    }
    const index = packageOf(root as RgenObject, options, file, rootPath);
    const byName = new Map<string, string[]>();
    const pending: Pending[] = [];

    const convert = (o: RgenObject, path: string, fragment: string, parentName: string): Record<string, unknown> => {
        const className = o._class;
        if (typeof className !== 'string' || !index.cls(className)) {
            return fail(ModelIssues.WRONG_TYPE, `${JSON.stringify(className)} is not a class of ${index.pkg.name}`, `${path}/_class`);
        }
        const out: Record<string, unknown> = { $type: index.qualified(className) };
        // RGen's qualified names: the names on the containment path; an object without one adds nothing.
        const own = typeof o.name === 'string' ? o.name.trim() : '';
        const qualified = path === rootPath ? `/${own}` : own !== '' ? `${parentName}/${own}` : parentName;
        const idf = index.idFeature(className);
        const id = idf ? o[idf.name] : undefined;
        byName.set(qualified, [...byName.get(qualified) ?? [], typeof id === 'string' ? id : fragment]);
        for (const [key, value] of Object.entries(o)) {
            if (key === '_class') continue;
            const at = `${path}/${escapePointer(key)}`;
            const f = index.feature(className, key);
            if (!f) return fail(ModelIssues.UNKNOWN_FEATURE, `unknown feature '${key}' of ${className}`, at);
            // RGen reads a single value given to a many-valued feature as a list of one.
            const list = isMany(f) && !Array.isArray(value) ? [value] : value;
            switch (f.kind) {
                case 'attribute':
                    out[key] = index.primitiveOf(f.type) === 'Data'
                        ? (isMany(f) ? (list as unknown[]).map((x, i) => dataOf(x, `${at}/${i}`)) : dataOf(list, at))
                        : list;
                    break;
                case 'reference': {
                    const names = isMany(f) ? list as unknown[] : [list];
                    if (names.some(n => typeof n !== 'string')) fail(ModelIssues.WRONG_DATATYPE, `a reference is the qualified name of its target`, at);
                    pending.push({ out, feature: key, many: isMany(f), names: names as string[], path: at });
                    break;
                }
                case 'containment': {
                    const base = fragment === '/' ? '//' : `${fragment}/`;
                    const child = (x: unknown, p: string, frag: string): Record<string, unknown> =>
                        typeof x === 'object' && x !== null && !Array.isArray(x) ? convert(x as RgenObject, p, frag, qualified) : fail(ModelIssues.WRONG_DATATYPE, `'${key}' holds objects`, p);
                    out[key] = isMany(f)
                        ? (list as unknown[]).map((x, i) => child(x, `${at}/${i}`, `${base}@${key}.${i}`))
                        : child(list, at, `${base}@${key}`);
                    break;
                }
            }
        }
        return out;
    };

    const dataOf = (v: unknown, at: string): unknown => {
        if (typeof v !== 'string') return fail(ModelIssues.WRONG_DATATYPE, 'a Data value is its rich-data JSON text (a string) in RGen JSON', at);
        try {
            return parseJson(v, file);
        } catch {
            return fail(ModelIssues.WRONG_DATATYPE, `not rich-data JSON text: ${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v)}`, at);
        }
    };

    const wire = convert(root as RgenObject, rootPath, '/', '');
    for (const p of pending) {
        const refs = p.names.map((n, i) => {
            const targets = byName.get(n) ?? [];
            if (targets.length !== 1) {
                fail(ModelIssues.DANGLING_REF, `reference ${JSON.stringify(n)} of '${p.feature}' ${targets.length === 0 ? 'names no object' : 'names several objects'}`, p.many ? `${p.path}/${i}` : p.path);
            }
            return { $ref: targets[0] };
        });
        p.out[p.feature] = p.many ? refs : refs[0];
    }
    return decodeWire(wire, file, options);
}

/** The package a document belongs to: the one asked for, else the only one with its root class. */
function packageOf(root: RgenObject, options: DecodeOptions, file: string, path: string): PackageIndex {
    const registry = options.registry ?? modelRegistry();
    const className = root._class as string;
    const wanted = options.kind !== undefined ? registry.byPackageName(options.kind) : undefined;
    const candidates = (wanted ? [wanted] : registry.packages).filter(p => p.cls(className) !== undefined);
    if (candidates.length === 1) return candidates[0];
    const message = candidates.length === 0
        ? `no ${wanted ? `${wanted.pkg.name} ` : ''}model has a class ${className}`
        : `${className} is a class of several models (${candidates.map(p => p.pkg.name).join(', ')}): say which with --kind`;
    throw new UserError({ severity: 'error', code: candidates.length === 0 ? ModelIssues.UNKNOWN_PACKAGE : ModelIssues.AMBIGUOUS_CLASS, message, file, path: `${path}/_class` });
}
