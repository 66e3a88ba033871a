import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { UserError } from '../common/index.js';
import { ServeIssues } from './issues.js';
import { ServeMetrics } from './metrics.js';
import { CompilePool } from './pool.js';
import type { EnvironmentTimeout } from './compile.js';
import { PuppetApi } from './puppet-api.js';
import { peerOf, readSslDir, type SslMaterial } from './ssl.js';
import { HttpFailure } from './environments.js';
import { ReportSink } from './reports.js';

export interface ServeOptions {
    /** A CONFDIR (with environments.pp), a directory holding environments/NAME, or an environment. */
    readonly root: string;
    readonly sslDir: string;
    /** The server's certname in the ssl dir (default: the only private key, else the host name). */
    readonly certname?: string;
    readonly port: number;
    readonly bind?: string;
    /** Compile threads; 0 compiles in the server's thread. */
    readonly workers: number;
    /** The catalog store URL (sqlite:PATH, puppetdb:URL): catalogs and reports go there. */
    readonly store?: string;
    /** False: no ARM-8 bindings (Hiera 5 alone, as Puppet 7); default true, as `modelc compile`. */
    readonly bindings?: boolean;
    /** Seconds a parsed environment is trusted before its files are checked again; default 0 (every compile). */
    readonly environmentTimeout?: EnvironmentTimeout;
    /** Where reports are written as files when no store is given. */
    readonly reportDir: string;
    /** One line per request and per compile warning, for the operator. */
    readonly log?: (line: string) => void;
}

/** A running server: its address, and how to stop it. */
export interface RunningServe {
    readonly port: number;
    readonly address: string;
    readonly certname: string;
    readonly metrics: ServeMetrics;
    close(): Promise<void>;
}

/** The largest request body read (facts, reports): a bigger one is refused with 413. */
const MAX_BODY = 64 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
    return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_BODY) {
                reject(new HttpFailure(413, 'Request Entity Too Large'));
                req.destroy();
                return;
            }
            chunks.push(c);
        });
        req.on('end', () => resolve(Buffer.concat(chunks)));
        // The client went away or sent less than it announced: its request, not the server, failed.
        req.on('error', e => reject(new HttpFailure(400, `Bad Request: the request body could not be read (${e.message})`)));
    });
}

function isLoopback(address: string | undefined): boolean {
    return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * Starts `modelc serve`: Puppet Server's v3 API over HTTPS with the ssl dir's certificate,
 * client certificates verified against its CA (and CRL). Puppet's unauthenticated endpoints
 * (the CA certificate and CRL, /status/v1/simple) answer anyone; /metrics answers loopback or
 * authenticated clients; everything else needs a verified client certificate.
 */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
    const ssl: SslMaterial = readSslDir(options.sslDir, options.certname);
    const pool = new CompilePool(options.workers, options.store, options.bindings ?? true, options.environmentTimeout ?? 0);
    const metrics = new ServeMetrics(() => ({ compile_queue_depth: pool.queueDepth, compiles_in_progress: pool.active }));
    const reports = new ReportSink(options.reportDir, options.store);
    const api = new PuppetApi(options.root, pool, metrics, reports, ssl, options.bindings ?? true, options.log);
    const server: Server = createServer({
        cert: ssl.cert, key: ssl.key, ca: ssl.ca, ...(ssl.crl ? { crl: ssl.crl } : {}),
        requestCert: true, rejectUnauthorized: false
    }, (req: IncomingMessage, res: ServerResponse) => {
        const socket = req.socket as TLSSocket;
        const peer = peerOf(socket);
        // handle() answers every failure itself; anything escaping it is a bug to log, never a crash.
        api.handle(req, res, peer, isLoopback(socket.remoteAddress), () => readBody(req)).catch((e: unknown) => {
            options.log?.(`error: ${e instanceof Error ? e.message : String(e)}`);
            if (!res.headersSent) res.writeHead(500).end();
        });
    });
    await new Promise<void>((resolve, reject) => {
        server.once('error', (e: NodeJS.ErrnoException) => {
            void pool.close();
            const why = e.code === 'EADDRINUSE' ? 'the address is in use' : e.code === 'EACCES' ? 'permission denied' : e.message;
            reject(new UserError({ severity: 'error', code: ServeIssues.SERVE_LISTEN, message: `cannot listen on ${options.bind ?? '*'}:${options.port}: ${why}`, file: options.root }));
        });
        server.listen(options.port, options.bind, () => resolve());
    });
    server.on('error', e => options.log?.(`error: ${e.message}`));
    const addr = server.address() as AddressInfo;
    return {
        port: addr.port, address: addr.address, certname: ssl.certname, metrics,
        close: async () => {
            await new Promise<void>(resolve => {
                server.close(() => resolve());
                server.closeAllConnections();
            });
            await pool.close();
            reports.close();
        }
    };
}
