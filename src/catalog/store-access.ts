import type { Expression } from '../../generated/langium/ast.js';
import { checkQuery, compileQuery, storeError, toPuppet, type FoundResource, type QueryNode, type QueryProvenance, type ResourceAttributes } from '../store/index.js';
import { capitalize } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import type { CatalogRuntime, ExpressionEvaluator } from './runtime.js';
import { coreType, METAPARAMS } from './core-types.js';
import { nameTags, tagResource, titleTags } from './ops/attributes.js';
import { CatalogResource } from './resource.js';
import type { Scope } from './scope.js';

/**
 * The attributes of a resource type in this environment: a core type's or a module's Ruby type's
 * (Resource API or classic), or a define's parameters (plus metaparameters).
 */
export function resourceAttributes(c: Pick<CatalogRuntime, 'loader' | 'resourceType'>): ResourceAttributes {
    return type => {
        const lower = type.replace(/^::/, '').toLowerCase();
        const core = coreType(lower) ?? c.resourceType(lower);
        if (core) return new Set([...core.attributes, ...METAPARAMS]);
        const define = c.loader.findDefine(lower);
        if (!define) return undefined;
        return new Set(['name', 'title', ...define.ast.params.map(p => p.name.replace(/^\$/, '')), ...METAPARAMS]);
    };
}

/** A collector's or `??` query expression in the store's query model; values are evaluated in `scope`. */
export function storeQuery(ev: ExpressionEvaluator, q: Expression | undefined, scope: Scope): QueryNode | undefined {
    if (!q) return undefined;
    const at = (e: Expression): { file: string; line: number } => { const w = ev.where(e); return { file: w.file, line: w.line }; };
    return compileQuery(q, e => ev.evaluate(e, scope), at, e => e.$cstNode?.text ?? '');
}

/** Records which nodes' resources a query of this compile used (the cross-node graph). */
function record(c: CatalogRuntime, query: string, type: string, found: readonly FoundResource[]): void {
    c.queryLog?.push({ query, type, results: found.map(r => ({ node: r.node, type: r.type, title: r.title })) } satisfies QueryProvenance);
}

/**
 * `Type[?? expr]` in a manifest: the resources of other nodes' stored catalogs that match, as
 * hashes (type, title, node, parameters) — never the catalog under compilation (ARM-8).
 */
export function queryStore(c: CatalogRuntime, ev: ExpressionEvaluator, type: string, q: Expression, scope: Scope): PuppetValue {
    const store = c.store;
    const w = ev.where(q);
    if (!store) throw storeError('STORE_NOT_CONFIGURED', { file: w.file, line: w.line });
    const where = storeQuery(ev, q, scope);
    checkQuery(type, where, resourceAttributes(c), { file: w.file, line: w.line });
    const found = store.resources({ type, ...(where ? { where } : {}), excludeNode: c.nodeName, environment: c.env.name });
    record(c, q.$cstNode?.text ?? '', type, found);
    return found.map(r => new Map<PuppetValue, PuppetValue>([
        ['type', r.type], ['title', r.title], ['node', r.node], ['exported', r.exported], ['parameters', toPuppet(r.parameters)]
    ]));
}

/**
 * Puppet's exported collection (`Type <<| query |>>`) with a store: other nodes' exported
 * resources that match become resources of this catalog, as Puppet with PuppetDB makes them
 * (recorded in test/store/fixtures/three-node): of any environment (the query has no
 * environment filter), exported = false, no file or line, tags made afresh (type, title, the
 * collecting scope's, the `tag` parameter; the stored tags are dropped). The exporting node and
 * place are kept as provenance. The node's own stored catalog is not read (its exports come
 * from this compile). A resource already in the catalog is Puppet's duplicate error.
 */
export function collectFromStore(c: CatalogRuntime, ev: ExpressionEvaluator, type: string, q: Expression | undefined, scope: Scope, where: { file: string; line: number }): CatalogResource[] {
    const store = c.store;
    if (!store) return [];
    const query = storeQuery(ev, q, scope);
    const found = store.resources({ type, exported: true, ...(query ? { where: query } : {}), excludeNode: c.nodeName });
    record(c, `${type} <<| ${q?.$cstNode?.text ?? ''} |>>`, type, found);
    const out: CatalogResource[] = [];
    for (const f of found) {
        const rtype = capitalize(f.type.toLowerCase());
        if (c.catalog.find(rtype, f.title)) {
            throw storeError('STORE_DUPLICATE_EXPORT', where, `${rtype}[${f.title}]`, f.node);
        }
        const lower = rtype.toLowerCase();
        const r = new CatalogResource(rtype, f.title, coreType(lower) ? 'builtin' : 'define', undefined);
        r.exportedBy = { node: f.node, ...(f.file !== undefined ? { where: { file: f.file, line: f.line ?? 0 } } : {}) };
        r.scope = scope;
        for (const [k, v] of Object.entries(f.parameters)) r.params.set(k, { value: toPuppet(v), origin: 'declared' });
        tagResource(r, scope, nameTags(lower));
        for (const t of titleTags(f.title)) r.tags.add(t);
        c.catalog.add(r);
        out.push(r);
    }
    return out;
}
