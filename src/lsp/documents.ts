import { promises as fs, readdirSync, statSync, type Dirent } from 'node:fs';
import type { CancellationToken } from 'vscode-languageserver';
import { DefaultLangiumDocumentFactory, URI, type AstNode, type FileSystemNode, type LangiumDocument, type ParseResult } from 'langium';
import { NodeFileSystemProvider } from 'langium/node';
import { BindingsTransformer } from '../bindings/index.js';
import { parsePuppet } from '../parse/index.js';
import type { Diagnostic } from '../common/index.js';

/** The CLI's diagnostics of each parsed document, keyed by its AST root (a new root per parse). */
const parseDiagnostics = new WeakMap<AstNode, readonly Diagnostic[]>();

/** What `modelc parse`/`compile` report for this document's text: the parser's and the checker's findings. */
export function cliDiagnostics(document: LangiumDocument): readonly Diagnostic[] {
    return parseDiagnostics.get(document.parseResult.value) ?? [];
}

/** Whether the document is an EPP template (parsed in the lexer's EPP mode). */
export function isEpp(uri: URI): boolean {
    return uri.path.endsWith('.epp');
}

/**
 * Documents are parsed by the CLI's own entry point, `parsePuppet` (the fast parser, Langium's
 * recovering parser for text with errors, then the checker), never by a second parser: the
 * editor shows exactly the codes and positions `modelc` prints.
 */
export class PuppetDocumentFactory extends DefaultLangiumDocumentFactory {
    protected override parse<T extends AstNode>(uri: URI, text: string): ParseResult<T> {
        return puppetParseResult<T>(uri, text);
    }

    protected override parseAsync<T extends AstNode>(uri: URI, text: string, _token: CancellationToken): Promise<ParseResult<T>> {
        return Promise.resolve(puppetParseResult<T>(uri, text));
    }
}

function puppetParseResult<T extends AstNode>(uri: URI, text: string): ParseResult<T> {
    const result = parsePuppet(text, uri.fsPath, { epp: isEpp(uri) });
    const diagnostics = [...result.diagnostics];
    // A bindings file (ARM-8 `bindings`/`site` definitions) also gets what the bindings
    // providers report when they load it (`modelc bindings`, `compile`).
    if (result.ast.arm8.length > 0 && !diagnostics.some(d => d.severity === 'error')) {
        diagnostics.push(...new BindingsTransformer(uri.fsPath).transform(result.ast.arm8).diagnostics);
    }
    parseDiagnostics.set(result.ast, diagnostics);
    return { value: result.ast as unknown as T, parserErrors: [], lexerErrors: [], lexerReport: { diagnostics: [] } };
}

/**
 * Langium's Node file system, except that a symbolic link to a directory is walked: an
 * environment's `modules/` is often a set of links to installed modules.
 */
export class LinkFollowingFileSystem extends NodeFileSystemProvider {
    override async readDirectory(uri: URI): Promise<FileSystemNode[]> {
        const dirents = await fs.readdir(uri.fsPath, { withFileTypes: true });
        return Promise.all(dirents.map(async d => {
            const child = URI.file(`${uri.fsPath}/${d.name}`);
            const kind = d.isSymbolicLink() ? await fs.stat(child.fsPath).then(s => s, () => undefined) : d;
            return { uri: child, isFile: kind?.isFile() ?? false, isDirectory: kind?.isDirectory() ?? false };
        }));
    }

    override readDirectorySync(uri: URI): FileSystemNode[] {
        return readdirSync(uri.fsPath, { withFileTypes: true }).map((d: Dirent) => {
            const child = URI.file(`${uri.fsPath}/${d.name}`);
            let kind: { isFile(): boolean; isDirectory(): boolean } | undefined = d;
            if (d.isSymbolicLink()) {
                try {
                    kind = statSync(child.fsPath);
                } catch {
                    kind = undefined;
                }
            }
            return { uri: child, isFile: kind?.isFile() ?? false, isDirectory: kind?.isDirectory() ?? false };
        });
    }
}
