import type { Expression } from '../../../generated/langium/ast.js';

/** What Puppet calls each expression in "Error while evaluating a ..." messages. */
export function label(e: Expression): string | undefined {
    switch (e.$type) {
        case 'CallFunctionExpression': return 'Function Call';
        case 'CallMethodExpression': return 'Method call';
        // Resolving a type name (a type alias's body evaluated on first use) fails as the Type-Name.
        case 'TypeReference': return 'Type-Name';
        case 'ResourceExpression': return e.bodies.length === 0 ? (e.typeExpr.$type === 'AccessExpression' ? 'Resource Override' : 'Resource Defaults Expression') : 'Resource Statement';
        case 'ClassResource': return 'Resource Statement';
        case 'VirtualResource': return 'Resource Statement';
        case 'CollectExpression': return e.query.kind === '<|' ? 'Virtual Query' : 'Exported Query';
        case 'RelationshipExpression': return 'Relationship';
        // A failure of the scope itself (a reserved name set outside the top scope) names the assignment.
        case 'AssignmentExpression': return `'${e.operator}' expression`;
        case 'BinaryExpression': return ['+', '-', '*', '/', '%', '<<', '>>', '=~', '!~'].includes(e.operator) ? `'${e.operator}' expression` : undefined;
        default: return undefined;
    }
}
