import { startLanguageServer } from 'langium/lsp';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { CheckedMessageReader } from './checked-reader.js';
import type { LspHost } from './node-values.js';
import { createPuppetLspServices } from './services.js';

/**
 * Runs the language server over a pair of streams (the CLI passes stdin/stdout) until the
 * client's `exit`; resolves when the input ends.
 */
export function runLanguageServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, host: LspHost = {}): Promise<void> {
    const writer = new StreamMessageWriter(output);
    const connection = createConnection(ProposedFeatures.all, new CheckedMessageReader(new StreamMessageReader(input), writer), writer);
    const { shared } = createPuppetLspServices({ connection, host, fileSystem: true });
    startLanguageServer(shared);
    return new Promise(resolve => {
        input.on('end', resolve);
        input.on('close', resolve);
    });
}
