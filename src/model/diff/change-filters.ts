import { parse as parseYaml } from 'yaml';
import { stringifyJson } from '../json-text.js';
import type { ModelObject } from '../model-object.js';
import type { ChangeRecord, DiffResult } from './diff-engine.js';

/**
 * octocatalog-diff's equivalence filters: differences that change nothing on the node.
 * - `absent-file`: a File that is absent in the new catalog; only its `ensure` matters.
 * - `single-item-array`: `['x']` and `'x'` (Puppet treats a one-element array as its element).
 * - `json`, `yaml`: the content of a `.json` / `.yaml` file that parses to equal data.
 */
export const CHANGE_FILTERS = ['absent-file', 'single-item-array', 'json', 'yaml'] as const;
export type ChangeFilterName = (typeof CHANGE_FILTERS)[number];

/** An `--ignore` rule: `Type[Title]` or `Type[Title]::attr` (`attr` or `parameters::attr`), `*` matching anything. */
export interface IgnoreRule {
    readonly text: string;
    readonly type: RegExp;
    readonly title: RegExp;
    readonly attribute?: RegExp;
}

export interface ChangeFilterOptions {
    readonly filters?: ReadonlySet<ChangeFilterName>;
    readonly ignores?: readonly IgnoreRule[];
}

function wildcard(text: string, flags = ''): RegExp {
    return new RegExp(`^${text.split('*').map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, flags);
}

/** Parses `Type[Title]::attr`; undefined when the text does not have that shape. */
export function parseIgnoreRule(text: string): IgnoreRule | undefined {
    const m = /^([^[\]]+)\[(.*)\](?:::(?:parameters::)?(.+))?$/s.exec(text.trim());
    if (!m) return undefined;
    return {
        text,
        // Types are case-insensitive in Puppet; titles are not.
        type: wildcard(m[1], 'i'),
        title: wildcard(m[2]),
        ...(m[3] !== undefined ? { attribute: wildcard(m[3]) } : {})
    };
}

/** The resource parameter a change is about (undefined for a whole resource or a non-parameter feature). */
function parameterOf(c: ChangeRecord): string | undefined {
    const s = c.octocatalog?.structure ?? [];
    return s[0] === 'parameters' ? s[1] : undefined;
}

function ignored(c: ChangeRecord, rules: readonly IgnoreRule[]): boolean {
    const o = c.octocatalog;
    if (!o) return false;
    const attr = o.structure.length === 0 ? undefined : parameterOf(c) ?? o.structure.join('::');
    return rules.some(r => r.type.test(o.type) && r.title.test(o.title) && (r.attribute === undefined || (attr !== undefined && r.attribute.test(attr))));
}

function same(a: unknown, b: unknown): boolean {
    return stringifyJson(canonical(a)) === stringifyJson(canonical(b));
}

/** Hash keys sorted, so data that parses equal compares equal whatever its key order. */
function canonical(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(canonical);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).sort().map(k => [k, canonical((v as Record<string, unknown>)[k])]));
    return v;
}

function singleItemEqual(a: unknown, b: unknown): boolean {
    if (Array.isArray(a) && a.length === 1 && !Array.isArray(b)) return same(a[0], b);
    if (Array.isArray(b) && b.length === 1 && !Array.isArray(a)) return same(a, b[0]);
    return false;
}

function parsesEqual(a: unknown, b: unknown, parse: (text: string) => unknown): boolean {
    if (typeof a !== 'string' || typeof b !== 'string') return false;
    try {
        return same(parse(a), parse(b));
    } catch {
        return false;
    }
}

function fileName(c: ChangeRecord, resources: ReadonlyMap<string, ModelObject>): string {
    const r = resources.get(`${c.octocatalog?.type}[${c.octocatalog?.title}]`);
    const path = (r?.parameters as ModelObject[] | undefined)?.find(p => p.name === 'path')?.value;
    return typeof path === 'string' ? path : c.octocatalog?.title ?? '';
}

function paramValue(r: ModelObject | undefined, name: string): unknown {
    return (r?.parameters as ModelObject[] | undefined)?.find(p => p.name === name)?.value;
}

function resourcesOf(root: ModelObject): Map<string, ModelObject> {
    const out = new Map<string, ModelObject>();
    for (const r of (root.resources as ModelObject[] | undefined) ?? []) out.set(`${String(r.type)}[${String(r.title)}]`, r);
    return out;
}

/**
 * Drops the changes that the equivalence filters find equal and those the ignore rules name.
 * Only changes of catalog resources (with octocatalog-diff's type/title/structure) are filtered.
 */
export function filterChanges(result: DiffResult, oldRoot: ModelObject, newRoot: ModelObject, options: ChangeFilterOptions): DiffResult {
    const filters = options.filters ?? new Set<ChangeFilterName>();
    const rules = options.ignores ?? [];
    const newResources = resourcesOf(newRoot);
    const oldResources = resourcesOf(oldRoot);
    const keep = (c: ChangeRecord): boolean => {
        if (ignored(c, rules)) return false;
        const o = c.octocatalog;
        const param = parameterOf(c);
        if (!o || param === undefined) return true;
        const ref = `${o.type}[${o.title}]`;
        // A file that goes away: its mode, content... no longer matter, whatever kind of change they show.
        if (filters.has('absent-file') && o.type === 'File' && param !== 'ensure' && oldResources.has(ref) && paramValue(newResources.get(ref), 'ensure') === 'absent') return false;
        if (c.kind !== 'changed' || c.redacted) return true;
        if (filters.has('single-item-array') && singleItemEqual(c.oldValue, c.newValue)) return false;
        if (o.type === 'File' && param === 'content') {
            const name = fileName(c, newResources);
            if (filters.has('json') && name.endsWith('.json') && parsesEqual(c.oldValue, c.newValue, t => JSON.parse(t))) return false;
            if (filters.has('yaml') && /\.ya?ml$/.test(name) && parsesEqual(c.oldValue, c.newValue, t => parseYaml(t))) return false;
        }
        return true;
    };
    return { ...result, changes: result.changes.filter(keep) };
}
