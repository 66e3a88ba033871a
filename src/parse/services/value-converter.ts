import { DefaultValueConverter, GrammarAST, type CstNode, type ValueType } from 'langium';
import type { PuppetLexer } from '../lexer/puppet-lexer.js';

/** Terminal values come from the lexer (it already unescaped them); everything else is text. */
export class PuppetValueConverter extends DefaultValueConverter {
    constructor(private readonly lexer: () => PuppetLexer) {
        super();
    }

    protected override runConverter(rule: GrammarAST.AbstractRule, input: string, cstNode: CstNode): ValueType {
        if (GrammarAST.isTerminalRule(rule)) {
            return this.lexer().valueAt(cstNode.offset, rule.name) ?? input;
        }
        return input;
    }
}
