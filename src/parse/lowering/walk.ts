import type { AstNode } from 'langium';

function isNode(v: unknown): v is AstNode {
    return typeof v === 'object' && v !== null && typeof (v as { $type?: unknown }).$type === 'string';
}

/**
 * Every node below and including `root`, in pre-order: the order of Langium's
 * AstUtils.streamAst (properties in key order, `$` properties skipped), without its iterator
 * machinery, which cost more than the checks that walk the tree after each parse.
 */
export function allNodes(root: AstNode): AstNode[] {
    const out: AstNode[] = [];
    const visit = (node: AstNode): void => {
        out.push(node);
        const record = node as unknown as Record<string, unknown>;
        for (const key of Object.keys(record)) {
            if (key.charCodeAt(0) === 0x24) {
                continue;
            }
            const value = record[key];
            if (Array.isArray(value)) {
                for (const item of value) {
                    if (isNode(item)) {
                        visit(item);
                    }
                }
            } else if (isNode(value)) {
                visit(value);
            }
        }
    };
    visit(root);
    return out;
}
