import type { Expression } from '../../../generated/langium/ast.js';
import { readNumber } from '../pn/pn-format.js';

/** Puppet's model label for an expression, as its validator messages print it. */
export function label(e: Expression): string {
    switch (e.$type) {
        case 'QualifiedName': return 'Name';
        case 'TypeReference': return 'Type-Name';
        case 'StringLiteral': case 'WordLiteral': case 'KeywordLiteral': case 'DottedName': return 'String';
        case 'NumberLiteral': return readNumber(e.value).kind === 'int' ? 'Literal Integer' : 'Literal Float';
        case 'BooleanLiteral': return 'Boolean';
        case 'UndefLiteral': return 'Undef';
        case 'DefaultLiteral': return 'Default';
        case 'RegexLiteral': return 'Regular Expression';
        case 'VariableExpression': return 'Variable';
        case 'ArrayLiteral': return 'Array Expression';
        case 'HashLiteral': case 'HashPair': return 'Hash Expression';
        case 'ConcatString': return 'Double Quoted String';
        case 'Heredoc': return `'@(${e.syntax})' expression`;
        case 'AccessExpression': return '\'[]\' expression';
        case 'SelectorExpression': return 'Selector Expression';
        case 'BinaryExpression': case 'LogicalExpression': case 'RelationshipExpression': case 'AssignmentExpression':
            return `'${e.operator}' expression`;
        case 'NotExpression': return '\'!\' expression';
        case 'UnaryMinusExpression': return 'Unary Minus';
        case 'UnfoldExpression': return 'Unfold';
        case 'ParenExpression': return 'Parenthesized Expression';
        case 'IfExpression': return '\'if\' statement';
        case 'UnlessExpression': return '\'unless\' Statement';
        case 'CaseExpression': return '\'case\' statement';
        case 'CallFunctionExpression': return 'Function Call';
        case 'CallMethodExpression': return 'Method call';
        case 'CollectExpression': return 'Collect Expression';
        case 'ClassDefinition': return 'Host Class Definition';
        case 'DefineDefinition': return '\'define\' expression';
        case 'NodeDefinition': return 'Node Definition';
        case 'FunctionDefinition': return 'Function Definition';
        case 'TypeAlias': return 'Type Alias';
        case 'TypeDefinition': return 'Type Definition';
        case 'ResourceExpression': case 'ClassResource': case 'VirtualResource': return 'Resource Statement';
        case 'ReservedWord': return 'Reserved Word';
        case 'RenderString': return 'Epp Text';
        case 'RenderExpression': return 'Epp Render Expression';
        case 'CommaList': return 'Comma separated list';
        case 'TypeFunctionName': return 'Name';
        default: return 'Expression';
    }
}

/** `a Name`, `an Array Expression`; quoted labels (`'+' expression`) take no article. */
export function aAn(text: string, upper = false): string {
    if (text.startsWith('\'')) {
        return upper ? `The ${text}` : `the ${text}`;
    }
    const article = /^[aeiouAEIOU]/.test(text) ? 'an' : 'a';
    return `${upper ? article[0]?.toUpperCase() + article.slice(1) : article} ${text}`;
}
