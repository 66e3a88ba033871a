import { UserError } from '../common/index.js';
import { ExitCode, type CliIo } from './io.js';
import { lookupAction } from './lookup-command.js';

export interface LspCommandOptions {
    readonly stdio?: boolean;
}

/**
 * `modelc lsp --stdio`: the language server on stdin/stdout until the client exits. The server
 * (Langium's LSP, vscode-languageserver) is loaded here only, so no other command pays for it.
 * Lookup keys are explained by running `modelc lookup --explain` itself.
 */
export async function lspAction(opts: LspCommandOptions, _io: CliIo): Promise<number> {
    if (opts.stdio !== true) {
        throw new UserError({ severity: 'error', code: 'CLI_USAGE', message: 'modelc lsp speaks LSP over stdio only: pass --stdio', file: 'modelc' });
    }
    const { runLanguageServer } = await import('../lsp/index.js');
    await runLanguageServer(process.stdin, process.stdout, {
        explainLookup: (envDir, key, node) => {
            let out = '';
            let err = '';
            lookupAction(envDir, key, { node: node.certname, facts: node.facts, environment: node.environment, explain: true }, {
                out: t => { out += typeof t === 'string' ? t : Buffer.from(t).toString('utf8'); },
                err: t => { err += t; }
            });
            return `${out}${err}`;
        }
    });
    return ExitCode.OK;
}
