import type { AstNode } from 'langium';
import type { Expression } from '../../../generated/langium/ast.js';
import { PClassType } from '../../types/index.js';
import { hashGet, type PuppetValue } from '../../values/index.js';
import { EvalIssue, type Where } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { CatalogRuntime } from '../runtime.js';
import type { Scope } from '../scope.js';

/**
 * Assigns to a variable or destructures; errors are located at the assignment operator, as
 * Puppet does. `right` is the assigned expression (where a missing class is reported).
 */
export function assign(c: CatalogRuntime, where: (n: AstNode) => Where, left: Expression, value: PuppetValue, scope: Scope, at: Where, right?: Expression): void {
    if (left.$type === 'VariableExpression') {
        c.setVariable(scope, left.name, value, at);
        return;
    }
    if (left.$type === 'ArrayLiteral') {
        if (value instanceof Map) {
            for (const el of left.elements) {
                if (el.$type !== 'VariableExpression') continue;
                const v = hashGet(value, el.name);
                if (v === undefined) throw EvalIssue.of(CatalogIssues.EVAL_MISSING_MULTI_ASSIGNMENT_KEY, { key: el.name }, at);
                c.setVariable(scope, el.name, v, at);
            }
            return;
        }
        // `[$a, $b] = Class[c]`: the class's variables of those names.
        if (value instanceof PClassType && value.className !== null) {
            if (!c.isDeclared('Class', value.className)) {
                throw EvalIssue.of(CatalogIssues.EVAL_UNKNOWN_RESOURCE, { type: 'Class', title: value.className }, right ? where(right) : at);
            }
            for (const el of left.elements) {
                if (el.$type !== 'VariableExpression') continue;
                const qualified = `${value.className.toLowerCase()}::${el.name}`;
                const v = c.lookupVariable(qualified, scope);
                if (v === undefined) throw EvalIssue.of(CatalogIssues.EVAL_MISSING_MULTI_ASSIGNMENT_VARIABLE, { name: qualified }, where(el));
                c.setVariable(scope, el.name, v, at);
            }
            return;
        }
        const values = Array.isArray(value) ? value : [value];
        if (values.length !== left.elements.length) {
            throw EvalIssue.of(CatalogIssues.EVAL_MULTI_ASSIGNMENT_SIZE, { expected: left.elements.length, actual: values.length }, at);
        }
        left.elements.forEach((el, i) => assign(c, where, el, values[i], scope, at));
        return;
    }
    throw EvalIssue.of(CatalogIssues.EVAL_ILLEGAL_ASSIGNMENT, {});
}
