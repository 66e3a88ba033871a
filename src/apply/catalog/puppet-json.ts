import { UserError } from '../../common/index.js';
import { decodeWire, type Model } from '../../model/index.js';
import { ApplyIssues } from '../issues.js';
import { canonicalRef } from './refs.js';

const NS = 'http://modelc.dev/catalog/1.0#//';

type Wire = Record<string, unknown>;

const KINDS = new Set(['class', 'defined_type', 'compilable_type', 'unknown']);

/**
 * The model's kind for Puppet's: Puppet 7 writes 'unknown' for classes and nodes and
 * 'compilable_type' for core types and stages, where the compiler's Catalog model says hostClass
 * and leaves the kind unset, so catalogs of both compare by what they declare.
 */
function modelKind(type: string, kind: string | undefined): string | undefined {
    if (type === 'Class' || kind === 'class') return 'hostClass';
    if (kind === 'defined_type') return 'definedType';
    if (kind === 'unknown' && type !== 'Node') return 'unknown';
    return undefined;
}

/** True for a parsed JSON document that is Puppet's catalog JSON (or the oracle's normalized form), not a model. */
export function isPuppetCatalogJson(data: unknown): data is Wire {
    return typeof data === 'object' && data !== null && !Array.isArray(data) && !('$type' in data) && !('_class' in data) && 'resources' in data;
}

function fail(file: string, path: string, message: string): never {
    throw new UserError({ severity: 'error', code: ApplyIssues.CATALOG_FORMAT, message, file, path });
}

function strings(v: unknown, file: string, path: string): string[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some(x => typeof x !== 'string')) fail(file, path, 'expected a list of strings');
    return v as string[];
}

function lineOf(v: unknown): bigint | number | undefined {
    return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)) ? v : undefined;
}

/**
 * Puppet's catalog JSON (catalog_format 1 or 2, as `puppet catalog find`, `modelc compile --format
 * puppet` or the oracle write it) as a Catalog model, so that apply and diff read one model
 * whatever wrote the catalog. Parameter values are Puppet's rich data already; the document's
 * own numbers keep what the JSON text said (integers as bigint when the parser was told so).
 * The result is validated as any Catalog model is.
 */
export function puppetCatalogToModel(data: Wire, file: string): Model {
    if (!Array.isArray(data.resources)) fail(file, '/resources', 'a Puppet catalog needs a "resources" array');
    if (data.name !== undefined && typeof data.name !== 'string') fail(file, '/name', 'the catalog name must be a string');
    const resources = (data.resources as unknown[]).map((r, i) => resourceWire(r, file, `/resources/${i}`));
    const edges = data.edges === undefined || data.edges === null ? [] : data.edges;
    if (!Array.isArray(edges)) fail(file, '/edges', 'edges must be a list');
    const edgeWires = edges.map((e: unknown, i) => {
        const at = `/edges/${i}`;
        if (typeof e !== 'object' || e === null || typeof (e as Wire).source !== 'string' || typeof (e as Wire).target !== 'string') {
            fail(file, at, 'an edge needs a string "source" and "target"');
        }
        return { $type: `${NS}Edge`, source: canonicalRef((e as Wire).source as string), target: canonicalRef((e as Wire).target as string) };
    });
    const version = data.version;
    const wire: Wire = {
        $type: `${NS}Catalog`,
        name: typeof data.name === 'string' ? data.name : '',
        ...(typeof version === 'string' || typeof version === 'number' || typeof version === 'bigint' ? { version } : {}),
        ...(typeof data.code_id === 'string' ? { codeId: data.code_id } : {}),
        ...(typeof data.catalog_uuid === 'string' ? { catalogUuid: data.catalog_uuid } : {}),
        ...(typeof data.catalog_format === 'number' || typeof data.catalog_format === 'bigint' ? { catalogFormat: Number(data.catalog_format) } : {}),
        environment: typeof data.environment === 'string' ? data.environment : 'production',
        tags: strings(data.tags, file, '/tags'),
        classes: strings(data.classes, file, '/classes'),
        resources,
        edges: edgeWires,
        // Puppet lists resources in catalog order; the oracle's normalized form sorts them and says the order.
        resourceOrder: data.resource_order !== undefined ? strings(data.resource_order, file, '/resource_order').map(canonicalRef) : resources.map(r => r.ref),
        ...(data.notices !== undefined ? { notices: strings(data.notices, file, '/notices') } : {})
    };
    return decodeWire(wire, file, { kind: 'catalog' });
}

function resourceWire(r: unknown, file: string, at: string): Wire {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) fail(file, at, 'a resource is an object');
    const o = r as Wire;
    if (typeof o.type !== 'string' || typeof o.title !== 'string') fail(file, at, 'a resource needs a string "type" and "title"');
    const params = o.parameters ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) fail(file, `${at}/parameters`, 'parameters must be an object');
    const ref = canonicalRef(`${o.type}[${o.title}]`);
    if (o.kind !== undefined && !(typeof o.kind === 'string' && KINDS.has(o.kind))) fail(file, `${at}/kind`, `unknown resource kind ${JSON.stringify(o.kind)}`);
    const type = ref.slice(0, ref.indexOf('['));
    const kind = modelKind(type, o.kind as string | undefined);
    const line = lineOf(o.line);
    return {
        $type: `${NS}Resource`, $id: ref, ref,
        type, title: o.title,
        tags: strings(o.tags, file, `${at}/tags`),
        ...(o.exported === true ? { exported: true } : {}),
        ...(typeof o.file === 'string' ? { file: o.file } : {}),
        ...(line !== undefined ? { line } : {}),
        ...(kind !== undefined ? { kind } : {}),
        parameters: Object.entries(params as Wire).map(([name, value]) => {
            if (value === null) fail(file, `${at}/parameters/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, 'a parameter value cannot be null');
            return { $type: `${NS}Parameter`, name, value };
        }),
        ...(o.sensitive_parameters !== undefined ? { sensitiveParameters: strings(o.sensitive_parameters, file, `${at}/sensitive_parameters`) } : {})
    };
}
