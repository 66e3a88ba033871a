import { URI, type LangiumDocument } from 'langium';
import type { DefinitionProvider, DocumentHighlightProvider, ReferencesProvider } from 'langium/lsp';
import { DocumentHighlightKind, type DefinitionParams, type DocumentHighlight, type DocumentHighlightParams, type Location, type LocationLink, type Range, type ReferenceParams } from 'vscode-languageserver';
import type { Program } from '../../generated/langium/ast.js';
import { readRegularFile } from '../common/index.js';
import { siteAt, sitesOf, type Site } from './sites.js';
import type { Located, PuppetWorkspace } from './workspace.js';

export function rangeOf(document: LangiumDocument, start: number, end: number): Range {
    return { start: document.textDocument.positionAt(start), end: document.textDocument.positionAt(end) };
}

export function locationOf(l: Located): Location {
    return { uri: l.document.uri.toString(), range: rangeOf(l.document, l.site.start, l.site.end) };
}

/** The site under the cursor of a request. */
export function siteUnder(document: LangiumDocument, position: { line: number; character: number }): Site | undefined {
    return siteAt(document.parseResult.value as Program, document.textDocument.offsetAt(position));
}

const WHOLE_FILE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * Go to definition: a class, define, function or type alias by its name across the
 * environment, a variable to its parameter or first assignment (`$a::b::x` in class `a::b`),
 * an `epp()`/`template()` path to the template file, a `lookup()` key to the data files that set
 * it. A definition's own name answers itself.
 */
export class PuppetDefinitionProvider implements DefinitionProvider {
    constructor(private readonly workspace: PuppetWorkspace) {}

    getDefinition(document: LangiumDocument, params: DefinitionParams): LocationLink[] | undefined {
        const site = siteUnder(document, params.position);
        if (!site) return undefined;
        const origin = rangeOf(document, site.start, site.end);
        if (site.kinds.includes('template')) {
            const file = this.workspace.templateFile(site.name);
            return file === undefined ? undefined : [{ originSelectionRange: origin, targetUri: URI.file(file).toString(), targetRange: WHOLE_FILE, targetSelectionRange: WHOLE_FILE }];
        }
        if (site.kinds.includes('hiera')) {
            return (this.workspace.hieraKeys().get(site.name) ?? []).map(p => {
                const at: Range = { start: { line: p.line - 1, character: 0 }, end: { line: p.line - 1, character: site.name.length } };
                return { originSelectionRange: origin, targetUri: URI.file(p.file).toString(), targetRange: at, targetSelectionRange: at };
            });
        }
        const targets = site.role === 'definition' ? [{ document, site }] : this.workspace.definitionsOf(site);
        if (targets.length === 0) {
            const ruby = rubyDefinition(this.workspace, site);
            return ruby ? [{ originSelectionRange: origin, targetUri: URI.file(ruby.file).toString(), targetRange: ruby.range, targetSelectionRange: ruby.range }] : undefined;
        }
        return targets.map(t => {
            const l = locationOf(t);
            return { originSelectionRange: origin, targetUri: l.uri, targetRange: l.range, targetSelectionRange: l.range };
        });
    }
}

/** A function or resource type a module implements in Ruby: its file and the line that names it. */
export function rubyDefinition(workspace: PuppetWorkspace, site: Site): { file: string; range: Range } | undefined {
    const kind = site.kinds.includes('function') ? 'function' : site.kinds.includes('define') ? 'type' : undefined;
    const file = kind === undefined ? undefined : workspace.rubyFile(kind, site.name);
    if (file === undefined) return undefined;
    let line = 0;
    try {
        const short = site.name.split('::').pop() ?? site.name;
        line = Math.max(0, readRegularFile(file).toString('utf8').split('\n').findIndex(l => /\b(?:create_function|newfunction|newtype)\b/.test(l) && l.includes(short)));
    } catch {
        // unreadable: the file's start
    }
    return { file, range: { start: { line, character: 0 }, end: { line, character: 0 } } };
}

/** Find references: every use of the name under the cursor across the environment (and its definitions when asked). */
export class PuppetReferencesProvider implements ReferencesProvider {
    constructor(private readonly workspace: PuppetWorkspace) {}

    findReferences(document: LangiumDocument, params: ReferenceParams): Location[] {
        const site = siteUnder(document, params.position);
        if (!site) return [];
        const kinds = site.role === 'definition' ? site.kinds : this.workspace.definitionsOf(site)[0]?.site.kinds ?? site.kinds;
        const uses = this.workspace.find('reference', site.name, kinds);
        const defs = params.context.includeDeclaration ? this.workspace.find('definition', site.name, kinds) : [];
        return [...defs, ...uses].map(locationOf);
    }
}

/** Highlights: the uses and definitions in this document of the name under the cursor. */
export class PuppetDocumentHighlightProvider implements DocumentHighlightProvider {
    getDocumentHighlight(document: LangiumDocument, params: DocumentHighlightParams): DocumentHighlight[] {
        const site = siteUnder(document, params.position);
        if (!site) return [];
        return sitesOf(document.parseResult.value as Program)
            .filter(s => s.name === site.name && s.kinds.some(k => site.kinds.includes(k)))
            .map(s => ({ range: rangeOf(document, s.start, s.end), kind: s.role === 'definition' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
    }
}
