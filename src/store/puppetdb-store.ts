import { randomUUID } from 'node:crypto';
import { storeError } from './issues.js';
import { matchesQuery } from './query.js';

/** Node, then type, then title: the order both stores return results in. */
function byPlace(a: FoundResource, b: FoundResource): number {
    const ka = [a.node, a.type.toLowerCase(), a.title];
    const kb = [b.node, b.type.toLowerCase(), b.title];
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return (ka[i] as string) < (kb[i] as string) ? -1 : 1;
    return 0;
}
import type { CatalogStore, FoundResource, QueryNode, QueryValue, ResourceQuery, StoredCatalog, StoredJson, StoredReport } from './model.js';
import { toPuppetDbReport } from './puppetdb-report.js';
import { httpSync } from './sync-http.js';

type Ast = ReadonlyArray<string | number | boolean | null | Ast>;

function valueAst(v: QueryValue): string | number | boolean | null {
    return v !== null && typeof v === 'object' ? v.regexp : v;
}

/**
 * The store's query model in PuppetDB's v4 AST query language, as a filter PuppetDB can run with
 * the same meaning (title and tag comparisons); the rest (and what contains it under `or`/`not`)
 * is left out and the results are filtered again with the store's own semantics (matchesQuery).
 * Undefined means "no filter".
 */
export function toPuppetDbAst(q: QueryNode): Ast | undefined {
    switch (q.kind) {
        case 'and': {
            const parts = q.operands.map(toPuppetDbAst).filter((x): x is Ast => x !== undefined);
            return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : ['and', ...parts];
        }
        case 'or': {
            const parts = q.operands.map(toPuppetDbAst);
            return parts.some(x => x === undefined) ? undefined : ['or', ...(parts as Ast[])];
        }
        case 'not': {
            const inner = toPuppetDbAst(q.operand);
            return inner === undefined ? undefined : ['not', inner];
        }
        case 'compare': {
            // Only title and tag compare in PuppetDB as here: its parameter `=` neither looks into arrays nor
            // compares 5433 with '5433', and it has no ordering on parameters; those are filtered here.
            const ordering = q.operator === '<' || q.operator === '>' || q.operator === '<=' || q.operator === '>=';
            if (ordering || (q.attribute !== 'title' && q.attribute !== 'tag')) return undefined;
            const field = q.attribute;
            const op = q.operator === '==' || q.operator === '!=' ? '=' : '~';
            const cmp: Ast = [op, field, valueAst(q.value)];
            return q.operator === '!=' || q.operator === '~!' ? ['not', cmp] : cmp;
        }
    }
}

/** PuppetDB's capitalization of a type name: each `::` segment capitalized (`Nagios_service`, `Foo::Bar`). */
function pdbType(type: string): string {
    return type.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()).join('::');
}

/**
 * PuppetDB as the catalog store: catalogs go in with the command API (`replace catalog`, v9,
 * waiting for it to be processed), queries use the v4 query API's AST language, so modelc and
 * Puppet Servers can share one PuppetDB.
 */
export function openPuppetDbStore(base: string): CatalogStore {
    const root = base.replace(/\/+$/, '');
    const url = `puppetdb:${root}`;
    const call = (path: string, method: 'GET' | 'POST', body?: unknown): unknown => {
        const r = httpSync(`${root}${path}`, method, body);
        if ('error' in r) throw storeError('STORE_UNREACHABLE', { file: url }, url, r.error);
        if (r.status >= 400) throw storeError('STORE_PUPPETDB', { file: url }, url, `${r.status} ${r.text.slice(0, 300)}`);
        try {
            return JSON.parse(r.text) as unknown;
        } catch {
            throw storeError('STORE_CORRUPT', { file: url }, url, `not JSON: ${r.text.slice(0, 100)}`);
        }
    };
    const query = (ast: Ast): Array<Record<string, unknown>> => call('/pdb/query/v4', 'POST', { query: ast }) as Array<Record<string, unknown>>;
    query(['from', 'nodes', ['=', 'certname', '']]);
    return {
        url,
        replaceCatalog(c: StoredCatalog): void {
            const now = new Date().toISOString();
            const ref = (s: string): { type: string; title: string } => {
                const m = /^([^[]+)\[(.*)\]$/s.exec(s);
                return { type: m?.[1] ?? s, title: m?.[2] ?? '' };
            };
            const body = {
                certname: c.node, version: String(Date.now()), environment: c.environment, transaction_uuid: randomUUID(), catalog_uuid: randomUUID(),
                producer_timestamp: now, producer: 'modelc', code_id: null, job_id: null,
                resources: c.resources.map(r => ({
                    type: pdbType(r.type), title: r.title, exported: r.exported, tags: r.tags, ...(r.file !== undefined ? { file: r.file } : {}),
                    ...(r.line !== undefined ? { line: r.line } : {}), parameters: r.parameters
                })),
                edges: (c.edges ?? []).map(e => ({ source: ref(e.source), target: ref(e.target), relationship: 'contains' }))
            };
            const q = `?command=replace_catalog&version=9&certname=${encodeURIComponent(c.node)}&producer-timestamp=${encodeURIComponent(now)}&secondsToWaitForCompletion=30`;
            call(`/pdb/cmd/v1${q}`, 'POST', body);
        },
        resources(q: ResourceQuery): FoundResource[] {
            const parts: Ast[] = [];
            if (q.type !== undefined) parts.push(['=', 'type', pdbType(q.type)]);
            if (q.exported) parts.push(['=', 'exported', true]);
            if (q.excludeNode !== undefined) parts.push(['not', ['=', 'certname', q.excludeNode]]);
            if (q.environment !== undefined) parts.push(['=', 'environment', q.environment]);
            const filter = q.where ? toPuppetDbAst(q.where) : undefined;
            if (filter) parts.push(filter);
            const rows = query(['from', 'resources', ...(parts.length ? [['and', ...parts] as Ast] : [])]);
            return rows.map(r => ({
                node: String(r.certname), environment: String(r.environment ?? ''), type: String(r.type), title: String(r.title), exported: r.exported === true,
                tags: (r.tags as string[] | undefined) ?? [], ...(typeof r.file === 'string' ? { file: r.file } : {}), ...(typeof r.line === 'number' ? { line: r.line } : {}),
                parameters: (r.parameters as Record<string, StoredJson> | undefined) ?? {}
            })).filter(r => matchesQuery(r, q.where)).sort(byPlace);
        },
        nodes(): string[] {
            return query(['from', 'nodes']).map(r => String(r.certname)).sort();
        },
        storeReport(r: StoredReport): void {
            const q = `?command=store_report&version=8&certname=${encodeURIComponent(r.node)}&producer-timestamp=${encodeURIComponent(r.receivedAt)}&secondsToWaitForCompletion=30`;
            call(`/pdb/cmd/v1${q}`, 'POST', toPuppetDbReport(r));
        },
        /** PuppetDB's report rows (its query API's shape, not the agent's), oldest first. */
        reports(node: string): StoredReport[] {
            return query(['from', 'reports', ['=', 'certname', node], ['order_by', [['producer_timestamp', 'asc']]]]).map(row => ({
                node, environment: String(row.environment ?? ''), receivedAt: String(row.producer_timestamp ?? ''), report: row as StoredReport['report']
            }));
        },
        close(): void {}
    };
}
