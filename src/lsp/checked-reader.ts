import { existsSync } from 'node:fs';
import { URI } from 'langium';
import { AbstractMessageReader, ErrorCodes, type DataCallback, type Disposable, type Message, type MessageReader, type MessageWriter } from 'vscode-languageserver/node';

/**
 * The shape check of incoming messages, at the edge of the server: Langium's handlers trust the
 * protocol's types, and a request whose params are of another type (a null position, a string
 * for a text document) ended in a TypeError named to the client as an internal error. A request
 * that fails the check is answered with InvalidParams here and never reaches a handler; such a
 * notification (which gets no answer) is dropped.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Check = (params: Json | undefined) => string | undefined;

const isObject = (v: Json | undefined): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The protocol's uinteger: 0 to 2^31 - 1. */
const isUinteger = (v: Json | undefined): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1;

function textDocument(p: Json | undefined): string | undefined {
    if (!isObject(p)) return 'params must be an object';
    const d = p.textDocument;
    if (!isObject(d) || typeof d.uri !== 'string' || d.uri === '') return 'params.textDocument.uri must be a non-empty string';
    return undefined;
}

function position(v: Json | undefined, at: string): string | undefined {
    if (!isObject(v) || !isUinteger(v.line) || !isUinteger(v.character)) return `${at} must be {line, character} of non-negative integers`;
    return undefined;
}

function range(v: Json | undefined, at: string): string | undefined {
    if (!isObject(v)) return `${at} must be {start, end}`;
    return position(v.start, `${at}.start`) ?? position(v.end, `${at}.end`);
}

const atPosition: Check = p => textDocument(p) ?? position((p as { position?: Json }).position, 'params.position');
const inRange: Check = p => textDocument(p) ?? range((p as { range?: Json }).range, 'params.range');

const CHECKS: Readonly<Record<string, Check>> = {
    initialize: p => {
        if (!isObject(p) || !isObject(p.capabilities)) return 'params must be an object with capabilities';
        if (p.rootUri !== undefined && p.rootUri !== null && typeof p.rootUri !== 'string') return 'params.rootUri must be a string or null';
        if (p.workspaceFolders !== undefined && p.workspaceFolders !== null
            && !(Array.isArray(p.workspaceFolders) && p.workspaceFolders.every(f => isObject(f) && typeof f.uri === 'string' && typeof f.name === 'string'))) {
            return 'params.workspaceFolders must be an array of {uri, name} or null';
        }
        return undefined;
    },
    'textDocument/didOpen': p => {
        if (!isObject(p) || !isObject(p.textDocument)) return 'params.textDocument must be an object';
        const d = p.textDocument;
        if (typeof d.uri !== 'string' || d.uri === '' || typeof d.text !== 'string' || typeof d.languageId !== 'string' || !Number.isInteger(d.version)) {
            return 'params.textDocument must be {uri, languageId, version, text}';
        }
        return undefined;
    },
    'textDocument/didChange': p => {
        const bad = textDocument(p);
        if (bad) return bad;
        const changes = (p as { contentChanges?: Json }).contentChanges;
        if (!Array.isArray(changes)) return 'params.contentChanges must be an array';
        for (const [i, c] of changes.entries()) {
            if (!isObject(c) || typeof c.text !== 'string') return `params.contentChanges[${i}].text must be a string`;
            if (c.range !== undefined) {
                const r = range(c.range, `params.contentChanges[${i}].range`);
                if (r) return r;
            }
        }
        return undefined;
    },
    'textDocument/didClose': textDocument,
    'textDocument/didSave': textDocument,
    'textDocument/hover': atPosition,
    'textDocument/completion': atPosition,
    'textDocument/definition': atPosition,
    'textDocument/declaration': atPosition,
    'textDocument/typeDefinition': atPosition,
    'textDocument/implementation': atPosition,
    'textDocument/references': atPosition,
    'textDocument/documentHighlight': atPosition,
    'textDocument/signatureHelp': atPosition,
    'textDocument/prepareRename': atPosition,
    'textDocument/rename': atPosition,
    'textDocument/documentSymbol': textDocument,
    'textDocument/codeLens': textDocument,
    'textDocument/foldingRange': textDocument,
    'textDocument/formatting': textDocument,
    'textDocument/documentLink': textDocument,
    'textDocument/semanticTokens/full': textDocument,
    'textDocument/semanticTokens/full/delta': textDocument,
    'textDocument/semanticTokens/range': inRange,
    'textDocument/rangeFormatting': inRange,
    'textDocument/codeAction': inRange,
    'textDocument/inlayHint': inRange,
    'workspace/symbol': p => (isObject(p) && typeof p.query === 'string' ? undefined : 'params.query must be a string'),
    'workspace/didChangeWatchedFiles': p => (isObject(p) && Array.isArray(p.changes) && p.changes.every(c => isObject(c) && typeof c.uri === 'string' && (c.type === 1 || c.type === 2 || c.type === 3))
        ? undefined : 'params.changes must be an array of {uri, type}'),
    'workspace/didChangeConfiguration': p => (isObject(p) ? undefined : 'params must be an object'),
    'workspace/didChangeWorkspaceFolders': p => (isObject(p) && isObject(p.event) && Array.isArray(p.event.added) && Array.isArray(p.event.removed) ? undefined : 'params.event must be {added, removed}'),
    '$/setTrace': p => (isObject(p) && typeof p.value === 'string' ? undefined : 'params.value must be a string'),
    '$/cancelRequest': p => (isObject(p) && (typeof p.id === 'number' || typeof p.id === 'string') ? undefined : 'params.id must be a number or a string')
};

/** Requests about one document that need it open or on disk (Langium reads a document it was never given from disk). */
const NEEDS_DOCUMENT = new Set(Object.keys(CHECKS).filter(m => m.startsWith('textDocument/') && !m.startsWith('textDocument/did')));

/** What is wrong with a message's params, or undefined. OPEN: the documents the client has open. */
export function paramsProblem(method: string, params: unknown, open: ReadonlySet<string>): string | undefined {
    const check = CHECKS[method];
    const bad = check?.(params as Json | undefined);
    if (bad !== undefined || !NEEDS_DOCUMENT.has(method)) return bad;
    const uri = ((params as { textDocument: { uri: string } }).textDocument).uri;
    if (open.has(uri)) return undefined;
    let path: string | undefined;
    try {
        const parsed = URI.parse(uri);
        path = parsed.scheme === 'file' ? parsed.fsPath : undefined;
    } catch {
        return `params.textDocument.uri is not a URI: ${uri}`;
    }
    return path !== undefined && existsSync(path) ? undefined : `no document ${uri}: it is not open and not a file`;
}

/** A reader passing on the messages that pass paramsProblem; bad requests are answered through WRITER. */
export class CheckedMessageReader extends AbstractMessageReader {
    private readonly open = new Set<string>();

    constructor(private readonly inner: MessageReader, private readonly writer: MessageWriter) {
        super();
        inner.onError(e => this.fireError(e));
        inner.onClose(() => this.fireClose());
        inner.onPartialMessage(info => this.firePartialMessage(info));
    }

    listen(callback: DataCallback): Disposable {
        return this.inner.listen(message => {
            const m = message as Message & { method?: unknown; id?: unknown; params?: unknown };
            if (typeof m.method !== 'string') {
                callback(message);
                return;
            }
            const problem = paramsProblem(m.method, m.params, this.open);
            if (problem === undefined) {
                this.track(m.method, m.params);
                callback(message);
            } else if (m.id !== undefined && m.id !== null) {
                void this.writer.write({ jsonrpc: '2.0', id: m.id as number | string, error: { code: ErrorCodes.InvalidParams, message: `${m.method}: ${problem}` } } as Message);
            }
        });
    }

    private track(method: string, params: unknown): void {
        const uri = (params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
        if (uri === undefined) return;
        if (method === 'textDocument/didOpen') this.open.add(uri);
        else if (method === 'textDocument/didClose') this.open.delete(uri);
    }

    override dispose(): void {
        super.dispose();
        this.inner.dispose();
    }
}
