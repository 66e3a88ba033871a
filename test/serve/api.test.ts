import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServe, type RunningServe } from '../../src/serve/index.js';
import { HAS_OPENSSL, makePki, type TestPki } from '../../bench/pki.js';

/** Puppet Server's v3 API as modelc serve answers it, asked in-process over HTTPS with client certificates. */
interface Answer {
    readonly status: number;
    readonly type: string;
    readonly body: string;
}

const FACTS = { name: 'web01.example.com', values: { role: 'web', networking: { ip: '10.0.0.1' } } };

function call(port: number, pki: TestPki, certname: string | undefined, method: string, path: string, body?: string, accept = 'application/json'): Promise<Answer> {
    const ssl = pki.agentSslDir(certname ?? 'web01.example.com');
    return new Promise((resolve, reject) => {
        const req = request({
            host: '127.0.0.1', port, method, path, servername: 'localhost',
            ca: readFileSync(join(ssl, 'certs', 'ca.pem')),
            ...(certname !== undefined ? { cert: readFileSync(join(ssl, 'certs', `${certname}.pem`)), key: readFileSync(join(ssl, 'private_keys', `${certname}.pem`)) } : {}),
            headers: { Accept: accept, ...(body !== undefined ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) }
        }, res => {
            let data = '';
            res.on('data', (c: Buffer) => { data += c.toString(); });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: data }));
        });
        req.on('error', reject);
        req.end(body);
    });
}

/** The catalog request body an agent sends: the facts URI-escaped, then form-encoded. */
function catalogBody(environment: string): string {
    return new URLSearchParams({
        environment, configured_environment: environment, facts_format: 'application/json',
        facts: encodeURIComponent(JSON.stringify(FACTS)), transaction_uuid: 'b1f0a4a5-1c1e-4a57-9d2e-0f5a6e1f7e11'
    }).toString();
}

describe.skipIf(!HAS_OPENSSL)('modelc serve: the v3 API', () => {
    let tmp = '';
    let pki: TestPki;
    let server: RunningServe;
    let port = 0;
    const ask = (certname: string | undefined, method: string, path: string, body?: string, accept?: string): Promise<Answer> => call(port, pki, certname, method, path, body, accept);

    beforeAll(async () => {
        tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-api-'));
        pki = makePki(join(tmp, 'pki'), ['web01.example.com', 'db01.example.com']);
        const conf = join(tmp, 'conf');
        const env = (name: string, site: string): void => {
            mkdirSync(join(conf, name, 'manifests'), { recursive: true });
            writeFileSync(join(conf, name, 'manifests', 'site.pp'), site);
        };
        env('production', 'notify { "hello ${trusted[\'certname\']} ${trusted[\'extensions\'][\'pp_role\']} ${facts[\'networking\'][\'ip\']}": }\nprobe::thing { \'x\': }\n');
        env('broken', 'fail("boom for ${trusted[\'certname\']}")\n');
        const probe = join(conf, 'production', 'modules', 'probe');
        for (const d of ['lib/facter', 'lib/puppet/functions', 'facts.d', 'files/sub', 'manifests']) mkdirSync(join(probe, d), { recursive: true });
        writeFileSync(join(probe, 'manifests', 'thing.pp'), 'define probe::thing { file { "/tmp/${title}": source => "puppet:///modules/probe/hello.txt" } }\n');
        writeFileSync(join(probe, 'lib', 'facter', 'probe.rb'), '# a fact\n');
        writeFileSync(join(probe, 'facts.d', 'probe.txt'), 'probe=1\n');
        writeFileSync(join(probe, 'files', 'hello.txt'), 'hello\n');
        writeFileSync(join(probe, 'files', 'sub', 'a.txt'), 'a\n');
        writeFileSync(join(conf, 'environments.pp'), "site {\n  environment { 'production': envdir => 'production' }\n  environment { 'broken': envdir => 'broken' }\n}\n$environment = $agent_environment\n");
        server = await startServe({ root: conf, sslDir: pki.serverSslDir, port: 0, bind: '127.0.0.1', workers: 0, reportDir: join(tmp, 'reports') });
        port = server.port;
    }, 60_000);

    afterAll(async () => {
        await server?.close();
        if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    test.each([
        ['/status/v1/simple answers without a certificate', undefined, 'GET', '/status/v1/simple', 200, /^running$/],
        ['the CA certificate answers without a certificate', undefined, 'GET', '/puppet-ca/v1/certificate/ca', 200, /BEGIN CERTIFICATE/],
        ['the CRL answers without a certificate', undefined, 'GET', '/puppet-ca/v1/certificate_revocation_list/ca', 200, /BEGIN X509 CRL/],
        ['the v3 API refuses a request without a certificate', undefined, 'GET', '/puppet/v3/node/web01.example.com?environment=production', 403, /Forbidden/],
        ['an agent may not read another node', 'web01.example.com', 'GET', '/puppet/v3/node/db01.example.com?environment=production', 403, /Forbidden/],
        ['the node names the environment environments.pp selects', 'web01.example.com', 'GET', '/puppet/v3/node/web01.example.com?environment=production', 200, /"environment":"production"/],
        ['an unknown environment is 404', 'web01.example.com', 'GET', '/puppet/v3/node/web01.example.com?environment=nosuch', 404, /Could not find environment 'nosuch'/],
        ['pluginsync lists every module\'s lib/', 'web01.example.com', 'GET', '/puppet/v3/file_metadatas/plugins?environment=production&recurse=true&links=follow&checksum_type=sha256', 200, /"relative_path":"facter\/probe.rb"/],
        ['pluginfacts lists facts.d/', 'web01.example.com', 'GET', '/puppet/v3/file_metadatas/pluginfacts?environment=production&recurse=true', 200, /"relative_path":"probe.txt"/],
        ['a plugin\'s content', 'web01.example.com', 'GET', '/puppet/v3/file_content/plugins/facter/probe.rb?environment=production', 200, /^# a fact\n$/],
        ['a module file\'s metadata carries its sha256', 'web01.example.com', 'GET', '/puppet/v3/file_metadata/modules/probe/hello.txt?environment=production&links=manage&checksum_type=sha256', 200,
            new RegExp(`"\\{sha256\\}${createHash('sha256').update('hello\n').digest('hex')}"`)],
        ['a module directory recursed', 'web01.example.com', 'GET', '/puppet/v3/file_metadatas/modules/probe/sub?environment=production&recurse=true', 200, /"relative_path":"a.txt"/],
        ['a missing module file is 404', 'web01.example.com', 'GET', '/puppet/v3/file_metadata/modules/probe/nothing.txt?environment=production', 404, /Could not find file_metadata/],
        ['a path may not climb out of a mount', 'web01.example.com', 'GET', '/puppet/v3/file_content/modules/probe/sub%2F..%2F..%2Fmanifests%2Fthing.pp?environment=production', 403, /may not contain/],
        ['a path that is not valid percent-encoding is 400', 'web01.example.com', 'GET', '/puppet/v3/file_content/plugins/%E0%A4%A?environment=production', 400, /not valid percent-encoding/],
        ['an unknown mount is 404', 'web01.example.com', 'GET', '/puppet/v3/file_metadatas/nomount?environment=production', 404, /mount point named 'nomount'/],
        ['/metrics answers loopback clients', undefined, 'GET', '/metrics', 200, /modelc_serve_compile_queue_depth 0/],
        ['a path starting with // is a path, not a host (a host with ! in it was a 500 without a message)', undefined, 'GET', '//metric!!set%20sno', 404, /"message":"Not Found: no route to \/\/metric!!set%20sno"/]
    ] as const)('%s', async (_name, certname, method, path, status, body) => {
        const a = await ask(certname, method, path);
        expect(a.status).toBe(status);
        expect(a.body).toMatch(body);
    });

    test('a catalog is compiled from the request\'s facts and the certificate\'s $trusted, in rich data JSON', async () => {
        const a = await ask('web01.example.com', 'POST', '/puppet/v3/catalog/web01.example.com', catalogBody('production'), 'application/vnd.puppet.rich+json, application/json');
        expect(a.status).toBe(200);
        expect(a.type).toBe('application/vnd.puppet.rich+json');
        const catalog = JSON.parse(a.body) as { name: string; environment: string; catalog_format: number; resources: Array<{ type: string; title: string }> };
        expect([catalog.name, catalog.environment, catalog.catalog_format]).toEqual(['web01.example.com', 'production', 2]);
        expect(catalog.resources.map(r => `${r.type}[${r.title}]`)).toContain('Notify[hello web01.example.com web01 10.0.0.1]');
    });

    test('a failed compile is answered as Puppet Server does: 500, "Server Error: ... on node N"', async () => {
        const a = await ask('web01.example.com', 'POST', '/puppet/v3/catalog/web01.example.com', catalogBody('broken'));
        expect(a.status).toBe(500);
        const body = JSON.parse(a.body) as { message: string; issue_kind: string };
        expect(body.issue_kind).toBe('RUNTIME_ERROR');
        expect(body.message).toMatch(/^Server Error: Evaluation Error: Error while evaluating a Function Call, boom for web01\.example\.com \(file: \/.*\/broken\/manifests\/site\.pp, line: 1, column: 1\) on node web01\.example\.com$/);
    });

    test('facts that are not JSON are a 400', async () => {
        const a = await ask('web01.example.com', 'POST', '/puppet/v3/catalog/web01.example.com', 'facts_format=application%2Fjson&facts=%7Bnot');
        expect(a.status).toBe(400);
    });

    test('a report is kept as a file per run in a directory per node', async () => {
        const a = await ask('web01.example.com', 'PUT', '/puppet/v3/report/web01.example.com?environment=production', '{"host":"web01.example.com","status":"unchanged"}');
        expect(a.status).toBe(200);
        const dir = join(tmp, 'reports', 'web01.example.com');
        const files = readdirSync(dir);
        expect(files).toHaveLength(1);
        expect(JSON.parse(readFileSync(join(dir, files[0]), 'utf8'))).toEqual({ host: 'web01.example.com', status: 'unchanged' });
    });

    test('the metrics count compiles by environment and outcome, and what the environment cache spared', async () => {
        // A second compile of production: its manifests come from the thread's cache (unchanged on disk).
        expect((await ask('web01.example.com', 'POST', '/puppet/v3/catalog/web01.example.com', catalogBody('production'))).status).toBe(200);
        const a = await ask(undefined, 'GET', '/metrics');
        expect(a.body).toMatch(/modelc_serve_environment_cache_hits_total\{environment="production"\} [1-9]/);
        expect(a.body).toMatch(/modelc_serve_compiles_total\{environment="production",result="ok"\} [1-9]/);
        expect(a.body).toMatch(/modelc_serve_compiles_total\{environment="broken",result="error"\} [1-9]/);
        expect(a.body).toMatch(/modelc_serve_compile_seconds_count [1-9]/);
    });
});
