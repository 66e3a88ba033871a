import type { AstNode, LangiumDocument } from 'langium';
import type { CodeLensProvider, DocumentSymbolProvider, SemanticTokenAcceptor, WorkspaceSymbolProvider } from 'langium/lsp';
import { AbstractSemanticTokenProvider } from 'langium/lsp';
import { SemanticTokenTypes, SymbolKind, type CodeLens, type DocumentSymbol, type WorkspaceSymbol, type WorkspaceSymbolParams } from 'vscode-languageserver';
import type { ClassDefinition, Parameter, Program } from '../../generated/langium/ast.js';
import { locationOf, rangeOf } from './navigation.js';
import type { PuppetWorkspace } from './workspace.js';
import type { NodeValues } from './node-values.js';
import { sitesOf, type Site } from './sites.js';

const SYMBOL_KINDS: Record<string, SymbolKind> = {
    ClassDefinition: SymbolKind.Class, DefineDefinition: SymbolKind.Struct, FunctionDefinition: SymbolKind.Function,
    TypeAlias: SymbolKind.TypeParameter, Parameter: SymbolKind.Property
};

/** The outline: classes, defines, functions and type aliases with their parameters. */
export class PuppetDocumentSymbolProvider implements DocumentSymbolProvider {
    getSymbols(document: LangiumDocument): DocumentSymbol[] {
        const top: DocumentSymbol[] = [];
        const byNode = new Map<AstNode, DocumentSymbol>();
        for (const s of sitesOf(document.parseResult.value as Program)) {
            const kind = SYMBOL_KINDS[s.node.$type];
            if (s.role !== 'definition' || kind === undefined || (s.node.$type === 'Parameter' && !byNode.has(s.node.$container as AstNode))) continue;
            const whole = s.node.$cstNode;
            const symbol: DocumentSymbol = {
                name: s.node.$type === 'Parameter' ? `$${(s.node as Parameter).name}` : s.name, kind,
                range: rangeOf(document, whole?.offset ?? s.start, whole?.end ?? s.end), selectionRange: rangeOf(document, s.start, s.end), children: []
            };
            byNode.set(s.node, symbol);
            const parent = s.node.$container ? byNode.get(s.node.$container) : undefined;
            (parent?.children ?? top).push(symbol);
        }
        return top;
    }
}

/** Workspace symbols: the classes, defines, functions and type aliases whose name contains the query. */
export class PuppetWorkspaceSymbolProvider implements WorkspaceSymbolProvider {
    constructor(private readonly workspace: () => PuppetWorkspace) {}

    getSymbols(params: WorkspaceSymbolParams): WorkspaceSymbol[] {
        const query = params.query.toLowerCase();
        const out: WorkspaceSymbol[] = [];
        for (const document of this.workspace().all()) {
            for (const site of sitesOf(document.parseResult.value as Program)) {
                const kind = SYMBOL_KINDS[site.node.$type];
                if (site.role !== 'definition' || kind === undefined || site.node.$type === 'Parameter' || !site.name.includes(query)) continue;
                out.push({ name: site.name, kind, location: locationOf({ document, site }) });
            }
        }
        return out;
    }
}

/** Above each class parameter: the value the chosen node gets and where it came from. */
export class PuppetCodeLensProvider implements CodeLensProvider {
    constructor(private readonly values: NodeValues) {}

    provideCodeLens(document: LangiumDocument): CodeLens[] {
        if (!this.values.node) return [];
        const out: CodeLens[] = [];
        /** Classes with no values (not in the node's catalog, or no catalog): one lens on the class says why. */
        const without = new Set<AstNode>();
        for (const s of sitesOf(document.parseResult.value as Program)) {
            const owner = s.node.$container;
            if (s.role !== 'definition' || s.node.$type !== 'Parameter' || owner?.$type !== 'ClassDefinition' || without.has(owner)) continue;
            const cls = (owner as ClassDefinition).name.replace(/^::/, '').toLowerCase();
            const answer = this.values.explainParameter(cls, (s.node as Parameter).name);
            if (!answer) continue;
            if (!answer.ok) {
                without.add(owner);
                const name = sitesOf(document.parseResult.value as Program).find(x => x.node === owner && x.role === 'definition');
                const at = name ?? s;
                out.push({ range: rangeOf(document, at.start, at.end), command: { title: lensTitle(answer.text, false), command: '' } });
                continue;
            }
            out.push({ range: rangeOf(document, s.start, s.end), command: { title: lensTitle(answer.text, true), command: '' } });
        }
        return out;
    }
}

/** `= 12 (bindings/default.pp:13:5)` from the explanation's first line and its `value from:`/`written at:`. */
export function lensTitle(text: string, ok: boolean): string {
    if (!ok) return `no value: ${text.split('\n')[0]}`;
    const lines = text.split('\n');
    const value = / = (.*)$/.exec(lines[0])?.[1] ?? /: (.*)$/.exec(lines[0])?.[1] ?? lines[0];
    const from = lines.map(l => /^\s*value from: (.*)$/.exec(l)?.[1]).find(x => x !== undefined)
        ?? lines.map(l => /^\s*written at: (.*)$/.exec(l)?.[1]).find(x => x !== undefined);
    // A lens is one line: a long value is cut (hover shows it whole).
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return `= ${shown}${from ? ` (${from})` : ''}`;
}

const SITE_TOKENS: Record<string, string> = {
    class: SemanticTokenTypes.class, define: SemanticTokenTypes.struct, function: SemanticTokenTypes.function,
    type: SemanticTokenTypes.type, variable: SemanticTokenTypes.variable, template: SemanticTokenTypes.string, hiera: SemanticTokenTypes.string
};

/** Semantic tokens from the sites (what each name stands for), plus attribute names and literals. */
export class PuppetSemanticTokenProvider extends AbstractSemanticTokenProvider {
    protected highlightElement(node: AstNode, acceptor: SemanticTokenAcceptor): void | 'prune' {
        if (node.$type === 'Program') {
            for (const s of sitesOf(node as Program)) this.site(s, acceptor);
            return;
        }
        switch (node.$type) {
            case 'AttributeAssign': return acceptor({ node, property: 'name' as never, type: SemanticTokenTypes.property });
            case 'NumberLiteral': return acceptor({ node, property: 'value' as never, type: SemanticTokenTypes.number });
            case 'RegexLiteral': return acceptor({ node, property: 'value' as never, type: SemanticTokenTypes.regexp });
            default: return undefined;
        }
    }

    private site(s: Site, acceptor: SemanticTokenAcceptor): void {
        const type = SITE_TOKENS[s.kinds[0]];
        const doc = this.currentDocument;
        if (type === undefined || !doc) return;
        const start = doc.textDocument.positionAt(s.start);
        const end = doc.textDocument.positionAt(s.end);
        if (start.line !== end.line) return;
        acceptor({ line: start.line, char: start.character, length: end.character - start.character, type, ...(s.role === 'definition' ? { modifier: 'declaration' } : {}) });
    }
}
