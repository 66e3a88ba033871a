import { getLookaheadPaths, type BaseParser, type OptionalProductionType, type Rule, type TokenType } from 'chevrotain';
import { LLStarLookaheadStrategy } from 'chevrotain-allstar';

/**
 * ALL(*) prediction is rule-local, so for an optional block that starts with `{` (a resource
 * body after an expression, a collector's attribute block, `Type {..}` in an alias) the exit
 * path stays "viable" and a syntax error inside the body makes the parser silently re-read it
 * as a new statement. Puppet's LR parser always shifts that `{`; deciding these optionals on
 * LA(1) == '{' does the same and keeps error recovery local.
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
        if (first.length > 0 && first.every(t => t.name === '{')) {
            const brace = first[0] as TokenType;
            return function (this: BaseParser): boolean {
                return this.LA(1).tokenType === brace;
            };
        }
        return super.buildLookaheadForOptional(options);
    }
}
