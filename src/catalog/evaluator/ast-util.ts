import type { AstNode } from 'langium';
import { locatingOperator, operatorLeaf } from '../../parse/index.js';
import type { Expression, Program, QualifiedName, ResourceExpression } from '../../../generated/langium/ast.js';
import type { Where } from '../errors.js';

/**
 * Where Puppet locates `node` (1-based line and column) in `file`: its start, except for
 * operator expressions, which Puppet locates at their operator.
 */
export function whereOf(node: AstNode, file: string): Where {
    let start = node.$cstNode?.range.start;
    const op = locatingOperator(node);
    if (op !== undefined) {
        const cst = node.$cstNode;
        const leaf = cst ? operatorLeaf(cst, node, op) : undefined;
        if (leaf) start = leaf.range.start;
    }
    return { file, line: (start?.line ?? 0) + 1, column: (start?.character ?? 0) + 1 };
}

/**
 * Names Puppet calls without parentheses (its STATEMENT_CALLS): the parser keeps `include a, b`
 * as two juxtaposed statements; evaluation merges them into one call, as Puppet's parser does.
 */
export const STATEMENT_CALLS: ReadonlySet<string> = new Set([
    'require', 'realize', 'include', 'contain', 'tag', 'debug', 'info', 'notice', 'warning', 'err',
    'fail', 'import', 'break', 'next', 'return'
]);

export type Statement =
    | { readonly kind: 'expr'; readonly expr: Expression }
    | { readonly kind: 'call'; readonly functor: QualifiedName; readonly args: readonly Expression[] };

const lowered = new WeakMap<readonly Expression[], Statement[]>();

/** The statements of a block with statement calls merged (cached per block). */
export function statementsOf(statements: readonly Expression[]): Statement[] {
    let out = lowered.get(statements);
    if (out) return out;
    out = [];
    for (const stmt of statements) {
        const prev = out[out.length - 1];
        if (prev && prev.kind === 'expr' && prev.expr.$type === 'QualifiedName' && STATEMENT_CALLS.has(prev.expr.value)) {
            out[out.length - 1] = { kind: 'call', functor: prev.expr, args: stmt.$type === 'CommaList' ? stmt.items : [stmt] };
            continue;
        }
        if (stmt.$type === 'ResourceExpression' && isStatementCallWithHash(stmt)) {
            out.push({ kind: 'expr', expr: stmt });
            continue;
        }
        out.push({ kind: 'expr', expr: stmt });
    }
    lowered.set(statements, out);
    return out;
}

function isStatementCallWithHash(r: ResourceExpression): boolean {
    return r.bodies.length === 0 && r.typeExpr.$type === 'QualifiedName' && STATEMENT_CALLS.has(r.typeExpr.value);
}

/** A Puppet number literal: hex, octal (leading 0), decimal, or a float. */
export function parseNumber(text: string): bigint | number | undefined {
    if (/^0[xX][0-9a-fA-F]+$/.test(text)) return BigInt(text);
    if (/^0[0-7]+$/.test(text)) return BigInt(`0o${text.slice(1)}`);
    if (/^\d+$/.test(text)) return BigInt(text);
    if (/^(\d+\.\d+([eE][-+]?\d+)?|\d+[eE][-+]?\d+)$/.test(text)) return Number(text);
    return undefined;
}

/** Parses a numeric string as Puppet's arithmetic does ("0x10", "1.5", "-3"). */
export function parseNumericString(text: string): bigint | number | undefined {
    const t = text.trim();
    const m = /^([-+]?)\s*(.*)$/.exec(t);
    if (!m) return undefined;
    const n = parseNumber(m[2]);
    if (n === undefined) return undefined;
    return m[1] === '-' ? (typeof n === 'bigint' ? -n : -n) : n;
}

/** The program (file root) a node belongs to. */
export function programOf(node: AstNode): Program {
    let n = node;
    while (n.$container) n = n.$container;
    return n as Program;
}
