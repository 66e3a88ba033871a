import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { UserError } from '../common/index.js';
import { trustedFor } from '../node/index.js';
import type { PuppetValue } from '../values/index.js';
import { certificateExtensions } from './der.js';
import { ServeIssues } from './issues.js';

/** The server's TLS material, read from an ssl dir laid out as Puppet's. */
export interface SslMaterial {
    readonly certname: string;
    readonly cert: Buffer;
    readonly key: Buffer;
    readonly ca: Buffer;
    /** The CRL, when the ssl dir has one: revoked agents are refused at the handshake. */
    readonly crl?: Buffer;
    readonly caPath: string;
    readonly crlPath?: string;
}

function sslError(dir: string, message: string): UserError {
    return new UserError({ severity: 'error', code: ServeIssues.SERVE_SSL, message, file: dir });
}

function readPem(dir: string, path: string, what: string): Buffer {
    try {
        const data = readFileSync(path);
        if (!data.includes('-----BEGIN ')) throw sslError(path, `the ${what} is not PEM`);
        return data;
    } catch (e) {
        if (e instanceof UserError) throw e;
        throw sslError(dir, `cannot read the ${what} ${path}`);
    }
}

/** The first of the paths that exists. */
function firstExisting(paths: readonly string[]): string | undefined {
    return paths.find(p => existsSync(p));
}

/**
 * Reads `SSLDIR/certs/CERTNAME.pem`, `SSLDIR/private_keys/CERTNAME.pem`, the CA certificate
 * (`certs/ca.pem`, Puppet's localcacert, or `ca.pem`, or a Puppet Server CA's `ca/ca_crt.pem`)
 * and the CRL (`crl.pem`, Puppet's hostcrl, or `ca/ca_crl.pem`). Without `certname`, the ssl
 * dir's only private key names the server, else the host name does.
 */
export function readSslDir(sslDir: string, certname?: string): SslMaterial {
    const dir = resolve(sslDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw sslError(sslDir, 'no such ssl directory (expected certs/, private_keys/ and ca.pem as Puppet lays them out)');
    const keys = existsSync(join(dir, 'private_keys')) ? readdirSync(join(dir, 'private_keys')).filter(f => f.endsWith('.pem')) : [];
    const name = certname ?? (keys.length === 1 ? keys[0].slice(0, -'.pem'.length) : hostname());
    const certPath = join(dir, 'certs', `${name}.pem`);
    const keyPath = join(dir, 'private_keys', `${name}.pem`);
    if (!existsSync(keyPath)) throw sslError(sslDir, `no private key for '${name}' (private_keys/${name}.pem); give --certname`);
    if (!existsSync(certPath)) throw sslError(sslDir, `no certificate for '${name}' (certs/${name}.pem)`);
    const caPath = firstExisting([join(dir, 'certs', 'ca.pem'), join(dir, 'ca.pem'), join(dir, 'ca', 'ca_crt.pem')]);
    if (caPath === undefined) throw sslError(sslDir, 'no CA certificate (certs/ca.pem or ca.pem)');
    const crlPath = firstExisting([join(dir, 'crl.pem'), join(dir, 'ca', 'ca_crl.pem')]);
    return {
        certname: name, cert: readPem(sslDir, certPath, 'certificate'), key: readPem(sslDir, keyPath, 'private key'),
        ca: readPem(sslDir, caPath, 'CA certificate'), caPath,
        ...(crlPath !== undefined ? { crl: readPem(sslDir, crlPath, 'CRL'), crlPath } : {})
    };
}

/** Puppet's arcs for certificate extensions that become `$trusted['extensions']`. */
const PUPPET_ARCS = ['1.3.6.1.4.1.34380.1.1.', '1.3.6.1.4.1.34380.1.2.', '1.3.6.1.4.1.34380.1.3.'];

/** The short names Puppet registers for its extension OIDs (the others stay dotted). */
const SHORT_NAMES = new Map<string, string>([
    ...[
        'uuid', 'instance_id', 'image_name', 'preshared_key', 'cost_center', 'product', 'project', 'application', 'service',
        'employee', 'created_by', 'environment', 'role', 'software_version', 'department', 'cluster', 'provisioner', 'region',
        'datacenter', 'zone', 'network', 'securitypolicy', 'cloudplatform', 'apptier', 'hostname', 'owner'
    ].map((n, i): [string, string] => [`1.3.6.1.4.1.34380.1.1.${i + 1}`, `pp_${n}`]),
    ['1.3.6.1.4.1.34380.1.3.1', 'pp_authorization'],
    ['1.3.6.1.4.1.34380.1.3.13', 'pp_auth_role'],
    ['1.3.6.1.4.1.34380.1.3.39', 'pp_cli_auth']
]);

/** The client of a request as its verified certificate says, or nothing when it sent none that verified. */
export interface Peer {
    readonly certname: string;
    readonly trusted: ReadonlyMap<string, PuppetValue>;
}

/** `$trusted` of a verified client certificate: its CN as certname and its Puppet extensions. */
export function peerOf(socket: TLSSocket): Peer | undefined {
    if (!socket.authorized) return undefined;
    const cert = socket.getPeerCertificate(false);
    const cn = cert.subject?.CN;
    const certname = Array.isArray(cn) ? cn[0] : cn;
    if (typeof certname !== 'string' || certname === '') return undefined;
    return { certname, trusted: trustedFromCertificate(certname, cert.raw) };
}

/** `$trusted` for a certificate's certname and DER bytes. */
export function trustedFromCertificate(certname: string, der: Uint8Array): Map<string, PuppetValue> {
    const extensions = new Map<string, PuppetValue>();
    let all: Map<string, string>;
    try {
        all = certificateExtensions(der);
    } catch {
        // A certificate the handshake verified but whose extensions this reader cannot walk: none.
        all = new Map();
    }
    for (const [oid, value] of all) {
        if (PUPPET_ARCS.some(a => oid.startsWith(a))) extensions.set(SHORT_NAMES.get(oid) ?? oid, value);
    }
    return trustedFor(certname, new Map<string, PuppetValue>([['extensions', extensions]]));
}
