import type { CollectExpression, Expression } from '../../../generated/langium/ast.js';
import { capitalize } from '../../types/index.js';
import { formatValue, puppetEquals, type PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { isTruthy } from '../evaluator/operators.js';
import type { CatalogResource } from '../resource.js';
import type { Scope } from '../scope.js';
import { evalAttrs } from './attributes.js';
import { applyOverride } from './overrides.js';
import { flattenRefs } from './refs.js';
import type { Collector, OpsState } from './state.js';

/** `Type <| query |>` as a statement. */
export function collect(s: OpsState, e: CollectExpression, scope: Scope): PuppetValue {
    makeCollector(s, e, scope);
    return null;
}

/** Registers a collector; it collects in the generator passes. */
export function makeCollector(s: OpsState, e: CollectExpression, scope: Scope): Collector {
    const te = e.typeExpr;
    const typeName = te.$type === 'TypeReference' ? te.value : formatValue(s.ev.evaluate(te, scope));
    const exported = e.query.kind === '<<|';
    const where = s.ev.where(e);
    if (!s.rt.isResourceType(typeName)) throw new RuntimeFailure(`Resource type ${typeName.toLowerCase()} doesn't exist`);
    if (exported) s.rt.log('warning', 'You cannot collect exported resources without storeconfigs being set; the collection will be ignored', where);
    const collector: Collector = {
        type: capitalize(typeName.toLowerCase()), query: e.query.query, scope, exported, collected: [],
        overrides: e.ops.length ? evalAttrs(s, e.ops, scope, e) : []
    };
    s.collectors.push(collector);
    return collector;
}

function queryMatches(s: OpsState, q: Expression | undefined, r: CatalogResource, scope: Scope): boolean {
    if (!q) return true;
    switch (q.$type) {
        case 'ParenExpression': return queryMatches(s, q.expr, r, scope);
        case 'LogicalExpression':
            return q.operator === 'and' ? queryMatches(s, q.left, r, scope) && queryMatches(s, q.right, r, scope)
                : queryMatches(s, q.left, r, scope) || queryMatches(s, q.right, r, scope);
        case 'BinaryExpression': {
            const attr = q.left.$type === 'QualifiedName' || q.left.$type === 'WordLiteral' ? q.left.value : formatValue(s.ev.evaluate(q.left, scope));
            const value = s.ev.evaluate(q.right, scope);
            let eq: boolean;
            if (attr === 'tag') eq = typeof value === 'string' && r.tags.has(value.toLowerCase());
            else if (attr === 'title') eq = puppetEquals(r.title, value);
            else {
                const pv = r.param(attr);
                eq = pv === undefined ? false : Array.isArray(pv) ? pv.some(x => puppetEquals(x, value)) : puppetEquals(pv, value);
            }
            return q.operator === '!=' ? !eq : eq;
        }
        default: return isTruthy(s.ev.evaluate(q, scope));
    }
}

/** One pass of every collector and pending realize(); whether anything was collected or realized. */
export function evaluateCollections(s: OpsState): boolean {
    let found = false;
    for (const c of [...s.collectors]) {
        if (c.exported) continue;
        for (const r of [...s.catalog.resources.values()]) {
            if (r.type !== c.type || r.exported || c.collected.includes(r)) continue;
            if (!queryMatches(s, c.query, r, c.scope)) continue;
            r.virtual = false;
            c.collected.push(r);
            found = true;
            if (c.overrides.length) {
                // Puppet marks the collector's code as allowed to override anything, from now on.
                s.overrideRules.sourceOf(c.scope).override = true;
                applyOverride(s, r, { attrs: c.overrides, scope: c.scope, where: { file: '', line: 0 }, fromCollector: true });
            }
        }
    }
    for (const req of s.realizeRequests) {
        if (req.done) continue;
        const rs = req.refs.map(x => s.catalog.find(x.type, x.title));
        if (rs.every(r => r !== undefined)) {
            for (const r of rs) if (r && r.virtual) { r.virtual = false; found = true; }
            req.done = true;
        }
    }
    return found;
}

/** realize(): marks virtual resources real (now, or when they are declared later in the queue). */
export function realize(s: OpsState, refs: PuppetValue[]): void {
    const list = refs.flatMap(flattenRefs);
    const rs = list.map(x => s.catalog.find(x.type, x.title));
    if (rs.every(r => r !== undefined)) {
        for (const r of rs) if (r) r.virtual = false;
        return;
    }
    s.realizeRequests.push({ refs: list, done: false });
}
