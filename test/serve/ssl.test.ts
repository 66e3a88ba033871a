import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isUserError } from '../../src/common/index.js';
import { readSslDir, trustedFromCertificate } from '../../src/serve/index.js';
import { HAS_OPENSSL, makePki, type TestPki } from '../../bench/pki.js';

describe.skipIf(!HAS_OPENSSL)('the ssl dir and $trusted from a certificate', () => {
    let tmp = '';
    let pki: TestPki;
    beforeAll(() => {
        tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-ssl-'));
        pki = makePki(join(tmp, 'pki'), ['web01.example.com']);
    }, 60_000);
    afterAll(() => { if (tmp) rmSync(tmp, { recursive: true, force: true }); });

    test('$trusted carries the certname, its hostname and domain, and Puppet\'s extensions by short name', () => {
        const ssl = pki.agentSslDir('web01.example.com');
        const der = new X509Certificate(readFileSync(join(ssl, 'certs', 'web01.example.com.pem'))).raw;
        const trusted = trustedFromCertificate('web01.example.com', der);
        expect(Object.fromEntries(trusted)).toEqual({
            authenticated: 'remote', certname: 'web01.example.com', hostname: 'web01', domain: 'example.com',
            extensions: new Map([['pp_role', 'web01']]), external: new Map()
        });
    });

    test('the server certificate has no Puppet extensions: none are invented', () => {
        const der = new X509Certificate(readFileSync(join(pki.serverSslDir, 'certs', 'localhost.pem'))).raw;
        expect(trustedFromCertificate('localhost', der).get('extensions')).toEqual(new Map());
    });

    test('the only private key names the server; CA and CRL are found where Puppet keeps them', () => {
        const m = readSslDir(pki.serverSslDir);
        expect(m.certname).toBe('localhost');
        expect(m.caPath).toBe(join(pki.serverSslDir, 'certs', 'ca.pem'));
        expect(m.crlPath).toBe(join(pki.serverSslDir, 'crl.pem'));
    });

    const broken = (name: string, make: (dir: string) => void): [string, (dir: string) => void] => [name, make];
    test.each([
        broken('no such directory', () => undefined),
        broken('no private key of the certname', dir => { mkdirSync(join(dir, 'private_keys'), { recursive: true }); }),
        broken('a key but no certificate', dir => {
            mkdirSync(join(dir, 'private_keys'), { recursive: true });
            writeFileSync(join(dir, 'private_keys', 'srv.pem'), '-----BEGIN PRIVATE KEY-----\n');
        }),
        broken('a certificate that is not PEM', dir => {
            mkdirSync(join(dir, 'private_keys'), { recursive: true });
            mkdirSync(join(dir, 'certs'), { recursive: true });
            writeFileSync(join(dir, 'private_keys', 'srv.pem'), '-----BEGIN PRIVATE KEY-----\n');
            writeFileSync(join(dir, 'certs', 'srv.pem'), 'garbage');
            writeFileSync(join(dir, 'certs', 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
        })
    ])('%s is a SERVE_SSL user error', (_name, make) => {
        const dir = join(tmp, `broken-${Math.random().toString(36).slice(2)}`);
        make(dir);
        let error: unknown;
        try {
            readSslDir(dir);
        } catch (e) {
            error = e;
        }
        expect(isUserError(error) && error.diagnostics[0].code).toBe('SERVE_SSL');
    });
});
