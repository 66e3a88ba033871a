import { formatDiagnostic, type Diagnostic } from './diagnostic.js';

/**
 * Raised for problems in the user's input (never for our own bugs). The CLI prints the
 * diagnostics without a stack trace and exits 1.
 */
export class UserError extends Error {
    readonly diagnostics: readonly Diagnostic[];

    constructor(diagnostics: Diagnostic | readonly Diagnostic[]) {
        const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics as Diagnostic];
        super(list.map(formatDiagnostic).join('\n'));
        this.name = 'UserError';
        this.diagnostics = list;
    }
}

export function isUserError(e: unknown): e is UserError {
    return e instanceof UserError;
}
