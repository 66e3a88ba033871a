import type { DefineDefinition, ResourceExpression } from '../../../generated/langium/ast.js';
import { capitalize, formatValue, PClassType, PResourceType } from '../../types/index.js';
import { PDefault, type PuppetValue } from '../../values/index.js';
import { EvalIssue, PuppetFailure, RuntimeFailure, type Where } from '../errors.js';
import { boundTypeName, setBoundResourceParameters } from '../bound-catalog.js';
import { METAPARAMS } from '../core-types.js';
import { inspect as rubyInspect } from '../../ruby/index.js';
import { CatalogIssues } from '../issues.js';
import type { Definition } from '../loader.js';
import { CatalogResource } from '../resource.js';
import type { Attr, DeclarationMode } from '../runtime.js';
import type { Scope } from '../scope.js';
import { declareParams, evalAttrs, nameTags, tagResource, titleTags } from './attributes.js';
import { declareClass } from './classes.js';
import { addOverride } from './overrides.js';
import { displayRef, flattenRefs, refOf, valueLabel } from './refs.js';
import type { OpsState } from './state.js';
import { bodyTitles } from './titles.js';

/** `type { title: ... }`, `Type { defaults }`, `Type[title] { overrides }`. */
export function resourceExpression(s: OpsState, e: ResourceExpression, scope: Scope, mode: DeclarationMode): PuppetValue {
    if (e.bodies.length === 0) return untitled(s, e, scope);
    const typeValue = s.ev.evaluate(e.typeExpr, scope);
    const typeName = typeValue instanceof PResourceType && typeValue.typeName !== null ? typeValue.typeName
        : typeValue instanceof PClassType ? 'class' : typeof typeValue === 'string' ? typeValue : formatValue(typeValue);
    const whole = e.$container?.$type === 'VirtualResource' ? e.$container : e;
    // One place object per statement, shared by every resource it declares.
    const where = s.ev.whereLine(whole);
    const shared = evalAttrs(s, e.ops, scope, e);
    // As Puppet: every body's titles and attributes first, then the resources; a body titled
    // `default` lends its attributes to every body of the expression.
    const seen = new Set<string>();
    const bodies = e.bodies.map(b => ({ titles: bodyTitles(s, b, scope, seen, whole), attrs: evalAttrs(s, b.ops, scope, e) }));
    const defaults = bodies.find(b => b.titles.some(t => t instanceof PDefault))?.attrs ?? [];
    const refs: PuppetValue[] = [];
    for (const b of bodies) {
        const merged = shared.length === 0 ? [...b.attrs] : [...shared, ...b.attrs];
        for (const d of defaults) if (!merged.some(a => a.name === d.name)) merged.push(d);
        for (const t of b.titles) {
            if (t instanceof PDefault) continue;
            const r = declare(s, typeName, t, merged, scope, mode, where);
            if (r) refs.push(refOf(r));
        }
    }
    return refs;
}

/** Resource defaults (`Type { ... }`), a statement call with a hash, or an override (`Type[title] { ... }`). */
function untitled(s: OpsState, e: ResourceExpression, scope: Scope): PuppetValue {
    const te = e.typeExpr;
    if (te.$type === 'TypeReference') {
        s.ev.evaluate(te, scope); // an unknown type fails here, before its attributes
        const attrs = evalAttrs(s, e.ops, scope, e);
        const type = te.value.replace(/^::/, '').toLowerCase();
        for (const a of attrs) {
            // A scope sets a type's default for a parameter once (Puppet's Scope#define_settings).
            if (scope.ownDefaultsFor(type)?.has(a.name)) {
                const message = CatalogIssues.EVAL_DEFAULT_ALREADY_DEFINED.message({ type: capitalize(type), name: a.name, file: a.where.file, line: a.where.line });
                throw new PuppetFailure(message, { file: a.where.file, line: a.where.line }, 'Puppet::Error', 'Puppet::ParseError');
            }
            scope.setDefault(type, a.name, { value: a.value, plus: a.plus, where: a.where, source: s.overrideRules.sourceOf(scope) });
        }
        return null;
    }
    if (te.$type === 'QualifiedName') {
        // A statement call with a hash argument, e.g. `notice { a => 1 }`.
        const h = new Map<PuppetValue, PuppetValue>();
        for (const a of evalAttrs(s, e.ops, scope, e)) h.set(a.name, a.value);
        return s.ev.invoke(te.value, [h], undefined, scope, e);
    }
    const target = s.ev.evaluate(te, scope);
    const attrs = evalAttrs(s, e.ops, scope, e, true);
    const where = s.ev.where(e);
    const line = { file: where.file, line: where.line };
    for (const t of Array.isArray(target) ? target.flat(Infinity as 1) : [target]) {
        // Only resources can be overridden, not classes (Puppet's ILLEGAL_OVERRIDDEN_TYPE).
        if (!(t instanceof PResourceType) || t.typeName === null || t.typeName.toLowerCase() === 'class') {
            throw EvalIssue.of(CatalogIssues.EVAL_ILLEGAL_OVERRIDDEN_TYPE, { label: valueLabel(t) }, where);
        }
    }
    for (const ref of flattenRefs(target)) {
        // The override resource Puppet creates refuses a parameter given twice.
        const dup = attrs.find((a, i) => attrs.findIndex(b => b.name === a.name) !== i);
        if (dup) {
            const message = CatalogIssues.EVAL_DUPLICATE_OVERRIDE_PARAMETER.message({ name: dup.name, ref: displayRef(ref.type, ref.title), file: line.file, line: line.line });
            throw new PuppetFailure(message, line, 'Puppet::Error', 'Puppet::ParseError');
        }
        addOverride(s, ref.type, ref.title, { attrs, scope, where: line, fromCollector: false });
    }
    return null;
}

/** Declares one resource; classes go through the class path. */
export function declare(s: OpsState, typeName: string, titleValue: PuppetValue, attrs: Attr[], scope: Scope, mode: DeclarationMode, where: Where): CatalogResource | undefined {
    const written = (typeName.startsWith('::') ? typeName.slice(2) : typeName).toLowerCase();
    const lower = written === 'class' ? written : boundTypeName(s.rt, 'resource', written);
    if (lower !== written) typeName = lower;
    if (lower === 'class') {
        const params = new Map<string, PuppetValue>(attrs.map(a => [a.name, a.value]));
        return declareClass(s, formatValue(titleValue), scope, params, where);
    }
    // Puppet warns as it meets the exported resource, before it looks its type up.
    if (mode === 'exported' && !s.rt.store) s.rt.log('warning', CatalogIssues.EVAL_EXPORT_IGNORED.message(), where);
    const catalog = s.catalog;
    const title = titleValue instanceof PResourceType && titleValue.title !== null ? titleValue.title : formatValue(titleValue);
    const core = s.rt.resourceType(lower);
    let define: Definition<DefineDefinition> | undefined;
    if (!core) {
        define = s.rt.loader.findDefine(lower);
        // Puppet names the type as it was written (`Resource['foo']` gives the capitalized Foo).
        if (!define) throw new RuntimeFailure(CatalogIssues.EVAL_UNKNOWN_TYPE.message({ type: typeName.replace(/^::/, '') }));
    }
    // A type with title patterns must be able to read its title (Puppet::Resource#parse_title).
    if (core?.fromTitle && core.fromTitle(title) === undefined) throw new RuntimeFailure(CatalogIssues.EVAL_NO_TITLE_PATTERN.message({ title }));
    const type = capitalize(define ? define.name : lower);
    const existing = catalog.findDeclared(type, title);
    if (existing) {
        throw new RuntimeFailure(CatalogIssues.EVAL_DUPLICATE_DECLARATION.message({
            ref: `${type}[${title}]`, previous: { file: existing.where?.file, line: existing.where?.line }, file: where.file, line: where.line
        }));
    }
    const r = new CatalogResource(type, title, define ? 'define' : 'builtin', where);
    r.scope = scope;
    r.virtual = mode !== 'real';
    r.exported = mode === 'exported';
    const source = s.overrideRules.sourceOf(scope);
    declareParams(r, attrs, source);
    const defaults = scope.defaultsFor(lower);
    if (defaults.size > 0) {
        defaults.forEach((d, name) => {
            if (!r.params.has(name)) r.params.set(name, { value: d.value, where: d.where, origin: 'resourceDefault', source: d.source ?? source });
        });
    }
    setBoundResourceParameters(s.rt, r, name => name !== 'stage' && name !== (core ? core.namevar : 'name') && !(core?.keyAttributes?.includes(name) ?? false)
        && (METAPARAMS.has(name) || (core?.attributes.has(name) ?? false)));
    // A namevar (or a define's name) equal to the title is not kept as a parameter, as in Puppet.
    // A title pattern that is not the identity (File's) gives the namevar from the title.
    // A title given as a number (by create_resources or ensure_resource) is no String: the namevar
    // its text gives differs from it, so Puppet keeps that parameter, and the title is no tag either
    // (valid_tag? needs a String).
    const stringTitle = typeof titleValue === 'string' || titleValue instanceof PResourceType;
    const namevar = core ? core.namevar : 'name';
    const fromTitle = (core?.fromTitle?.(title) ?? (stringTitle ? [] : [[namevar, title] as const]))
        .filter(([k, v]) => !r.params.has(k) && !(k === namevar && v === title && stringTitle));
    if (r.param(namevar) === title && stringTitle) r.params.delete(namevar);
    if (fromTitle.length > 0) r.titleParams = fromTitle.map(([name, value]) => ({ name, value, where }));
    // The title is a tag when it is a valid one, split at '::' as every qualified tag is.
    tagResource(r, scope, nameTags(lower), stringTitle ? titleTags(title) : []);
    // Isomorphic types (all core types but exec and tidy): the namevar is the resource's identity,
    // or, for a type with several key attributes, the values of all of them (Puppet's uniqueness_key).
    if (core?.keyAttributes && lower !== 'exec' && lower !== 'tidy') {
        aliasUniquenessKey(s, r, core.keyAttributes, core.fromTitle, where);
    } else if (core && lower !== 'exec' && lower !== 'tidy') {
        const nv = r.param(core.namevar) ?? r.titleParams?.find(t => t.name === core.namevar)?.value;
        if (typeof nv === 'string' && nv !== title) {
            const other = catalog.findDeclared(type, nv);
            if (other) {
                throw new RuntimeFailure(CatalogIssues.EVAL_CANNOT_ALIAS.message({
                    ref: `${type}[${title}]`, key: rubyInspect([nv]), other: rubyInspect([type, nv]), at: where, previous: other.where
                }));
            }
            catalog.addAlias(type, nv, r);
        }
    }
    // The alias metaparameter makes the resource findable under other titles.
    const alias = r.param('alias');
    for (const a of alias === undefined || alias === null ? [] : Array.isArray(alias) ? alias : [alias]) {
        if (typeof a === 'string') catalog.addAlias(type, a, r);
    }
    const container = scope.resource ?? s.mainClass;
    catalog.add(r);
    // Puppet's Compiler#add_resource: the run stage (given or defaulted) is a class's matter.
    const stage = r.param('stage');
    if (stage !== undefined && stage !== null) throw new RuntimeFailure(CatalogIssues.EVAL_STAGE_ON_RESOURCE.message({ ref: `${type}[${title}]` }));
    if (define) s.generated.push(r);
    // Stages are not contained in anything.
    if (lower !== 'stage') {
        r.container = container;
        catalog.addEdge(container, r);
    }
    return r;
}

/**
 * Puppet's uniqueness_key for a type with several key attributes: the title's patterns give some,
 * the parameters the others (and override), `name` defaults to the title, and the values are taken
 * in the order of the attributes' names (nil where none). Unless it is just the title, the key is an
 * alias of the resource: a second resource with the same key cannot be declared.
 */
function aliasUniquenessKey(s: OpsState, r: CatalogResource, keys: readonly string[], fromTitle: ((title: string) => ReadonlyArray<readonly [string, string]> | undefined) | undefined,
    where: Where): void {
    const h = new Map<string, PuppetValue>(fromTitle ? fromTitle(r.title) ?? [] : [['name', r.title]]);
    for (const [name, p] of r.params) h.set(name, p.value);
    if (h.get('name') === undefined || h.get('name') === null) h.set('name', r.title);
    const key = [...keys].sort().map(k => h.get(k) ?? null);
    if (key.length === 1 && key[0] === r.title) return;
    const aliasTitle = `\0${rubyInspect(key)}`;
    const other = s.catalog.findDeclared(r.type, aliasTitle);
    if (other && other !== r) {
        throw new RuntimeFailure(CatalogIssues.EVAL_CANNOT_ALIAS.message({
            ref: `${r.type}[${r.title}]`, key: rubyInspect(key), other: rubyInspect([r.type, ...key]), at: where, previous: other.where
        }));
    }
    s.catalog.addAlias(r.type, aliasTitle, r);
}
