import type { AttributeOperation, Expression } from '../../../generated/langium/ast.js';
import type { PuppetValue } from '../../values/index.js';
import { EvalIssue, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Source } from '../code-source.js';
import type { CatalogResource } from '../resource.js';
import type { Attr } from '../runtime.js';
import type { Scope } from '../scope.js';
import type { OpsState } from './state.js';
import { addTags, nameTags, VALID_TAG } from '../tags.js';

export { nameTags, VALID_TAG };


/** `a::b` -> tags a::b, a, b. */
/** The tags a title gives: itself and its `::` segments, lower case, when it is a valid tag. */
export function titleTags(title: string): string[] {
    if (!VALID_TAG.test(title)) return [];
    return [title, ...(title.includes('::') ? title.split('::') : [])].map(t => t.toLowerCase());
}


/** The attribute operations' values; `duplicates` keeps a name given twice (an override reports it itself). */
export function evalAttrs(s: OpsState, ops: readonly AttributeOperation[], scope: Scope, stmt: Expression, duplicates = false): Attr[] {
    const out: Attr[] = [];
    const seen = new Set<string>();
    const add = (a: Attr): void => {
        if (seen.has(a.name) && !duplicates) throw EvalIssue.of(CatalogIssues.EVAL_DUPLICATE_ATTRIBUTE, { name: a.name }, s.ev.where(stmt));
        seen.add(a.name);
        out.push(a);
    };
    for (const op of ops) {
        if (op.$type === 'AttributeAssign') {
            add({ name: op.name, value: s.ev.evaluate(op.value, scope), plus: op.operator === '+>', where: s.ev.where(op) });
        } else {
            const h = s.ev.evaluate(op.value, scope);
            if (!(h instanceof Map)) throw new RuntimeFailure(CatalogIssues.EVAL_SPLAT_NOT_HASH.message());
            for (const [k, v] of h) add({ name: String(k), value: v, plus: false, where: s.ev.where(op) });
        }
    }
    return out;
}

/** A resource's own tags, its container's, and those of its `tag` parameter. */
export function tagResource(r: CatalogResource, scope: Scope, own: string[]): void {
    for (const t of own) r.tags.add(t);
    const container = scope.resource;
    if (container) for (const t of container.tags) r.tags.add(t);
    addTags(r, r.param('tag'), r.where);
}

/** Sets (or, with `+>`, appends to) a parameter. */
export function setParam(r: CatalogResource, a: Attr, origin: 'declared' | 'override', source: Source): void {
    if (a.name === 'tag' && origin === 'override') addTags(r, a.value, a.where);
    if (a.plus) {
        const prev = r.param(a.name);
        if (prev !== undefined && prev !== null) {
            const add: PuppetValue[] = Array.isArray(a.value) ? a.value : [a.value];
            r.params.set(a.name, { value: [...(Array.isArray(prev) ? prev : [prev]), ...add], where: a.where, origin, source });
            return;
        }
    }
    r.params.set(a.name, { value: a.value, where: a.where, origin, source });
}

/** $module_name and $caller_module_name of a class or define body. */
export function setModuleNames(scope: Scope): void {
    scope.setLocal('module_name', scope.moduleName);
    scope.setLocal('caller_module_name', scope.callerModuleName);
}
