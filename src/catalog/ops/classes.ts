import type { ClassResource, Parameter } from '../../../generated/langium/ast.js';
import { describeMismatch, formatMismatches, isInstance, PClassType } from '../../types/index.js';
import { PDefault, type PuppetValue } from '../../values/index.js';
import { METAPARAMS } from '../core-types.js';
import { PuppetFailure, RuntimeFailure, whereSuffix, type Where } from '../errors.js';
import { boundTypeName } from '../bound-catalog.js';
import { programOf } from '../evaluator/ast-util.js';
import { NextSignal, ReturnSignal } from '../evaluator/signals.js';
import type { DataBindingOrigin } from '../../bindings/index.js';
import { CatalogIssues } from '../issues.js';
import { CatalogResource, type ValueOrigin } from '../resource.js';
import { Scope } from '../scope.js';
import { evalAttrs, nameTags, setModuleNames, storedDefault, tagResource } from './attributes.js';
import { classTitle, refOf } from './refs.js';
import type { OpsState } from './state.js';
import { settingsVariables } from './settings.js';
import { bodyTitles } from './titles.js';

/** Stage[main], Class[Settings] and Class[main], as every catalog starts. */
export function boot(s: OpsState, top: Scope): void {
    const catalog = s.catalog;
    const stage = new CatalogResource('Stage', 'main', 'stage', undefined);
    stage.tags.add('stage');
    stage.params.set('name', { value: 'main', origin: 'compiler' });
    catalog.add(stage);
    s.stageMain = stage;
    const settings = new CatalogResource('Class', 'Settings', 'class', undefined);
    settings.tags.add('class').add('settings');
    catalog.add(settings);
    catalog.addEdge(stage, settings);
    catalog.classes.push('settings');
    catalog.tags.add('settings');
    // Class settings' scope holds every setting as a variable ($settings::ssldir).
    const settingsScope = new Scope('class', top, settings, 'settings');
    for (const [k, v] of settingsVariables(s.rt.env.name, s.settings)) settingsScope.setLocal(k, v);
    s.classScopes.set('settings', settingsScope);
    const main = top.resource as CatalogResource;
    main.tags.add('class');
    main.params.set('name', { value: 'main', origin: 'compiler' });
    catalog.add(main);
    catalog.addEdge(stage, main);
    s.mainClass = main;
    s.classScopes.set('', top);
}

/** `class { name: ... }`. */
export function classResource(s: OpsState, e: ClassResource, scope: Scope): PuppetValue {
    const refs: PuppetValue[] = [];
    const whole = e.$container?.$type === 'VirtualResource' ? e.$container : e;
    const where = s.ev.where(e);
    // Titles and attributes of every body first, then the classes (as for any resource expression).
    const seen = new Set<string>();
    const bodies = e.bodies.map(b => ({ titles: bodyTitles(s, b, scope, seen, whole), attrs: [...evalAttrs(s, e.ops, scope, e), ...evalAttrs(s, b.ops, scope, e)] }));
    const defaults = bodies.find(b => b.titles.some(t => t instanceof PDefault))?.attrs ?? [];
    for (const b of bodies) {
        const attrs = [...b.attrs];
        for (const d of defaults) if (!attrs.some(a => a.name === d.name)) attrs.push(d);
        for (const t of b.titles) {
            if (t instanceof PDefault) continue;
            const params = new Map<string, PuppetValue>(attrs.map(a => [a.name, a.value]));
            const r = declareClass(s, t, scope, params, where, new Map(attrs.map(a => [a.name, a.where])));
            refs.push(refOf(r));
        }
    }
    return refs;
}

/** A resource-like class declaration: the class must not be declared yet. */
export function declareClass(s: OpsState, name: string, scope: Scope, params: Map<string, PuppetValue>, where: Where, paramWheres?: ReadonlyMap<string, Where>): CatalogResource {
    const n = boundTypeName(s.rt, 'class', name.replace(/^::/, '').toLowerCase());
    const existing = s.catalog.find('Class', n);
    // Puppet names the class as the title was written (`::Foo::Bar` stays so).
    if (!existing && !s.rt.loader.findClass(n)) throw new RuntimeFailure(CatalogIssues.EVAL_DECLARED_CLASS_NOT_FOUND.message({ name }));
    if (existing) {
        throw new RuntimeFailure(CatalogIssues.EVAL_DUPLICATE_DECLARATION.message({ ref: `Class[${classTitle(n)}]`, previous: existing.where, file: where.file, line: where.line }));
    }
    return evaluateClass(s, n, scope, params, 'resource', where, paramWheres);
}

/** A classifier (ENC) class: added to the catalog now, evaluated lazily with the defines. */
export function declareLazyClass(s: OpsState, name: string, scope: Scope): void {
    const n = boundTypeName(s.rt, 'class', name.replace(/^::/, '').toLowerCase());
    if (!s.catalog.find('Class', n)) ensureInCatalog(s, n, scope, undefined, undefined);
}

/** include / require / contain of one class name; returns the Class resource. */
export function includeClass(s: OpsState, name: string, scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource {
    return includeClasses(s, [name], scope, how, where)[0];
}

/**
 * include / require / contain of several classes in one call, as Puppet's evaluate_classes: every
 * class is found first, then every new one is added to the catalog, and only then is each body
 * evaluated (so the first body already sees the others declared).
 */
export function includeClasses(s: OpsState, names: readonly string[], scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource[] {
    const ns = names.map(name => boundTypeName(s.rt, 'class', name.replace(/^::/, '').toLowerCase()));
    for (const n of ns) {
        if (!s.catalog.find('Class', n) && !s.rt.loader.findClass(n)) throw new RuntimeFailure(CatalogIssues.EVAL_CLASS_NOT_FOUND.message({ name: n, node: s.rt.nodeName }));
    }
    const resources = ns.map(n => s.catalog.find('Class', n) ?? ensureInCatalog(s, n, scope, undefined, undefined));
    resources.forEach((r, i) => {
        evaluateClassResource(s, r);
        relateIncluded(s, r, ns[i], scope, how, where);
    });
    return resources;
}

/** contain adds a containment edge from the including resource; require a require relationship on it. */
function relateIncluded(s: OpsState, r: CatalogResource, n: string, scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): void {
    if (how === 'contain') {
        const container = scope.resource;
        if (container && container !== r && !s.catalog.edges.some(x => x.source === container && x.target === r)) s.catalog.addEdge(container, r);
    }
    if (how === 'require' && scope.resource) {
        const holder = scope.resource;
        const prev = holder.param('require');
        const ref = new PClassType(n);
        // Puppet's require() sets the parameter anew (flattened, undef dropped), by the holder's code, at no location.
        const list = (Array.isArray(prev) ? prev.flat(Infinity as 1) : [prev ?? null]).filter(v => v !== null);
        holder.params.set('require', { value: [...list, ref], origin: 'relationship', ...(holder.scope ? { source: s.overrideRules.sourceOf(holder.scope) } : {}) });
    }
}

/** Adds a class (and, first, its not yet added parents) to the catalog, then evaluates it: Puppet's ensure_in_catalog + evaluate. */
function evaluateClass(s: OpsState, n: string, scope: Scope, given: Map<string, PuppetValue> | undefined, how: string, where: Where | undefined,
    paramWheres?: ReadonlyMap<string, Where>): CatalogResource {
    const r = ensureInCatalog(s, n, scope, given, how === 'resource' ? where : undefined, paramWheres);
    evaluateClassResource(s, r);
    return r;
}

function ensureInCatalog(s: OpsState, n: string, scope: Scope, given: Map<string, PuppetValue> | undefined, declaredAt: Where | undefined,
    paramWheres?: ReadonlyMap<string, Where>): CatalogResource {
    const def = s.rt.loader.findClass(n);
    if (!def) throw new RuntimeFailure(CatalogIssues.EVAL_CLASS_NOT_FOUND.message({ name: n, node: s.rt.nodeName }));
    if (def.ast.parent) {
        const parentName = def.ast.parent.replace(/^::/, '').toLowerCase();
        if (!s.catalog.find('Class', parentName)) {
            if (!s.rt.loader.findClass(parentName)) {
                const at = s.ev.where(def.ast);
                const where = { file: def.file, line: at.line };
                throw new PuppetFailure(CatalogIssues.EVAL_PARENT_NOT_FOUND.message({ name: parentName, environment: s.rt.env.name }) + whereSuffix(where),
                    where, 'Puppet::Error', 'Puppet::ParseError');
            }
            ensureInCatalog(s, parentName, scope, undefined, undefined);
        }
    }
    const r = new CatalogResource('Class', classTitle(def.name), 'class', declaredAt ? { file: declaredAt.file, line: declaredAt.line } : undefined);
    r.tags.add('class');
    for (const t of nameTags(def.name)) r.tags.add(t);
    if (scope.resource) for (const t of scope.resource.tags) r.tags.add(t);
    r.scope = scope;
    if (given) for (const [k, v] of given) if (METAPARAMS.has(k)) r.params.set(k, { value: v, origin: 'declared', where: paramWheres?.get(k) ?? declaredAt });
    if (given?.has('tag')) tagResource(r, scope, []);
    s.catalog.add(r);
    s.pendingClasses.set(r, { def, given, scope });
    s.generated.push(r);
    return r;
}

/**
 * modelc's bound on nested class evaluation: Puppet's evaluator runs out of Ruby stack ("stack
 * level too deep") between 100 and 250 nested includes; modelc allows twice the deeper and
 * stops with a located error naming the limit.
 */
const MAX_CLASS_NESTING = 500;

/** Runs a class's body if it has not run yet (its parent's first). */
export function evaluateClassResource(s: OpsState, r: CatalogResource): void {
    if (!s.pendingClasses.has(r)) return;
    if (s.classNesting >= MAX_CLASS_NESTING) throw new RuntimeFailure(CatalogIssues.EVAL_CLASS_NESTING.message({ limit: MAX_CLASS_NESTING, ref: r.ref }));
    s.classNesting++;
    try {
        evaluateClassBody(s, r);
    } finally {
        s.classNesting--;
    }
}

function evaluateClassBody(s: OpsState, r: CatalogResource): void {
    const pending = s.pendingClasses.get(r);
    if (!pending) return;
    s.pendingClasses.delete(r);
    const { def, given, scope } = pending;
    let parentScope: Scope | null = null;
    if (def.ast.parent) {
        const parentName = def.ast.parent.replace(/^::/, '').toLowerCase();
        const parent = s.catalog.find('Class', parentName);
        if (parent) evaluateClassResource(s, parent);
        parentScope = s.classScopes.get(parentName) ?? null;
    }
    const classScope = new Scope('class', parentScope ?? scope, r, def.name);
    classScope.inherited = parentScope;
    classScope.moduleName = def.module;
    // Puppet takes the caller's module from the scope's parent: for a class that inherits, its parent class's.
    classScope.callerModuleName = (parentScope ?? scope).moduleName;
    s.catalog.classes.push(def.name);
    s.catalog.tags.add('class');
    for (const t of nameTags(def.name)) s.catalog.tags.add(t);
    const tagParam = r.param('tag');
    for (const t of tagParam === undefined || tagParam === null ? [] : Array.isArray(tagParam) ? tagParam : [tagParam]) {
        if (typeof t === 'string') for (const x of nameTags(t)) s.catalog.tags.add(x);
    }
    s.classScopes.set(def.name, classScope);
    classScope.setLocal('title', def.name);
    classScope.setLocal('name', def.name);
    setModuleNames(classScope);
    s.ev.registerProgram(programOf(def.ast), def.file);
    bindClassParams(s, r, def.ast.params, given, classScope, def.name);
    // The class's own stage, else the stage of the class that declared it (Puppet's add_edge_to_stage).
    let stage = s.stageMain;
    const stageName = r.param('stage') ?? scope.resource?.param('stage');
    if (typeof stageName === 'string' && stageName !== 'main') {
        const st = s.catalog.find('Stage', stageName);
        if (!st) throw new RuntimeFailure(CatalogIssues.EVAL_STAGE_NOT_FOUND.message({ stage: stageName, ref: r.ref }));
        stage = st;
        if (r.param('stage') === undefined) r.params.set('stage', { value: stageName, origin: 'compiler' });
    }
    s.catalog.addEdge(stage, r);
    r.container = stage;
    try {
        s.ev.evalBlock(def.ast.body, classScope);
    } catch (e) {
        // return() and next() end a class body (also from a lambda in it), as Puppet's body closure does.
        if (!(e instanceof ReturnSignal || e instanceof NextSignal)) throw e;
    }
}

/** Binds class parameters: given values, data lookup, defaults; type checked. */
function bindClassParams(s: OpsState, r: CatalogResource, params: readonly Parameter[], given: Map<string, PuppetValue> | undefined, scope: Scope, name: string): void {
    // every problem is listed, the unknown names first (as Puppet's parameter validation does)
    const problems: string[] = [];
    for (const k of given?.keys() ?? []) {
        if (!METAPARAMS.has(k) && !params.some(p => p.name === k)) problems.push(CatalogIssues.EVAL_NO_PARAMETER_NAMED.message({ name: k }));
    }
    for (const p of params) {
        // An explicit undef counts as given (no error) but still lets data and the default supply a value.
        const givenUndef = given?.has(p.name) === true && given.get(p.name) === null;
        let v: PuppetValue | undefined = givenUndef ? undefined : given?.get(p.name);
        let origin: ValueOrigin = 'declared';
        let binding: DataBindingOrigin | undefined;
        if (v === undefined) { ({ value: v, origin: binding } = lookupParam(s, `${name}::${p.name}`, scope)); origin = 'binding'; }
        if ((v === undefined || (v === null && p.value)) && p.value) {
            v = storedDefault(s, s.ev.evaluate(p.value, scope), p);
            origin = 'parameterDefault';
        }
        const type = p.type ? s.ev.evalType(p.type, scope) : undefined;
        if (v === undefined) {
            if (!givenUndef) { problems.push(CatalogIssues.EVAL_EXPECTS_VALUE.message({ name: p.name })); continue; }
            v = null;
        }
        if (type && !isInstance(type, v)) problems.push(...formatMismatches(`parameter '${p.name}'`, describeMismatch(type, v)));
        scope.setLocal(p.name, v);
        if (v !== null) {
            r.params.set(p.name, {
                value: v, origin, where: s.ev.where(p),
                ...(origin === 'binding' ? { key: `${name}::${p.name}`, ...(binding ? { binding } : {}) } : {})
            });
        }
    }
    if (problems.length) throw new RuntimeFailure(CatalogIssues.EVAL_PARAMETER_PROBLEMS.message({ ref: r.ref, problems }));
}

/** The looked-up value and, for provenance, the Hiera level or binding that supplied it. */
function lookupParam(s: OpsState, key: string, scope: Scope): { value: PuppetValue | undefined; origin?: DataBindingOrigin } {
    // Puppet looks a parameter up from the class's own scope (node scope and the class's parents visible).
    const res = s.rt.lookup(key, {}, scope);
    return res.found ? { value: res.value, ...(res.origin ? { origin: res.origin } : {}) } : { value: undefined };
}
