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
    return `${where}: ${d.severity} ${d.code}: ${d.message}${suffix}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
    return diagnostics.some(d => d.severity === 'error');
}
