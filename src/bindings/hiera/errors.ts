import type { Diagnostic, SourcePoint } from '../../common/index.js';
import { BindingsIssues, type BindingsIssueCode } from '../issues.js';

/** Ruby class names Puppet reports for lookup failures (the oracle prints them as `class`). */
export const PuppetErrorClass = {
    LOOKUP: 'Puppet::DataBinding::LookupError',
    RECURSIVE: 'Puppet::DataBinding::RecursiveLookupError',
    PUPPET: 'Puppet::Error',
    TYPE_ASSERTION: 'Puppet::Pops::Types::TypeAssertionError',
    JSON_GENERATOR: 'JSON::GeneratorError'
} as const;

export interface LookupErrorInit {
    readonly code: BindingsIssueCode;
    /** Puppet's exception class; defaults to LookupError. */
    readonly puppetClass?: string;
    /** Puppet's issue code (HIERA_...), when Puppet gives one. */
    readonly issueCode?: string;
    /** Where the problem is (hiera.yaml or a data file), relative to the environment when possible. */
    readonly at?: Partial<SourcePoint> & { file: string };
    /** The key path (lookup key, or config path like `hierarchy[1].path`) when no file position applies. */
    readonly keyPath?: string;
    readonly notFound?: boolean;
    /** Puppet's exception carries file/line itself (hiera.yaml errors), so the oracle prints them. */
    readonly puppetLocated?: boolean;
    /** The Ruby exception Puppet's wraps (Psych::SyntaxError): its message already says where, and Puppet adds no location to it. */
    readonly causeClass?: string;
    /** The wrapped error's Puppet issue (a function file's SYNTAX_ERROR): a compile reports it with the place, a lookup does not. */
    readonly causeIssue?: string;
}

/**
 * A failed lookup, with Puppet's exact message text. Carries our stable code plus what Puppet
 * reports (class, issue code, file/line), so the CLI can print the oracle's error shape.
 */
export class LookupError extends Error {
    readonly code: BindingsIssueCode;
    readonly puppetClass: string;
    readonly issueCode?: string;
    readonly at?: Partial<SourcePoint> & { file: string };
    readonly keyPath?: string;
    readonly notFound: boolean;
    readonly puppetLocated: boolean;
    readonly causeClass?: string;
    readonly causeIssue?: string;

    constructor(message: string, init: LookupErrorInit) {
        super(message);
        this.name = 'LookupError';
        this.code = init.code;
        this.puppetClass = init.puppetClass ?? PuppetErrorClass.LOOKUP;
        this.issueCode = init.issueCode;
        this.at = init.at;
        this.keyPath = init.keyPath;
        this.notFound = init.notFound ?? false;
        this.puppetLocated = init.puppetLocated ?? false;
        this.causeClass = init.causeClass;
        this.causeIssue = init.causeIssue;
    }

    /** The same error with another message and class (Puppet re-raises with a prefix). */
    rewrap(message: string, puppetClass: string): LookupError {
        return new LookupError(message, { ...this.init(), puppetClass });
    }

    /** The same error, located at `at` when it had no location yet (for our diagnostics only). */
    located(at: Partial<SourcePoint> & { file: string }, keyPath?: string): LookupError {
        if (this.at !== undefined) return this;
        return new LookupError(this.message, { ...this.init(), at, keyPath: this.keyPath ?? keyPath });
    }

    /** As a project diagnostic: file:line:col when known, else the key path. */
    toDiagnostic(): Diagnostic {
        const at = this.at;
        if (at?.line !== undefined) return { severity: 'error', code: this.code, message: this.message, at: { file: at.file, line: at.line, column: at.column ?? 1 } };
        if (at) return { severity: 'error', code: this.code, message: this.message, file: at.file, ...(this.keyPath !== undefined ? { path: this.keyPath } : {}) };
        return { severity: 'error', code: this.code, message: this.message, path: this.keyPath ?? '' };
    }

    private init(): LookupErrorInit {
        return {
            code: this.code, puppetClass: this.puppetClass, issueCode: this.issueCode, at: this.at, keyPath: this.keyPath,
            notFound: this.notFound, puppetLocated: this.puppetLocated, causeClass: this.causeClass, causeIssue: this.causeIssue
        };
    }
}

export function isLookupError(e: unknown): e is LookupError {
    return e instanceof LookupError;
}

/** Puppet's not-found text for one name or several. */
export function notFoundError(names: readonly string[]): LookupError {
    const message = names.length === 1
        ? `Function lookup() did not find a value for the name '${names[0]}'`
        : `Function lookup() did not find a value for any of the names [${names.map(n => `'${n}'`).join(', ')}]`;
    return new LookupError(message, { code: BindingsIssues.LOOKUP_NOT_FOUND, notFound: true, keyPath: names.join(',') });
}
