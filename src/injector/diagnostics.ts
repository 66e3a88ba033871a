import type { SourceLocation } from '../../generated/model/bindings.js';
import { UserError, type Diagnostic, type Severity } from '../common/index.js';
import { formatIssue, type InjectIssueCode } from './issues.js';

/** An injector finding: a Diagnostic that also names every binding involved and their layers. */
export interface InjectorDiagnostic extends Diagnostic {
    readonly code: InjectIssueCode;
    /** The canonical key concerned, when there is one. */
    readonly key?: string;
    readonly layers: readonly string[];
    /** The source locations of all bindings involved (both sides of a conflict). */
    readonly locations: readonly SourceLocation[];
}

export function formatLocation(loc: SourceLocation | undefined): string {
    if (!loc) return '<unknown location>';
    return loc.line !== undefined ? `${loc.file}:${loc.line}` : loc.file;
}

export interface IssueSite {
    readonly key?: string;
    readonly layers?: readonly string[];
    readonly locations?: readonly (SourceLocation | undefined)[];
}

/**
 * Builds a diagnostic. When several bindings are involved their `file:line`s are appended to
 * the binder's message, so a conflict always names both places even when printed as one line.
 */
export function diagnostic(severity: Severity, code: InjectIssueCode, site: IssueSite, ...args: (string | number)[]): InjectorDiagnostic {
    const locations = (site.locations ?? []).filter((l): l is SourceLocation => l !== undefined);
    const base = formatIssue(code, ...args);
    const message = locations.length > 1 ? `${base} (at ${locations.map(formatLocation).join(' and ')})` : base;
    const first = locations[0];
    return {
        severity, code, message, locations,
        layers: site.layers ?? [],
        ...(site.key !== undefined ? { key: site.key } : {}),
        ...(first ? { file: first.file, at: { file: first.file, line: first.line ?? 1, column: first.column ?? 1 } } : {})
    };
}

/** Thrown by createInjector when creation found errors, and by lookups that fail. */
export class InjectorError extends UserError {
    override readonly diagnostics: readonly InjectorDiagnostic[];

    constructor(diagnostics: InjectorDiagnostic | readonly InjectorDiagnostic[]) {
        super(diagnostics);
        this.name = 'InjectorError';
        this.diagnostics = Array.isArray(diagnostics) ? diagnostics : [diagnostics as InjectorDiagnostic];
    }
}

export function fail(code: InjectIssueCode, site: IssueSite, ...args: (string | number)[]): never {
    throw new InjectorError(diagnostic('error', code, site, ...args));
}
