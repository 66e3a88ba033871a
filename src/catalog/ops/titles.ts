import type { AstNode } from 'langium';
import type { ResourceBody } from '../../../generated/langium/ast.js';
import { formatValue, generalizePuppet, inferPuppet } from '../../types/index.js';
import { PDefault } from '../../values/index.js';
import { EvalIssue } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Scope } from '../scope.js';
import type { OpsState } from './state.js';

/**
 * The titles of one body of a resource expression, checked as Puppet checks them before it
 * creates any resource: not undef, each a non-empty String (or `default`, which marks the body
 * whose attributes every body of the expression takes as defaults), none used twice in the
 * expression (`seen` spans its bodies). `default` is returned as PDefault.
 */
export function bodyTitles(s: OpsState, body: ResourceBody, scope: Scope, seen: Set<string>, expression: AstNode): Array<string | PDefault> {
    const value = s.ev.evaluate(body.title, scope);
    const at = s.ev.where(body.title);
    if (value === null) throw EvalIssue.of(CatalogIssues.EVAL_MISSING_TITLE, {}, at);
    const titles = Array.isArray(value) ? value.flat(Infinity as 1) : [value];
    return titles.map((t, index) => {
        if (t === null) throw EvalIssue.of(CatalogIssues.EVAL_MISSING_TITLE_AT, { index }, at);
        if (typeof t !== 'string' && !(t instanceof PDefault)) {
            throw EvalIssue.of(CatalogIssues.EVAL_ILLEGAL_TITLE_TYPE_AT, { index, actual: formatValue(generalizePuppet(inferPuppet(t))) }, at);
        }
        if (t === '') throw EvalIssue.of(CatalogIssues.EVAL_EMPTY_STRING_TITLE_AT, { index }, at);
        const key = typeof t === 'string' ? t : '\0default';
        if (seen.has(key)) throw EvalIssue.of(CatalogIssues.EVAL_DUPLICATE_TITLE, { title: typeof t === 'string' ? t : 'default' }, s.ev.where(expression));
        seen.add(key);
        return t;
    });
}
