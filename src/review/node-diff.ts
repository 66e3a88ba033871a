import { diffModels, diffProfileFor, filterChanges, type ChangeFilterName, type ChangeRecord, type IgnoreRule } from '../model/index.js';
import { modelRegistry, type ModelObject } from '../model/index.js';
import type { BindingOrigin, Location, ParameterChange, ResourceChange, ResourceEntry, ValueOrigin } from './report-model.js';

export interface NodeDiffOptions {
    readonly filters: ReadonlySet<ChangeFilterName>;
    readonly ignores: readonly IgnoreRule[];
    /** Report changed tags too (octocatalog-diff's --include-tags); off by default as there. */
    readonly includeTags?: boolean;
}

export interface NodeDiff {
    readonly added: ResourceEntry[];
    readonly removed: ResourceEntry[];
    readonly changed: ResourceChange[];
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined;
}

function location(v: unknown): Location | undefined {
    const o = obj(v);
    if (!o || typeof o.file !== 'string') return undefined;
    return { file: o.file, ...(typeof o.line === 'number' ? { line: o.line } : {}), ...(typeof o.column === 'number' ? { column: o.column } : {}) };
}

function declaredAt(resource: Obj | undefined): Location | undefined {
    return location(obj(resource?.provenance)?.declaredAt) ?? (typeof resource?.file === 'string' ? location(resource) : undefined);
}

/** A parameter's ValueProvenance, flattened for the report. */
export function valueOrigin(parameter: Obj | undefined): ValueOrigin | undefined {
    const p = obj(parameter?.provenance);
    if (!p || typeof p.origin !== 'string') return undefined;
    const b = obj(p.binding);
    const at = location(p.location);
    let binding: BindingOrigin | undefined;
    if (b && typeof b.key === 'string') {
        const bat = location(b.location);
        const contributors = Array.isArray(b.contributors) ? b.contributors.map(location).filter((l): l is Location => l !== undefined) : [];
        binding = {
            key: b.key,
            ...(typeof b.layer === 'string' ? { layer: b.layer } : {}),
            ...(typeof b.category === 'string' ? { category: b.category } : {}),
            ...(typeof b.namedBindings === 'string' ? { namedBindings: b.namedBindings } : {}),
            ...(bat ? { at: bat } : {}),
            ...(typeof b.mergeStrategy === 'string' ? { merge: b.mergeStrategy } : {}),
            ...(contributors.length > 0 ? { contributors } : {})
        };
    }
    return { kind: p.origin, ...(at ? { at } : {}), ...(binding ? { binding } : {}) };
}

function resourcesByRef(root: ModelObject): Map<string, Obj> {
    const out = new Map<string, Obj>();
    for (const r of (root.resources as Obj[] | undefined) ?? []) out.set(`${String(r.type)}[${String(r.title)}]`, r);
    return out;
}

function parameterOf(resource: Obj | undefined, name: string): Obj | undefined {
    return ((resource?.parameters as Obj[] | undefined) ?? []).find(p => p.name === name);
}

/** A whole resource of one side as a report entry (values as the diff gave them: Sensitive ones redacted). */
function entry(c: ChangeRecord, type: string, title: string, resource: Obj | undefined): ResourceEntry {
    const copy = obj(c.kind === 'added' ? c.newValue : c.oldValue);
    const parameters: Record<string, unknown> = {};
    for (const p of (copy?.parameters as Obj[] | undefined) ?? []) parameters[String(p.name)] = p.value;
    const at = declaredAt(resource);
    return { resource: `${type}[${title}]`, type, title, ...(at ? { declaredAt: at } : {}), parameters, ...(c.redacted ? { redacted: true } : {}) };
}

/**
 * The resource-level differences of two Catalog models, as octocatalog-diff reports them:
 * resources added and removed, and per changed resource its changed parameters (and the
 * `exported` / `tags` attributes), each with where its new value came from. Equivalent values
 * and ignored resources are filtered out; edges, logs and ordering are not reviewed.
 */
export function diffNodeCatalogs(oldRoot: ModelObject, newRoot: ModelObject, options: NodeDiffOptions): NodeDiff {
    const index = modelRegistry().byPackageName('Catalog');
    if (!index) throw new Error('the Catalog package is not generated');
    const raw = diffModels({ index, root: oldRoot }, { index, root: newRoot }, diffProfileFor('Catalog'));
    const { changes } = filterChanges(raw, oldRoot, newRoot, options);
    const olds = resourcesByRef(oldRoot);
    const news = resourcesByRef(newRoot);
    const out: NodeDiff = { added: [], removed: [], changed: [] };
    const changedByRef = new Map<string, { type: string; title: string; parameters: ParameterChange[] }>();
    for (const c of changes) {
        const o = c.octocatalog;
        if (!o) continue;
        const ref = `${o.type}[${o.title}]`;
        if (o.structure.length === 0) {
            if (c.kind === 'added') out.added.push(entry(c, o.type, o.title, news.get(ref)));
            else if (c.kind === 'removed') out.removed.push(entry(c, o.type, o.title, olds.get(ref)));
            continue;
        }
        const isParam = o.structure[0] === 'parameters' && o.structure.length >= 2;
        const name = isParam ? o.structure[1] : o.structure[0];
        if (!isParam && (name === 'sensitiveParameters' || (name === 'tags' && !options.includeTags))) continue;
        if (c.kind === 'moved') continue;
        let group = changedByRef.get(ref);
        if (!group) { group = { type: o.type, title: o.title, parameters: [] }; changedByRef.set(ref, group); }
        // An added or removed parameter comes as the whole Parameter object: report its value.
        const value = (v: unknown): unknown => isParam && c.feature === undefined ? obj(v)?.value : v;
        const origin = isParam ? valueOrigin(parameterOf(c.kind === 'removed' ? olds.get(ref) : news.get(ref), name)) : undefined;
        group.parameters.push({
            name, kind: c.kind,
            ...(c.kind !== 'added' ? { old: value(c.oldValue) } : {}),
            ...(c.kind !== 'removed' ? { new: value(c.newValue) } : {}),
            ...(c.textDiff ? { diff: c.textDiff } : {}),
            ...(c.redacted ? { redacted: true } : {}),
            ...(origin ? { origin } : {})
        });
    }
    for (const [ref, g] of changedByRef) {
        const at = declaredAt(news.get(ref));
        out.changed.push({ resource: ref, type: g.type, title: g.title, ...(at ? { declaredAt: at } : {}), parameters: g.parameters });
    }
    return out;
}
