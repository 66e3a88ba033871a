import type { IToken } from 'chevrotain';

/** Where a node was written, as the compiler reads it (see compact-cst.ts's PositionCst). */
export interface NodeSpan {
    readonly offset: number;
    readonly end: number;
    /** The node its CST belongs to: itself, or for a node an infix chain made, the chain's top. */
    readonly astNode: object;
    /** The offset of the operator Puppet locates the node at, or -1. */
    readonly operator: number;
}

/** A span's first and last token index in one number (a level's span is recorded for every level: no object each). */
const SHIFT = 2 ** 26;
const pack = (first: number, last: number): number => first * SHIFT + (last + 1);
const spanFirst = (span: number): number => Math.floor(span / SHIFT);
const spanLast = (span: number): number => (span % SHIFT) - 1;

/** A level owned by the node of the level below it (a datatype rule's, say). */
const PARENT = 0;

/**
 * What the fast parser records instead of a CST when only positions are wanted (the compiler's
 * manifests): where each node starts and ends, and which node each token belongs to. The answers
 * are those the CST gives (test/parse/compact-cst.test.ts compares them on the fixtures and corpus):
 * - a CST level is a rule invocation (or an action's new node); a node's CST is the outermost
 *   level that passed it up, so its span is that level's first to last token;
 * - a token belongs to the node its level ends up building (a level that builds none, a datatype
 *   rule's, gives its tokens to the level below it), which is what Langium's CST climbs to;
 * - the nodes an infix chain makes share the chain's level, whose node is the chain's top.
 * A CST is three to four hundred bytes per byte of source and most of a cold parse's allocation.
 */
export class PositionRecorder {
    /** Per level: the index of its first token. */
    private readonly starts: number[] = [];
    /** Per level: the node it built, PARENT, or the level below it (for PARENT) in `below`. */
    private readonly owners: Array<object | typeof PARENT | undefined> = [];
    private readonly below: number[] = [];
    /** The open levels, innermost last. */
    private readonly open: number[] = [];
    /** Per token: the level it was read in. */
    private readonly tokenLevels: Int32Array;
    /** Per node: its span's first and last token, packed (the outermost level that passed it up wins). */
    private readonly spans = new Map<object, number>();
    /** Nodes an infix chain made below its top: their top. */
    private readonly tops = new Map<object, object>();

    constructor(private readonly tokens: readonly IToken[]) {
        this.tokenLevels = new Int32Array(tokens.length);
        this.enter(0);
    }

    /** A new level whose first token is `first` (the next token to read, for a rule invocation). */
    enter(first: number): void {
        const level = this.starts.length;
        this.starts.push(first);
        this.owners.push(undefined);
        this.below.push(this.open.length > 0 ? this.open[this.open.length - 1] as number : -1);
        this.open.push(level);
    }

    /** The token at `index` was read in the innermost level. */
    token(index: number): void {
        this.tokenLevels[index] = this.open[this.open.length - 1] as number;
    }

    /** Closes the innermost level, `last` being the last token read: `node` (when one) spans it. Returns the level. */
    leave(node: object | undefined, last: number): number {
        const level = this.open.pop();
        if (level === undefined) return -1;
        if (node !== undefined) this.spans.set(node, pack(this.starts[level] as number, last));
        return level;
    }

    /** The node `level` built; undefined when it built none (its tokens are the level below's). */
    own(level: number, node: object | undefined): void {
        if (level >= 0) this.owners[level] = node ?? PARENT;
    }

    /** The first token of a node's span (an action's new level starts where the node it wraps does). */
    firstOf(node: object): number {
        const span = this.spans.get(node);
        return span !== undefined ? spanFirst(span) : this.starts[this.open[this.open.length - 1] as number] as number;
    }

    /**
     * The nodes an infix chain made from `holder` (the chain level's node), down to its parts:
     * they span the chain's level; all but the top belong to the top.
     */
    infix(holder: object, top: unknown, parts: readonly unknown[]): void {
        // One part (most expressions: a chain of no operator) makes no node.
        if (parts.length < 2) return;
        const span = this.spans.get(holder);
        if (span === undefined) return;
        const own = new Set(parts);
        const walk = (n: unknown): void => {
            if (own.has(n) || typeof n !== 'object' || n === null) return;
            this.spans.set(n, span);
            if (n !== top) this.tops.set(n, top as object);
            const { left, right } = n as { left?: unknown; right?: unknown };
            walk(left);
            walk(right);
        };
        walk(top);
    }

    /** The node a level's tokens belong to. */
    private ownerOf(level: number): object | undefined {
        let l = level;
        for (let owner = this.owners[l]; l >= 0; owner = this.owners[l]) {
            if (owner !== PARENT && owner !== undefined) return owner;
            l = this.below[l] as number;
        }
        return undefined;
    }

    /**
     * The spans of `nodes`, in order; `operatorOf` names the token a node is located at (its
     * first such token of its own). Undefined when a node has no span or one of no tokens.
     */
    spansOf(nodes: readonly object[], operatorOf: (node: object) => string | undefined): NodeSpan[] | undefined {
        const wanted = new Map<object, string>();
        for (const n of nodes) {
            const op = this.tops.has(n) ? undefined : operatorOf(n);
            if (op !== undefined) wanted.set(n, op);
        }
        const found = new Map<object, number>();
        if (wanted.size > 0) {
            for (let i = 0; i < this.tokens.length; i++) {
                const owner = this.ownerOf(this.tokenLevels[i] as number);
                if (owner === undefined) continue;
                const op = wanted.get(owner);
                if (op !== undefined && !found.has(owner) && (this.tokens[i] as IToken).image === op) found.set(owner, (this.tokens[i] as IToken).startOffset);
            }
        }
        const out: NodeSpan[] = [];
        for (const n of nodes) {
            const span = this.spans.get(n);
            if (span === undefined) return undefined;
            const first = this.tokens[spanFirst(span)];
            const last = this.tokens[spanLast(span)];
            // A node of no tokens (only a file of comments has one) takes its place from them: the CST's answer.
            if (first === undefined || last === undefined || spanLast(span) < spanFirst(span)) return undefined;
            out.push({
                offset: first.startOffset,
                end: (last.endOffset ?? last.startOffset + last.image.length - 1) + 1,
                astNode: this.tops.get(n) ?? n,
                operator: found.get(n) ?? -1
            });
        }
        return out;
    }
}
