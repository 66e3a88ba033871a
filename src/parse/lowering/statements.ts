import type { AstNode } from 'langium';
import type { Expression, QualifiedName } from '../../../generated/langium/ast.js';

/**
 * Names that may be called without parentheses (Puppet's STATEMENT_CALLS): `include a, b` is
 * parsed as the juxtaposed statements `include` and `a, b`, and merged into one call here.
 */
export const STATEMENT_CALLS: ReadonlySet<string> = new Set([
    'require', 'realize', 'include', 'contain', 'tag', 'debug', 'info', 'notice', 'warning', 'err',
    'fail', 'import', 'break', 'next', 'return'
]);

/** One statement after Puppet's `transform_calls`. */
export type LoweredStatement =
    | { readonly kind: 'expr'; readonly expr: Expression }
    | { readonly kind: 'call'; readonly functor: QualifiedName; readonly args: readonly Expression[]; readonly last: AstNode };

export interface StatementError {
    readonly code: 'PARSE_ARGS_TO_NON_CALL' | 'PARSE_ILLEGAL_COMMA_LIST';
    /** The comma list whose first comma Puppet reports. */
    readonly list: Expression;
    readonly name?: string;
}

/**
 * Merges a statement-call name with the statement (or comma list) that follows it; a comma
 * list anywhere else is an error, reported through `onError`.
 */
export function lowerStatements(statements: readonly Expression[], onError?: (e: StatementError) => void): LoweredStatement[] {
    const out: LoweredStatement[] = [];
    for (const stmt of statements) {
        const prev = out[out.length - 1];
        if (prev && prev.kind === 'expr' && prev.expr.$type === 'QualifiedName' && STATEMENT_CALLS.has(prev.expr.value)) {
            const args = stmt.$type === 'CommaList' ? stmt.items : [stmt];
            out[out.length - 1] = { kind: 'call', functor: prev.expr, args, last: stmt };
            continue;
        }
        if (stmt.$type === 'CommaList') {
            const name = prev && prev.kind === 'expr' && prev.expr.$type === 'QualifiedName' ? prev.expr.value : undefined;
            onError?.(name === undefined
                ? { code: 'PARSE_ILLEGAL_COMMA_LIST', list: stmt }
                : { code: 'PARSE_ARGS_TO_NON_CALL', list: stmt, name });
            for (const item of stmt.items) {
                out.push({ kind: 'expr', expr: item });
            }
            continue;
        }
        out.push({ kind: 'expr', expr: stmt });
    }
    return out;
}
