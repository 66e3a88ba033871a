import { getLookaheadPaths, type BaseParser, type IOrAlt, type Rule, type TokenType } from 'chevrotain';
import { LLStarLookaheadStrategy } from 'chevrotain-allstar';
import { FollowAnalysis } from './follow-lookahead.js';

/**
 * Tokens that, right after a complete operand, Puppet's LR parser always shifts: block and
 * selector openers, postfix operators, lambdas and binary operators. Separators (`,` `;`) are
 * not here, since a trailing separator must be able to end a list.
 */
const SHIFT_TOKENS: ReadonlySet<string> = new Set([
    '{', '?', '[', 'CALL_LPAREN', '.', '<|', '<<|', '|', '=>',
    'in', '=~', '!~', '*', '/', '%', '+', '-', '<<', '>>', '==', '!=', '<', '>', '<=', '>=', 'and', 'or',
    '=', '+=', '-=', '->', '~>', '<-', '<~'
]);

/**
 * ALL(*) prediction is rule-local, so for an optional block that starts with `{` (a resource
 * body after an expression, a collector's attribute block, `Type {..}` in an alias) the exit
 * path stays "viable" and a syntax error inside the body makes the parser silently re-read it
 * as a new statement. Puppet's LR parser always shifts that `{`; deciding these optionals and
 * loops on LA(1) alone does the same, keeps error recovery local, and reports syntax errors at
 * the token Puppet reports.
 */
/** What chevrotain asks an optional's or a loop's lookahead to be built from. */
type OptionalLookaheadOptions = Parameters<LLStarLookaheadStrategy['buildLookaheadForOptional']>[0];

export class GreedyBraceLookahead extends LLStarLookaheadStrategy {
    override buildLookaheadForOptional(options: OptionalLookaheadOptions): (this: BaseParser) => boolean {
        return this.greedy(options) ?? super.buildLookaheadForOptional(options);
    }

    /** The LA(1) decision for an optional or loop that starts with a token Puppet always shifts. */
    protected greedy(options: OptionalLookaheadOptions): ((this: BaseParser) => boolean) | undefined {
        const paths = getLookaheadPaths({ maxLookahead: 1, occurrence: options.prodOccurrence, prodType: options.prodType, rule: options.rule });
        const inside = paths[0] ?? [];
        const first: TokenType[] = inside.map(p => p[0]).filter((t): t is TokenType => t !== undefined);
        if (first.length > 0 && first.every(t => SHIFT_TOKENS.has(t.name))) {
            const starts = new Set(first);
            return function (this: BaseParser): boolean {
                return starts.has(this.LA(1).tokenType);
            };
        }
        return undefined;
    }
}

/**
 * For the fast parser only: an alternation whose next token starts exactly one alternative
 * (and no alternative can be empty) is decided by a table lookup, without running ALL(*)
 * prediction. Only that alternative can match such input, so the choice is the one ALL(*)
 * makes; allstar itself does this only when a whole decision is LL(1), and Puppet's decisions
 * rarely are (`type` starts an alias, a definition and a call). Langium's parser keeps plain
 * ALL(*), so error reporting is unchanged.
 */
export class FastPathLookahead extends GreedyBraceLookahead {
    private follow: FollowAnalysis | undefined;

    override initialize(options: { rules: Rule[] }): void {
        super.initialize(options);
        this.follow = new FollowAnalysis(options.rules);
    }

    /** Greedy where Puppet shifts, else two tokens with FOLLOW where they decide (follow-lookahead.ts), else ALL(*). */
    override buildLookaheadForOptional(options: OptionalLookaheadOptions): (this: BaseParser) => boolean {
        return lazyLookahead(() => {
            const greedy = this.greedy(options);
            if (greedy) return greedy;
            const enter = this.follow?.optional(options.rule, options.prodType, options.prodOccurrence);
            if (enter) {
                return function (this: BaseParser): boolean {
                    return enter(this.LA(1).tokenTypeIdx as number, this.LA(2).tokenTypeIdx as number);
                };
            }
            return LLStarLookaheadStrategy.prototype.buildLookaheadForOptional.call(this, options);
        });
    }

    override buildLookaheadForAlternation(options: {
        prodOccurrence: number;
        rule: Rule;
        maxLookahead: number;
        hasPredicates: boolean;
        dynamicTokensEnabled: boolean;
    }): (this: BaseParser, orAlts?: IOrAlt<unknown>[]) => number | undefined {
        return lazyLookahead(() => this.alternation(options));
    }

    private alternation(options: {
        prodOccurrence: number;
        rule: Rule;
        maxLookahead: number;
        hasPredicates: boolean;
        dynamicTokensEnabled: boolean;
    }): (this: BaseParser, orAlts?: IOrAlt<unknown>[]) => number | undefined {
        const full = super.buildLookaheadForAlternation(options);
        if (options.hasPredicates || options.dynamicTokensEnabled) {
            return full;
        }
        const paths = getLookaheadPaths({ maxLookahead: 1, occurrence: options.prodOccurrence, prodType: 'Alternation', rule: options.rule });
        if (paths.some(alt => alt.length === 0 || alt.some(p => p.length === 0))) {
            return full;
        }
        const owner = new Map<number, number>();
        const shared = new Set<number>();
        paths.forEach((alt, i) => {
            for (const path of alt) {
                const t = path[0] as TokenType;
                for (const idx of [t.tokenTypeIdx as number, ...((t as { categoryMatches?: number[] }).categoryMatches ?? [])]) {
                    const prev = owner.get(idx);
                    if (prev !== undefined && prev !== i) {
                        shared.add(idx);
                    }
                    owner.set(idx, i);
                }
            }
        });
        const table: Array<number | undefined> = [];
        for (const [idx, alt] of owner) {
            if (!shared.has(idx)) {
                table[idx] = alt;
            }
        }
        return function (this: BaseParser, orAlts?: IOrAlt<unknown>[]): number | undefined {
            const predicted = table[this.LA(1).tokenTypeIdx as number];
            return predicted !== undefined ? predicted : full.call(this, orAlts);
        };
    }
}

/** What Chevrotain keeps of the lookahead functions of the rule being parsed (its internal state). */
interface RuleLookaheads {
    currRuleLookaheadFuncs?: unknown[];
}

/**
 * A lookahead function computed on its first call. Chevrotain computes every decision of the
 * grammar when the parser is built (about 60 ms, most of a cold compile's parser set-up), while a
 * compile's manifests exercise only some of them. Once computed, the function takes its own place
 * in the current rule's table, so later calls go straight to it.
 */
function lazyLookahead<A extends unknown[], R>(build: () => (this: BaseParser, ...args: A) => R): (this: BaseParser, ...args: A) => R {
    let real: ((this: BaseParser, ...args: A) => R) | undefined;
    const thunk = function (this: BaseParser, ...args: A): R {
        if (real === undefined) {
            real = build();
            const table = (this as unknown as RuleLookaheads).currRuleLookaheadFuncs;
            const i = table ? table.indexOf(thunk) : -1;
            if (table && i >= 0) table[i] = real;
        }
        return real.apply(this, args);
    };
    return thunk;
}
