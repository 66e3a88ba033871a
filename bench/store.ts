import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore, parseQuery, toPuppetDbAst, type CatalogStore, type StoredCatalog, type StoredResource } from '../src/store/index.js';

const CATALOGS = 1000;
const RESOURCES = 500;
const QUERIES = 1000;

/** A node's catalog: one Sql database, 20 services, packages and files, all with a few parameters. */
function catalog(n: number, env: string, resources = RESOURCES): StoredCatalog {
    const out: StoredResource[] = [{ type: 'Sql', title: `db${n}`, exported: true, tags: ['sql'], parameters: { user: `app${n % 10}`, port: 5000 + (n % 100), name: `db${n}` } }];
    for (let i = 1; i < resources; i++) {
        const kind = i % 25 === 0 ? 'Service' : i % 2 === 0 ? 'Package' : 'File';
        out.push({
            type: kind, title: `${kind.toLowerCase()}-${n}-${i}`, exported: i % 50 === 0, tags: [kind.toLowerCase(), `role${n % 7}`],
            parameters: kind === 'File' ? { ensure: 'file', mode: '0644', owner: `u${i % 13}` } : kind === 'Service' ? { ensure: 'running', enable: true } : { ensure: 'installed' }
        });
    }
    return { node: `node${n}.bench.example.com`, environment: env, resources: out };
}

const queries = (count: number, nodes: number): string[] => Array.from({ length: count }, (_, i) => (i % 2 === 0
    ? `name == db${(i * 7) % nodes}`
    : `user == app${i % 10} and port > ${5000 + (i % 90)}`));

function rate(n: number, ms: number): string {
    return `${(n / (ms / 1000)).toFixed(0)}/s (${ms.toFixed(0)} ms)`;
}

/** Queries with no equality: the store reads every resource of the type, as every query did before the parameter index. */
const scans = (count: number): string[] => Array.from({ length: count }, (_, i) => `port > ${5000 + (i % 90)} and port < ${5010 + (i % 90)}`);

function run(store: CatalogStore, env: string, nodes: number, resources: number, count: number): { write: number; query: number; scan: number; results: number } {
    let t = performance.now();
    for (let n = 0; n < nodes; n++) store.replaceCatalog(catalog(n, env, resources));
    const write = performance.now() - t;
    const ask = (list: string[]): { ms: number; results: number } => {
        const qs = list.map(q => parseQuery(q));
        let results = 0;
        const start = performance.now();
        for (const q of qs) results += store.resources({ type: 'Sql', where: q, excludeNode: 'node0.bench.example.com', environment: env }).length;
        return { ms: performance.now() - start, results };
    };
    const q = ask(queries(count, nodes));
    const scan = ask(scans(Math.max(1, Math.floor(count / 10))));
    return { write, query: q.ms, scan: scan.ms, results: q.results };
}

/**
 * `npm run bench`: the catalog store. SQLite: 1,000 catalogs of 500 resources stored (one
 * transaction each), then 1,000 `Sql[?? ...]` queries. PuppetDB (when one answers at
 * MODELC_PUPPETDB_URL, default http://127.0.0.1:8080): a smaller run through modelc's client, and
 * PuppetDB's own time for the same queries (its query API called directly).
 */
export async function runStoreBench(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-store-bench-'));
    try {
        console.log(`Catalog store: ${CATALOGS} catalogs x ${RESOURCES} resources, ${QUERIES} ?? queries`);
        const sqlite = openStore(`sqlite:${join(dir, 'bench.sqlite')}`);
        const s = run(sqlite, 'bench', CATALOGS, RESOURCES, QUERIES);
        sqlite.close();
        console.log(`  SQLite   store ${rate(CATALOGS, s.write)} catalogs (${rate(CATALOGS * RESOURCES, s.write).split(' ')[0]} resources), query ${rate(QUERIES, s.query)}, ${s.results} results`);
        // Equality queries read the parameter index; range-only ones read every resource of the type (the path all queries took before it).
        console.log(`  SQLite   range-only queries (no index: every Sql resource read) ${rate(QUERIES / 10, s.scan)}`);
        const url = process.env.MODELC_PUPPETDB_URL ?? 'http://127.0.0.1:8080';
        const up = await fetch(`${url}/status/v1/services/puppetdb-status`, { signal: AbortSignal.timeout(2000) }).then(r => r.ok).catch(() => false);
        if (!up) {
            console.log(`  PuppetDB not measured: nothing answers at ${url} (../shared/tools/puppetdb-local start)`);
            return;
        }
        const nodes = 50;
        const count = 100;
        const env = `bench${Date.now().toString(36)}`;
        const pdb = openStore(`puppetdb:${url}`);
        const p = run(pdb, env, nodes, RESOURCES, count);
        console.log(`  PuppetDB (modelc client) store ${rate(nodes, p.write)} catalogs, query ${rate(count, p.query)} (${nodes} catalogs, ${count} queries)`);
        const asts = queries(count, nodes).map(q => ['from', 'resources', ['and', ['=', 'type', 'Sql'], ['=', 'environment', env], toPuppetDbAst(parseQuery(q)) ?? ['=', 'exported', true]]]);
        const t = performance.now();
        for (const query of asts) await (await fetch(`${url}/pdb/query/v4`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).text();
        console.log(`  PuppetDB own query API (same queries, HTTP from this process) ${rate(count, performance.now() - t)}`);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
