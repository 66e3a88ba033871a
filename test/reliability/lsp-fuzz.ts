import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, mulberry32 } from './harness.js';
import { mutateJson, mutateText, mutateToken, pick, type Rnd } from './mutations.js';

// `modelc lsp --stdio` under bad JSON-RPC: documents of mutated Puppet text, edits with ranges
// out of the document, requests at positions that do not exist or of documents never opened,
// params of the wrong type at every path, bodies that are not JSON, ids of every type, unknown
// methods, and frames whose header lies. Every request must get one response (an error is
// fine, an internal error naming a JavaScript failure is not), the server must log no stack
// trace and stay up until `shutdown` and `exit`, and then exit 0.

const ROOT = join(import.meta.dirname, '..', '..');

export interface LspFuzzOptions {
    readonly seed: number;
    /** Sessions (server processes). */
    readonly sessions: number;
    /** Messages per session. */
    readonly messages: number;
    readonly work: string;
    readonly timeoutMs: number;
}

export interface LspFuzzResult {
    readonly sessions: number;
    readonly messages: number;
    /** Per method: requests answered with a result, with an error response, and violations. */
    readonly outcomes: Record<string, { result: number; error: number; violation: number }>;
    readonly violations: Map<string, { count: number; first: string }>;
}

const STACK = /\n\s+at .*(\(|:\d+:\d+)|TypeError|ReferenceError|RangeError|Cannot read propert|is not a function|is not iterable|Maximum call stack|undefined \(reading|\[object Object\]/;

const POSITION_METHODS = ['textDocument/hover', 'textDocument/completion', 'textDocument/definition', 'textDocument/references', 'textDocument/documentHighlight'];
const DOCUMENT_METHODS = ['textDocument/documentSymbol', 'textDocument/semanticTokens/full', 'textDocument/codeLens', 'textDocument/foldingRange', 'textDocument/formatting'];

interface Sent {
    readonly method: string;
    readonly text: string;
}

class Session {
    private readonly child: ChildProcess;
    private buffer = Buffer.alloc(0);
    readonly responses = new Map<string, Array<Record<string, unknown>>>();
    readonly logs: string[] = [];
    stderr = '';
    readonly exited: Promise<number | null>;

    constructor(cwd: string) {
        this.child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
        this.exited = new Promise(done => this.child.on('exit', code => done(code)));
        this.child.stderr?.on('data', (c: Buffer) => { this.stderr += c.toString(); });
        this.child.stdout?.on('data', (c: Buffer) => this.read(c));
        this.child.stdin?.on('error', () => undefined);
    }

    get alive(): boolean {
        return this.child.exitCode === null && this.child.signalCode === null;
    }

    private read(chunk: Buffer): void {
        this.buffer = Buffer.concat([this.buffer, chunk]);
        for (;;) {
            const end = this.buffer.indexOf('\r\n\r\n');
            if (end < 0) return;
            const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1] ?? NaN);
            if (!Number.isFinite(length) || this.buffer.length < end + 4 + length) return;
            const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
            this.buffer = this.buffer.subarray(end + 4 + length);
            let m: Record<string, unknown>;
            try { m = JSON.parse(body) as Record<string, unknown>; } catch { this.logs.push(`unparsable message from the server: ${body.slice(0, 200)}`); continue; }
            if ('id' in m && !('method' in m)) {
                const key = JSON.stringify(m.id);
                this.responses.set(key, [...this.responses.get(key) ?? [], m]);
            } else if (m.method === 'window/logMessage' || m.method === 'window/showMessage') {
                const p = m.params as { type?: number; message?: string } | undefined;
                if (p?.type === 1) this.logs.push(String(p.message));
            } else if ('id' in m && typeof m.method === 'string') {
                // A request of the server (configuration, registration): answered empty.
                this.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: m.method === 'workspace/configuration' ? [] : null }));
            }
        }
    }

    sendRaw(body: string, header?: string): void {
        if (!this.alive) return;
        this.child.stdin?.write(`${header ?? `Content-Length: ${Buffer.byteLength(body)}`}\r\n\r\n${body}`);
    }

    send(m: Record<string, unknown>): void {
        this.sendRaw(JSON.stringify(m));
    }

    endInput(): void {
        this.child.stdin?.end();
    }

    kill(): void {
        if (this.alive) this.child.kill('SIGKILL');
    }
}

function manifests(env: string): string[] {
    return readdirSync(env, { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.pp') || f.endsWith('.epp')).map(f => join(env, f));
}

const position = (rnd: Rnd): unknown => pick(rnd, [
    { line: Math.floor(rnd() * 40), character: Math.floor(rnd() * 60) }, { line: Math.floor(rnd() * 40), character: Math.floor(rnd() * 60) },
    { line: -1, character: 0 }, { line: 2 ** 31, character: 2 ** 31 }, { line: 0.5, character: 1e308 }, { line: '1', character: null }, {}, null, [1, 2]
]);

/** One message of a session: what was sent (for the report) and the id a response must come for. */
function message(rnd: Rnd, env: string, files: readonly string[], texts: Map<string, string>, id: number): { m?: Record<string, unknown>; raw?: string; method: string; expectsAnswer: boolean } {
    const file = rnd() < 0.9 ? pick(rnd, files) : join(env, 'manifests', pick(rnd, ['new.pp', 'x.txt', '../../outside.pp']));
    const uri = rnd() < 0.95 ? pathToFileURL(file).toString() : pick(rnd, ['untitled:Untitled-1', 'file:///', 'http://x/y.pp', '', 'file:///nonexistent/%zz.pp']);
    const r = rnd();
    let m: Record<string, unknown>;
    if (r < 0.3) {
        const original = texts.get(uri) ?? (() => { try { return readFileSync(file, 'utf8'); } catch { return ''; } })();
        const r2 = rnd();
        // Deep brackets, then a token of some class truncated or doubled, then free edits.
        const text = r2 < 0.1 ? pick(rnd, ['[', '(', '"${', '{a=>', 'if true { ', '<%']).repeat(pick(rnd, [5000, 50_000])) : r2 < 0.35 ? mutateToken(original, rnd)
            : r2 < 0.85 ? mutateText(original, rnd) : original;
        texts.set(uri, text);
        m = rnd() < 0.5 || !texts.has(uri)
            ? { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'puppet', version: Math.floor(rnd() * 10), text } } }
            : { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: Math.floor(rnd() * 100) }, contentChanges: [{ text }] } };
    } else if (r < 0.4) {
        const range = { start: position(rnd), end: position(rnd) };
        m = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: Math.floor(rnd() * 100) }, contentChanges: [{ range, text: pick(rnd, ['x', '', '}\n{', '$a = ', "'", '\n'.repeat(50)]) }] } };
    } else if (r < 0.45) {
        m = { jsonrpc: '2.0', method: 'textDocument/didClose', params: { textDocument: { uri } } };
    } else if (r < 0.75) {
        m = { jsonrpc: '2.0', id, method: pick(rnd, POSITION_METHODS), params: { textDocument: { uri }, position: position(rnd), context: { includeDeclaration: true, triggerKind: 1 } } };
    } else if (r < 0.87) {
        m = { jsonrpc: '2.0', id, method: pick(rnd, DOCUMENT_METHODS), params: { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } } };
    } else if (r < 0.9) {
        m = { jsonrpc: '2.0', id, method: 'workspace/symbol', params: { query: pick(rnd, ['', 'profile', '*', '\u0000', 'x'.repeat(10_000)]) } };
    } else if (r < 0.93) {
        m = { jsonrpc: '2.0', id, method: pick(rnd, ['nope/method', 'textDocument/rename', '$/unknown', 'initialize', 'workspace/executeCommand']), params: { textDocument: { uri }, position: position(rnd), newName: 'x', command: 'x' } };
    } else if (r < 0.95) {
        m = { jsonrpc: '2.0', method: pick(rnd, ['$/cancelRequest', 'workspace/didChangeConfiguration', 'workspace/didChangeWatchedFiles', '$/setTrace']), params: pick(rnd, [{ id: id - 1 }, { settings: { modelc: { node: 'x', facts: '/nope' } } }, { changes: [{ uri, type: 2 }] }, null, 5]) };
    } else {
        // Not JSON-RPC: a body that is not JSON, a batch, a request without a method.
        const raw = pick(rnd, ['{', 'null', '[]', '[{"jsonrpc":"2.0","id":1,"method":"x"}]', '{"jsonrpc":"2.0","id":{},"method":"textDocument/hover"}', '{"jsonrpc":"2.0","id":1}', '"x"', '{"jsonrpc":"1.0","method":5}', '\u0000']);
        return { raw, method: 'invalid-json', expectsAnswer: false };
    }
    if (rnd() < 0.25 && m.params !== undefined) {
        const mutated = mutateJson(m.params, rnd);
        m = { ...m, params: mutated.value };
    }
    if (rnd() < 0.03 && 'id' in m) m = { ...m, id: pick(rnd, [`s${id}`, -id, id + 0.5]) };
    return { m, method: String(m.method), expectsAnswer: 'id' in m };
}

async function settle(s: Session, waitFor: ReadonlySet<string>, timeoutMs: number): Promise<string[]> {
    const started = Date.now();
    for (;;) {
        const missing = [...waitFor].filter(k => !s.responses.has(k));
        if (missing.length === 0 || !s.alive || Date.now() - started > timeoutMs) return missing;
        await new Promise(r => setTimeout(r, 50));
    }
}

export async function fuzzLsp(options: LspFuzzOptions, log: (line: string) => void = () => undefined): Promise<LspFuzzResult> {
    mkdirSync(options.work, { recursive: true });
    const env = join(options.work, 'env');
    cpSync(join(ROOT, 'examples', 'site'), env, { recursive: true, dereference: true });
    const files = manifests(env);
    const result: LspFuzzResult = { sessions: 0, messages: 0, outcomes: {}, violations: new Map() };
    const record = (kind: string, detail: string): void => {
        const key = `${kind}: ${detail.replace(/\d+/g, 'N').replace(/\/tmp\/\S+/g, 'PATH').slice(0, 140)}`;
        const e = result.violations.get(key);
        if (e) e.count++;
        else { result.violations.set(key, { count: 1, first: detail }); log(`NEW ${key}\n    ${detail.slice(0, 500)}`); }
    };
    for (let k = 0; k < options.sessions; k++) {
        const rnd = mulberry32((options.seed ^ Math.imul(k + 1, 0xc2b2ae35)) >>> 0);
        const s = new Session(options.work);
        result.sessions++;
        const sent = new Map<string, Sent>();
        const texts = new Map<string, string>();
        let init: Record<string, unknown> = { processId: null, rootUri: pathToFileURL(env).toString(), workspaceFolders: [{ uri: pathToFileURL(env).toString(), name: 'env' }], capabilities: {}, initializationOptions: {} };
        if (rnd() < 0.15) init = mutateJson(init, rnd).value as Record<string, unknown>;
        s.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init });
        appendFileSync(join(options.work, `session-${k}.log`), `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init })}\n`);
        sent.set('0', { method: 'initialize', text: JSON.stringify(init).slice(0, 300) });
        await settle(s, new Set(['0']), options.timeoutMs);
        s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
        for (let i = 1; i <= options.messages; i++) {
            const { m, raw, method, expectsAnswer } = message(rnd, env, files, texts, i);
            result.messages++;
            if (raw !== undefined) s.sendRaw(raw);
            else if (m) s.send(m);
            // What each session sent, to replay a failure by hand.
            appendFileSync(join(options.work, `session-${k}.log`), `${raw ?? JSON.stringify(m)}\n`);
            if (expectsAnswer && m) sent.set(JSON.stringify(m.id), { method, text: JSON.stringify(m).slice(0, 300) });
            // Now and then let the server catch up, as an editor's typing pauses do.
            if (rnd() < 0.2) await settle(s, new Set([...sent.keys()]), options.timeoutMs);
        }
        const missing = await settle(s, new Set([...sent.keys()]), options.timeoutMs);
        if (!s.alive) record('crash', `the server exited during session ${k}: ${s.stderr.slice(-500)}`);
        for (const key of missing) if (s.alive) record('no-response', `${sent.get(key)?.method}: no response in session ${k} to ${sent.get(key)?.text}`);
        for (const [key, { method, text }] of sent) {
            const answers = s.responses.get(key) ?? [];
            const o = result.outcomes[method] ??= { result: 0, error: 0, violation: 0 };
            const error = answers[0]?.error as { code?: number; message?: string } | undefined;
            const bad = answers.length > 1 ? `${answers.length} responses` : error && (STACK.test(String(error.message)) || error.code === -32603) ? `internal error ${error.code}: ${error.message}` : undefined;
            if (bad) { o.violation++; record(method, `${bad.slice(0, 300)} (session ${k}: ${text})`); } else if (error) o.error++;
            else if (answers.length > 0) o.result++;
        }
        for (const l of s.logs) if (STACK.test(l) || /error/i.test(l)) record('logged', `${l.slice(0, 300)} (session ${k})`);
        for (const l of s.stderr.split('\n').filter(x => x.trim() !== '')) record('stderr', `${l.slice(0, 300)} (session ${k})`);
        // A frame whose header lies ends the session (it desynchronizes the stream) with the
        // editor going away (stdin closed); else shutdown and exit.
        const lying = rnd() < 0.3;
        if (lying) {
            s.sendRaw('{"jsonrpc":"2.0","method":"x"}', pick(rnd, ['Content-Length: 3', 'Content-Type: x', 'Content-Length: -5', 'Content-Length: abc']));
            s.endInput();
        } else {
            const shutdownId = 'shutdown';
            s.send({ jsonrpc: '2.0', id: shutdownId, method: 'shutdown' });
            await settle(s, new Set([JSON.stringify(shutdownId)]), 5000);
            s.send({ jsonrpc: '2.0', method: 'exit' });
        }
        const code = await Promise.race([s.exited, new Promise<string>(done => setTimeout(() => done('timeout'), 15_000))]);
        if (code === 'timeout') { s.kill(); record('exit', `the server did not exit after ${lying ? 'its input closed' : 'shutdown and exit'} (session ${k})`); }
        const late = s.stderr.split('\n').filter(x => x.trim() !== '' && STACK.test(`\n${x}`));
        if (late.length > 0) record('stderr', `${late[0]?.slice(0, 300)} (session ${k}, at its end)`);
        else if (!lying && code !== 0) record('exit', `the server exited with ${String(code)} after shutdown and exit (session ${k}): ${s.stderr.slice(-300)}`);
    }
    return result;
}

export function lspSummary(r: LspFuzzResult): string {
    const lines = [`lsp: ${r.sessions} sessions, ${r.messages} messages, ${r.violations.size} distinct violations`];
    for (const [m, o] of Object.entries(r.outcomes).sort()) lines.push(`  ${m}: result ${o.result}, error ${o.error}, violation ${o.violation}`);
    for (const [k, { count, first }] of r.violations) lines.push(`${count}x ${k}\n    ${first.slice(0, 500)}`);
    return lines.join('\n');
}
