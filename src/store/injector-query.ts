import type { EvaluationScope, PuppetCode, QueryService } from '../injector/index.js';
import type { PuppetValue } from '../values/index.js';
import { storeError } from './issues.js';
import type { CatalogStore, FoundResource, QueryNode, StoredJson } from './model.js';
import { BUILTIN_QUERY_ATTRIBUTES, parseQuery, queryAttributes } from './query.js';

/** The attributes of a resource type, or undefined when the type is unknown. */
export type ResourceAttributes = (type: string) => ReadonlySet<string> | undefined;

/** Stored JSON back to Puppet values (integers as Integer). */
export function toPuppet(v: StoredJson): PuppetValue {
    if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
    if (Array.isArray(v)) return v.map(toPuppet);
    if (v !== null && typeof v === 'object') return new Map<PuppetValue, PuppetValue>(Object.entries(v).map(([k, x]) => [k, toPuppet(x)]));
    return v;
}

/** Checks a query's type and attributes when the environment's types are known. */
export function checkQuery(type: string | undefined, q: QueryNode | undefined, attributes: ResourceAttributes | undefined, at: { file?: string; line?: number }): void {
    if (!attributes || type === undefined) return;
    const known = attributes(type);
    if (!known) throw storeError('QUERY_UNKNOWN_TYPE', at, type);
    for (const a of queryAttributes(q)) {
        if (!known.has(a) && !BUILTIN_QUERY_ATTRIBUTES.has(a)) throw storeError('QUERY_UNKNOWN_ATTRIBUTE', at, type, a);
    }
}

/** One query answered, for the cross-node graph: which node's resource a result came from. */
export interface QueryProvenance {
    readonly query: string;
    readonly type: string | undefined;
    readonly results: ReadonlyArray<{ readonly node: string; readonly type: string; readonly title: string }>;
}

/**
 * The injector's QueryService over a catalog store: `Type[?? expr]` in bindings. The node under
 * compilation is never part of a result (ARM-8: "the result never includes resources from the
 * catalog under compilation"); each result is the resource's parameters as a hash, so
 * `bind parameters Web[one] to Sql[?? name == one]` maps them.
 */
export function storeQueryService(store: CatalogStore, options: {
    readonly node?: string;
    readonly environment?: string;
    readonly attributes?: ResourceAttributes;
    readonly provenance?: QueryProvenance[];
}): QueryService {
    return {
        query(resourceType: string | undefined, code: PuppetCode, scope: EvaluationScope) {
            const place = { ...(code.file !== undefined ? { file: code.file } : {}), ...(code.line !== undefined ? { line: code.line } : {}) };
            const where = parseQuery(code.source, place);
            checkQuery(resourceType, where, options.attributes, place);
            const found: FoundResource[] = store.resources({
                ...(resourceType !== undefined ? { type: resourceType } : {}), where, excludeNode: options.node ?? scope.node,
                ...(options.environment !== undefined ? { environment: options.environment } : {})
            });
            options.provenance?.push({ query: code.source, type: resourceType, results: found.map(r => ({ node: r.node, type: r.type, title: r.title })) });
            return found.map(r => toPuppet({ ...r.parameters }));
        }
    };
}
