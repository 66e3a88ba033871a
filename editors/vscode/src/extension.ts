import { workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/**
 * A thin client: VS Code starts `modelc lsp --stdio` and the server does everything. The
 * `modelc.node` setting reaches the server at start and on every change.
 */
export async function activate(context: ExtensionContext): Promise<void> {
    const config = workspace.getConfiguration('modelc');
    const path = config.get<string>('path') ?? 'modelc';
    // A path to bin/modelc.js runs with the Node that runs VS Code's extensions; `modelc` is found on the PATH.
    const run = path.endsWith('.js')
        ? { command: process.execPath, args: [path, 'lsp', '--stdio'], transport: TransportKind.stdio, options: { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } } }
        : { command: path, args: ['lsp', '--stdio'], transport: TransportKind.stdio };
    const server: ServerOptions = { run, debug: run };
    const options: LanguageClientOptions = {
        documentSelector: [{ scheme: 'file', language: 'puppet' }],
        initializationOptions: { node: config.get('node') },
        synchronize: {
            configurationSection: 'modelc',
            fileEvents: workspace.createFileSystemWatcher('**/*.{pp,epp,yaml,yml,json}')
        }
    };
    client = new LanguageClient('modelc', 'modelc', server, options);
    context.subscriptions.push({ dispose: () => void client?.stop() });
    await client.start();
}

export async function deactivate(): Promise<void> {
    await client?.stop();
}
