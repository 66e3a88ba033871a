import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Environment } from '../catalog/index.js';
import { parseRubyJson, type PuppetValue } from '../values/index.js';
import { environmentFor, HttpFailure, type EnvironmentQuestion } from './environments.js';
import { fileContent, fileMetadata, fileMetadatas, type MetadataQuery } from './files.js';
import type { ServeMetrics } from './metrics.js';
import type { CompilePool } from './pool.js';
import type { ReportSink } from './reports.js';
import type { Peer, SslMaterial } from './ssl.js';

/** The Puppet version the server says it speaks (agents pick formats by it). */
const PUPPET_VERSION = '7.23.0';

const JSON_TYPE = 'application/json';
const RICH_TYPE = 'application/vnd.puppet.rich+json';

/** How many environments a server remembers by name for file requests (a cache, not state). */
const KNOWN_ENVIRONMENTS = 64;

/** What a request target that is no path parses to (the answer is 400). */
const BAD_URL = new URL('https://server/');

/**
 * The request target as a URL on this server. It is appended to the origin, not resolved
 * against it: `//metrics` is a path, where URL resolution took `metrics` for a host (and threw
 * "Invalid URL" for a host with `!` in it, a 500 without a message).
 */
function requestUrl(target: string | undefined): URL {
    try {
        return new URL(`https://server${target?.startsWith('/') ? '' : '/'}${target ?? ''}`);
    } catch {
        return BAD_URL;
    }
}

/**
 * The subset of Puppet Server's HTTP API a `puppet agent -t` run uses. Each request is
 * answered from the environment it names or environments.pp selects; nothing but the
 * remembered environment names (a cache) outlives a request.
 */
export class PuppetApi {
    private readonly known = new Map<string, Environment>();

    constructor(
        private readonly root: string, private readonly pool: CompilePool, private readonly metrics: ServeMetrics,
        private readonly reports: ReportSink, private readonly ssl: SslMaterial, private readonly bindings: boolean,
        private readonly log?: (line: string) => void
    ) {}

    async handle(req: IncomingMessage, res: ServerResponse, peer: Peer | undefined, loopback: boolean, body: () => Promise<Buffer>): Promise<void> {
        const url = requestUrl(req.url);
        let endpoint = 'unknown';
        const send = (status: number, type: string, data: string | Buffer): void => {
            this.metrics.request(endpoint, status);
            res.writeHead(status, { 'Content-Type': type, 'X-Puppet-Version': PUPPET_VERSION });
            res.end(data);
            this.log?.(`${req.method ?? '?'} ${url.pathname} ${status}${peer ? ` ${peer.certname}` : ''}`);
        };
        try {
            if (url === BAD_URL) throw new HttpFailure(400, 'Bad Request: the request target is not a path');
            const path = decodedPath(url.pathname);
            const m = /^\/puppet\/v3\/([a-z_]+)\/?(.*)$/.exec(path);
            if (m) {
                endpoint = m[1];
                if (peer === undefined) throw new HttpFailure(403, `Forbidden request: access to ${url.pathname} requires a client certificate the CA signed`);
                const answer = await this.v3(req.method ?? 'GET', m[1], m[2], url.searchParams, peer, body, req.headers.accept ?? '');
                send(answer.status ?? 200, answer.type, answer.body);
                return;
            }
            if (path === '/status/v1/simple' || path === '/status/v1/simple/') {
                endpoint = 'status';
                send(200, 'text/plain', 'running');
                return;
            }
            if (path === '/metrics') {
                endpoint = 'metrics';
                if (peer === undefined && !loopback) throw new HttpFailure(403, 'Forbidden request: /metrics answers loopback or authenticated clients');
                send(200, 'text/plain; version=0.0.4', this.metrics.text());
                return;
            }
            const ca = /^\/puppet-ca\/v1\/(certificate|certificate_revocation_list)\/ca$/.exec(path);
            if (ca) {
                endpoint = `ca_${ca[1]}`;
                if (ca[1] === 'certificate') send(200, 'text/plain', readFileSync(this.ssl.caPath));
                else if (this.ssl.crlPath !== undefined) send(200, 'text/plain', readFileSync(this.ssl.crlPath));
                else throw new HttpFailure(404, 'Not Found: this server has no CRL', 'RESOURCE_NOT_FOUND');
                return;
            }
            throw new HttpFailure(404, `Not Found: no route to ${url.pathname}`, 'HANDLER_NOT_FOUND');
        } catch (e) {
            const f = e instanceof HttpFailure ? e : new HttpFailure(500, `Server Error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
            if (!(e instanceof HttpFailure)) this.log?.(`error: ${f.message}`);
            send(f.status, JSON_TYPE, JSON.stringify({ message: f.message, issue_kind: f.issueKind }));
        }
    }

    private async v3(
        method: string, endpoint: string, rest: string, query: URLSearchParams, peer: Peer, body: () => Promise<Buffer>, accept: string
    ): Promise<{ status?: number; type: string; body: string | Buffer }> {
        const json = (v: unknown): { type: string; body: string } => ({ type: JSON_TYPE, body: JSON.stringify(v) });
        const own = (): void => {
            // Puppet's auth.conf: an agent reads its own node and catalog and writes its own report.
            if (rest !== peer.certname) throw new HttpFailure(403, `Forbidden request: ${peer.certname} may not access /puppet/v3/${endpoint}/${rest}`);
        };
        const agentEnvironment = query.get('configured_environment') ?? query.get('environment') ?? undefined;
        switch (`${method} ${endpoint}`) {
            case 'GET node': {
                own();
                const env = this.select({ certname: peer.certname, trusted: peer.trusted, ...(agentEnvironment !== undefined ? { agentEnvironment } : {}) });
                return json({ name: peer.certname, environment: env.name });
            }
            case 'POST catalog': {
                own();
                const form = new URLSearchParams((await body()).toString('utf8'));
                const merged = (k: string): string | undefined => form.get(k) ?? query.get(k) ?? undefined;
                const facts = factsOf(merged('facts'), merged('facts_format'));
                const wish = merged('configured_environment') ?? merged('environment');
                const env = this.select({ certname: peer.certname, trusted: peer.trusted, ...(wish !== undefined ? { agentEnvironment: wish } : {}), facts });
                const answer = await this.pool.compile({ certname: peer.certname, environment: env, facts, trusted: peer.trusted });
                this.metrics.compiled(answer.environment, answer.status === 200, answer.millis, answer.cacheHits, answer.parses);
                for (const l of answer.logs) this.log?.(l);
                const type = answer.status === 200 && accept.includes(RICH_TYPE) ? RICH_TYPE : JSON_TYPE;
                return { status: answer.status, type, body: answer.body };
            }
            case 'PUT report': {
                own();
                return json(this.reports.save(peer.certname, query.get('environment') ?? undefined, await body()));
            }
            case 'GET file_metadatas':
            case 'GET file_metadata':
            case 'GET file_content': {
                const env = this.named(query.get('environment') ?? 'production', peer);
                if (endpoint === 'file_content') return { type: 'application/octet-stream', body: fileContent(env, rest) };
                const q = metadataQuery(query);
                return json(endpoint === 'file_metadata' ? fileMetadata(env, rest, q) : fileMetadatas(env, rest, q));
            }
            default:
                throw new HttpFailure(404, `Not Found: no handler for ${method} /puppet/v3/${endpoint}`, 'HANDLER_NOT_FOUND');
        }
    }

    /** The environment the request sequence selects, remembered by name for file requests. */
    private select(q: Omit<EnvironmentQuestion, 'askEnc'>): Environment {
        return this.remember(environmentFor(this.root, { ...q, askEnc: this.bindings }));
    }

    private remember(env: Environment): Environment {
        this.known.delete(env.name);
        this.known.set(env.name, env);
        if (this.known.size > KNOWN_ENVIRONMENTS) this.known.delete(this.known.keys().next().value as string);
        return env;
    }

    /**
     * The environment a file request names: one selected before, else the one selected when the
     * agent asks for it (environments.pp may honour `$agent_environment`), else unknown (404).
     */
    private named(name: string, peer: Peer): Environment {
        const seen = this.known.get(name);
        if (seen) return seen;
        const env = environmentFor(this.root, { certname: peer.certname, trusted: peer.trusted, agentEnvironment: name, askEnc: false });
        if (env.name !== name) throw new HttpFailure(404, `Not Found: Could not find environment '${name}'`, 'RESOURCE_NOT_FOUND');
        return this.remember(env);
    }
}

function decodedPath(raw: string): string {
    try {
        return decodeURIComponent(raw);
    } catch {
        throw new HttpFailure(400, `Bad Request: the path ${raw} is not valid percent-encoding`);
    }
}

/** The facts of a catalog request (`facts_format` JSON or PSON): the values of `{name, values}`. */
function factsOf(text: string | undefined, format: string | undefined): ReadonlyMap<string, PuppetValue> {
    if (text === undefined || text === '') return new Map();
    if (format !== undefined && !/json|pson/.test(format)) throw new HttpFailure(400, `Bad Request: unsupported facts_format ${format}`);
    let data: PuppetValue;
    try {
        // The agent URI-escapes the facts before form-encoding the body (Puppet's compiler unescapes them as CGI does).
        data = parseRubyJson(text.trimStart().startsWith('{') ? text : decodeURIComponent(text.replace(/\+/g, ' '))).value;
    } catch {
        throw new HttpFailure(400, 'Bad Request: the facts are not JSON');
    }
    const values = data instanceof Map ? data.get('values') : undefined;
    if (!(values instanceof Map)) throw new HttpFailure(400, 'Bad Request: the facts have no values');
    return new Map([...values].map(([k, v]) => [String(k), v]));
}

function metadataQuery(q: URLSearchParams): MetadataQuery {
    return {
        recurse: q.get('recurse') === 'true' || q.get('recurse') === 'yes',
        links: q.get('links') === 'manage' ? 'manage' : 'follow',
        checksumType: q.get('checksum_type') ?? 'sha256',
        ignore: q.getAll('ignore')
    };
}
