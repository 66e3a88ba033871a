import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse as parseYaml } from 'yaml';
import { startServe } from '../src/serve/index.js';
import { root } from './compare.js';
import { HAS_OPENSSL, makePki, type TestPki } from './pki.js';

const NODES = ['web01.example.com', 'db01.example.com', 'util01.example.com'];
const CONCURRENCY = [1, 2, 8];
/** How long each concurrency level runs (after a warm-up), and the fewest requests it measures. */
const LEVEL_MS = 8000;
const MIN_REQUESTS = 6;

interface Client {
    readonly certname: string;
    readonly agent: Agent;
    readonly body: string;
}

/** A client per node: its certificate, a keep-alive connection, the catalog request body an agent would send. */
function clientFor(pki: TestPki, certname: string): Client {
    const ssl = pki.agentSslDir(certname);
    const facts = parseYaml(readFileSync(join(root, 'examples', 'facts', `${certname}.yaml`), 'utf8')) as unknown;
    const agent = new Agent({
        keepAlive: true, ca: readFileSync(join(ssl, 'certs', 'ca.pem')), servername: 'localhost',
        cert: readFileSync(join(ssl, 'certs', `${certname}.pem`)), key: readFileSync(join(ssl, 'private_keys', `${certname}.pem`))
    });
    const body = new URLSearchParams({
        environment: 'production', facts_format: 'application/json', facts: encodeURIComponent(JSON.stringify({ name: certname, values: facts }))
    }).toString();
    return { certname, agent, body };
}

/** Puppet Server (or any server) to measure beside modelc: `PORT:PKIDIR`, PKIDIR holding agent-CERTNAME/ssl as bench/pki.ts lays them out. */
function otherServer(): { port: number; pki: TestPki } | undefined {
    const spec = process.env.MODELC_BENCH_PUPPETSERVER;
    const m = spec !== undefined ? /^(\d+):(.+)$/.exec(spec) : null;
    if (!m) return undefined;
    return { port: Number(m[1]), pki: { serverSslDir: '', agentSslDir: certname => join(m[2], `agent-${certname}`, 'ssl') } };
}

function catalogRequest(port: number, c: Client): Promise<number> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
        const req = request({
            host: '127.0.0.1', port, method: 'POST', path: `/puppet/v3/catalog/${c.certname}?environment=production`, agent: c.agent,
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/vnd.puppet.rich+json, application/json' }
        }, res => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`HTTP ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end(c.body);
    });
}

function percentile(sorted: readonly number[], p: number): number {
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * `modelc serve` under load: catalog requests for the example's three nodes (web01, db01,
 * util01, each with its client certificate and facts, as an agent sends them) from 1, 2 and 8
 * concurrent clients over keep-alive HTTPS, against a server with one compile thread per core;
 * with MODELC_BENCH_PUPPETSERVER=PORT:PKIDIR, Puppet Server beside it (docs/serve.md shows the
 * set-up). Prints requests/s and p50/p99 latency per level. Reports only; nothing asserts a time.
 */
export async function runServeBench(): Promise<void> {
    console.log('serve: catalog requests over HTTPS (examples/site, web01/db01/util01)');
    if (!HAS_OPENSSL) {
        console.log('  skipped: openssl is not installed (needed for the test CA)');
        return;
    }
    const tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-bench-'));
    const workers = Math.max(1, availableParallelism());
    const pki = makePki(join(tmp, 'pki'), NODES);
    const clients = NODES.map(n => clientFor(pki, n));
    try {
        for (const bindings of [true, false]) {
            console.log(bindings
                ? '  with the example\'s ARM-8 bindings (each compile runs its ENC and inventory programs, as modelc compile does)'
                : '  --no-bindings (Hiera 5 alone, as Puppet 7)');
            const server = await startServe({ root: join(root, 'examples', 'site'), sslDir: pki.serverSslDir, port: 0, bind: '127.0.0.1', workers, bindings, reportDir: join(tmp, 'reports') });
            try {
                await measure(server.port, clients, workers, `${workers} compile threads`);
            } finally {
                await server.close();
            }
        }
        const other = otherServer();
        if (other) {
            console.log(`  the server at port ${other.port} (MODELC_BENCH_PUPPETSERVER; Puppet Server on the same example)`);
            const theirs = NODES.map(n => clientFor(other.pki, n));
            try {
                await measure(other.port, theirs, workers, 'its own JRuby pool');
            } finally {
                for (const c of theirs) c.agent.destroy();
            }
        }
    } finally {
        for (const c of clients) c.agent.destroy();
        rmSync(tmp, { recursive: true, force: true });
    }
}

/** Requests/s and latency percentiles at each concurrency level, after a warm-up of `warm` rounds over every node. */
async function measure(port: number, clients: readonly Client[], warm: number, threads: string): Promise<void> {
    // Warm-up: every thread compiles every node once (loads the compiler, fills caches).
    await Promise.all(Array.from({ length: warm }, () => Promise.all(clients.map(c => catalogRequest(port, c)))));
    console.log(`  ${'clients'.padStart(8)} ${'requests'.padStart(9)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)}   (${threads})`);
    for (const concurrency of CONCURRENCY) {
        const latencies: number[] = [];
        const started = performance.now();
        let next = 0;
        const loop = async (): Promise<void> => {
            while (performance.now() - started < LEVEL_MS || latencies.length < MIN_REQUESTS) {
                latencies.push(await catalogRequest(port, clients[next++ % clients.length]));
            }
        };
        await Promise.all(Array.from({ length: concurrency }, loop));
        const seconds = (performance.now() - started) / 1000;
        const sorted = [...latencies].sort((a, b) => a - b);
        console.log(`  ${String(concurrency).padStart(8)} ${String(sorted.length).padStart(9)} ${(sorted.length / seconds).toFixed(1).padStart(8)} ${percentile(sorted, 50).toFixed(1).padStart(9)} ${percentile(sorted, 99).toFixed(1).padStart(9)}`);
    }
}
