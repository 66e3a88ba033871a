import { resourceKey, type CatalogResource } from '../resource.js';
import { setParam } from './attributes.js';
import type { OpsState, Override } from './state.js';
import { CatalogIssues } from '../issues.js';
import { OverrideFailure } from '../override-rules.js';

/** Puppet's Resource#evaluated?: a class or define instance whose body has run (or is running). */
function isEvaluated(s: OpsState, r: CatalogResource): boolean {
    return (r.kind === 'define' && r.evaluated) || (r.kind === 'class' && !s.pendingClasses.has(r));
}

/**
 * Resource overrides: applied at once to a resource already declared, else kept for `finish`,
 * which merges them into the resources declared since (an override still pending after that is
 * an error). As in Puppet's compiler, a define instance declared after an override of it is
 * evaluated without it.
 */
export function addOverride(s: OpsState, type: string, title: string, o: Override): void {
    const r = s.catalog.find(type, title);
    if (r) { applyOverride(s, r, o); return; }
    const key = resourceKey(type, title);
    const list = s.pendingOverrides.get(key) ?? [];
    list.push(o);
    s.pendingOverrides.set(key, list);
}

/** The overrides that waited for `r` to be declared (Puppet's finish, resource by resource). */
export function applyPendingOverrides(s: OpsState, r: CatalogResource): void {
    if (s.pendingOverrides.size === 0) return;
    const key = resourceKey(r.type, r.title);
    const list = s.pendingOverrides.get(key);
    if (!list) return;
    s.pendingOverrides.delete(key);
    for (const o of list) applyOverride(s, r, o);
}

/** One override, under Puppet's merge and override_parameter rules (see OverrideRules). */
export function applyOverride(s: OpsState, r: CatalogResource, o: Override): void {
    s.overrideRules.checkMerge(r.scope, o.scope, o.where);
    const strict = s.rt.setting('strict') ?? 'warning';
    if (strict !== 'off' && isEvaluated(s, r)) {
        const at = r.where ? `(file: ${r.where.file}, line: ${r.where.line})` : '';
        const message = CatalogIssues.EVAL_OVERRIDE_EVALUATED.message({ at });
        if (strict === 'error') throw new OverrideFailure(`${message} (file: ${o.where.file}, line: ${o.where.line})`, o.where);
        s.rt.log('warning', `${message} (file: ${o.where.file}, line: ${o.where.line})`);
    }
    const source = s.overrideRules.sourceOf(o.scope);
    for (const a of o.attrs) {
        let current = r.params.get(a.name);
        // A define's parameter defaults are set when its body runs, after the overrides that reach it.
        if (current?.origin === 'parameterDefault') { r.params.delete(a.name); current = undefined; }
        if (current && s.overrideRules.decide(r.ref, a.name, a.value, current, r.scope, o.scope, a.where) === 'ignore') continue;
        setParam(r, a, 'override', source);
    }
}
