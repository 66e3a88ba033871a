import { getLookaheadPaths, type BaseParser, type OptionalProductionType, type Rule, type TokenType } from 'chevrotain';
import { LLStarLookaheadStrategy } from 'chevrotain-allstar';

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
export class GreedyBraceLookahead extends LLStarLookaheadStrategy {
    override buildLookaheadForOptional(options: {
        prodOccurrence: number;
        prodType: OptionalProductionType;
        rule: Rule;
        maxLookahead: number;
        dynamicTokensEnabled: boolean;
    }): (this: BaseParser) => boolean {
        const paths = getLookaheadPaths({ maxLookahead: 1, occurrence: options.prodOccurrence, prodType: options.prodType, rule: options.rule });
        const inside = paths[0] ?? [];
        const first: TokenType[] = inside.map(p => p[0]).filter((t): t is TokenType => t !== undefined);
        if (first.length > 0 && first.every(t => SHIFT_TOKENS.has(t.name))) {
            const starts = new Set(first);
            return function (this: BaseParser): boolean {
                return starts.has(this.LA(1).tokenType);
            };
        }
        return super.buildLookaheadForOptional(options);
    }
}
