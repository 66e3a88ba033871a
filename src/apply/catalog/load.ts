import { readFileSync } from 'node:fs';
import { UserError } from '../../common/index.js';
import { decodeJson, type ModelObject } from '../../model/index.js';
import { ApplyIssues } from '../issues.js';
import type { CatalogResource } from '../run/harness.js';
import { capitalizeTypeName, PDefault, PRegexp, PSensitive, type PuppetValue } from '../values.js';
import type { ApplyCatalog, Relationship } from './catalog.js';

/** "file[/x]" → "File[/x]", "foo::bar[t]" → "Foo::Bar[t]": Puppet's canonical reference form. */
export function canonicalRef(ref: string): string {
    const i = ref.indexOf('[');
    if (i <= 0) return ref;
    return `${capitalizeTypeName(ref.slice(0, i).toLowerCase())}${ref.slice(i)}`;
}

/** Puppet rich data → runtime values; Integer and Float are told apart by their JSON text. */
export function fromRichData(d: unknown, integralIsInteger = false): PuppetValue {
    const again = (x: unknown): PuppetValue => fromRichData(x, integralIsInteger);
    if (d === null || d === undefined) return null;
    if (typeof d === 'string' || typeof d === 'boolean' || typeof d === 'bigint') return d;
    if (typeof d === 'number') return integralIsInteger && Number.isInteger(d) ? BigInt(d) : d;
    if (Array.isArray(d)) return d.map(again);
    const o = d as Record<string, unknown>;
    const ptype = o.__ptype;
    if (typeof ptype === 'string') {
        const pv = o.__pvalue;
        switch (ptype) {
            case 'Sensitive': return new PSensitive(again(pv));
            case 'Regexp': return new PRegexp(String(pv));
            case 'Default': return PDefault.instance;
            case 'Hash': {
                const m = new Map<PuppetValue, PuppetValue>();
                const pairs = Array.isArray(pv) ? pv : [];
                for (let i = 0; i + 1 < pairs.length; i += 2) m.set(again(pairs[i]), again(pairs[i + 1]));
                return m;
            }
            default: return typeof pv === 'string' ? pv : again(pv);
        }
    }
    return new Map(Object.entries(o).map(([k, v]) => [k, again(v)]));
}

function parseWithIntegers(text: string, file: string): unknown {
    try {
        return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
            typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value);
    } catch (e) {
        throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message: `invalid JSON: ${e instanceof Error ? e.message : String(e)}`, file });
    }
}

/**
 * Reads a catalog to apply: Puppet's catalog JSON (catalog_format 1/2, or the oracle's normalized
 * form) or our Catalog model (EMF-JSON with "$type"). Relationship metaparameters become edges.
 */
export function loadCatalog(file: string): ApplyCatalog {
    const text = readFileSync(file, 'utf8');
    const data = parseWithIntegers(text, file);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
        throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message: 'a catalog is a JSON object', file, path: '' });
    }
    if ('$type' in data) return fromCatalogModel(decodeJson(text, file, { kind: 'catalog' }).root, file);
    return fromPuppetJson(data as Record<string, unknown>, file);
}

function fromPuppetJson(data: Record<string, unknown>, file: string): ApplyCatalog {
    const rawResources = data.resources;
    if (!Array.isArray(rawResources)) {
        throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message: 'a Puppet catalog needs a "resources" array', file, path: '/resources' });
    }
    const resources = rawResources.map((r: Record<string, unknown>, i): CatalogResource => {
        if (typeof r.type !== 'string' || typeof r.title !== 'string') {
            throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message: 'a resource needs a string "type" and "title"', file, path: `/resources/${i}` });
        }
        const params = new Map<string, PuppetValue>();
        for (const [k, v] of Object.entries((r.parameters ?? {}) as Record<string, unknown>)) params.set(k, fromRichData(v));
        const sensitive = Array.isArray(r.sensitive_parameters) ? r.sensitive_parameters.map(String) : [];
        return makeResource(r.type, r.title, params, sensitive, Array.isArray(r.tags) ? r.tags.map(String) : [],
            typeof r.file === 'string' ? r.file : undefined, typeof r.line === 'bigint' || typeof r.line === 'number' ? Number(r.line) : undefined, r.exported === true);
    });
    const edges = Array.isArray(data.edges) ? data.edges as Record<string, unknown>[] : [];
    const containment = edges.map(e => [canonicalRef(String(e.source)), canonicalRef(String(e.target))] as const);
    return {
        name: String(data.name ?? ''),
        environment: String(data.environment ?? 'production'),
        ...(data.version !== undefined && data.version !== null ? { version: String(data.version) } : {}),
        ...(typeof data.catalog_uuid === 'string' ? { catalogUuid: data.catalog_uuid } : {}),
        ...(typeof data.code_id === 'string' ? { codeId: data.code_id } : {}),
        // `puppet apply --catalog` applies exported resources too (only the agent's catalog filters them).
        resources,
        containment,
        relationships: metaparamRelationships(resources),
        file
    };
}

function fromCatalogModel(root: ModelObject, file: string): ApplyCatalog {
    const rs = (root.resources ?? []) as ModelObject[];
    // As for Puppet's JSON, exported resources are applied (only unrealized virtual ones are not).
    const resources = rs.filter(r => r.virtual !== true).map(r => {
        const params = new Map<string, PuppetValue>();
        // The model's JSON numbers lose the Integer/Float distinction: integral ones are Integers.
        for (const p of (r.parameters ?? []) as ModelObject[]) params.set(String(p.name), fromRichData(p.value, true));
        return makeResource(String(r.type), String(r.title), params, ((r.sensitiveParameters ?? []) as string[]), (r.tags ?? []) as string[],
            typeof r.file === 'string' ? r.file : undefined, typeof r.line === 'number' ? r.line : undefined, r.exported === true);
    });
    const edges = (root.edges ?? []) as ModelObject[];
    const containment = edges.filter(e => (e.kind ?? 'containment') === 'containment').map(e => [canonicalRef(String(e.source)), canonicalRef(String(e.target))] as const);
    const explicit: Relationship[] = edges.filter(e => e.kind !== undefined && e.kind !== 'containment').map(e => {
        const kind = e.kind === 'notify' || e.kind === 'subscribe' ? 'notify' : 'before';
        return { source: canonicalRef(String(e.source)), target: canonicalRef(String(e.target)), kind, declaredBy: canonicalRef(String(e.source)) };
    });
    const order = (root.resourceOrder ?? []) as string[];
    const byOrder = order.length > 0 ? [...resources].sort((a, b) => rank(order, a.ref) - rank(order, b.ref)) : resources;
    return {
        name: String(root.name ?? ''),
        environment: String(root.environment ?? 'production'),
        ...(root.version !== undefined ? { version: String(root.version) } : {}),
        ...(typeof root.catalogUuid === 'string' ? { catalogUuid: root.catalogUuid } : {}),
        ...(typeof root.codeId === 'string' ? { codeId: root.codeId } : {}),
        resources: byOrder,
        containment,
        relationships: [...metaparamRelationships(byOrder), ...explicit],
        file
    };
}

function rank(order: readonly string[], ref: string): number {
    const i = order.indexOf(ref);
    return i < 0 ? order.length : i;
}

function makeResource(type: string, title: string, params: Map<string, PuppetValue>, sensitive: readonly string[], tags: readonly string[],
                      file: string | undefined, line: number | undefined, exported: boolean): CatalogResource {
    for (const s of sensitive) {
        const v = params.get(s);
        if (v !== undefined && !(v instanceof PSensitive)) params.set(s, new PSensitive(v));
    }
    return {
        type: type.toLowerCase(),
        title,
        ref: canonicalRef(`${type}[${title}]`),
        parameters: params,
        sensitiveParameters: new Set(sensitive),
        tags,
        ...(file !== undefined ? { file } : {}),
        ...(line !== undefined ? { line } : {}),
        exported
    };
}

/** before/notify point from the resource to the target; require/subscribe from the target to it. */
function metaparamRelationships(resources: readonly CatalogResource[]): Relationship[] {
    const out: Relationship[] = [];
    for (const r of resources) {
        for (const [param, kind, forward] of [['before', 'before', true], ['notify', 'notify', true], ['require', 'before', false], ['subscribe', 'notify', false]] as const) {
            const v = r.parameters.get(param);
            if (v === undefined || v === null) continue;
            for (const ref of (Array.isArray(v) ? v : [v]).map(x => canonicalRef(String(x)))) {
                out.push(forward ? { source: r.ref, target: ref, kind, declaredBy: r.ref } : { source: ref, target: r.ref, kind, declaredBy: r.ref });
            }
        }
    }
    return out;
}
