import type { AttributeOperation, Expression, ResourceExpression } from '../../../generated/langium/ast.js';
import { STATEMENT_CALLS } from './statements.js';

/**
 * What a `LHS { attribute ops }` (no titles) means, by the shape of LHS (Puppet's
 * resource_shape plus transform_resource_wo_title): a call with a hash for statement-call
 * names, juxtaposed name and hash for other names, defaults for `Type`, an override for
 * `Type[...]`.
 */
export type UntitledShape = 'call' | 'name-and-hash' | 'defaults' | 'override' | 'plus-without-title' | 'invalid';

export function untitledShape(r: ResourceExpression): UntitledShape {
    return shapeOf(r.typeExpr, r.ops);
}

export function shapeOf(typeExpr: Expression, ops: readonly AttributeOperation[]): UntitledShape {
    switch (typeExpr.$type) {
        case 'QualifiedName':
            if (ops.some(o => o.$type === 'AttributeAssign' && o.operator === '+>')) {
                return 'plus-without-title';
            }
            return STATEMENT_CALLS.has(typeExpr.value) ? 'call' : 'name-and-hash';
        case 'TypeReference':
            return 'defaults';
        case 'AccessExpression':
            // Puppet means `Resource[x] {}` to be defaults, but its check reads a key that
            // type references do not have, so in practice every access is an override.
            return 'override';
        default:
            return 'invalid';
    }
}
