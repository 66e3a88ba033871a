import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServe, type RunningServe } from '../../src/serve/index.js';
import { openStore } from '../../src/store/index.js';
import { HAS_OPENSSL, makePki, type TestPki } from '../../bench/pki.js';

/**
 * Two serve processes' worth of servers sharing one store (the scale-out layout, with SQLite
 * standing in for PuppetDB): a catalog compiled by one is what the other's collectors see, and
 * reports go to the store instead of files.
 */
function put(port: number, pki: TestPki, certname: string, method: string, path: string, body: string): Promise<number> {
    const ssl = pki.agentSslDir(certname);
    return new Promise((resolve, reject) => {
        const req = request({
            host: '127.0.0.1', port, method, path, servername: 'localhost', ca: readFileSync(join(ssl, 'certs', 'ca.pem')),
            cert: readFileSync(join(ssl, 'certs', `${certname}.pem`)), key: readFileSync(join(ssl, 'private_keys', `${certname}.pem`)),
            headers: { 'Content-Type': method === 'POST' ? 'application/x-www-form-urlencoded' : 'application/json' }
        }, res => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
        req.on('error', reject);
        req.end(body);
    });
}

const facts = (n: string): string => new URLSearchParams({ facts_format: 'application/json', facts: encodeURIComponent(JSON.stringify({ name: n, values: { hostname: n.split('.')[0] } })) }).toString();

describe.skipIf(!HAS_OPENSSL)('modelc serve --store: servers sharing one store', () => {
    let tmp = '';
    let pki: TestPki;
    let servers: RunningServe[] = [];
    let storeUrl = '';

    beforeAll(async () => {
        tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-store-'));
        pki = makePki(join(tmp, 'pki'), ['web01.example.com', 'db01.example.com']);
        const env = join(tmp, 'env');
        mkdirSync(join(env, 'manifests'), { recursive: true });
        // db01 exports its address; web01 collects what others exported.
        writeFileSync(join(env, 'manifests', 'site.pp'), [
            "node 'db01.example.com' { @@file { \"/etc/fleet/${facts['hostname']}\": content => '10.0.0.2', tag => 'db' } }",
            "node 'web01.example.com' { File <<| tag == 'db' |>> }", ''
        ].join('\n'));
        storeUrl = `sqlite:${join(tmp, 'fleet.sqlite')}`;
        for (let i = 0; i < 2; i++) {
            servers.push(await startServe({ root: env, sslDir: pki.serverSslDir, port: 0, bind: '127.0.0.1', workers: 0, store: storeUrl, reportDir: join(tmp, `reports${i}`) }));
        }
    }, 60_000);

    afterAll(async () => {
        await Promise.all(servers.map(s => s.close()));
        servers = [];
        if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    test('a catalog stored by one server is collected by a compile on the other; reports land in the store', async () => {
        expect(await put(servers[0].port, pki, 'db01.example.com', 'POST', '/puppet/v3/catalog/db01.example.com', facts('db01.example.com'))).toBe(200);
        expect(await put(servers[1].port, pki, 'web01.example.com', 'POST', '/puppet/v3/catalog/web01.example.com', facts('web01.example.com'))).toBe(200);
        expect(await put(servers[1].port, pki, 'web01.example.com', 'PUT', '/puppet/v3/report/web01.example.com?environment=production', '{"host":"web01.example.com","status":"changed"}')).toBe(200);
        const store = openStore(storeUrl);
        try {
            expect(store.nodes()).toEqual(['db01.example.com', 'web01.example.com']);
            const collected = store.resources({ type: 'File' }).map(r => `${r.node}:${r.title}:${r.exported}`);
            // db01's exported file, and web01's collected copy of it.
            expect(collected).toEqual(['db01.example.com:/etc/fleet/db01:true', 'web01.example.com:/etc/fleet/db01:false']);
            expect(store.reports('web01.example.com').map(r => [r.environment, r.report.status])).toEqual([['production', 'changed']]);
        } finally {
            store.close();
        }
    });
});
