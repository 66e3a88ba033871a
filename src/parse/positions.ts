import { isCompositeCstNode, type AstNode, type CstNode } from 'langium';
import type { Program } from '../../generated/langium/ast.js';
import { allNodes } from './lowering/walk.js';

/** Where a node was written: the Puppet package's `Located` features. */
export interface SourcePosition {
    readonly offset: number;
    readonly length: number;
    /** 1-based. */
    readonly line: number;
    /** 1-based. */
    readonly column: number;
    /** For operator expressions and method calls: the offset Puppet locates them at. */
    readonly operatorOffset?: number;
}

/**
 * The token Puppet locates `node` at when it is not the node's start: an operator expression's
 * operator; a method call's '(' when it has an argument list, else its '.'. Undefined otherwise.
 */
export function locatingOperator(node: AstNode): string | undefined {
    const op = node.$type === 'CallMethodExpression' ? ((node as { hasArgs?: boolean }).hasArgs ? '(' : '.') : (node as { operator?: unknown }).operator;
    return typeof op === 'string' && node.$type !== 'AttributeAssign' ? op : undefined;
}

/**
 * The first leaf below `cst` spelling `op` that belongs to `node` itself. Subtrees of other AST
 * nodes are skipped (none of their leaves can belong to `node`), which keeps locating every
 * operator of a 2,000-link `->` chain linear instead of walking the whole chain per link.
 */
export function operatorLeaf(cst: CstNode, node: AstNode, op: string): CstNode | undefined {
    const stack: CstNode[] = [cst];
    for (let c = stack.pop(); c !== undefined; c = stack.pop()) {
        if (isCompositeCstNode(c)) {
            // Langium keeps a composite's own AST node in `_astNode` (`astNode` climbs to a container's).
            const own = (c as unknown as { _astNode?: AstNode })._astNode;
            if (c !== cst && own !== undefined && own !== node) continue;
            for (let i = c.content.length - 1; i >= 0; i--) stack.push(c.content[i] as CstNode);
        } else if (c.length === op.length && c.text === op && c.astNode === node) {
            return c;
        }
    }
    return undefined;
}

/** A parsed node's position, from its CST; undefined for a node without one. */
export function positionOf(node: AstNode): SourcePosition | undefined {
    const cst = node.$cstNode;
    if (!cst) return undefined;
    const op = locatingOperator(node);
    const leaf = op === undefined ? undefined : operatorLeaf(cst, node, op);
    return {
        offset: cst.offset, length: cst.length, line: cst.range.start.line + 1, column: cst.range.start.character + 1,
        ...(leaf ? { operatorOffset: leaf.offset } : {})
    };
}

/**
 * Writes every node's position into the node itself (the `Located` features), so the AST
 * serialized as a model of the Puppet package says where each node was written. Returns `program`.
 */
export function recordPositions(program: Program): Program {
    for (const node of allNodes(program)) {
        const at = positionOf(node);
        if (at) Object.assign(node, at);
    }
    return program;
}
