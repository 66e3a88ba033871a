import type { AstNode, CstNode } from 'langium';
import { locatingOperator, operatorLeaf } from './positions.js';

/** The text of one parsed file, shared by the positions of all its nodes. */
class SourceOf {
    constructor(readonly text: string) {}
}

/**
 * What the compiler reads of a node's CST (offset, length, end, text, range, the node, and for
 * an operator expression the leaf of its operator), kept as numbers taken from the real CST.
 * Langium's CST holds several composite nodes per token (one per grammar rule level) and all
 * the tokens: three to four hundred bytes per byte of source, which a compile of a large
 * manifest would keep for as long as it runs.
 */
class PositionCst {
    /** Only an operator expression's has one entry: the operator's leaf (what `operatorLeaf` looks for). */
    content?: PositionCst[];

    constructor(
        private readonly source: SourceOf, readonly offset: number, readonly length: number, readonly astNode: AstNode,
        private readonly startLine: number, private readonly startCharacter: number, private readonly endLine: number, private readonly endCharacter: number
    ) {}

    get end(): number {
        return this.offset + this.length;
    }

    get text(): string {
        return this.source.text.slice(this.offset, this.end);
    }

    get hidden(): boolean {
        return false;
    }

    get range(): { start: { line: number; character: number }; end: { line: number; character: number } } {
        return { start: { line: this.startLine, character: this.startCharacter }, end: { line: this.endLine, character: this.endCharacter } };
    }
}

function positionOf(cst: CstNode, node: AstNode, source: SourceOf): PositionCst {
    const { start, end } = cst.range;
    return new PositionCst(source, cst.offset, cst.length, node, start.line, start.character, end.line, end.character);
}

/**
 * Replaces the CST of every node with its position (see PositionCst), letting the tokens and
 * the CST tree go. `nodes` are the program's nodes (every one that may have a CST).
 */
export function compactCst(nodes: readonly AstNode[], text: string): void {
    const source = new SourceOf(text);
    const compact: Array<readonly [AstNode, PositionCst]> = [];
    // Every position is read before any CST is replaced: an operator's leaf is found through the
    // CST of the node and its children.
    for (const node of nodes) {
        const cst = node.$cstNode;
        if (!cst) continue;
        const at = positionOf(cst, node, source);
        const op = locatingOperator(node);
        const leaf = op === undefined ? undefined : operatorLeaf(cst, node, op);
        if (leaf) at.content = [positionOf(leaf, node, source)];
        compact.push([node, at]);
    }
    for (const [node, at] of compact) (node as { $cstNode?: CstNode }).$cstNode = at as unknown as CstNode;
}
