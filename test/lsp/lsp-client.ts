import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

/** Diagnostics the server published for one document. */
export interface PublishedDiagnostic {
    readonly range: { start: { line: number; character: number }; end: { line: number; character: number } };
    readonly code?: string;
    readonly message: string;
    readonly severity?: number;
}

/**
 * A real LSP client over `node bin/modelc.js lsp --stdio`: JSON-RPC over the child's stdio
 * (vscode-jsonrpc), the way an editor talks to it.
 */
export class LspClient {
    private readonly child: ChildProcess;
    readonly connection: MessageConnection;
    private readonly diagnostics = new Map<string, PublishedDiagnostic[]>();
    private readonly waiting = new Map<string, Array<(d: PublishedDiagnostic[]) => void>>();
    stderr = '';

    constructor(repo: string) {
        this.child = spawn(process.execPath, [join(repo, 'bin', 'modelc.js'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
        this.child.stderr?.on('data', (d: Buffer) => { this.stderr += d.toString(); });
        if (!this.child.stdout || !this.child.stdin) throw new Error('no stdio');
        this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
        this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: PublishedDiagnostic[] }) => {
            this.diagnostics.set(p.uri, p.diagnostics);
            for (const resolve of this.waiting.get(p.uri) ?? []) resolve(p.diagnostics);
            this.waiting.delete(p.uri);
        });
        this.connection.onRequest('workspace/configuration', () => []);
        this.connection.onRequest('client/registerCapability', () => null);
        this.connection.onRequest('window/workDoneProgress/create', () => null);
        this.connection.listen();
    }

    async initialize(root: string, initializationOptions: unknown): Promise<{ capabilities: Record<string, unknown> }> {
        const uri = pathToFileURL(root).toString();
        const result = await this.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
            processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: 'env' }], capabilities: {}, initializationOptions
        });
        await this.connection.sendNotification('initialized', {});
        return result;
    }

    /** Opens a document and resolves with the diagnostics the server publishes for it. */
    open(file: string, text: string): Promise<PublishedDiagnostic[]> {
        const uri = pathToFileURL(file).toString();
        const published = new Promise<PublishedDiagnostic[]>(resolve => this.waiting.set(uri, [...this.waiting.get(uri) ?? [], resolve]));
        void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'puppet', version: 1, text } });
        return published;
    }

    request<T>(method: string, file: string, position: { line: number; character: number }, extra: Record<string, unknown> = {}): Promise<T> {
        return this.connection.sendRequest<T>(method, { textDocument: { uri: pathToFileURL(file).toString() }, position, ...extra });
    }

    async close(): Promise<number | null> {
        const exited = new Promise<number | null>(resolve => this.child.on('exit', code => resolve(code)));
        await this.connection.sendRequest('shutdown');
        await this.connection.sendNotification('exit');
        const code = await exited;
        this.connection.dispose();
        return code;
    }
}

/** The position of the first occurrence of `needle` in `text` (plus `shift` characters). */
export function positionOf(text: string, needle: string, shift = 0): { line: number; character: number } {
    const at = text.indexOf(needle);
    if (at < 0) throw new Error(`'${needle}' not found`);
    return positionAt(text, at + shift);
}

export function positionAt(text: string, offset: number): { line: number; character: number } {
    const before = text.slice(0, offset).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
}
