import type {
    AttributeOperation, ClassResource, CollectExpression, Expression, NodeDefinition, Parameter, RelationshipExpression, ResourceExpression
} from '../../generated/langium/ast.js';
import {
    capitalize, describeMismatch, formatMismatches, isInstance, PAnyType, PClassType, PResourceType
} from '../types/index.js';
import { formatValue, hashGet, PDefault, PRegexp, PSensitive, puppetEquals, type PuppetValue } from '../values/index.js';
import type { Compiler } from './compiler.js';
import { collectFromStore } from './store-access.js';
import { boundResourceParameter } from './bound-catalog.js';
import { coreType, METAPARAMS, RELATIONSHIP_PARAMS } from './core-types.js';
import { CompileError, EvalIssue, PuppetFailure, RuntimeFailure, whereSuffix, type Where } from './errors.js';
import { isTruthy } from './evaluator/operators.js';
import type { Definition } from './loader.js';
import { CatalogResource, resourceKey, type ValueOrigin } from './resource.js';
import { programOf } from './evaluator/ast-util.js';
import { OverrideFailure, OverrideRules, type Source } from './override-rules.js';
import { Scope } from './scope.js';

type Mode = 'real' | 'virtual' | 'exported';

interface Attr {
    readonly name: string;
    readonly value: PuppetValue;
    readonly plus: boolean;
    readonly where: Where;
}

interface Collector {
    readonly type: string;
    readonly query: Expression | undefined;
    readonly scope: Scope;
    readonly overrides: Attr[];
    readonly collected: CatalogResource[];
    readonly exported: boolean;
    readonly where: Where;
    /** Exported collectors: other nodes' resources are read from the store once. */
    fromStore?: boolean;
}

interface Relationship {
    readonly left: Operand[];
    readonly right: Operand[];
    readonly op: string;
    readonly where: Where;
}

type Operand = { readonly ref: string; readonly type: string; readonly title: string } | { readonly collector: Collector };

interface Override {
    readonly attrs: Attr[];
    readonly scope: Scope;
    readonly where: Where;
    readonly fromCollector: boolean;
}

const VALID_TAG = /^[\p{L}\p{N}_][\p{L}\p{N}_:.-]*$/u;

/** `a::b` -> tags a::b, a, b. */
function nameTags(name: string): string[] {
    const n = name.toLowerCase();
    const segs = n.split('::');
    return segs.length > 1 ? [n, ...segs] : [n];
}

function classTitle(name: string): string {
    return name === 'main' ? 'main' : capitalize(name);
}

/**
 * The catalog side of evaluation: resource, class, define and node declarations, defaults,
 * overrides, collectors, relationships, and the lazy generator passes.
 */
export class CatalogOps {
    private readonly collectors: Collector[] = [];
    private readonly relationships: Relationship[] = [];
    private readonly pendingOverrides = new Map<string, Override[]>();
    private readonly overrideRules = new OverrideRules();
    private readonly realizeRequests: Array<{ refs: Array<{ type: string; title: string }>; done: boolean }> = [];
    private stageMain!: CatalogResource;
    private mainClass!: CatalogResource;

    constructor(private readonly c: Compiler) {}

    private get catalog() {
        return this.c.catalog;
    }

    /** Stage[main], Class[Settings] and Class[main], as every catalog starts. */
    boot(top: Scope): void {
        const stage = new CatalogResource('Stage', 'main', 'stage', undefined);
        stage.tags.add('stage');
        stage.params.set('name', { value: 'main', origin: 'compiler' });
        this.catalog.add(stage);
        this.stageMain = stage;
        const settings = new CatalogResource('Class', 'Settings', 'class', undefined);
        settings.tags.add('class').add('settings');
        this.catalog.add(settings);
        this.catalog.addEdge(stage, settings);
        this.catalog.classes.push('settings');
        this.catalog.tags.add('settings');
        const main = top.resource as CatalogResource;
        main.tags.add('class');
        main.params.set('name', { value: 'main', origin: 'compiler' });
        this.catalog.add(main);
        this.catalog.addEdge(stage, main);
        this.mainClass = main;
        this.c.classScopes.set('', top);
    }

    // ---------------------------------------------------------------- resources

    /** The attribute operations' values; `duplicates` keeps a name given twice (an override reports it itself). */
    private attrs(ops: readonly AttributeOperation[], scope: Scope, stmt: Expression, duplicates = false): Attr[] {
        const out: Attr[] = [];
        const seen = new Set<string>();
        const add = (a: Attr): void => {
            if (seen.has(a.name) && !duplicates) throw new EvalIssue('EVAL_DUPLICATE_ATTRIBUTE', `The attribute '${a.name}' has already been set`, this.c.evaluator.where(stmt));
            seen.add(a.name);
            out.push(a);
        };
        for (const op of ops) {
            if (op.$type === 'AttributeAssign') {
                add({ name: op.name, value: this.c.evaluator.evaluate(op.value, scope), plus: op.operator === '+>', where: this.c.evaluator.where(op) });
            } else {
                const h = this.c.evaluator.evaluate(op.value, scope);
                if (!(h instanceof Map)) throw new RuntimeFailure(`The value of '* =>' must be a Hash`);
                for (const [k, v] of h) add({ name: String(k), value: v, plus: false, where: this.c.evaluator.where(op) });
            }
        }
        return out;
    }

    /** `type { title: ... }`, `Type { defaults }`, `Type[title] { overrides }`. */
    resourceExpression(e: ResourceExpression, scope: Scope, mode: Mode): PuppetValue {
        if (e.bodies.length === 0) return this.untitled(e, scope);
        const typeValue = this.c.evaluator.evaluate(e.typeExpr, scope);
        const typeName = typeValue instanceof PResourceType && typeValue.typeName !== null ? typeValue.typeName
            : typeValue instanceof PClassType ? 'class' : typeof typeValue === 'string' ? typeValue : formatValue(typeValue);
        const where = this.c.evaluator.where(e.$container?.$type === 'VirtualResource' ? e.$container : e);
        const shared = this.attrs(e.ops, scope, e);
        let defaults: Attr[] = [];
        const bodies = e.bodies.map(b => ({ body: b, isDefault: b.title.$type === 'DefaultLiteral' }));
        for (const b of bodies) if (b.isDefault) defaults = this.attrs(b.body.ops, scope, e);
        const refs: PuppetValue[] = [];
        for (const b of bodies) {
            if (b.isDefault) continue;
            const titleValue = this.c.evaluator.evaluate(b.body.title, scope);
            const titles = Array.isArray(titleValue) ? titleValue.flat(Infinity as 1) : [titleValue];
            const own = this.attrs(b.body.ops, scope, e);
            const merged = [...shared, ...own];
            for (const d of defaults) if (!merged.some(a => a.name === d.name)) merged.push(d);
            for (const t of titles) {
                const r = this.declare(typeName, t, merged, scope, mode, { file: where.file, line: where.line });
                if (r) refs.push(refOf(r));
            }
        }
        return refs;
    }

    private untitled(e: ResourceExpression, scope: Scope): PuppetValue {
        const te = e.typeExpr;
        if (te.$type === 'TypeReference') {
            const attrs = this.attrs(e.ops, scope, e);
            const type = te.value.replace(/^::/, '').toLowerCase();
            let d = scope.defaults.get(type);
            if (!d) { d = new Map(); scope.defaults.set(type, d); }
            for (const a of attrs) d.set(a.name, { value: a.value, plus: a.plus, where: a.where });
            return null;
        }
        if (te.$type === 'QualifiedName') {
            // A statement call with a hash argument, e.g. `notice { a => 1 }`.
            const h = new Map<PuppetValue, PuppetValue>();
            for (const a of this.attrs(e.ops, scope, e)) h.set(a.name, a.value);
            return this.c.evaluator.invoke(te.value, [h], undefined, scope, e);
        }
        const target = this.c.evaluator.evaluate(te, scope);
        const attrs = this.attrs(e.ops, scope, e, true);
        const where = this.c.evaluator.where(e);
        const line = { file: where.file, line: where.line };
        for (const t of Array.isArray(target) ? target.flat(Infinity as 1) : [target]) {
            // Only resources can be overridden, not classes (Puppet's ILLEGAL_OVERRIDDEN_TYPE).
            if (!(t instanceof PResourceType) || t.typeName === null || t.typeName.toLowerCase() === 'class') {
                throw new EvalIssue('EVAL_ILLEGAL_OVERRIDDEN_TYPE', `Resource Override can only operate on resources, got: ${valueLabel(t)}`, where);
            }
        }
        for (const ref of flattenRefs(target)) {
            // The override resource Puppet creates refuses a parameter given twice.
            const dup = attrs.find((a, i) => attrs.findIndex(b => b.name === a.name) !== i);
            if (dup) throw new PuppetFailure(`Duplicate parameter '${dup.name}' for on ${displayRef(ref.type, ref.title)} (file: ${line.file}, line: ${line.line})`, line, 'Puppet::Error', 'Puppet::ParseError');
            this.addOverride(ref.type, ref.title, { attrs, scope, where: line, fromCollector: false });
        }
        return null;
    }

    /** Declares one resource; classes go through the class path. */
    declare(typeName: string, titleValue: PuppetValue, attrs: Attr[], scope: Scope, mode: Mode, where: Where): CatalogResource | undefined {
        const lower = typeName.replace(/^::/, '').toLowerCase();
        if (lower === 'class') {
            const params = new Map<string, PuppetValue>(attrs.map(a => [a.name, a.value]));
            return this.declareClass(formatValue(titleValue), scope, params, where);
        }
        const title = titleValue instanceof PResourceType && titleValue.title !== null ? titleValue.title : formatValue(titleValue);
        const core = coreType(lower);
        let define: Definition<import('../../generated/langium/ast.js').DefineDefinition> | undefined;
        if (!core) {
            define = this.c.loader.findDefine(lower);
            if (!define) throw new RuntimeFailure(`Unknown resource type: '${lower}'`);
        }
        const type = capitalize(define ? define.name : lower);
        const existing = this.catalog.find(type, title);
        if (existing) {
            throw new RuntimeFailure(`Duplicate declaration: ${type}[${title}] is already declared at (file: ${existing.where?.file}, line: ${existing.where?.line}); cannot redeclare (file: ${where.file}, line: ${where.line})`);
        }
        const r = new CatalogResource(type, title, define ? 'define' : 'builtin', where);
        r.scope = scope;
        r.virtual = mode !== 'real';
        r.exported = mode === 'exported';
        if (mode === 'exported' && !this.c.options.store) this.c.log('warning', 'You cannot collect exported resources without storeconfigs being set; the export is ignored', where);
        const source = this.overrideRules.sourceOf(scope);
        for (const a of attrs) this.setParam(r, a, 'declared', source);
        const defaults = scope.defaultsFor(lower);
        for (const [name, d] of defaults) {
            if (!r.params.has(name)) r.params.set(name, { value: d.value, where: d.where, origin: 'resourceDefault', source });
        }
        // A namevar (or a define's name) equal to the title is not kept as a parameter, as in Puppet.
        const namevar = core ? core.namevar : 'name';
        if (r.param(namevar) === title) r.params.delete(namevar);
        this.tagResource(r, scope, [...nameTags(lower)]);
        if (VALID_TAG.test(title)) r.tags.add(title.toLowerCase());
        // Isomorphic types (all core types but exec and tidy): the namevar is the resource's identity.
        if (core && lower !== 'exec' && lower !== 'tidy') {
            const nv = r.param(core.namevar);
            if (typeof nv === 'string' && nv !== title) {
                const other = this.catalog.find(type, nv);
                if (other) {
                    throw new RuntimeFailure(`Duplicate declaration: ${type}[${nv}] is already declared at (file: ${other.where?.file}, line: ${other.where?.line}); cannot redeclare (file: ${where.file}, line: ${where.line})`);
                }
                this.catalog.aliases.set(resourceKey(type, nv), r);
            }
        }
        // The alias metaparameter makes the resource findable under other titles.
        const alias = r.param('alias');
        for (const a of alias === undefined || alias === null ? [] : Array.isArray(alias) ? alias : [alias]) {
            if (typeof a === 'string') this.catalog.aliases.set(resourceKey(type, a), r);
        }
        if (define) this.validateDefineParams(r, define, attrs);
        const container = scope.resource ?? this.mainClass;
        this.catalog.add(r);
        // Stages are not contained in anything.
        if (lower !== 'stage') {
            r.container = container;
            this.catalog.addEdge(container, r);
        }
        this.applyPendingOverrides(r);
        return r;
    }

    private tagResource(r: CatalogResource, scope: Scope, own: string[]): void {
        for (const t of own) r.tags.add(t);
        const container = scope.resource;
        if (container) for (const t of container.tags) r.tags.add(t);
        const tagParam = r.param('tag');
        for (const t of tagParam === undefined ? [] : Array.isArray(tagParam) ? tagParam : [tagParam]) {
            if (typeof t === 'string') for (const x of nameTags(t)) r.tags.add(x);
        }
    }

    private setParam(r: CatalogResource, a: Attr, origin: 'declared' | 'override', source: Source): void {
        if (a.name === 'tag' && origin === 'override') {
            for (const t of Array.isArray(a.value) ? a.value : [a.value]) if (typeof t === 'string') for (const x of nameTags(t)) r.tags.add(x);
        }
        if (a.plus) {
            const prev = r.param(a.name);
            if (prev !== undefined && prev !== null) {
                const add = Array.isArray(a.value) ? a.value : [a.value];
                r.params.set(a.name, { value: [...(Array.isArray(prev) ? prev : [prev]), ...add], where: a.where, origin, source });
                return;
            }
        }
        r.params.set(a.name, { value: a.value, where: a.where, origin, source });
    }

    private validateDefineParams(r: CatalogResource, def: Definition<import('../../generated/langium/ast.js').DefineDefinition>, attrs: Attr[]): void {
        const params = def.ast.params;
        const problems: string[] = [];
        for (const p of params) {
            // A parameter without a default needs a value (even an explicit undef) when the instance is declared.
            if (p.value || attrs.some(a => a.name === p.name) || r.params.has(p.name)) continue;
            problems.push(`expects a value for parameter '${p.name}'`);
        }
        for (const a of attrs) {
            if (METAPARAMS.has(a.name) || a.name === 'name') continue;
            const p = params.find(x => x.name === a.name);
            if (!p) {
                throw new RuntimeFailure(`${r.ref}: has no parameter named '${a.name}'`, { file: r.where?.file ?? '', line: r.where?.line ?? 0 });
            }
            if (p.type && a.value !== null) {
                const t = this.c.evaluator.evalType(p.type, this.c.topScope);
                if (!isInstance(t, a.value)) problems.push(...formatMismatches(`parameter '${p.name}'`, describeMismatch(t, a.value)));
            }
        }
        if (problems.length) {
            throw new RuntimeFailure(problems.length === 1 ? `${r.ref}: ${problems[0]}` : `${r.ref}:\n  ${problems.join('\n  ')}`,
                { file: r.where?.file ?? '', line: r.where?.line ?? 0 });
        }
    }

    // ---------------------------------------------------------------- classes

    classResource(e: ClassResource, scope: Scope): PuppetValue {
        const refs: PuppetValue[] = [];
        const where = this.c.evaluator.where(e);
        for (const b of e.bodies) {
            const titleValue = this.c.evaluator.evaluate(b.title, scope);
            const attrs = [...this.attrs(e.ops, scope, e), ...this.attrs(b.ops, scope, e)];
            const titles = Array.isArray(titleValue) ? titleValue : [titleValue];
            for (const t of titles) {
                const params = new Map<string, PuppetValue>(attrs.map(a => [a.name, a.value]));
                const r = this.declareClass(formatValue(t), scope, params, where);
                refs.push(refOf(r));
            }
        }
        return refs;
    }

    private declareClass(name: string, scope: Scope, params: Map<string, PuppetValue>, where: Where): CatalogResource {
        const n = name.replace(/^::/, '').toLowerCase();
        const existing = this.catalog.find('Class', n);
        if (existing) {
            const at = existing.where ? ` at (file: ${existing.where.file}, line: ${existing.where.line})` : '';
            throw new RuntimeFailure(`Duplicate declaration: Class[${classTitle(n)}] is already declared${at}; cannot redeclare (file: ${where.file}, line: ${where.line})`);
        }
        return this.evaluateClass(n, scope, params, 'resource', where);
    }


    /** A classifier (ENC) class: added to the catalog now, evaluated lazily with the defines. */
    declareLazyClass(name: string, scope: Scope): void {
        const n = name.replace(/^::/, '').toLowerCase();
        if (!this.catalog.find('Class', n)) this.ensureInCatalog(n, scope, undefined, undefined);
    }

    /** include / require / contain of one class name; returns the Class resource. */
    includeClass(name: string, scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource {
        const n = name.replace(/^::/, '').toLowerCase();
        const existing = this.catalog.find('Class', n);
        if (existing) this.evaluateClassResource(existing);
        const r = existing ?? this.evaluateClass(n, scope, undefined, how, where);
        if (how === 'contain') {
            const container = scope.resource;
            if (container && container !== r && !this.catalog.edges.some(x => x.source === container && x.target === r)) this.catalog.addEdge(container, r);
        }
        if (how === 'require' && scope.resource) {
            const holder = scope.resource;
            const prev = holder.param('require');
            const ref = new PClassType(n);
            holder.params.set('require', { value: prev === undefined || prev === null ? [ref] : [...(Array.isArray(prev) ? prev : [prev]), ref], origin: 'relationship', where });
        }
        return r;
    }

    /** Adds a class (and, first, its not yet added parents) to the catalog, then evaluates it: Puppet's ensure_in_catalog + evaluate. */
    private evaluateClass(n: string, scope: Scope, given: Map<string, PuppetValue> | undefined, how: string, where: Where | undefined): CatalogResource {
        const r = this.ensureInCatalog(n, scope, given, how === 'resource' ? where : undefined);
        this.evaluateClassResource(r);
        return r;
    }

    private readonly pendingClasses = new Map<CatalogResource, { def: Definition<import('../../generated/langium/ast.js').ClassDefinition>; given?: Map<string, PuppetValue>; scope: Scope }>();

    private ensureInCatalog(n: string, scope: Scope, given: Map<string, PuppetValue> | undefined, declaredAt: Where | undefined): CatalogResource {
        const def = this.c.loader.findClass(n);
        if (!def) throw new RuntimeFailure(`Could not find class ::${n} for ${this.c.nodeName}`);
        if (def.ast.parent) {
            const parentName = def.ast.parent.replace(/^::/, '').toLowerCase();
            if (!this.catalog.find('Class', parentName)) {
                if (!this.c.loader.findClass(parentName)) {
                    const at = this.c.evaluator.where(def.ast);
                    const where = { file: def.file, line: at.line };
                    throw new PuppetFailure(`Could not find parent resource type '::${parentName}' of type hostclass in ${this.c.env.name}${whereSuffix(where)}`,
                        where, 'Puppet::Error', 'Puppet::ParseError');
                }
                this.ensureInCatalog(parentName, scope, undefined, undefined);
            }
        }
        const r = new CatalogResource('Class', classTitle(def.name), 'class', declaredAt ? { file: declaredAt.file, line: declaredAt.line } : undefined);
        r.tags.add('class');
        for (const t of nameTags(def.name)) r.tags.add(t);
        if (scope.resource) for (const t of scope.resource.tags) r.tags.add(t);
        r.scope = scope;
        if (given) for (const [k, v] of given) if (METAPARAMS.has(k)) r.params.set(k, { value: v, origin: 'declared', where: declaredAt });
        if (given?.has('tag')) this.tagResource(r, scope, []);
        this.catalog.add(r);
        this.pendingClasses.set(r, { def, given, scope });
        return r;
    }

    private evaluateClassResource(r: CatalogResource): void {
        const pending = this.pendingClasses.get(r);
        if (!pending) return;
        this.pendingClasses.delete(r);
        const { def, given, scope } = pending;
        let parentScope: Scope | null = null;
        if (def.ast.parent) {
            const parentName = def.ast.parent.replace(/^::/, '').toLowerCase();
            const parent = this.catalog.find('Class', parentName);
            if (parent) this.evaluateClassResource(parent);
            parentScope = this.c.classScopes.get(parentName) ?? null;
        }
        const classScope = new Scope('class', parentScope ?? scope, r, def.name);
        classScope.inherited = parentScope;
        classScope.moduleName = def.module;
        classScope.callerModuleName = scope.moduleName;
        this.catalog.classes.push(def.name);
        this.catalog.tags.add('class');
        for (const t of nameTags(def.name)) this.catalog.tags.add(t);
        const tagParam = r.param('tag');
        for (const t of tagParam === undefined || tagParam === null ? [] : Array.isArray(tagParam) ? tagParam : [tagParam]) {
            if (typeof t === 'string') for (const x of nameTags(t)) this.catalog.tags.add(x);
        }
        this.c.classScopes.set(def.name, classScope);
        classScope.setLocal('title', def.name);
        classScope.setLocal('name', def.name);
        this.setModuleNames(classScope);
        this.c.evaluator.registerProgram(programOf(def.ast), def.file);
        this.bindParams(r, def.ast.params, given, classScope, def.name, true);
        // The class's own stage, else the stage of the class that declared it (Puppet's add_edge_to_stage).
        let stage = this.stageMain;
        const stageName = r.param('stage') ?? scope.resource?.param('stage');
        if (typeof stageName === 'string' && stageName !== 'main') {
            const s = this.catalog.find('Stage', stageName);
            if (!s) throw new RuntimeFailure(`Could not find stage ${stageName} specified by ${r.ref}`);
            stage = s;
            if (r.param('stage') === undefined) r.params.set('stage', { value: stageName, origin: 'compiler' });
        }
        this.catalog.addEdge(stage, r);
        r.container = stage;
        this.c.evaluator.evalBlock(def.ast.body, classScope);
    }

    /** $module_name and $caller_module_name of a class or define body. */
    private setModuleNames(scope: Scope): void {
        scope.setLocal('module_name', scope.moduleName);
        scope.setLocal('caller_module_name', scope.callerModuleName);
    }

    /** Binds class or define parameters: given values, data lookup (classes), defaults; type checked. */
    private bindParams(r: CatalogResource, params: readonly Parameter[], given: Map<string, PuppetValue> | undefined, scope: Scope, name: string, isClass: boolean): void {
        if (given && isClass) {
            for (const k of given.keys()) {
                if (!METAPARAMS.has(k) && !params.some(p => p.name === k)) throw new RuntimeFailure(`${r.ref}: has no parameter named '${k}'`);
            }
        }
        const problems: string[] = [];
        for (const p of params) {
            // An explicit undef counts as given (no error) but still lets data and the default supply a value.
            const givenUndef = given?.has(p.name) === true && given.get(p.name) === null;
            let v: PuppetValue | undefined = givenUndef ? undefined : given?.get(p.name);
            let origin: ValueOrigin = 'declared';
            if (v === undefined && isClass) { v = this.lookupParam(`${name}::${p.name}`); origin = 'binding'; }
            if ((v === undefined || (v === null && p.value)) && p.value) {
                v = this.c.evaluator.evaluate(p.value, scope);
                origin = 'parameterDefault';
            }
            const type = p.type ? this.c.evaluator.evalType(p.type, scope) : undefined;
            if (v === undefined) {
                if (!givenUndef) { problems.push(`expects a value for parameter '${p.name}'`); continue; }
                v = null;
            }
            if (type && !isInstance(type, v)) problems.push(...formatMismatches(`parameter '${p.name}'`, describeMismatch(type, v)));
            scope.setLocal(p.name, v);
            if (v !== null) r.params.set(p.name, { value: v, origin, where: this.c.evaluator.where(p), key: origin === 'binding' ? `${name}::${p.name}` : undefined });
        }
        if (problems.length) throw new RuntimeFailure(problems.length === 1 ? `${r.ref}: ${problems[0]}` : `${r.ref}:\n  ${problems.join('\n  ')}`);
    }

    private lookupParam(key: string): PuppetValue | undefined {
        const res = this.c.lookup(key, {});
        return res.found ? res.value : undefined;
    }

    // ---------------------------------------------------------------- defines

    private evaluateDefine(r: CatalogResource): void {
        r.evaluated = true;
        const def = this.c.loader.findDefine(r.type);
        if (!def) return;
        const declaring = r.scope ?? this.c.topScope;
        const scope = new Scope('define', declaring, r, def.name);
        scope.moduleName = def.module;
        scope.callerModuleName = declaring.moduleName;
        scope.setLocal('title', r.title);
        const nameParam = r.param('name');
        scope.setLocal('name', nameParam === undefined || nameParam === null ? r.title : nameParam);
        this.setModuleNames(scope);
        this.c.evaluator.registerProgram(programOf(def.ast), def.file);
        const given = new Map<string, PuppetValue>();
        for (const [k, v] of r.params) if (!METAPARAMS.has(k) && k !== 'name') given.set(k, v.value);
        try {
            this.bindDefineParams(r, def.ast.params, given, scope);
        } catch (e) {
            if (e instanceof RuntimeFailure) throw this.c.evaluator.locate(new RuntimeFailure(e.message, e.where ?? r.where), def.ast, 'Resource Statement');
            throw e;
        }
        try {
            this.c.evaluator.evalBlock(def.ast.body, scope);
        } catch (e) {
            throw this.wrapDefineError(e, r);
        }
    }

    /**
     * An evaluation error in a define body surfaces, as in Puppet, wrapped once more as a
     * failure of the instance's resource statement, located at the instance (file and line).
     */
    private wrapDefineError(e: unknown, r: CatalogResource): unknown {
        if (!r.where) return e;
        const wrapped = e instanceof CompileError && e.report.rubyClass === 'Puppet::PreformattedError' ? e.report.message
            : e instanceof OverrideFailure ? e.message : undefined;
        if (wrapped === undefined) return e;
        const basic = `Evaluation Error: Error while evaluating a Resource Statement, ${wrapped}`;
        return new CompileError('EVAL_RUNTIME', {
            message: basic + whereSuffix({ file: r.where.file, line: r.where.line }), file: r.where.file, line: r.where.line,
            issueCode: 'RUNTIME_ERROR', basic, rubyClass: 'Puppet::PreformattedError', log: { message: basic, file: r.where.file, line: r.where.line }
        });
    }

    private bindDefineParams(r: CatalogResource, params: readonly Parameter[], given: Map<string, PuppetValue>, scope: Scope): void {
        // A collector override may have added a parameter the define does not have.
        for (const k of given.keys()) {
            if (!params.some(p => p.name === k)) throw new RuntimeFailure(`${r.ref}: has no parameter named '${k}'`, r.where);
        }
        const problems: string[] = [];
        for (const p of params) {
            let v = given.get(p.name);
            if (v === undefined) {
                // ARM-8 `bind parameters Type[title]` / `Type` supply what the declaration leaves out.
                const bound = boundResourceParameter(this.c, r, p.name);
                if (bound) { v = bound.value; r.params.set(p.name, { value: v, origin: 'binding', key: bound.key }); }
            }
            if ((v === undefined || v === null) && p.value) {
                v = this.c.evaluator.evaluate(p.value, scope);
                if (v !== null) r.params.set(p.name, { value: v, origin: 'parameterDefault', where: this.c.evaluator.where(p) });
            }
            const type = p.type ? this.c.evaluator.evalType(p.type, scope) : undefined;
            if (v === undefined) {
                if (!given.has(p.name)) { problems.push(`expects a value for parameter '${p.name}'`); continue; }
                v = null;
            }
            if (type && !isInstance(type, v)) problems.push(...formatMismatches(`parameter '${p.name}'`, describeMismatch(type, v)));
            scope.setLocal(p.name, v);
        }
        if (problems.length) throw new RuntimeFailure(problems.length === 1 ? `${r.ref}: ${problems[0]}` : `${r.ref}:\n  ${problems.join('\n  ')}`);
    }

    // ---------------------------------------------------------------- nodes

    /** Matches and evaluates the node definition; returns its scope (undefined without node definitions). */
    evaluateNode(top: Scope): Scope | undefined {
        const nodes = this.c.loader.nodes;
        if (nodes.length === 0) return undefined;
        const name = this.c.nodeName.toLowerCase();
        const names = [name];
        if (this.c.options.settings?.get('strict_hostname_checking') === 'false') {
            const segs = name.split('.');
            for (let i = segs.length - 1; i >= 1; i--) names.push(segs.slice(0, i).join('.'));
        }
        let match: { def: Definition<NodeDefinition>; title: string; groups?: (string | null)[] } | undefined;
        for (const n of names) {
            for (const def of nodes) {
                for (const h of def.ast.hosts) {
                    if (h.$type !== 'RegexLiteral' && h.$type !== 'DefaultLiteral' && this.hostName(h, top).toLowerCase() === n) { match = { def, title: n }; break; }
                }
                if (match) break;
            }
            if (match) break;
            for (const def of nodes) {
                for (const h of def.ast.hosts) {
                    if (h.$type === 'RegexLiteral') {
                        const m = new PRegexp(h.value).regexp.exec(n);
                        if (m) {
                            const title = '__node_regexp__' + h.value.toLowerCase().replace(/[^-\w:.]/g, '').replace(/^\.+/, '');
                            match = { def, title, groups: [...m].map(g => g ?? null) };
                            break;
                        }
                    }
                }
                if (match) break;
            }
            if (match) break;
        }
        if (!match) {
            for (const def of nodes) if (def.ast.hosts.some(h => h.$type === 'DefaultLiteral')) { match = { def, title: 'default' }; break; }
        }
        if (!match) {
            throw new PuppetFailure(`Could not find node statement with name 'default' or '${names.join(', ')}'`);
        }
        const r = new CatalogResource('Node', match.title, 'node', undefined);
        r.tags.add('node');
        if (VALID_TAG.test(match.title)) r.tags.add(match.title);
        for (const t of this.mainClass.tags) r.tags.add(t);
        this.catalog.add(r);
        this.catalog.addEdge(this.mainClass, r);
        this.catalog.classes.push(match.title);
        this.catalog.tags.add('node');
        if (VALID_TAG.test(match.title)) this.catalog.tags.add(match.title);
        r.container = this.mainClass;
        const scope = new Scope('node', top, r, '');
        scope.setLocal('title', match.title);
        scope.setLocal('name', match.title);
        if (match.groups) scope.setMatch(match.groups);
        this.c.evaluator.registerProgram(programOf(match.def.ast), match.def.file);
        this.c.evaluator.evalBlock(match.def.ast.body, scope);
        return scope;
    }

    private hostName(h: Expression, scope: Scope): string {
        return formatValue(this.c.evaluator.evaluate(h, scope));
    }

    // ---------------------------------------------------------------- collectors, overrides, realize

    collect(e: CollectExpression, scope: Scope): PuppetValue {
        const collector = this.makeCollector(e, scope);
        return collector === undefined ? null : null;
    }

    private makeCollector(e: CollectExpression, scope: Scope): Collector {
        const te = e.typeExpr;
        const typeName = te.$type === 'TypeReference' ? te.value : formatValue(this.c.evaluator.evaluate(te, scope));
        const exported = e.query.kind === '<<|';
        const where = this.c.evaluator.where(e);
        if (!this.c.isResourceType(typeName)) throw new RuntimeFailure(`Resource type ${typeName.toLowerCase()} doesn't exist`);
        if (exported && !this.c.options.store) this.c.log('warning', 'You cannot collect exported resources without storeconfigs being set; the collection will be ignored', where);
        const collector: Collector = {
            type: capitalize(typeName.toLowerCase()), query: e.query.query, scope, exported, collected: [], where,
            overrides: e.ops.length ? this.attrs(e.ops, scope, e) : []
        };
        this.collectors.push(collector);
        return collector;
    }

    private queryMatches(q: Expression | undefined, r: CatalogResource, scope: Scope): boolean {
        if (!q) return true;
        switch (q.$type) {
            case 'ParenExpression': return this.queryMatches(q.expr, r, scope);
            case 'LogicalExpression':
                return q.operator === 'and' ? this.queryMatches(q.left, r, scope) && this.queryMatches(q.right, r, scope)
                    : this.queryMatches(q.left, r, scope) || this.queryMatches(q.right, r, scope);
            case 'BinaryExpression': {
                const attr = q.left.$type === 'QualifiedName' || q.left.$type === 'WordLiteral' ? q.left.value : formatValue(this.c.evaluator.evaluate(q.left, scope));
                const value = this.c.evaluator.evaluate(q.right, scope);
                let eq: boolean;
                if (attr === 'tag') eq = typeof value === 'string' && r.tags.has(value.toLowerCase());
                else if (attr === 'title') eq = puppetEquals(r.title, value);
                else {
                    const pv = r.param(attr);
                    eq = pv === undefined ? false : Array.isArray(pv) ? pv.some(x => puppetEquals(x, value)) : puppetEquals(pv, value);
                }
                return q.operator === '!=' ? !eq : eq;
            }
            default: return isTruthy(this.c.evaluator.evaluate(q, scope));
        }
    }

    private evaluateCollections(): boolean {
        let found = false;
        for (const c of [...this.collectors]) {
            if (c.exported && !this.c.options.store) continue;
            // With a store (storeconfigs), `<<| |>>` takes this compile's own exports and other nodes' stored ones.
            const remote = c.exported && !c.fromStore ? collectFromStore(this.c, c.type, c.query, c.scope, c.where) : [];
            if (c.exported) c.fromStore = true;
            for (const r of [...remote, ...this.catalog.resources.values()]) {
                if (r.type !== c.type || c.collected.includes(r)) continue;
                if (!remote.includes(r) && (r.exported !== c.exported || !this.queryMatches(c.query, r, c.scope))) continue;
                r.virtual = false;
                c.collected.push(r);
                found = true;
                if (c.overrides.length) {
                    // Puppet marks the collector's code as allowed to override anything, from now on.
                    this.overrideRules.sourceOf(c.scope).override = true;
                    this.applyOverride(r, { attrs: c.overrides, scope: c.scope, where: { file: '', line: 0 }, fromCollector: true });
                }
            }
        }
        for (const req of this.realizeRequests) {
            if (req.done) continue;
            const rs = req.refs.map(x => this.catalog.find(x.type, x.title));
            if (rs.every(r => r !== undefined)) {
                for (const r of rs) if (r && r.virtual) { r.virtual = false; found = true; }
                req.done = true;
            }
        }
        return found;
    }

    /** realize(): marks virtual resources real (now, or when they are declared later in the queue). */
    realize(refs: PuppetValue[]): void {
        const list = refs.flatMap(flattenRefs);
        const rs = list.map(x => this.catalog.find(x.type, x.title));
        if (rs.every(r => r !== undefined)) {
            for (const r of rs) if (r) r.virtual = false;
            return;
        }
        this.realizeRequests.push({ refs: list, done: false });
    }

    private addOverride(type: string, title: string, o: Override): void {
        const r = this.catalog.find(type, title);
        if (r) { this.applyOverride(r, o); return; }
        const key = resourceKey(type, title);
        const list = this.pendingOverrides.get(key) ?? [];
        list.push(o);
        this.pendingOverrides.set(key, list);
    }

    private applyPendingOverrides(r: CatalogResource): void {
        const key = resourceKey(r.type, r.title);
        const list = this.pendingOverrides.get(key);
        if (!list) return;
        this.pendingOverrides.delete(key);
        for (const o of list) this.applyOverride(r, o);
    }

    private applyOverride(r: CatalogResource, o: Override): void {
        this.overrideRules.checkMerge(r.scope, o.scope, o.where);
        const source = this.overrideRules.sourceOf(o.scope);
        for (const a of o.attrs) {
            let current = r.params.get(a.name);
            // A define's parameter defaults are set when its body runs, after the overrides that reach it.
            if (current?.origin === 'parameterDefault') { r.params.delete(a.name); current = undefined; }
            if (current && this.overrideRules.decide(r.ref, a.name, a.value, current, r.scope, o.scope, a.where) === 'ignore') continue;
            if (a.value === null && !a.plus) { r.params.delete(a.name); continue; }
            this.setParam(r, a, 'override', source);
        }
    }

    // ---------------------------------------------------------------- relationships

    relationship(e: RelationshipExpression, scope: Scope): PuppetValue {
        const left = this.operand(e.left, scope);
        const right = this.operand(e.right, scope);
        this.relationships.push({ left: left.ops, right: right.ops, op: e.operator, where: this.c.evaluator.where(e) });
        return right.value;
    }

    private operand(e: Expression, scope: Scope): { ops: Operand[]; value: PuppetValue } {
        if (e.$type === 'CollectExpression') {
            const c = this.makeCollector(e, scope);
            return { ops: [{ collector: c }], value: null };
        }
        const v = this.c.evaluator.evaluate(e, scope);
        return { ops: flattenRefs(v).map(x => ({ ref: `${x.type}[${x.title}]`, ...x })), value: v };
    }

    private expand(ops: Operand[], other: () => string): CatalogResource[] {
        const out: CatalogResource[] = [];
        for (const o of ops) {
            if ('collector' in o) { out.push(...o.collector.collected); continue; }
            const r = this.catalog.find(o.type, o.title);
            if (!r) throw new PuppetFailure(`Could not find resource '${displayRef(o.type, o.title)}' for relationship ${other()}`);
            out.push(r);
        }
        return out;
    }

    // ---------------------------------------------------------------- phases

    /** Collectors and define instances, pass after pass, until nothing new happens. */
    evaluateGenerators(): void {
        for (let guard = 0; guard < 10000; guard++) {
            const found = this.evaluateCollections();
            const pending = [...this.catalog.resources.values()]
                .filter(r => (r.kind === 'define' && !r.evaluated && !r.virtual) || this.pendingClasses.has(r));
            for (const r of pending) {
                if (r.kind === 'class') this.evaluateClassResource(r);
                else this.evaluateDefine(r);
            }
            if (!found && pending.length === 0) break;
        }
    }

    finish(): void {
        for (const [key, list] of this.pendingOverrides) {
            const o = list[0];
            const m = /^([^[]*)\[(.*)\]$/s.exec(key) as RegExpExecArray;
            void o;
            throw new PuppetFailure(`Could not find resource(s) ${displayRef(m[1], m[2])} for overriding`);
        }
        for (const rel of this.relationships) {
            const forward = rel.op === '->' || rel.op === '~>';
            const param = rel.op === '->' || rel.op === '<-' ? 'before' : 'notify';
            const srcOps = forward ? rel.left : rel.right;
            const tgtOps = forward ? rel.right : rel.left;
            // A missing source is reported "on" the first target, a missing target "from" the first source.
            const known = (ops: Operand[]): CatalogResource | undefined => {
                for (const o of ops) {
                    const r = 'collector' in o ? o.collector.collected[0] : this.catalog.find(o.type, o.title);
                    if (r) return r;
                }
                return undefined;
            };
            const sources = this.expand(srcOps, () => `on '${known(tgtOps)?.ref ?? ''}'`);
            const firstSource = sources[0];
            const targets = this.expand(tgtOps, () => firstSource ? `from '${firstSource.ref}'` : '');
            for (const s of sources) {
                for (const t of targets) {
                    const prev = s.param(param);
                    const ref = refOf(t);
                    const list = prev === undefined || prev === null ? [] : Array.isArray(prev) ? prev : [prev];
                    s.params.set(param, { value: [...list, ref], origin: 'relationship', where: rel.where });
                }
            }
        }
        const unrealized = this.realizeRequests.filter(r => !r.done).flatMap(r => r.refs.filter(x => !this.catalog.find(x.type, x.title)));
        if (unrealized.length) {
            throw new PuppetFailure(`Failed to realize virtual resources ${unrealized.map(x => displayRef(x.type, x.title)).join(', ')}`);
        }
        this.validateRelationshipTargets();
        for (const r of this.catalog.resources.values()) {
            if (r.kind !== 'builtin' || (r.virtual && !r.exported)) continue;
            const core = coreType(r.type);
            if (!core) continue;
            for (const name of r.params.keys()) {
                if (core.attributes.has(name) || METAPARAMS.has(name)) continue;
                const loc = r.where ? whereSuffix({ file: r.where.file, line: r.where.line }) : '';
                throw new PuppetFailure(`no parameter named '${name}'${loc} on ${r.ref}${loc}`, r.where, 'Puppet::Error', 'Puppet::ParseError');
            }
        }
        for (const [key, r] of [...this.catalog.resources]) {
            if (r.virtual && !r.exported) this.catalog.resources.delete(key);
        }
        this.inheritMetaparams();
    }

    /**
     * Puppet's add_resource_metaparams: walking containment from Class[main], a container's
     * non-relationship metaparameters (noop, schedule, audit, loglevel, alias, tag, stage) reach
     * the resources it contains unless they set their own, and its tags are merged into theirs.
     * Classes hang off stages, so a class's metaparameters do not reach its resources.
     */
    private inheritMetaparams(): void {
        const inherited = ['noop', 'schedule', 'audit', 'loglevel', 'alias', 'tag', 'stage'];
        const out = new Map<CatalogResource, CatalogResource[]>();
        for (const e of this.catalog.edges) {
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
        const seen = new Set<CatalogResource>([this.mainClass]);
        const queue = [this.mainClass];
        while (queue.length) {
            const source = queue.shift() as CatalogResource;
            const sourceData = data.get(source) ?? own(source);
            for (const target of out.get(source) ?? []) {
                for (const [p, v] of sourceData) if (target.param(p) === undefined || target.param(p) === null) target.params.set(p, { value: v, origin: 'compiler' });
                data.set(target, new Map([...sourceData, ...own(target)]));
                for (const t of source.tags) target.tags.add(t);
                if (!seen.has(target)) { seen.add(target); queue.push(target); }
            }
        }
    }

    /** Every before/require/notify/subscribe value must name a resource of the catalog (Puppet's catalog validation). */
    private validateRelationshipTargets(): void {
        for (const r of this.catalog.resources.values()) {
            if (r.virtual || r.exported) continue;
            for (const [name, p] of r.params) {
                if (!RELATIONSHIP_PARAMS.has(name)) continue;
                for (const ref of flattenRefs(p.value)) {
                    const target = this.catalog.find(ref.type, ref.title);
                    if (target && !target.virtual) continue;
                    const loc = r.where ? whereSuffix({ file: r.where.file, line: r.where.line }) : '';
                    throw new PuppetFailure(`Could not find resource '${displayRef(ref.type, ref.title)}' in parameter '${name}'${loc}`, r.where,
                        'Puppet::Error', 'Puppet::Parser::Compiler::CatalogValidationError');
                }
            }
        }
    }

    /** Whether a resource (or class) is in the catalog, for defined(). */
    isDeclared(type: string, title: string): boolean {
        return this.catalog.find(type, title) !== undefined;
    }
}

function displayRef(type: string, title: string): string {
    return `${capitalize(type.toLowerCase())}[${type.toLowerCase() === 'class' ? classTitle(title.toLowerCase()) : title}]`;
}

/** How Puppet's label provider names a value in messages (a type as `Class[a]-Type`). */
function valueLabel(v: PuppetValue): string {
    if (v instanceof PResourceType && v.title !== null) return `${formatValue(v)} Resource-Reference`;
    if (v instanceof PAnyType) return `${formatValue(v)}-Type`;
    return v === null ? 'Undef' : typeof v === 'string' ? 'String' : typeof v === 'bigint' ? 'Integer' : typeof v === 'number' ? 'Float'
        : typeof v === 'boolean' ? 'Boolean' : Array.isArray(v) ? 'Array' : v instanceof Map ? 'Hash' : formatValue(v);
}

/** The reference value of a catalog resource. */
export function refOf(r: CatalogResource): PAnyType {
    return r.type === 'Class' ? new PClassType(r.title === 'main' ? 'main' : r.title.toLowerCase()) : new PResourceType(r.type, r.title);
}

/** Resource references in a value: File['x'], Class['c'], arrays of them, 'Type[title]' strings. */
export function flattenRefs(v: PuppetValue): Array<{ type: string; title: string }> {
    if (Array.isArray(v)) return v.flatMap(flattenRefs);
    if (v instanceof PResourceType && v.typeName !== null && v.title !== null) return [{ type: v.typeName, title: v.title }];
    if (v instanceof PClassType && v.className !== null) return [{ type: 'Class', title: v.className }];
    if (typeof v === 'string') {
        const m = /^([A-Z][\w:]*)\[(.*)\]$/s.exec(v);
        if (m) return [{ type: m[1], title: m[2] }];
    }
    if (v === null || v instanceof PDefault || v instanceof PSensitive) return [];
    return [];
}


export { hashGet };
