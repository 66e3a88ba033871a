import { EmbeddedActionsParser, type IOrAlt, type IRecognitionException, type IToken, type TokenType, type TokenTypeDictionary } from 'chevrotain';
import {
    GrammarAST, GrammarUtils, RootCstNodeImpl, type CompositeCstNodeImpl,
    type AbstractCstNode, type AstNode, type AstReflection, type CompositeCstNode, type CstNode, type Grammar, type LexerResult
} from 'langium';
import { buildRules, type Assign, type Method, type RuleFn } from './fast-parser-rules.js';
import { FastPathLookahead } from './greedy-lookahead.js';
import { buildInfixTree, type Precedence } from './infix-tree.js';
import { newComposite, newLeaf } from './light-cst.js';
import { PositionRecorder, type NodeSpan } from './position-recorder.js';

/**
 * A faster equivalent of Langium's `LangiumParser` for this grammar, used for every parse that
 * succeeds (parse.ts falls back to Langium's own parser, and its error recovery and messages,
 * as soon as this one meets a syntax error).
 *
 * It interprets the same Langium grammar through the same Chevrotain recognizer calls and builds
 * the same AST and CST (Langium's CST node classes, the same composite/leaf structure and
 * grammar sources, `$container` links, mandatory defaults), so nothing downstream can tell the
 * two apart; `test/parse/fast-parser.test.ts` checks that on every fixture and corpus file.
 * What makes it faster (profiled: Langium's AST/CST bookkeeping took two thirds of the parse):
 * - rule, alternative and loop closures are built once, not per call (Langium rebuilds the
 *   alternatives array and its closures on every decision, for grammar guards we do not use);
 * - assignments are resolved per grammar element when the parser is built, not looked up per
 *   token;
 * - "did the subrule consume anything" is the composite's child count, not its text length
 *   (Langium recomputes that through the CST on every rule call: quadratic in nesting depth);
 * - a rule level that only passes its subrule's node through (Statement ... Primary, around
 *   every literal) builds no node of its own (Langium allocates one per level and merges it);
 * - alternations whose next token starts a single alternative skip ALL(*) prediction
 *   (FastPathLookahead);
 * - mandatory defaults come from a per-type table, container links from one direct walk;
 * - composite content arrays are not compacted, hidden-token bookkeeping is skipped when there
 *   are no comments to place, and terminal values come straight from the lexer.
 * It supports the grammar features this grammar uses; anything else (guards, rule parameters,
 * unordered groups, cross-references) throws at construction, and parse.ts then uses Langium's
 * parser for everything.
 */

const DATATYPE = '\u0000datatype';

type Value = string | boolean | number | AstObject | Value[] | undefined;

interface AstObject {
    $type: string;
    $cstNode?: CompositeCstNodeImpl;
    $container?: AstObject;
    $containerProperty?: string;
    $containerIndex?: number;
    $infixName?: string;
    [key: string]: unknown;
}

function isAstObject(v: unknown): v is AstObject {
    return typeof v === 'object' && v !== null && typeof (v as { $type?: unknown }).$type === 'string';
}

/**
 * Sets `$container` links below `node`, as Langium's linkContentToContainer(node, { deep: true }),
 * and lists every node in pre-order on the way (the order of lowering/walk.ts's allNodes), so the
 * post-parse checks need not walk the tree again.
 */
function linkContainers(node: AstObject, out: AstObject[]): void {
    out.push(node);
    for (const name in node) {
        if (name.charCodeAt(0) === 0x24) {
            continue;
        }
        const value = node[name];
        if (Array.isArray(value)) {
            for (let i = 0; i < value.length; i++) {
                const item: unknown = value[i];
                if (isAstObject(item)) {
                    item.$container = node;
                    item.$containerProperty = name;
                    item.$containerIndex = i;
                    linkContainers(item, out);
                }
            }
        } else if (isAstObject(value)) {
            value.$container = node;
            value.$containerProperty = name;
            linkContainers(value, out);
        }
    }
}

export interface FastParseResult {
    readonly value: unknown;
    readonly errors: readonly IRecognitionException[];
    /** Every AST node in pre-order (empty after errors). */
    readonly nodes: readonly AstNode[];
    /** With `positions`: where each of `nodes` was written (no CST was built); undefined when unknown. */
    readonly spans?: readonly NodeSpan[];
}

export class FastPuppetParser extends EmbeddedActionsParser {
    /**
     * One entry per rule invocation that builds a node. A plain type name stands for a node not
     * built yet: most rule levels only pass their subrule's node through (Statement, Assignment,
     * ... Primary for every literal), and Langium's parser allocates and merges a node for each.
     */
    private stack: Array<AstObject | string> = [];
    /**
     * Parallel to `stack`: whether that level's node came up already built by a subrule, so its
     * mandatory defaults are in place (Langium re-applies them at every level it passes).
     */
    private built: boolean[] = [];
    private cstStack: CompositeCstNodeImpl[] = [];
    private root: RootCstNodeImpl = new RootCstNodeImpl('');
    private hidden: IToken[] = [];
    private hiddenIndex = 0;
    private mainRule: RuleFn | undefined;
    /** Set for a parse that records positions instead of building the CST. */
    private positions: PositionRecorder | undefined;
    private readonly rules = new Map<string, RuleFn>();
    private readonly precedences = new Map<string, Map<string, Precedence>>();
    private readonly defaults = new Map<string, ReadonlyArray<readonly [string, unknown]>>();

    constructor(
        tokens: TokenTypeDictionary,
        grammar: Grammar,
        private readonly reflection: AstReflection,
        /** A terminal token's value (what the value converter returns for it). */
        private readonly terminalValue: (offset: number, image: string, tokenType: string) => string
    ) {
        super(tokens, {
            recoveryEnabled: false,
            skipValidations: true,
            lookaheadStrategy: new FastPathLookahead({ logging: () => undefined })
        });
        buildRules(this, grammar, tokens);
        this.performSelfAnalysis();
    }

    /**
     * Parses tokenized text; any syntax error leaves a result with `errors` (no recovery).
     * `positions`: build no CST, only where each node was written (`spans`; the nodes' `$cstNode`
     * stays undefined), for a caller that keeps nothing else of the CST.
     */
    parseTokens(text: string, lexed: LexerResult, positions?: { readonly operatorOf: (node: object) => string | undefined }): FastParseResult {
        this.positions = positions ? new PositionRecorder(lexed.tokens) : undefined;
        this.root = new RootCstNodeImpl(text);
        this.cstStack = [this.root];
        this.stack = [];
        this.built = [];
        this.hidden = lexed.hidden;
        this.hiddenIndex = 0;
        this.input = lexed.tokens;
        let result: unknown = (this.mainRule as RuleFn).call(this);
        if (this.errors.length > 0) {
            return { value: undefined, errors: this.errors, nodes: [] };
        }
        if (this.stack.length > 0) {
            result = this.construct();
        }
        if (isAstObject(result) && result.$cstNode) {
            result.$cstNode.astNode = result as never;
        }
        const recorder = this.positions;
        if (!recorder) this.addHidden(this.hidden.slice(this.hiddenIndex));
        const nodes: AstObject[] = [];
        if (isAstObject(result)) {
            linkContainers(result, nodes);
        }
        this.release();
        const spans = recorder && positions ? recorder.spansOf(nodes, positions.operatorOf) : undefined;
        return { value: result, errors: [], nodes: nodes as unknown as AstNode[], ...(recorder ? { spans } : {}) };
    }

    /**
     * Lets go of the last input: the parser lives as long as the process, and its tokens and CST
     * would otherwise stay in memory until the next parse (all of them, also for a caller that
     * keeps only the AST's positions).
     */
    private release(): void {
        this.root = new RootCstNodeImpl('');
        this.cstStack = [];
        this.stack = [];
        this.built = [];
        this.hidden = [];
        this.input = [];
        this.positions = undefined;
    }

    // ---- rule definitions (called by the builder, before self-analysis) ----------------------

    fpDefineRule(rule: GrammarAST.ParserRule | GrammarAST.InfixRule, impl: Method): void {
        const infixName = GrammarAST.isInfixRule(rule) ? rule.name : undefined;
        let type: string | undefined;
        if (GrammarAST.isInfixRule(rule)) {
            type = GrammarUtils.getTypeName(rule);
            const map = new Map<string, Precedence>();
            rule.operators.precedences.forEach((p, i) => {
                for (const k of p.operators) {
                    map.set(k.value, { precedence: i, rightAssoc: p.associativity === 'right' });
                }
            });
            this.precedences.set(rule.name, map);
        } else if (!rule.fragment) {
            type = GrammarUtils.isDataTypeRule(rule) ? DATATYPE : GrammarUtils.getTypeName(rule);
        }
        const nodeType = type;
        // Chevrotain stores each rule as a parser property; the suffix keeps rule names off ours.
        const fn = this.RULE(`${rule.name}\u200B`, () => {
            if (nodeType === undefined || this.RECORDING_PHASE) {
                impl();
                return undefined;
            }
            this.stack.push(nodeType === DATATYPE ? { $type: DATATYPE, value: '' }
                : infixName !== undefined ? { $type: nodeType, $infixName: infixName } : nodeType);
            this.built.push(false);
            impl();
            return this.construct();
        });
        this.rules.set(rule.name, fn);
        if (GrammarAST.isParserRule(rule) && rule.entry) {
            this.mainRule = fn;
        }
    }

    ruleFn(name: string): RuleFn {
        const fn = this.rules.get(name);
        if (!fn) {
            throw new Error(`fast parser: no rule ${name}`);
        }
        return fn;
    }

    // ---- the recognizer calls of the built rules -----------------------------------------------

    fpToken(idx: number, tokenType: TokenType, feature: GrammarAST.AbstractElement, assign: Assign | undefined, keyword: boolean): void {
        const token = this.consume(idx, tokenType);
        if (this.RECORDING_PHASE) {
            return;
        }
        const offset = token.startOffset;
        if (this.positions) {
            this.positions.token(this.tokenIndex());
            this.tokenValue(token, assign, keyword);
            return;
        }
        if (!(offset >= 0) || !(token.endOffset !== undefined && token.endOffset >= offset)) {
            return;
        }
        const hidden = this.hidden;
        if (this.hiddenIndex < hidden.length && (hidden[this.hiddenIndex] as IToken).startOffset <= offset) {
            let j = this.hiddenIndex;
            while (j < hidden.length && (hidden[j] as IToken).startOffset <= offset) {
                j++;
            }
            this.addHidden(hidden.slice(this.hiddenIndex, j));
            this.hiddenIndex = j;
        }
        const parent = this.cstStack[this.cstStack.length - 1] as CompositeCstNodeImpl;
        append(parent, newLeaf(parent, feature, token, false));
        this.tokenValue(token, assign, keyword);
    }

    /** A token's value goes to its assignment, or into the datatype rule being read. */
    private tokenValue(token: IToken, assign: Assign | undefined, keyword: boolean): void {
        if (assign) {
            this.assign(assign, keyword ? token.image : this.terminalValue(token.startOffset, token.image, token.tokenType.name));
        } else {
            const current = this.stack[this.stack.length - 1];
            if (typeof current === 'object' && current.$type === DATATYPE) {
                current['value'] = (current['value'] as string) + (keyword ? token.image : this.terminalValue(token.startOffset, token.image, token.tokenType.name));
            }
        }
    }

    /** Chevrotain's index of the last token read. */
    private tokenIndex(): number {
        return (this as unknown as { currIdx: number }).currIdx;
    }

    fpCall(idx: number, rule: RuleFn, fragment: boolean, feature: GrammarAST.AbstractElement, assign: Assign | undefined): void {
        if (fragment || this.RECORDING_PHASE) {
            this.subrule(idx, rule);
            return;
        }
        const before = this.tokenIndex();
        let cst: CompositeCstNodeImpl | undefined;
        if (this.positions) {
            this.positions.enter(before + 1);
        } else {
            const parent = this.cstStack[this.cstStack.length - 1] as CompositeCstNodeImpl;
            cst = newComposite(parent, feature);
            append(parent, cst);
            this.cstStack.push(cst);
        }
        const result: unknown = this.subrule(idx, rule);
        if (result === undefined || (cst ? cst.content.length === 0 : this.tokenIndex() === before)) {
            return;
        }
        if (assign) {
            this.assign(assign, result as Value);
            return;
        }
        const current = this.stack[this.stack.length - 1] as AstObject | string;
        if (typeof current === 'string') {
            // Nothing built at this level yet: the subrule's node simply becomes this level's.
            if (isAstObject(result)) {
                result.$cstNode = undefined;
                this.stack[this.stack.length - 1] = result;
                this.built[this.built.length - 1] = true;
            }
        } else if (current.$type === DATATYPE) {
            current['value'] = (current['value'] as string) + String(result);
        } else if (isAstObject(result)) {
            // An unassigned rule call: its node becomes the current one (Langium's assignWithoutOverride).
            for (const name in current) {
                const existing = current[name];
                const value = result[name];
                if (value === undefined) {
                    result[name] = existing;
                } else if (Array.isArray(value) && Array.isArray(existing)) {
                    existing.push(...(value as unknown[]));
                    result[name] = existing;
                }
            }
            result.$cstNode = undefined;
            this.stack[this.stack.length - 1] = result;
            this.built[this.built.length - 1] = true;
        }
    }

    fpOr(idx: number, alts: Array<IOrAlt<void>>): void {
        this.or(idx, alts);
    }

    fpOption(idx: number, method: Method): void {
        this.option(idx, method);
    }

    fpMany(idx: number, method: Method): void {
        this.many(idx, method);
    }

    fpAtLeastOne(idx: number, method: Method): void {
        this.atLeastOne(idx, method);
    }

    fpAction(type: string, action: GrammarAST.Action, assign: Assign | undefined): void {
        if (this.RECORDING_PHASE) {
            return;
        }
        if (assign && this.positions) {
            const last = this.construct() as AstObject;
            this.positions.enter(this.positions.firstOf(last));
            this.stack.push({ $type: type });
            this.built.push(false);
            this.assign(assign, last);
        } else if (assign) {
            const last = this.construct() as AstObject;
            const lastCst = last.$cstNode as CompositeCstNodeImpl;
            removeCst(lastCst);
            const parent = this.cstStack[this.cstStack.length - 1] as CompositeCstNodeImpl;
            const cst = newComposite(parent, action);
            append(parent, cst);
            this.cstStack.push(cst);
            lastCst.container = cst;
            append(cst, lastCst);
            this.stack.push({ $type: type });
            this.built.push(false);
            this.assign(assign, last);
        } else {
            this.current().$type = type;
            this.built[this.built.length - 1] = false;
        }
    }

    // ---- AST and CST construction --------------------------------------------------------------

    /** The node of the innermost rule invocation, built now if it was not yet. */
    private current(): AstObject {
        const i = this.stack.length - 1;
        const top = this.stack[i] as AstObject | string;
        if (typeof top === 'string') {
            const node: AstObject = { $type: top };
            this.stack[i] = node;
            return node;
        }
        return top;
    }

    private assign(assign: Assign, value: Value): void {
        const obj = this.current();
        if (isAstObject(value) && value.$cstNode) {
            value.$cstNode.astNode = value as never;
        }
        switch (assign.operator) {
            case '=':
                obj[assign.feature] = value;
                break;
            case '?=':
                obj[assign.feature] = true;
                break;
            case '+=': {
                const list = obj[assign.feature];
                if (Array.isArray(list)) {
                    list.push(value);
                } else {
                    obj[assign.feature] = [value];
                }
                break;
            }
        }
    }

    private construct(): unknown {
        const top = this.stack.pop() as AstObject | string;
        const built = this.built.pop() === true;
        const obj: AstObject = typeof top === 'string' ? { $type: top } : top;
        const recorder = this.positions;
        if (recorder) {
            return this.recorded(recorder, obj, built);
        }
        const cst = this.cstStack[this.cstStack.length - 1] ?? this.root;
        obj.$cstNode = cst;
        const closed = this.cstStack.pop();
        if (closed && closed.content.length === 0) {
            removeCst(closed);
        }
        return this.finish(obj, built);
    }

    /** construct() without a CST: the level's span and owner go to the recorder. */
    private recorded(recorder: PositionRecorder, obj: AstObject, built: boolean): unknown {
        obj.$cstNode = undefined;
        const level = recorder.leave(obj.$type === DATATYPE ? undefined : obj, this.tokenIndex());
        const result = this.finish(obj, built);
        if (obj.$infixName !== undefined) recorder.infix(obj, result, Array.isArray(obj['parts']) ? obj['parts'] : []);
        recorder.own(level, isAstObject(result) ? result : undefined);
        return result;
    }

    /** The value a rule invocation returns: its node (an infix chain's tree), or a datatype rule's text. */
    private finish(obj: AstObject, built: boolean): unknown {
        if (obj.$infixName !== undefined) {
            return buildInfixTree(obj, this.precedences.get(obj.$infixName) as Map<string, Precedence>);
        }
        if (obj.$type === DATATYPE) {
            return obj['value'];
        }
        if (built) {
            return obj;
        }
        let defaults = this.defaults.get(obj.$type);
        if (!defaults) {
            // Per type (actions create types no rule returns), from the generated reflection.
            defaults = Object.values(this.reflection.getTypeMetaData(obj.$type).properties)
                .filter(p => p.defaultValue !== undefined)
                .map(p => [p.name, p.defaultValue] as const);
            this.defaults.set(obj.$type, defaults);
        }
        if (defaults.length > 0) {
            for (const [name, value] of defaults) {
                if (obj[name] === undefined) {
                    obj[name] = Array.isArray(value) ? [...(value as unknown[])] : value;
                }
            }
        }
        return obj;
    }

    /** Langium's CstNodeBuilder.addHiddenNodes: comments go next to the token that follows them. */
    private addHidden(tokens: readonly IToken[]): void {
        if (tokens.length === 0) {
            return;
        }
        const nodes = tokens.map(t => newLeaf(undefined, undefined, t, true));
        let current: CompositeCstNode = this.cstStack[this.cstStack.length - 1] ?? this.root;
        if (current.content.length > 0) {
            for (const n of nodes) {
                n.container = current;
            }
            (current.content as CstNode[]).push(...nodes);
            return;
        }
        while (current.container) {
            const container: CompositeCstNode = current.container;
            const index = container.content.indexOf(current);
            if (index > 0) {
                for (const n of nodes) {
                    n.container = container;
                }
                (container.content as CstNode[]).splice(index, 0, ...nodes);
                return;
            }
            current = container;
        }
        for (const n of nodes) {
            n.container = this.root;
        }
        this.root.content.splice(0, 0, ...nodes);
    }
}

/**
 * Adds a child to a composite's content. A composite's first child gets a list of its own of
 * exactly one entry: most composites have one child (a rule level around the next), and a push
 * onto an empty list reserves seventeen slots, which made content lists most of a parse's memory.
 */
function append(parent: CompositeCstNodeImpl, child: CstNode): void {
    const content = parent.content as CstNode[];
    if (content.length === 0) (parent as { content: CstNode[] }).content = [child];
    else content.push(child);
}

function removeCst(node: AbstractCstNode): void {
    const parent = node.container;
    if (parent) {
        const index = parent.content.indexOf(node as never);
        if (index >= 0) {
            (parent.content as CstNode[]).splice(index, 1);
        }
    }
}
