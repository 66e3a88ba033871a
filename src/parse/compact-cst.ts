import type { AstNode, CstNode } from 'langium';
import type { LineIndex } from './lexer/puppet-lexer.js';
import { locatingOperator, operatorLeaf } from './positions.js';
import type { NodeSpan } from './services/position-recorder.js';

interface Position {
    line: number;
    character: number;
}

/** The text of one parsed file and its line starts, shared by the positions of all its nodes. */
class SourceOf {
    constructor(readonly text: string, readonly lines: LineIndex) {}

    position(offset: number): { line: number; character: number } {
        const line = this.lines.line(offset);
        return { line, character: offset - this.lines.lineStart(line) };
    }
}

/**
 * What the compiler reads of a node's CST (offset, length, end, text, range, the node, and for
 * an operator expression the leaf of its operator), from the node's offset and length. The
 * range is where the lexer put the tokens (a node starts where its first token does), found on
 * demand. Langium's CST holds several composite nodes per token (one per grammar rule level)
 * and every token: three to four hundred bytes per byte of source, which a compile of a large
 * manifest would keep for as long as it runs.
 */
class PositionCst {
    /** Only an operator expression's has one entry: the operator's leaf (what `operatorLeaf` looks for). */
    content?: PositionCst[];

    constructor(private readonly source: SourceOf, readonly offset: number, readonly length: number, readonly astNode: AstNode) {}

    get end(): number {
        return this.offset + this.length;
    }

    get text(): string {
        return this.source.text.slice(this.offset, this.end);
    }

    get hidden(): boolean {
        return false;
    }

    /** Found on first use: a cached environment's compiles ask for the same nodes' places every time. */
    private found: { readonly start: Position; readonly end: Position } | undefined;

    get range(): { start: Position; end: Position } {
        this.found ??= { start: this.source.position(this.offset), end: this.source.position(this.end) };
        // A copy, as Langium's ranges are plain objects the reader may keep.
        return { start: { ...this.found.start }, end: { ...this.found.end } };
    }
}

/**
 * Replaces the CST of every node with its position (see PositionCst), letting the tokens and
 * the CST tree go. `nodes` are the program's nodes (every one that may have a CST).
 */
export function compactCst(nodes: readonly AstNode[], text: string, lines: LineIndex): void {
    const source = new SourceOf(text, lines);
    const compact: Array<readonly [AstNode, PositionCst]> = [];
    // Every position is read before any CST is replaced: an operator's leaf is found through the
    // CST of the node and its children.
    for (const node of nodes) {
        const cst = node.$cstNode;
        if (!cst) continue;
        const offset = cst.offset;
        // The CST's own answer: an infix chain's nodes share the CST of its top node.
        const at = new PositionCst(source, offset, cst.end - offset, astNodeOf(cst) ?? node);
        const op = locatingOperator(node);
        const leaf = op === undefined ? undefined : operatorLeaf(cst, node, op);
        if (leaf) at.content = [new PositionCst(source, leaf.offset, leaf.length, node)];
        compact.push([node, at]);
    }
    for (const [node, at] of compact) (node as { $cstNode?: CstNode }).$cstNode = at as unknown as CstNode;
}

/**
 * Gives every node its position from the fast parser's spans (a parse that built no CST): the
 * same positions compactCst takes from the CST.
 */
export function placeSpans(nodes: readonly AstNode[], spans: readonly NodeSpan[], text: string, lines: LineIndex): void {
    const source = new SourceOf(text, lines);
    nodes.forEach((node, i) => {
        const span = spans[i] as NodeSpan;
        const at = new PositionCst(source, span.offset, span.end - span.offset, span.astNode as AstNode);
        if (span.operator >= 0) {
            const op = locatingOperator(node) as string;
            at.content = [new PositionCst(source, span.operator, op.length, node)];
        }
        (node as { $cstNode?: CstNode }).$cstNode = at as unknown as CstNode;
    });
}

/** The AST node a CST node belongs to (Langium's getter climbs to a container's, and throws when none has one). */
function astNodeOf(cst: CstNode): AstNode | undefined {
    try {
        return cst.astNode;
    } catch {
        return undefined;
    }
}
