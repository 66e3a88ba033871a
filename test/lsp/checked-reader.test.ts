import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { paramsProblem } from '../../src/lsp/checked-reader.js';

// The shape check at the language server's edge (found by test/reliability/lsp-fuzz.ts: each
// of these reached a Langium handler and came back as an internal TypeError).
const dir = mkdtempSync(join(tmpdir(), 'modelc-checked-'));
const onDisk = join(dir, 'site.pp');
writeFileSync(onDisk, "notify { 'x': }\n");
const uri = pathToFileURL(onDisk).toString();
const opened = 'untitled:Untitled-1';
const open = new Set([opened]);

describe('paramsProblem', () => {
    test.each([
        { id: 'a hover at a position', method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 3 } }, bad: undefined },
        { id: 'a position past the text is the handler\'s to answer', method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 999, character: 0 } }, bad: undefined },
        { id: 'a request about an open document that is no file', method: 'textDocument/completion', params: { textDocument: { uri: opened }, position: { line: 0, character: 0 } }, bad: undefined },
        { id: 'a null position', method: 'textDocument/references', params: { textDocument: { uri }, position: null }, bad: /params.position/ },
        { id: 'a negative line', method: 'textDocument/definition', params: { textDocument: { uri }, position: { line: -1, character: 0 } }, bad: /params.position/ },
        { id: 'a fractional character', method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 0.5 } }, bad: /params.position/ },
        { id: 'params that are a string', method: 'textDocument/documentSymbol', params: 'file:///etc/passwd', bad: /params must be an object/ },
        { id: 'no text document', method: 'textDocument/codeLens', params: {}, bad: /textDocument.uri/ },
        { id: 'a document neither open nor on disk', method: 'textDocument/documentHighlight', params: { textDocument: { uri: pathToFileURL(join(dir, 'new.pp')).toString() }, position: { line: 0, character: 0 } }, bad: /not open and not a file/ },
        { id: 'didOpen without text', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'puppet', version: 1 } }, bad: /uri, languageId, version, text/ },
        { id: 'didChange without changes', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 } }, bad: /contentChanges must be an array/ },
        { id: 'didChange with a range of strings', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: '1', character: 0 }, end: { line: 1, character: 0 } }, text: 'x' }] }, bad: /contentChanges\[0\].range.start/ },
        { id: 'didChange with whole text', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ text: 'x' }] }, bad: undefined },
        { id: 'didClose of nothing', method: 'textDocument/didClose', params: { textDocument: { uri: {} } }, bad: /textDocument.uri/ },
        { id: 'setTrace of null', method: '$/setTrace', params: null, bad: /params.value/ },
        { id: 'watched files without changes', method: 'workspace/didChangeWatchedFiles', params: { changes: 5 }, bad: /params.changes/ },
        { id: 'a symbol query of another type', method: 'workspace/symbol', params: { query: 1 }, bad: /params.query/ },
        { id: 'an initialize as editors send it', method: 'initialize', params: { processId: null, rootUri: uri, workspaceFolders: [{ uri, name: 'env' }], capabilities: {} }, bad: undefined },
        { id: 'an initialize without capabilities', method: 'initialize', params: { textDocument: { uri } }, bad: /capabilities/ },
        { id: 'a workspace folder whose uri is an array (it ran the server out of memory)', method: 'initialize', params: { rootUri: uri, workspaceFolders: [{ uri: [], name: 'env' }], capabilities: {} }, bad: /workspaceFolders/ },
        { id: 'methods without a check pass', method: 'nope/method', params: 5, bad: undefined }
    ])('$id', ({ method, params, bad }) => {
        const problem = paramsProblem(method, params, open);
        if (bad === undefined) expect(problem).toBeUndefined();
        else expect(problem).toMatch(bad);
    });
});
