import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { makePki, type TestPki } from '../../bench/pki.js';
import { BIN, mulberry32 } from './harness.js';
import { mutateBytes, mutateJson, mutateText, oddKey, pick, type Rnd } from './mutations.js';

// `modelc serve` under bad requests: mutated paths, queries, methods, headers and bodies of every
// endpoint an agent uses (node, catalog, report, file_metadata(s), file_content, the CA's and
// status endpoints), with or without a client certificate, and raw bytes that are not HTTP. The
// server must answer each request (or close a connection that is not HTTP), never with a stack
// trace or the catch-all's `error:` log line, never leak a file outside the environment, and
// still answer /status/v1/simple and stop cleanly on SIGTERM at the end.

const ROOT = join(import.meta.dirname, '..', '..');
const AGENTS = ['web01.example.com', 'db01.example.com'] as const;

export interface ServeFuzzOptions {
    readonly seed: number;
    readonly n: number;
    readonly work: string;
    readonly timeoutMs: number;
}

export interface ServeFuzzResult {
    readonly requests: number;
    /** Per endpoint: answered, refused (4xx), failed as Puppet would (5xx with a message), violations. */
    readonly outcomes: Record<string, { ok: number; refused: number; failed: number; violation: number }>;
    readonly violations: Map<string, { count: number; first: string }>;
}

interface Req {
    readonly endpoint: string;
    readonly method: string;
    readonly path: string;
    readonly headers: Record<string, string>;
    readonly body?: Buffer;
    readonly agent?: string;
    /** Raw bytes written on a TLS connection instead of an HTTP request. */
    readonly raw?: Buffer;
    readonly what: string;
}

interface Answer {
    readonly status: number;
    readonly body: string;
    readonly error?: string;
}

const STACK = /\n\s+at .*(\(|:\d+:\d+)|TypeError|ReferenceError|Cannot read propert|is not a function|is not iterable|Maximum call stack|undefined \(reading|\[object Object\]/;

function facts(): Record<string, unknown> {
    return { name: 'web01.example.com', values: parseYaml(readFileSync(join(ROOT, 'examples', 'facts', 'web01.example.com.yaml'), 'utf8')) as Record<string, unknown> };
}

const REPORT = {
    host: 'web01.example.com', time: '2026-01-01T00:00:00.000Z', configuration_version: 1, transaction_uuid: 'b1f0a4a5-1c1e-4a57-9d2e-0f5a6e1f7e11',
    report_format: 12, puppet_version: '7.23.0', status: 'changed', environment: 'production', logs: [{ level: 'notice', message: 'x', source: 'Puppet', tags: ['notice'], time: '2026-01-01T00:00:00.000Z' }],
    metrics: { time: { name: 'time', label: 'Time', values: [['total', 'Total', 1.5]] } }, resource_statuses: {}
};

const PATH_PIECES = ['%', '%zz', '%00', '%2e%2e/', '../', '..%2f', '//', '\\', '?', '#', ';', '%ff%fe', 'é', '\u2028', '*', '{}', '%2F', 'x'.repeat(9000)];

function mutatePath(p: string, rnd: Rnd): string {
    const r = rnd();
    if (r < 0.5) {
        const at = Math.floor(rnd() * (p.length + 1));
        return p.slice(0, at) + pick(rnd, PATH_PIECES) + p.slice(at);
    }
    return encodeURI(mutateText(p, rnd)).replace(/^([^/])/, '/$1');
}

function query(params: Record<string, string>, rnd: Rnd, mutate: boolean): string {
    const q = new URLSearchParams(params);
    if (mutate && rnd() < 0.5) {
        const keys = [...Object.keys(params), 'environment', 'recurse', 'links', 'checksum_type', 'ignore', 'source_permissions', 'configured_environment'];
        q.set(pick(rnd, keys), pick(rnd, ['', '../..', '..', 'nope', 'x'.repeat(5000), 'é', '%zz', 'true', 'manage', 'md5', 'sha512', 'ctime', 'none', 'production\u0000', '*']));
    }
    if (mutate && rnd() < 0.1) for (let i = 0; i < 200; i++) q.append('ignore', `x${i}`);
    const s = q.toString();
    return s === '' ? '' : `?${s}`;
}

function catalogBody(rnd: Rnd, mutate: boolean): { body: Buffer; what: string } {
    let f: unknown = facts();
    let what = 'valid';
    if (mutate && rnd() < 0.6) ({ value: f, what } = mutateJson(f, rnd));
    let factsText = JSON.stringify(f);
    if (mutate && rnd() < 0.2) { factsText = mutateText(factsText, rnd); what = 'edited facts text'; }
    if (mutate && rnd() < 0.1) { factsText = '['.repeat(pick(rnd, [20_000, 200_000])); what = 'deep facts'; }
    // Inside the facts' values: a key no one writes on purpose, often with a number beyond every type.
    const values = f !== null && typeof f === 'object' && 'values' in f ? JSON.stringify(f.values) : undefined;
    if (mutate && values !== undefined && rnd() < 0.15) { factsText = factsText.replace(values, oddKey(values, true, rnd)); what = 'odd fact'; }
    const form: Record<string, string> = {
        environment: 'production', facts_format: pick(rnd, mutate ? ['application/json', 'pson', 'yaml', '', 'application/json'] : ['application/json']),
        facts: rnd() < 0.8 ? encodeURIComponent(factsText) : factsText, transaction_uuid: 'b1f0a4a5-1c1e-4a57-9d2e-0f5a6e1f7e11'
    };
    let body = Buffer.from(new URLSearchParams(form).toString());
    if (mutate && rnd() < 0.15) { body = Buffer.from(mutateBytes(body, rnd)); what = 'bytes of the body'; }
    return { body, what };
}

function reportBody(rnd: Rnd, mutate: boolean): { body: Buffer; what: string } {
    if (!mutate) return { body: Buffer.from(JSON.stringify(REPORT)), what: 'valid' };
    const r = rnd();
    if (r < 0.6) { const m = mutateJson(REPORT, rnd); return { body: Buffer.from(JSON.stringify(m.value) ?? ''), what: m.what }; }
    if (r < 0.8) return { body: Buffer.from(mutateText(JSON.stringify(REPORT), rnd)), what: 'edited report text' };
    if (r < 0.9) return { body: Buffer.from('{"a":'.repeat(pick(rnd, [20_000, 100_000]))), what: 'deep report' };
    return { body: Buffer.from(mutateBytes(Buffer.from(JSON.stringify(REPORT)), rnd)), what: 'bytes of the report' };
}

const RAW = [
    'GET / HTTP/1.1\r\n\r\n', 'garbage\r\n\r\n', 'GET /status/v1/simple HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
    'POST /puppet/v3/catalog/web01.example.com HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nshort',
    'POST /puppet/v3/catalog/web01.example.com HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nxx\r\n',
    'GET /puppet/v3/node/web01.example.com HTTP/1.1\r\nHost: x\r\n' + 'X-A: b\r\n'.repeat(5000) + '\r\n',
    'GET /status/v1/simple HTTP/9.9\r\n\r\n', '\u0000\u0001\u0002\r\n\r\n', 'GET /status/v1/simple HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n'
];

function makeRequest(rnd: Rnd): Req {
    const mutate = rnd() < 0.85;
    const agent = rnd() < 0.85 ? 'web01.example.com' : rnd() < 0.5 ? 'db01.example.com' : undefined;
    const endpoint = pick(rnd, ['node', 'catalog', 'catalog', 'report', 'file_metadatas', 'file_metadata', 'file_content', 'ca', 'status', 'metrics', 'raw']);
    if (endpoint === 'raw') {
        const raw = Buffer.from(pick(rnd, RAW));
        return { endpoint, method: '', path: '', headers: {}, raw: mutate && rnd() < 0.5 ? Buffer.from(mutateBytes(raw, rnd)) : raw, agent, what: 'raw bytes' };
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (mutate && rnd() < 0.2) headers['Accept'] = pick(rnd, ['application/vnd.puppet.rich+json', '*/*', 'text/pson', '', 'x'.repeat(8000), 'application/json;q=é']);
    if (mutate && rnd() < 0.1) headers['Content-Type'] = pick(rnd, ['application/json', 'text/plain', 'multipart/form-data; boundary=x', '']);
    if (mutate && rnd() < 0.05) headers['X-Big'] = 'y'.repeat(pick(rnd, [10_000, 70_000]));
    let method = 'GET';
    let path: string;
    let body: Buffer | undefined;
    let what = 'valid';
    switch (endpoint) {
        case 'node': path = `/puppet/v3/node/web01.example.com${query({ environment: 'production', configured_environment: 'production' }, rnd, mutate)}`; break;
        case 'catalog': {
            method = 'POST';
            path = `/puppet/v3/catalog/web01.example.com${query({}, rnd, mutate)}`;
            ({ body, what } = catalogBody(rnd, mutate));
            headers['Content-Type'] = headers['Content-Type'] ?? 'application/x-www-form-urlencoded';
            break;
        }
        case 'report': {
            method = 'PUT';
            path = `/puppet/v3/report/web01.example.com${query({ environment: 'production' }, rnd, mutate)}`;
            ({ body, what } = reportBody(rnd, mutate));
            headers['Content-Type'] = headers['Content-Type'] ?? 'application/json';
            break;
        }
        case 'file_metadatas': path = `/puppet/v3/file_metadatas/${pick(rnd, ['plugins', 'pluginfacts', 'modules/profile', 'modules/profile/conf.d', 'modules/nope'])}${query({ environment: 'production', recurse: 'true', links: 'follow', checksum_type: 'sha256', ignore: '.git' }, rnd, mutate)}`; break;
        case 'file_metadata': path = `/puppet/v3/file_metadata/${pick(rnd, ['modules/profile/motd.txt', 'modules/profile/conf.d', 'modules/profile', 'plugins', 'modules/x/y'])}${query({ environment: 'production', links: 'manage', checksum_type: 'md5' }, rnd, mutate)}`; break;
        case 'file_content': path = `/puppet/v3/file_content/${pick(rnd, ['modules/profile/motd.txt', 'modules/profile/conf.d/a.conf', 'modules/profile/../../../../../etc/passwd', 'plugins/x', 'modules/profile'])}${query({ environment: 'production' }, rnd, mutate)}`; break;
        case 'ca': path = pick(rnd, ['/puppet-ca/v1/certificate/ca', '/puppet-ca/v1/certificate_revocation_list/ca', '/puppet-ca/v1/certificate/web01.example.com']); break;
        case 'metrics': path = '/metrics'; break;
        default: path = '/status/v1/simple';
    }
    if (mutate && rnd() < 0.3) { path = mutatePath(path, rnd); what = `path ${what}`; }
    if (mutate && rnd() < 0.1) method = pick(rnd, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'BREW']);
    return { endpoint, method, path, headers, ...(body ? { body } : {}), ...(agent ? { agent } : {}), what };
}

function ask(port: number, pki: TestPki, r: Req, timeoutMs: number): Promise<Answer> {
    const ssl = pki.agentSslDir(r.agent ?? 'web01.example.com');
    const tls = {
        ca: readFileSync(join(ssl, 'certs', 'ca.pem')),
        ...(r.agent ? { cert: readFileSync(join(ssl, 'certs', `${r.agent}.pem`)), key: readFileSync(join(ssl, 'private_keys', `${r.agent}.pem`)) } : {})
    };
    return new Promise(resolve => {
        const timer = setTimeout(() => resolve({ status: 0, body: '', error: 'no answer before the timeout' }), timeoutMs);
        const done = (a: Answer): void => { clearTimeout(timer); resolve(a); };
        if (r.raw) {
            const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ...tls, rejectUnauthorized: false }, () => socket.end(r.raw));
            let data = '';
            socket.on('data', (c: Buffer) => { data += c.toString('latin1'); });
            socket.on('close', () => done({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0), body: data }));
            socket.on('error', () => undefined);
            return;
        }
        try {
            const req = request({ host: '127.0.0.1', port, method: r.method, path: r.path, servername: 'localhost', ...tls, headers: r.headers }, res => {
                let data = '';
                res.on('data', (c: Buffer) => { data += c.toString(); });
                res.on('end', () => done({ status: res.statusCode ?? 0, body: data }));
                res.on('error', e => done({ status: res.statusCode ?? 0, body: data, error: e.message }));
            });
            req.on('error', e => done({ status: 0, body: '', error: e.message }));
            req.end(r.body);
        } catch (e) {
            // The client refused to send it (an invalid header or path): not a request the server saw.
            done({ status: -1, body: '', error: e instanceof Error ? e.message : String(e) });
        }
    });
}

/** What is wrong with ANSWER to R (nothing: an empty list). */
function judgeAnswer(r: Req, a: Answer): string[] {
    const v: string[] = [];
    if (a.status === -1) return v;
    if (a.error === 'no answer before the timeout') v.push('hang: no answer before the timeout');
    else if (a.status === 0 && !r.raw && !/socket hang up|ECONNRESET|Parse Error|HPE_/.test(a.error ?? '')) v.push(`no answer: ${a.error ?? 'connection closed'}`);
    if (STACK.test(a.body)) v.push(`stack trace in the body: ${(STACK.exec(a.body)?.[0] ?? '').slice(0, 120)}`);
    if (/root:x:0:0/.test(a.body)) v.push('a file outside the environment was served');
    if (a.status >= 500 && a.status !== 503 && !r.raw) {
        let message: unknown;
        try { message = (JSON.parse(a.body) as { message?: unknown }).message; } catch { /* checked below */ }
        if (typeof message !== 'string') v.push(`a ${a.status} without a JSON message: ${a.body.slice(0, 120)}`);
    }
    return v;
}

function startServer(root: string, sslDir: string, work: string): Promise<{ child: ChildProcess; port: number; stderr: () => string; exited: Promise<number | null> }> {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'serve', root, '--ssl-dir', sslDir, '--port', '0', '--bind', '127.0.0.1', '--workers', '1', '--reportdir', join(work, 'reports')], { stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        const exited = new Promise<number | null>(done => child.on('exit', code => done(code)));
        child.stdout?.resume();
        child.stderr?.on('data', (c: Buffer) => {
            err += c.toString();
            const m = /listening on https:\/\/[^\s]+:(\d+) /.exec(err);
            if (m) resolve({ child, port: Number(m[1]), stderr: () => err, exited });
        });
        void exited.then(code => reject(new Error(`modelc serve exited with ${code} before listening: ${err}`)));
    });
}

export async function fuzzServe(options: ServeFuzzOptions, log: (line: string) => void = () => undefined): Promise<ServeFuzzResult> {
    mkdirSync(options.work, { recursive: true });
    const pki = makePki(join(options.work, 'pki'), AGENTS);
    const env = join(options.work, 'env');
    cpSync(join(ROOT, 'examples', 'site'), env, { recursive: true, dereference: true });
    // Files for the file-serving endpoints to find (the example site serves none).
    mkdirSync(join(env, 'modules', 'profile', 'files', 'conf.d'), { recursive: true });
    writeFileSync(join(env, 'modules', 'profile', 'files', 'motd.txt'), 'welcome\n');
    writeFileSync(join(env, 'modules', 'profile', 'files', 'conf.d', 'a.conf'), 'a = 1\n');
    const result: ServeFuzzResult = { requests: 0, outcomes: {}, violations: new Map() };
    const record = (kind: string, detail: string): void => {
        const key = `${kind}: ${detail.replace(/\d+/g, 'N').slice(0, 140)}`;
        const e = result.violations.get(key);
        if (e) e.count++;
        else { result.violations.set(key, { count: 1, first: detail }); log(`NEW ${key}\n    ${detail.slice(0, 400)}`); }
    };
    const server = await startServer(env, pki.serverSslDir, options.work);
    let seenErr = 0;
    for (let i = 0; i < options.n; i++) {
        const rnd = mulberry32((options.seed ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0);
        const r = makeRequest(rnd);
        const a = await ask(server.port, pki, r, options.timeoutMs);
        result.requests++;
        const found = judgeAnswer(r, a);
        // The server's own log since the last request: the catch-all's `error:` lines and stack traces are bugs.
        const err = server.stderr().slice(seenErr);
        seenErr = server.stderr().length;
        for (const l of err.split('\n').filter(l => l !== '')) {
            if (/^error: /.test(l) || STACK.test(`\n${l}`)) found.push(`server log: ${l.slice(0, 300)}`);
        }
        const o = result.outcomes[r.endpoint] ??= { ok: 0, refused: 0, failed: 0, violation: 0 };
        if (found.length > 0) o.violation++;
        else if (a.status >= 500) o.failed++;
        else if (a.status >= 400 || a.status <= 0) o.refused++;
        else o.ok++;
        for (const f of found) record(r.endpoint, `${f} (request ${i}: ${r.method} ${r.path.slice(0, 200)}; ${r.what})`);
        if (server.child.exitCode !== null) {
            record('crash', `the server exited with ${server.child.exitCode} after request ${i}: ${server.stderr().slice(-600)}`);
            return result;
        }
    }
    const status = await ask(server.port, pki, { endpoint: 'status', method: 'GET', path: '/status/v1/simple', headers: {}, what: 'final' }, options.timeoutMs);
    if (status.status !== 200) record('status', `/status/v1/simple answered ${status.status} after the campaign`);
    server.child.kill('SIGTERM');
    const code = await Promise.race([server.exited, new Promise<string>(done => setTimeout(() => done('timeout'), 20_000))]);
    if (code !== 0) {
        record('stop', `SIGTERM ended the server with ${String(code)}`);
        if (code === 'timeout') server.child.kill('SIGKILL');
    }
    return result;
}

export function serveSummary(r: ServeFuzzResult): string {
    const lines = [`serve: ${r.requests} requests, ${r.violations.size} distinct violations`];
    for (const [e, o] of Object.entries(r.outcomes).sort()) lines.push(`  ${e}: ok ${o.ok}, refused ${o.refused}, failed ${o.failed}, violation ${o.violation}`);
    for (const [k, { count, first }] of r.violations) lines.push(`${count}x ${k}\n    ${first.slice(0, 400)}`);
    return lines.join('\n');
}
