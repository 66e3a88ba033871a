import type { CatalogIssueCode } from './issues.js';
import type { PError } from '../values/index.js';

/** A place in a manifest; `file` is relative to the environment directory. */
export interface Where {
    readonly file: string;
    readonly line: number;
    readonly column?: number;
}

export function whereSuffix(w: Where | undefined): string {
    if (!w) return '';
    return w.column !== undefined ? ` (file: ${w.file}, line: ${w.line}, column: ${w.column})` : ` (file: ${w.file}, line: ${w.line})`;
}

/** The oracle's error object (without the " on node N" suffix, added when rendering). */
export interface ErrorReport {
    /** What `puppet apply` prints after "Error: ". */
    readonly message: string;
    readonly file?: string;
    readonly line?: number;
    readonly pos?: number;
    /** Where the diagnostic points when Puppet's report names no location (file, line and pos unset). */
    readonly at?: Where;
    readonly issueCode?: string;
    /** The message without location, when Puppet has one. */
    readonly basic?: string;
    readonly rubyClass: string;
    readonly causeClass?: string;
    /**
     * A plain Ruby error that escaped Puppet's handling (a template's SyntaxError): Puppet prints
     * its message as it is, without " on node N", and logs nothing.
     */
    readonly plain?: boolean;
    /** The err log entry; `withNode` appends " on node N" to its message. */
    readonly log: { readonly message: string; readonly file?: string; readonly line?: number; readonly withNode?: boolean };
}

/** A failed compilation, in the shape the oracle prints. */
export class CompileError extends Error {
    /** A catalog issue code, or the code of another stage's located error (INJECT_..., STORE_..., QUERY_...). */
    constructor(readonly code: CatalogIssueCode | (string & {}), readonly report: ErrorReport) {
        super(report.message);
    }
}

/** An issue error located at `where`: "Evaluation Error: <basic> (file: f, line: l, column: c)". */
export function evaluationError(code: CatalogIssueCode, issueCode: string, text: string, where: Where | undefined): CompileError {
    const basic = `Evaluation Error: ${text}`;
    return new CompileError(code, {
        message: basic + whereSuffix(where), file: where?.file, line: where?.line, pos: where?.column, issueCode, basic,
        rubyClass: 'Puppet::PreformattedError', log: { message: basic, file: where?.file, line: where?.line }
    });
}

/**
 * An error raised while evaluating, before it is located: issue errors carry their Puppet issue
 * ("Evaluation Error: Unknown variable ..."); runtime errors are wrapped by the nearest
 * evaluated statement ("Error while evaluating a Function Call, ...").
 */
export class EvalIssue extends Error {
    constructor(readonly code: CatalogIssueCode, message: string, readonly where?: Where, readonly operand?: 'left' | 'right') {
        super(message);
    }

    /** The issue with its message's arguments, reported under its code (or the code it is reported as). */
    static of<I extends CatalogIssue>(issue: I, args: MessageArgs<I>, where?: Where, operand?: 'left' | 'right'): EvalIssue {
        return new EvalIssue(issue.reportedAs ?? issue.code, (issue.message as (a: MessageArgs<I>) => string)(args), where, operand);
    }

    /** The same issue located at `where`. */
    at(where: Where): EvalIssue {
        return new EvalIssue(this.code, this.message, where);
    }
}

/** A catalogue entry as the errors use it. */
interface CatalogIssue {
    readonly code: CatalogIssueCode;
    readonly reportedAs?: CatalogIssueCode;
    readonly message: (args: never) => string;
}

/** The named arguments of an issue's message (`{}` when it takes none). */
type MessageArgs<I extends CatalogIssue> = Parameters<I['message']> extends [infer A] ? A : Record<string, never>;

/** A plain runtime failure (Ruby's StandardError in Puppet): located by the enclosing statement. */
export class RuntimeFailure extends Error {
    /** Set when the failure already knows its place (Puppet then reports file and line without column). */
    constructor(message: string, readonly where?: Where) {
        super(message);
    }
}

/** A Ruby exception out of a module's Ruby function, with its class (Hiera tells Puppet::Errors from the rest by it). */
export class RubyRuntimeFailure extends RuntimeFailure {
    constructor(message: string, readonly rubyClass: string) {
        super(message);
    }
}

/** Puppet::ErrorWithData: a failure that carries an Error value (what `get` hands its block). */
export class DataFailure extends RuntimeFailure {
    constructor(message: string, readonly data: PError) {
        super(message);
    }
}

/** Puppet::Error / Puppet::ParseError: not wrapped with "Evaluation Error". */
export class PuppetFailure extends Error {
    constructor(message: string, readonly where?: Where, readonly rubyClass = 'Puppet::Error', readonly causeClass?: string,
        readonly issueCode?: string, readonly file?: string, readonly basic?: string) {
        super(message);
    }
}
