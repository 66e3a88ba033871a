import { inspect } from 'node:util';
import { startLanguageServer } from 'langium/lsp';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type Connection } from 'vscode-languageserver/node';
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
    routeConsole(connection);
    const { shared } = createPuppetLspServices({ connection, host, fileSystem: true });
    startLanguageServer(shared);
    return new Promise(resolve => {
        input.on('end', resolve);
        input.on('close', resolve);
    });
}

/**
 * Langium reports a request for a document no language serves (`file:///`) with console.debug,
 * which Node writes to stdout: over stdio that text landed inside the JSON-RPC stream, the
 * client lost the framing and no later request had an answer. The connection only patches the
 * console when it opens stdio itself; the CLI hands it the streams, so the console is routed
 * here, to the client's log (window/logMessage).
 */
function routeConsole(connection: Connection): void {
    const text = (args: unknown[]): string => args.map(a => (typeof a === 'string' ? a : inspect(a))).join(' ');
    console.log = console.debug = console.info = (...args: unknown[]) => connection.console.log(text(args));
    console.dir = (value: unknown) => connection.console.log(inspect(value));
    console.warn = (...args: unknown[]) => connection.console.warn(text(args));
    console.error = (...args: unknown[]) => connection.console.error(text(args));
}
