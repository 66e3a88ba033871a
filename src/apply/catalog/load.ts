import { readFileSync } from 'node:fs';
import { notAFile, UserError } from '../../common/index.js';
import { decodeModelBytes, ModelIssues, sniffModelFormat, type Model, type ModelObject } from '../../model/index.js';
import { ApplyIssues } from '../issues.js';
import type { CatalogResource } from '../run/harness.js';
import { PDefault, PRegexp, PSensitive, type PuppetValue } from '../values.js';
import type { ApplyCatalog, Relationship } from './catalog.js';
import { isPuppetCatalogJson, puppetCatalogToModel } from './puppet-json.js';
import { canonicalRef, typeValueRef } from './refs.js';

export { canonicalRef };

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
            // A resource reference is a string in Puppet's catalog JSON; a Catalog model may carry it as a Type.
            case 'Type': return typeof pv === 'string' ? typeValueRef(pv) ?? pv : again(pv);
            default: return typeof pv === 'string' ? pv : again(pv);
        }
    }
    return new Map(Object.entries(o).map(([k, v]) => [k, again(v)]));
}

/** The JSON with its integers as bigints; undefined when it nests too deep to revive (the model decoder reports that). */
function parseWithIntegers(text: string, file: string): unknown {
    try {
        return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
            typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value);
    } catch (e) {
        if (e instanceof RangeError) return undefined;
        throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message: `invalid JSON: ${e instanceof Error ? e.message : String(e)}`, file });
    }
}

/**
 * Reads any catalog as a Catalog model: the model itself (JSON, msgpack, ... told by content) or
 * Puppet's catalog JSON (catalog_format 1/2, or the oracle's normalized form).
 */
export function readCatalogModel(file: string): Model {
    return readCatalog(file).model;
}

/**
 * Reads a model of any kind, or Puppet's catalog JSON as a Catalog model: what a command that
 * compares or shows models (diff) takes.
 */
export function readModelOrPuppetCatalog(file: string): Model {
    return readCatalog(file, null).model;
}

function readCatalog(file: string, kind: string | null = 'catalog'): { model: Model; fromPuppet: boolean } {
    const problem = notAFile(file);
    if (problem !== undefined) throw new UserError({ severity: 'error', code: ModelIssues.FILE_NOT_FOUND, message: problem, file });
    const bytes = readFileSync(file);
    if (sniffModelFormat(bytes) === 'json') {
        const data = parseWithIntegers(bytes.toString('utf8'), file);
        if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
            throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message: 'a catalog is a JSON object', file, path: '' });
        }
        if (isPuppetCatalogJson(data)) return { model: puppetCatalogToModel(data, file), fromPuppet: true };
    }
    return { model: decodeModelBytes(bytes, file, kind !== null ? { kind } : {}), fromPuppet: false };
}

/**
 * Reads a catalog to apply (see readCatalogModel). Relationship metaparameters become edges.
 */
export function loadCatalog(file: string): ApplyCatalog {
    const { model, fromPuppet } = readCatalog(file);
    // A model file's JSON numbers lose the Integer/Float distinction: integral ones are Integers.
    // Puppet's JSON was read with its integers as bigints, so its other numbers are Floats.
    return fromCatalogModel(model.root, file, !fromPuppet);
}

function fromCatalogModel(root: ModelObject, file: string, integralIsInteger: boolean): ApplyCatalog {
    const rs = (root.resources ?? []) as ModelObject[];
    // As for Puppet's JSON, exported resources are applied (only unrealized virtual ones are not).
    const resources = rs.filter(r => r.virtual !== true).map(r => {
        const params = new Map<string, PuppetValue>();
        for (const p of (r.parameters ?? []) as ModelObject[]) params.set(String(p.name), fromRichData(p.value, integralIsInteger));
        return makeResource(String(r.type), String(r.title), params, ((r.sensitiveParameters ?? []) as string[]), (r.tags ?? []) as string[],
            typeof r.file === 'string' ? r.file : undefined, typeof r.line === 'number' || typeof r.line === 'bigint' ? Number(r.line) : undefined, r.exported === true);
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
                out.push(forward ? { source: r.ref, target: ref, kind, declaredBy: r.ref, param } : { source: ref, target: r.ref, kind, declaredBy: r.ref, param });
            }
        }
    }
    return out;
}
