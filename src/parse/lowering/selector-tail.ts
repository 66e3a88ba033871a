import type { AstNode } from 'langium';
import type { Expression, SelectorExpression } from '../../../generated/langium/ast.js';
import { allNodes } from './walk.js';

/** Puppet's binary operator levels, tightest first (egrammar's prechigh; all left-associative). */
const LEVEL: Readonly<Record<string, number>> = {
    'in': 0, '=~': 1, '!~': 1, '*': 2, '/': 2, '%': 2, '+': 3, '-': 3, '<<': 4, '>>': 4,
    '==': 5, '!=': 5, '<': 6, '>': 6, '<=': 6, '>=': 6
};

type Mutable = AstNode & Record<string, unknown> & { $container?: AstNode; $containerProperty?: string; $containerIndex?: number };

function setContainer(child: AstNode, parent: AstNode, property: string, index?: number): void {
    const c = child as Mutable;
    c.$container = parent;
    c.$containerProperty = property;
    c.$containerIndex = index;
}

/**
 * `$x ? {..} == 'a' + 1`: the grammar parses what follows a braced selector as one binary chain
 * (the selector's transient `tail`, `'a' + 1`, with `tailOperator` `==`). Puppet's LR parser instead treats the closed
 * selector as the leftmost operand of that chain, so the selector sinks down the chain's left
 * spine past every operator that binds at least as loosely as the tail's own operator.
 */
function attach(left: Expression, operator: string, right: Expression, selector: SelectorExpression): Expression {
    const level = LEVEL[operator] ?? 0;
    if (right.$type === 'BinaryExpression' && (LEVEL[right.operator] ?? 0) >= level) {
        const inner = attach(left, operator, right.left, selector);
        (right as unknown as Mutable).left = inner;
        setContainer(inner, right, 'left');
        return right;
    }
    const node = { $type: 'BinaryExpression', left, operator, right, $cstNode: selector.$cstNode } as unknown as Expression;
    setContainer(left, node, 'left');
    setContainer(right, node, 'right');
    return node;
}

/** Replaces every selector with a tail below `root` by Puppet's BinaryExpression tree. */
export function resolveSelectorTails(root: AstNode): void {
    const selectors: SelectorExpression[] = [];
    for (const node of allNodes(root)) {
        if (node.$type === 'SelectorExpression' && (node as SelectorExpression).tail !== undefined) {
            selectors.push(node as SelectorExpression);
        }
    }
    // Innermost first: a tail's operands may themselves hold selectors with tails.
    for (const selector of selectors.reverse()) {
        const tail = selector.tail as Expression;
        const operator = selector.tailOperator ?? '==';
        const container = selector.$container as unknown as Mutable;
        const property = selector.$containerProperty;
        const index = selector.$containerIndex;
        delete (selector as { tail?: Expression }).tail;
        delete (selector as { tailOperator?: string }).tailOperator;
        const replacement = attach(selector, operator, tail, selector);
        if (property === undefined) {
            continue;
        }
        const slot = container[property];
        if (Array.isArray(slot) && index !== undefined) {
            slot[index] = replacement;
        } else {
            container[property] = replacement;
        }
        setContainer(replacement, container, property, index);
    }
}
