import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether openssl(1) is there to make a test CA. */
export const HAS_OPENSSL = ['/usr/bin/openssl', '/bin/openssl', '/usr/local/bin/openssl'].some(p => existsSync(p));

const CA_CONFIG = `[ca]
default_ca = ca_default
[ca_default]
dir = .
database = ./index.txt
new_certs_dir = .
serial = ./serial
crlnumber = ./crlnumber
default_md = sha256
default_days = 30
default_crl_days = 30
policy = any_cn
unique_subject = no
[any_cn]
commonName = supplied
[server]
subjectAltName = DNS:localhost,IP:127.0.0.1
basicConstraints = CA:FALSE
keyUsage = digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth,clientAuth
[agent]
basicConstraints = CA:FALSE
keyUsage = digitalSignature,keyEncipherment
extendedKeyUsage = clientAuth
# Puppet's pp_role certificate extension (becomes $trusted['extensions']['pp_role'])
1.3.6.1.4.1.34380.1.1.13 = ASN1:UTF8String:$ENV::PP_ROLE
`;

/** The ssl dirs of a test CA: the server's and each agent's, laid out as Puppet's. */
export interface TestPki {
    readonly serverSslDir: string;
    agentSslDir(certname: string): string;
}

/**
 * Makes a CA with openssl as an existing CA would have issued: a CA certificate and CRL, a
 * server certificate for localhost, and agent certificates carrying `pp_role` (the certname's
 * first label), each in a Puppet ssl dir (certs/, private_keys/, certs/ca.pem, crl.pem).
 */
export function makePki(dir: string, agents: readonly string[]): TestPki {
    const ca = join(dir, 'ca');
    mkdirSync(ca, { recursive: true });
    writeFileSync(join(ca, 'ca.cnf'), CA_CONFIG);
    writeFileSync(join(ca, 'index.txt'), '');
    writeFileSync(join(ca, 'serial'), '1000\n');
    writeFileSync(join(ca, 'crlnumber'), '1000\n');
    const ssl = (args: string[], env: Record<string, string> = {}): void => {
        execFileSync('openssl', args, { cwd: ca, stdio: 'pipe', env: { ...process.env, PP_ROLE: 'none', ...env } });
    };
    ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca_key.pem', '-out', 'ca_crt.pem', '-days', '30', '-subj', '/CN=Puppet CA: modelc test',
        '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    ssl(['ca', '-config', 'ca.cnf', '-gencrl', '-keyfile', 'ca_key.pem', '-cert', 'ca_crt.pem', '-out', 'ca_crl.pem']);
    const issue = (certname: string, extensions: string, sslDir: string, role: string): void => {
        mkdirSync(join(sslDir, 'certs'), { recursive: true });
        mkdirSync(join(sslDir, 'private_keys'), { recursive: true });
        ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(sslDir, 'private_keys', `${certname}.pem`), '-out', `${certname}.csr`, '-subj', `/CN=${certname}`]);
        ssl(['ca', '-batch', '-config', 'ca.cnf', '-extensions', extensions, '-keyfile', 'ca_key.pem', '-cert', 'ca_crt.pem', '-in', `${certname}.csr`,
            '-out', join(sslDir, 'certs', `${certname}.pem`), '-notext'], { PP_ROLE: role });
        copyFileSync(join(ca, 'ca_crt.pem'), join(sslDir, 'certs', 'ca.pem'));
        copyFileSync(join(ca, 'ca_crl.pem'), join(sslDir, 'crl.pem'));
    };
    const serverSslDir = join(dir, 'server-ssl');
    issue('localhost', 'server', serverSslDir, 'none');
    for (const a of agents) issue(a, 'agent', join(dir, `agent-${a}`, 'ssl'), a.split('.')[0]);
    return { serverSslDir, agentSslDir: certname => join(dir, `agent-${certname}`, 'ssl') };
}
