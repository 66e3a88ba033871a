import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { HAS_OPENSSL, makePki, type TestPki } from '../../bench/pki.js';
import { runCli } from './run-cli.js';

/** `modelc serve`'s user errors: one line naming the input, exit 1, no trace, nothing served. */
describe.skipIf(!HAS_OPENSSL)('modelc serve: user errors and a clean stop', () => {
    let tmp = '';
    let pki: TestPki;
    let busy: Server;
    let busyPort = 0;
    beforeAll(async () => {
        tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-cli-'));
        pki = makePki(join(tmp, 'pki'), []);
        busy = createServer();
        await new Promise<void>(r => busy.listen(0, '127.0.0.1', () => r()));
        busyPort = (busy.address() as { port: number }).port;
    }, 60_000);
    afterAll(() => {
        busy?.close();
        if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    test.each([
        ['a port that is not a number', () => ['examples/site', '--ssl-dir', pki.serverSslDir, '--port', 'http'], /^examples\/site: error SERVE_USAGE: --port must be an integer from 0 to 65535, not 'http'\n$/],
        ['a port out of range', () => ['examples/site', '--ssl-dir', pki.serverSslDir, '--port', '70000'], /error SERVE_USAGE: --port must be an integer/],
        ['workers that are not a count', () => ['examples/site', '--ssl-dir', pki.serverSslDir, '--workers', '-1'], /error SERVE_USAGE: --workers must be an integer/],
        ['no --ssl-dir', () => ['examples/site'], /error SERVE_USAGE: --ssl-dir is required/],
        ['a missing ssl dir', () => ['examples/site', '--ssl-dir', join(tmp, 'nossl')], /nossl: error SERVE_SSL: no such ssl directory/],
        ['a certname the ssl dir has no key for', () => ['examples/site', '--ssl-dir', pki.serverSslDir, '--certname', 'other'], /error SERVE_SSL: no private key for 'other'/],
        ['a missing root', () => [join(tmp, 'nowhere'), '--ssl-dir', pki.serverSslDir], /nowhere: error SERVE_NO_CODEDIR: no such directory/],
        ['a port in use', () => ['examples/site', '--ssl-dir', pki.serverSslDir, '--bind', '127.0.0.1', '--port', String(busyPort)], /error SERVE_LISTEN: cannot listen on 127\.0\.0\.1:\d+: the address is in use/]
    ])('%s', async (_name, args, message) => {
        const r = await runCli('serve', ...args());
        expect(r.code).toBe(1);
        expect(r.err).toMatch(message);
        expect(r.err.trim().split('\n')).toHaveLength(1);
        expect(r.out).toBe('');
    });

    test('SIGTERM (the launcher\'s flag) stops the server and exits 0', async () => {
        let stop = false;
        let err = '';
        const running = main(['node', 'modelc', 'serve', 'examples/site', '--ssl-dir', pki.serverSslDir, '--port', '0', '--bind', '127.0.0.1', '--workers', '0'], {
            out: () => undefined, err: t => { err += t; }, interrupted: () => (stop ? 'SIGTERM' : undefined)
        });
        // Wait for the line that says it listens (however long starting takes here).
        while (!err.includes('listening')) await new Promise(r => setTimeout(r, 20));
        expect(err).toMatch(/^modelc serve: listening on https:\/\/127\.0\.0\.1:\d+ as localhost\n$/);
        stop = true;
        expect(await running).toBe(0);
    });
});
