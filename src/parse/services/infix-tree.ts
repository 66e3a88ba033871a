/** An infix operator's level in the grammar: a lower number binds tighter. */
export interface Precedence {
    readonly precedence: number;
    readonly rightAssoc: boolean;
}

/**
 * The tree Langium's constructInfix builds (split at the loosest operator, the last one for
 * left-associative levels), built in one pass with an operator stack: splitting recursively
 * copies the operand list at every level, quadratic in a long `1+1+...` chain.
 */
export function buildInfixTree(obj: { $type: string; $cstNode?: unknown; [k: string]: unknown }, precedence: ReadonlyMap<string, Precedence>): unknown {
    const parts = obj['parts'];
    if (!Array.isArray(parts) || parts.length === 0) {
        return undefined;
    }
    const operators = obj['operators'];
    if (!Array.isArray(operators) || parts.length < 2) {
        return parts[0];
    }
    const levelOf = (op: unknown): Precedence => precedence.get(op as string) ?? { precedence: Infinity, rightAssoc: false };
    const operands: unknown[] = [parts[0]];
    const pending: Array<{ op: unknown; level: Precedence }> = [];
    const reduce = (): void => {
        const top = pending.pop() as { op: unknown };
        const right = operands.pop();
        const left = operands.pop();
        operands.push({ $type: obj.$type, $cstNode: obj.$cstNode, left, operator: top.op, right });
    };
    for (let i = 0; i < operators.length; i++) {
        const level = levelOf(operators[i]);
        for (let top = pending.at(-1); top !== undefined; top = pending.at(-1)) {
            const tighter = top.level.precedence < level.precedence
                || (top.level.precedence === level.precedence && !level.rightAssoc);
            if (!tighter) break;
            reduce();
        }
        pending.push({ op: operators[i], level });
        operands.push(parts[i + 1]);
    }
    while (pending.length > 0) reduce();
    return operands[0];
}
