import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { BIN, scratch, writeTree } from '../reliability/harness.js';

test('modelc lsp without --stdio is a usage error: one diagnostic line, exit 1', async () => {
    const r = await runCli('lsp');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^modelc: error CLI_USAGE: .*--stdio\n$/);
});

/**
 * Splits what the server wrote into JSON-RPC frames; text outside a frame (or a body that is
 * not JSON) is returned as stray.
 */
function frames(out: Buffer): { messages: Array<Record<string, unknown>>; stray: string[] } {
    const messages: Array<Record<string, unknown>> = [];
    const stray: string[] = [];
    let rest = out;
    while (rest.length > 0) {
        const head = rest.subarray(0, 64).toString('latin1');
        const m = /^Content-Length: (\d+)\r\n\r\n/.exec(head);
        // A frame still arriving is not stray.
        if (!m && 'Content-Length: '.startsWith(head.slice(0, 16)) && !head.includes('\r\n\r\n')) break;
        if (!m) { stray.push(rest.subarray(0, 200).toString()); break; }
        const start = m[0].length;
        if (rest.length < start + Number(m[1])) break;
        const body = rest.subarray(start, start + Number(m[1])).toString();
        try { messages.push(JSON.parse(body) as Record<string, unknown>); } catch { stray.push(body.slice(0, 200)); break; }
        rest = rest.subarray(start + Number(m[1]));
    }
    return { messages, stray };
}

test('requests for a document no language serves leave the stdout stream JSON-RPC only (Langium\'s console.debug went into it)', async () => {
    const dir = writeTree(scratch(), { 'manifests/site.pp': "notify { 'x': }\n" });
    const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    const send = (m: unknown): void => { const body = JSON.stringify(m); child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`); };
    const root = pathToFileURL(dir).toString();
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { processId: null, rootUri: root, capabilities: {} } });
    send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    const ids: number[] = [];
    for (let i = 1; i <= 60; i++) {
        ids.push(i);
        send(i % 2 === 0
            ? { jsonrpc: '2.0', id: i, method: 'textDocument/documentHighlight', params: { textDocument: { uri: 'file:///' }, position: { line: 0, character: 0 } } }
            : { jsonrpc: '2.0', id: i, method: 'textDocument/documentSymbol', params: { textDocument: { uri: `${root}/manifests/site.pp` } } });
    }
    const answered = (): Set<unknown> => new Set(frames(Buffer.concat(chunks)).messages.map(m => m['id']));
    for (let waited = 0; waited < 60_000 && !ids.every(i => answered().has(i)) && frames(Buffer.concat(chunks)).stray.length === 0; waited += 100) {
        await new Promise(r => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    const { stray } = frames(Buffer.concat(chunks));
    expect(stray).toEqual([]);
    expect(ids.filter(i => !answered().has(i))).toEqual([]);
}, 90_000);
