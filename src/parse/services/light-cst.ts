import type { TokenType } from 'chevrotain';
import { CompositeCstNodeImpl, LeafCstNodeImpl, type AstNode, type CstNode, type GrammarAST } from 'langium';

/**
 * The fast parser's CST nodes: Langium's composite and leaf nodes (their prototypes, so every
 * getter, `instanceof` and Langium's CST utilities see Langium's classes), built by constructors
 * of our own. Langium's composite constructor passes its arguments on with a spread and sets the
 * fields the fast parser then sets again; a parse builds one composite per grammar rule level,
 * a dozen per token, and a cold compile ran those constructors in the interpreter (the largest
 * single cost of building the CST).
 *
 * A composite's offset and end are also kept once read: Langium finds them by walking down to
 * its first and last tokens through every level below, again at each read (the compiler reads
 * every node's). Nothing reads them while the parser still adds children, and the parser never
 * changes a tree it has returned.
 */
class LightComposite {
    content: CstNode[] = [];
    _astNode: AstNode | undefined = undefined;
    _rangeCache: unknown = undefined;
    private _offset = -1;
    private _end = -1;

    constructor(public container: CompositeCstNodeImpl, public grammarSource: GrammarAST.AbstractElement) {}

    get offset(): number {
        if (this._offset < 0) this._offset = firstNonHidden(this.content)?.offset ?? 0;
        return this._offset;
    }

    get end(): number {
        if (this._end < 0) this._end = lastNonHidden(this.content)?.end ?? 0;
        return this._end;
    }
}
Object.setPrototypeOf(LightComposite.prototype, CompositeCstNodeImpl.prototype);

/** Langium's firstNonHiddenNode. */
function firstNonHidden(content: readonly CstNode[]): CstNode | undefined {
    for (const child of content) if (!child.hidden) return child;
    return content[0];
}

/** Langium's lastNonHiddenNode. */
function lastNonHidden(content: readonly CstNode[]): CstNode | undefined {
    for (let i = content.length - 1; i >= 0; i--) if (!(content[i] as CstNode).hidden) return content[i];
    return content[content.length - 1];
}

/** A composite CST node below `container`, for the grammar element `source`. */
export function newComposite(container: CompositeCstNodeImpl, source: GrammarAST.AbstractElement): CompositeCstNodeImpl {
    return new LightComposite(container, source) as unknown as CompositeCstNodeImpl;
}

class LightLeaf {
    constructor(
        public container: CompositeCstNodeImpl | undefined,
        public grammarSource: GrammarAST.AbstractElement | undefined,
        readonly _offset: number,
        readonly _length: number,
        readonly _startLine: number,
        readonly _startColumn: number,
        readonly _endLine: number,
        readonly _endColumn: number,
        readonly _tokenType: TokenType,
        readonly _hidden: boolean
    ) {}
}
Object.setPrototypeOf(LightLeaf.prototype, LeafCstNodeImpl.prototype);

/** A token's leaf (Langium's positions are 0-based, the end column exclusive, as the lexer's token gives them). */
export function newLeaf(
    container: CompositeCstNodeImpl | undefined, source: GrammarAST.AbstractElement | undefined,
    token: { startOffset: number; image: string; startLine?: number; startColumn?: number; endLine?: number; endColumn?: number; tokenType: TokenType },
    hidden: boolean
): LeafCstNodeImpl {
    return new LightLeaf(container, source, token.startOffset | 0, token.image.length | 0, ((token.startLine ?? 1) - 1) | 0, ((token.startColumn ?? 1) - 1) | 0,
        ((token.endLine ?? 1) - 1) | 0, (token.endColumn ?? 0) | 0, token.tokenType, hidden) as unknown as LeafCstNodeImpl;
}
