import type { PuppetValue } from '../../values/index.js';
import { METAPARAMS } from '../core-types.js';
import { PuppetFailure, RuntimeFailure, whereSuffix } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { CatalogResource } from '../resource.js';
import { evaluateClassResource } from './classes.js';
import { evaluateCollections } from './collectors.js';
import { evaluateDefine, validateUnevaluatedDefine } from './defines.js';
import { displayRef } from './refs.js';
import { applyPendingOverrides } from './overrides.js';
import { applyRelationships, validateRelationshipTargets } from './relationships.js';
import type { OpsState } from './state.js';

/** Puppet's limit on evaluate_generators passes. */
const MAX_GENERATOR_PASSES = 1000;
/** modelc's own bound on catalog size (real catalogs hold thousands). */
const MAX_RESOURCES = 1_000_000;

/**
 * Collectors and define instances, pass after pass, until nothing new happens. Puppet gives up
 * after 1,000 passes (a define declaring itself under a new title never settles); the resource
 * limit stops one that multiplies faster, before memory runs out.
 */
export function evaluateGenerators(s: OpsState): void {
    for (let pass = 0; ; pass++) {
        if (pass >= MAX_GENERATOR_PASSES) throw new PuppetFailure(CatalogIssues.EVAL_GENERATOR_LOOP.message({ passes: MAX_GENERATOR_PASSES }));
        const found = evaluateCollections(s);
        const pending = s.generated.filter(r => (r.kind === 'define' && !r.evaluated && !r.virtual) || s.pendingClasses.has(r));
        for (const r of pending) {
            if (s.catalog.resources.size > MAX_RESOURCES) throw new PuppetFailure(CatalogIssues.EVAL_TOO_MANY_RESOURCES.message({ limit: MAX_RESOURCES, ref: r.ref }), r.where);
            if (r.kind === 'class') evaluateClassResource(s, r);
            else evaluateDefine(s, r);
        }
        // What has been evaluated leaves the list; virtual define instances stay until collected.
        if (pending.length) s.generated = s.generated.filter(r => r.kind === 'define' ? !r.evaluated : s.pendingClasses.has(r));
        if (!found && pending.length === 0) break;
    }
}

/**
 * Puppet's finish and the checks after it: relationships become parameters; then resource by
 * resource, in catalog order, the overrides that waited for it are merged and it is validated;
 * then overrides that found no resource, virtual resources never realized, and relationship
 * parameters naming resources not in the catalog are errors.
 */
export function finish(s: OpsState): void {
    applyRelationships(s);
    for (const r of [...s.catalog.resources]) {
        applyPendingOverrides(s, r);
        validateResource(s, r);
    }
    for (const key of s.pendingOverrides.keys()) {
        const m = /^([^[]*)\[(.*)\]$/s.exec(key) as RegExpExecArray;
        throw new PuppetFailure(CatalogIssues.EVAL_OVERRIDE_NOT_FOUND.message({ ref: displayRef(m[1], m[2]) }));
    }
    const unrealized = s.realizeRequests.filter(r => !r.done).flatMap(r => r.refs.filter(x => !s.catalog.find(x.type, x.title)));
    if (unrealized.length) {
        throw new PuppetFailure(CatalogIssues.EVAL_FAILED_TO_REALIZE.message({ refs: unrealized.map(x => displayRef(x.type, x.title)) }));
    }
    validateRelationshipTargets(s);
    for (const r of s.catalog.resources) if (r.kind === 'builtin') renameNameParameter(s, r);
    s.catalog.removeWhere(r => r.virtual && !r.exported);
    inheritMetaparams(s);
}

/** Puppet's Resource#validate: a define never evaluated is checked as its body would be; a built-in resource's parameters must be the type's. */
function validateResource(s: OpsState, r: CatalogResource): void {
    if (r.kind === 'define' && !r.evaluated) {
        // Unlocated, as Puppet's finish reports it.
        try { validateUnevaluatedDefine(s, r); } catch (e) { if (e instanceof RuntimeFailure) throw new PuppetFailure(e.message, undefined, 'Puppet::ParseError'); throw e; }
        return;
    }
    if (r.kind !== 'builtin' || (r.virtual && !r.exported)) return;
    const core = s.rt.resourceType(r.type);
    if (!core) return;
    r.params.forEach((_p, name) => {
        // `name` is valid for every built-in type: it is an other name of the key attribute.
        if (name === 'name' || core.attributes.has(name) || METAPARAMS.has(name)) return;
        const loc = r.where ? whereSuffix({ file: r.where.file, line: r.where.line }) : '';
        throw new PuppetFailure(CatalogIssues.EVAL_NO_SUCH_PARAMETER.message({ name, ref: r.ref, location: loc }), r.where, 'Puppet::Error', 'Puppet::ParseError');
    });
}

/**
 * Puppet's add_resource_metaparams: walking containment from Class[main], a container's
 * non-relationship metaparameters (noop, schedule, audit, loglevel, alias, tag, stage) reach
 * the resources it contains unless they set their own, and its tags are merged into theirs.
 * Classes hang off stages, so a class's metaparameters do not reach its resources.
 */
function inheritMetaparams(s: OpsState): void {
    const inherited = ['noop', 'schedule', 'audit', 'loglevel', 'alias', 'tag', 'stage'];
    const out = new Map<CatalogResource, CatalogResource[]>();
    for (const e of s.catalog.edges) {
        const list = out.get(e.source) ?? [];
        list.push(e.target);
        out.set(e.source, list);
    }
    const own = (r: CatalogResource): Map<string, PuppetValue> => {
        const m = new Map<string, PuppetValue>();
        for (const p of inherited) {
            const v = r.param(p);
            if (v !== undefined && v !== null) m.set(p, v);
        }
        return m;
    };
    const data = new Map<CatalogResource, Map<string, PuppetValue>>();
    const seen = new Set<CatalogResource>([s.mainClass]);
    const queue = [s.mainClass];
    while (queue.length) {
        const source = queue.shift() as CatalogResource;
        const sourceData = data.get(source) ?? own(source);
        for (const target of out.get(source) ?? []) {
            if (sourceData.size > 0) {
                for (const [p, v] of sourceData) if (target.param(p) === undefined || target.param(p) === null) target.params.set(p, { value: v, origin: 'compiler' });
            }
            // Only what contains something passes its metaparameters on (a map per container, not per resource).
            if (out.has(target)) data.set(target, new Map([...sourceData, ...own(target)]));
            target.tags.addAll(source.tags);
            if (!seen.has(target)) { seen.add(target); queue.push(target); }
        }
    }
}

/**
 * The catalog's copy of a resource sets each parameter through Puppet::Resource#[]=, where `name`
 * is the key attribute of a type that has only one (File's path): the later of the two wins, and
 * a value equal to the title is dropped as every namevar equal to the title is.
 */
function renameNameParameter(s: OpsState, r: CatalogResource): void {
    if (!r.params.has('name')) return;
    const alias = s.rt.resourceType(r.type)?.nameAlias;
    if (!alias) return;
    const entries = [...r.params];
    r.params.clear();
    for (const [k, v] of entries) {
        if (k === alias) r.params.delete(alias);
        r.params.set(k === 'name' ? alias : k, v);
    }
    if (r.param(alias) === r.title) r.params.delete(alias);
}
