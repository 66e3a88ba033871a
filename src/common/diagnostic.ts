import type { SourcePoint } from './location.js';

export type Severity = 'error' | 'warning';

/**
 * One finding about user input. Either `at` (a source point) or `path` (a JSON path inside a
 * model file) says where; `file` alone is used only when the whole file is at fault.
 */
export interface Diagnostic {
    readonly severity: Severity;
    readonly code: string;
    readonly message: string;
    readonly file?: string;
    readonly at?: SourcePoint;
    readonly path?: string;
}

/** `file:line:col: error CODE: message` or `file: error CODE: message (at /json/path)`. */
export function formatDiagnostic(d: Diagnostic): string {
    const where = d.at ? `${d.at.file}:${d.at.line}:${d.at.column}` : (d.file ?? '<input>');
    const suffix = d.path !== undefined ? ` (at ${d.path === '' ? '/' : d.path})` : '';
    return `${where}: ${d.severity} ${d.code}: ${oneLine(d.message)}${suffix}`;
}

/**
 * A message as the one line a diagnostic is: Puppet's and Ruby's messages may span lines (a
 * Ruby syntax error adds the code line and a caret), and a reader of stderr takes each line
 * for one diagnostic. The lines are kept, joined by ' | '.
 */
export function oneLine(message: string): string {
    if (!/[\r\n\u2028\u2029]/.test(message)) return message;
    return message.split(/\r\n|[\r\n\u2028\u2029]/).map(l => l.trim()).filter(l => l !== '').join(' | ');
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
    return diagnostics.some(d => d.severity === 'error');
}
