import type { CollectExpression, Expression } from '../../../generated/langium/ast.js';
import { capitalize, formatValue, rubyInspect, rubyInspectString } from '../../types/index.js';
import { capitalizeTypeName, puppetEquals, type PuppetValue } from '../../values/index.js';
import { PuppetFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import { inOperator, isTruthy } from '../evaluator/operators.js';
import type { CatalogResource } from '../resource.js';
import type { Scope } from '../scope.js';
import { evalAttrs } from './attributes.js';
import { applyOverride } from './overrides.js';
import { flattenRefs } from './refs.js';
import type { Collector, OpsState } from './state.js';
import type { Attr } from '../runtime.js';
import { collectFromStore } from '../store-access.js';
import { isValidTag } from '../tags.js';

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
    // Puppet warns before it looks the type up.
    if (exported && !s.rt.store) s.rt.log('warning', CatalogIssues.EVAL_EXPORTED_COLLECTION_IGNORED.message(), where);
    if (!s.rt.isResourceType(typeName)) throw new RuntimeFailure(CatalogIssues.EVAL_COLLECT_UNKNOWN_TYPE.message({ type: typeName.toLowerCase() }));
    const collector: Collector = {
        type: capitalize(typeName.toLowerCase()), query: e.query.query, scope, exported, collected: [], collectedSet: new Set(), where,
        overrides: e.ops.length ? evalAttrs(s, e.ops, scope, e) : []
    };
    s.collectors.push(collector);
    return collector;
}

/**
 * The values a query compares with, each evaluated once per collector and pass, when a resource
 * first needs it (they do not depend on the resource; evaluating them per resource repeated
 * their warnings and made collection quadratic).
 */
type QueryValues = (e: Expression) => PuppetValue;

function queryValues(s: OpsState, scope: Scope): QueryValues {
    const memo = new Map<Expression, PuppetValue>();
    return e => {
        if (memo.has(e)) return memo.get(e) as PuppetValue;
        const v = s.ev.evaluate(e, scope);
        memo.set(e, v);
        return v;
    };
}

function queryMatches(q: Expression | undefined, r: CatalogResource, value: QueryValues): boolean {
    if (!q) return true;
    switch (q.$type) {
        case 'ParenExpression': return queryMatches(q.expr, r, value);
        case 'LogicalExpression':
            return q.operator === 'and' ? queryMatches(q.left, r, value) && queryMatches(q.right, r, value)
                : queryMatches(q.left, r, value) || queryMatches(q.right, r, value);
        case 'BinaryExpression': {
            const attr = q.left.$type === 'QualifiedName' || q.left.$type === 'WordLiteral' ? q.left.value : formatValue(value(q.left));
            const v = value(q.right);
            // Puppet's `!=` compares the parameter's value as a whole (for `tag`, the tag
            // parameter, not the resource's tags): an array never equals one of its elements.
            if (q.operator === '!=') return !puppetEquals(attr === 'title' ? r.title : r.param(attr) ?? null, v);
            let eq: boolean;
            if (attr === 'tag') eq = typeof v === 'string' && r.tags.has(v.toLowerCase());
            else if (attr === 'title') eq = puppetEquals(r.title, v);
            else {
                // An unset parameter reads as undef (`message == undef` matches it). An array value
                // holds the operand as Puppet's `in` finds it (a regexp or type element matches a string).
                const pv = r.param(attr) ?? null;
                eq = Array.isArray(pv) ? inOperator(v, pv, () => undefined) : puppetEquals(pv, v);
            }
            return eq;
        }
        default: return isTruthy(value(q));
    }
}

/**
 * The comparison a query's matches can be looked up by: `title == X` or `tag == X`, alone, in
 * parentheses, or as the left side of an `and` (evaluated first there too).
 */
function indexedComparison(q: Expression | undefined): { attr: 'title' | 'tag'; operand: Expression } | undefined {
    if (!q) return undefined;
    if (q.$type === 'ParenExpression') return indexedComparison(q.expr);
    if (q.$type === 'LogicalExpression' && q.operator === 'and') return indexedComparison(q.left);
    if (q.$type === 'BinaryExpression' && q.operator === '==' && (q.left.$type === 'QualifiedName' || q.left.$type === 'WordLiteral')
        && (q.left.value === 'title' || q.left.value === 'tag')) {
        return { attr: q.left.value, operand: q.right };
    }
    return undefined;
}

/** The resources a collector may still collect: those of its type, or of its title or tag when the query allows. */
function candidates(s: OpsState, c: Collector, value: QueryValues): readonly CatalogResource[] {
    const indexed = indexedComparison(c.query);
    // Only once there is something left to collect, as the query would be evaluated for it.
    if (indexed === undefined || s.catalog.collectableCount(c.type, c.exported) <= c.collectedSet.size) return s.catalog.ofType(c.type);
    const v = value(indexed.operand);
    // Titles and tags are strings: any other value matches nothing, as the query would find.
    if (typeof v !== 'string') return [];
    return indexed.attr === 'title' ? s.catalog.ofTypeTitled(c.type, v) : s.catalog.ofTypeTagged(c.type, v.toLowerCase());
}

/** One pass of every collector and pending realize(); whether anything was collected or realized. */
export function evaluateCollections(s: OpsState): boolean {
    let found = false;
    const collectors = s.collectors.length;
    for (let i = 0; i < collectors; i++) {
        const c = s.collectors[i];
        if (c.exported && !s.rt.store) continue;
        // With a store (storeconfigs), `<<| |>>` takes this compile's own exports and other nodes' stored ones.
        const remote = c.exported && !c.fromStore ? collectFromStore(s.rt, s.ev, c.type, c.query, c.scope, c.where) : [];
        if (c.exported) c.fromStore = true;
        // Collected define instances are evaluated here, in the generator passes, as declared ones are.
        for (const r of remote) if (r.kind === 'define') s.generated.push(r);
        const value = queryValues(s, c.scope);
        const local = candidates(s, c, value);
        let overrides: Attr[] | undefined;
        // Resources declared while collecting (none are: overrides run no code) wait for the next pass.
        // (The candidates are a live list of the catalog's, walked without copying it.)
        const n = remote.length + local.length;
        for (let j = 0; j < n; j++) {
            const r = j < remote.length ? remote[j] : local[j - remote.length];
            if (r.type !== c.type || c.collectedSet.has(r)) continue;
            // `<| |>` takes exported resources too (Puppet's CatalogCollector looks at the type alone); `<<| |>>` only those.
            if (!remote.includes(r) && ((c.exported && !r.exported) || !queryMatches(c.query, r, value))) continue;
            r.virtual = false;
            c.collected.push(r);
            c.collectedSet.add(r);
            found = true;
            if (c.overrides.length) {
                // Puppet marks the collector's code as allowed to override anything, from now on.
                s.overrideRules.sourceOf(c.scope).override = true;
                overrides ??= withScopeDefaults(c);
                applyOverride(s, r, { attrs: overrides, scope: c.scope, where: { file: '', line: 0 }, fromCollector: true });
            }
        }
    }
    for (const req of s.realizeRequests) {
        if (req.done) continue;
        if (req.failure !== undefined) throw new PuppetFailure(req.failure);
        const rs = req.refs.map(x => s.catalog.find(x.type, x.title));
        if (rs.every(r => r !== undefined)) {
            for (const r of rs) if (r && r.virtual) { r.virtual = false; found = true; }
            req.done = true;
        }
    }
    return found;
}

/**
 * A collector's overrides as the resource Puppet makes of them for each resource it collects: a
 * new resource of the collector's scope, so it takes that scope's resource defaults known by
 * then (after its own attributes), which the merge then sets where the resource has no value.
 */
function withScopeDefaults(c: Collector): Attr[] {
    const defaults = c.scope.defaultsFor(c.type.toLowerCase());
    if (defaults.size === 0) return c.overrides;
    const attrs = [...c.overrides];
    defaults.forEach((d, name) => {
        if (!c.overrides.some(a => a.name === name)) attrs.push({ name, value: d.value, plus: d.plus, where: d.where });
    });
    return attrs;
}

/** realize(): marks virtual resources real (now, or when they are declared later in the queue). */
export function realize(s: OpsState, refs: PuppetValue[]): void {
    const list: Array<{ type: string; title: string }> = [];
    let failure: string | undefined;
    // A 3.x argument: undef is ''. Each value is found by its text, as Puppet's FixedSetCollector does.
    for (const x of refs.map(r => r ?? '').flat(Infinity as 1)) {
        const found = flattenRefs(x);
        if (found.length > 0) { list.push(...found); continue; }
        const ref = referenceOfText(x === null ? '' : x instanceof Map ? rubyInspect(x) : formatValue(x));
        if (typeof ref === 'string') { failure ??= ref; continue; }
        list.push(ref);
    }
    const rs = list.map(x => s.catalog.find(x.type, x.title));
    if (failure === undefined && rs.every(r => r !== undefined)) {
        for (const r of rs) if (r) r.virtual = false;
        return;
    }
    s.realizeRequests.push({ refs: list, done: false, failure });
}

/**
 * A reference from its text as Puppet's Resource.type_and_title reads it ("Type[title]", the type
 * of any case), or the failure of the collection: a type that is no valid tag, or no reference.
 */
function referenceOfText(text: string): { type: string; title: string } | string {
    const m = /^([^[\]]+)\[(.+)\]$/s.exec(text);
    if (!m) return CatalogIssues.EVAL_REALIZE_NOT_A_REFERENCE.message({ ref: rubyInspectString(text) });
    if (!isValidTag(m[1].toLowerCase())) return CatalogIssues.EVAL_INVALID_TAG.message({ name: m[1].toLowerCase() });
    return { type: capitalizeTypeName(m[1]), title: m[2] };
}
