import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { LangiumDocument, ValidationOptions } from 'langium';
import type { DocumentValidator } from 'langium';
import type { Diagnostic } from '../common/index.js';
import { cliDiagnostics } from './documents.js';

/**
 * The document's diagnostics are the CLI's (parser, checker), made when the document was parsed:
 * same codes and messages, positioned at the CLI's line:column and spanning the token there.
 */
export class PuppetDocumentValidator implements DocumentValidator {
    validateDocument(document: LangiumDocument, _options?: ValidationOptions): Promise<LspDiagnostic[]> {
        const text = document.textDocument.getText();
        return Promise.resolve(cliDiagnostics(document).map(d => toLspDiagnostic(d, text, document)));
    }
}

/** A word, variable or quoted token starting at `offset`; one character otherwise. */
function tokenLength(text: string, offset: number): number {
    const rest = text.slice(offset, offset + 200);
    const m = /^(?:\$?(?:::)?[A-Za-z_][\w]*(?:::[A-Za-z_]\w*)*|\d[\w.]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|=>|->|~>|==|!=|<=|>=)/.exec(rest);
    return m ? m[0].length : Math.min(1, rest.length);
}

export function toLspDiagnostic(d: Diagnostic, text: string, document: LangiumDocument): LspDiagnostic {
    const line = Math.max(0, (d.at?.line ?? 1) - 1);
    const character = Math.max(0, (d.at?.column ?? 1) - 1);
    const offset = document.textDocument.offsetAt({ line, character });
    const end = document.textDocument.positionAt(offset + tokenLength(text, offset));
    return {
        range: { start: { line, character }, end },
        severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
        code: d.code,
        source: 'modelc',
        message: d.message
    };
}
