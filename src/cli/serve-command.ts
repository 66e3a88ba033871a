import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../common/index.js';
import { ServeIssues, startServe } from '../serve/index.js';
import { ExitCode, type CliIo } from './io.js';

export interface ServeCommandOptions {
    readonly port: string;
    readonly bind?: string;
    readonly sslDir?: string;
    readonly certname?: string;
    readonly workers: string;
    readonly store?: string;
    readonly reportdir?: string;
    /** False (`--no-bindings`): Hiera 5 alone, as Puppet 7. */
    readonly bindings?: boolean;
    /** `--environment-timeout`: seconds, or unlimited. */
    readonly environmentTimeout: string;
    /** Print one line per request. */
    readonly verbose?: boolean;
}

function usage(root: string, message: string): never {
    throw new UserError({ severity: 'error', code: ServeIssues.SERVE_USAGE, message, file: root });
}

function integer(root: string, text: string, what: string, min: number, max: number): number {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) usage(root, `${what} must be an integer from ${min} to ${max}, not '${text}'`);
    return Number(text);
}

/**
 * `modelc serve CONFDIR|CODEDIR --ssl-dir DIR`: serves catalogs to Puppet agents until SIGTERM
 * or SIGINT, then stops listening, finishes the requests under way and exits 0. Prints the
 * address it listens on once it does.
 */
export async function serveAction(root: string, options: ServeCommandOptions, io: CliIo): Promise<number> {
    if (!existsSync(root) || !statSync(root).isDirectory()) {
        throw new UserError({ severity: 'error', code: ServeIssues.SERVE_NO_CODEDIR, message: 'no such directory (expected a CONFDIR, a CODEDIR with environments/, or an environment)', file: root });
    }
    const port = integer(root, options.port, '--port', 0, 65535);
    const workers = integer(root, options.workers, '--workers', 0, 256);
    const environmentTimeout = options.environmentTimeout === 'unlimited' ? 'unlimited' : integer(root, options.environmentTimeout, '--environment-timeout', 0, 2 ** 31);
    if (options.sslDir === undefined) usage(root, '--ssl-dir is required (certs/, private_keys/ and ca.pem as Puppet lays them out)');
    const server = await startServe({
        root, sslDir: options.sslDir, port, workers, environmentTimeout,
        ...(options.certname !== undefined ? { certname: options.certname } : {}),
        ...(options.bind !== undefined ? { bind: options.bind } : {}),
        ...(options.store !== undefined ? { store: options.store } : {}),
        ...(options.bindings === false ? { bindings: false } : {}),
        reportDir: options.reportdir ?? join(resolve(root), 'var', 'reports'),
        log: options.verbose ? line => io.err(`${line}\n`) : line => { if (/^(warning|err|error):/.test(line)) io.err(`${line}\n`); }
    });
    io.err(`modelc serve: listening on https://${server.address.includes(':') ? `[${server.address}]` : server.address}:${server.port} as ${server.certname}\n`);
    // The CLI runs on a worker thread whose signals the launcher turns into a flag: poll it.
    await new Promise<void>(done => {
        const timer = setInterval(() => {
            if (io.interrupted?.() !== undefined) {
                clearInterval(timer);
                done();
            }
        }, 200);
    });
    await server.close();
    return ExitCode.OK;
}
