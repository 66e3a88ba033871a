import { Lexer, type TokenType, type TokenVocabulary } from 'chevrotain';
import { DefaultTokenBuilder, type Grammar, type GrammarAST, type TokenBuilderOptions } from 'langium';

/**
 * Builds the token vocabulary from the grammar but with no patterns: the hand-written lexer
 * creates every token, so no Chevrotain lexer may ever match the grammar's sentinel regexes.
 */
export class PuppetTokenBuilder extends DefaultTokenBuilder {
    override buildTokens(grammar: Grammar, options?: TokenBuilderOptions): TokenVocabulary {
        const tokens = super.buildTokens(grammar, options);
        const list: TokenType[] = Array.isArray(tokens) ? tokens as TokenType[] : Object.values(tokens);
        for (const t of list) {
            t.PATTERN = Lexer.NA;
            delete t.LONGER_ALT;
        }
        return list;
    }

    /**
     * No keyword needs a longer alternative (buildTokens drops them): finding them matches every
     * keyword against every terminal's regex, a third of building the parser at start-up.
     */
    protected override findLongerAlt(_keyword: GrammarAST.Keyword, _terminalTokens: TokenType[]): TokenType[] {
        return [];
    }
}
