import { compareUtf8 } from '../common/index.js';
import { randomUUID } from 'node:crypto';
import type { CompileResult } from './compiler.js';
import { PSensitive } from '../values/index.js';
import { toCatalogJson, type Json } from './normalize.js';

const byteCompare = compareUtf8;

/**
 * Puppet's catalog JSON (`catalog_format` 2, rich data), what a Puppet server sends an agent:
 * resources in catalog order with their kind, containment edges, the class list.
 */
export function puppetCatalog(r: CompileResult, version: bigint = BigInt(Math.floor(Date.now() / 1000))): Json {
    const resources = [...r.catalog.resources.values()];
    const present = new Set(resources);
    return {
        tags: [...r.catalog.tags].sort(byteCompare),
        name: r.node, version, code_id: null, catalog_uuid: randomUUID(), catalog_format: 2n,
        environment: r.environment,
        resources: resources.map(x => {
            const params = [...x.outputParams()].filter(([, p]) => p.value !== null);
            const sensitive = params.filter(([, p]) => p.value instanceof PSensitive).map(([k]) => k);
            return {
                type: x.type, title: x.title, tags: [...x.tags].sort(byteCompare),
                file: x.where?.file, line: x.where ? BigInt(x.where.line) : undefined, exported: x.exported,
                // Puppet 7.23 writes these kinds: core types are compilable, classes and nodes 'unknown'.
                kind: x.kind === 'define' ? 'defined_type' : x.kind === 'builtin' || x.kind === 'stage' ? 'compilable_type' : 'unknown',
                parameters: params.length ? Object.fromEntries(params.map(([k, p]) => [k, toCatalogJson(p.value)])) : undefined,
                sensitive_parameters: sensitive.length ? sensitive : undefined
            };
        }),
        edges: r.catalog.edges.filter(e => present.has(e.source) && present.has(e.target)).map(e => ({ source: e.source.ref, target: e.target.ref })),
        classes: [...r.catalog.classes]
    };
}
