import type { Expression, RelationshipExpression } from '../../../generated/langium/ast.js';
import { capitalize, formatValue, PResourceType, rubyInspect, rubyToS } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { RELATIONSHIP_PARAMS } from '../core-types.js';
import { PuppetFailure, whereSuffix, type Where } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { CatalogResource } from '../resource.js';
import type { Scope } from '../scope.js';
import { makeCollector } from './collectors.js';
import { displayRef, flattenRefs, referenceValue, refOf } from './refs.js';
import type { OpsState, Operand } from './state.js';

/** `a -> b` (and `~>`, `<-`, `<~`): recorded now, turned into parameters when the catalog is finished. */
export function relationship(s: OpsState, e: RelationshipExpression, scope: Scope): PuppetValue {
    return chain(s, e, scope).value;
}

/**
 * One link of a chain (`a -> b ~> c` is `(a -> b) ~> c`). As Puppet's RelationshipOperator, its
 * result (the next link's left side) is its right side, or its left side when the right is empty;
 * a collector alone on the right keeps the left as its "empty alternative", standing in for it if
 * it collects nothing.
 */
function chain(s: OpsState, e: RelationshipExpression, scope: Scope): { ops: Operand[]; value: PuppetValue } {
    const left = operand(s, e.left, scope);
    const right = operand(s, e.right, scope);
    s.relationships.push({ left: left.ops, right: right.ops, op: e.operator, where: s.ev.where(e) });
    if (right.ops.length === 0) return left;
    const only = right.ops.length === 1 ? right.ops[0] : undefined;
    if (only && 'collector' in only) only.collector.emptyAlternative = left.ops;
    return right;
}

function operand(s: OpsState, e: Expression, scope: Scope): { ops: Operand[]; value: PuppetValue } {
    if (e.$type === 'CollectExpression') {
        // The collector is evaluated as an expression of its own: its failure (an unknown type, a
        // type that fails to load) is the query's, at the query.
        let c;
        try {
            c = makeCollector(s, e, scope);
        } catch (err) {
            throw s.ev.locate(err, e, e.query.kind === '<|' ? 'Virtual Query' : 'Exported Query');
        }
        return { ops: [{ collector: c }], value: null };
    }
    if (e.$type === 'RelationshipExpression') return chain(s, e, scope);
    const v = s.ev.evaluate(e, scope);
    // A resource type without a title is a reference naming none (Puppet::Resource refuses it when the arrows are applied).
    const untitled = (x: PuppetValue): PuppetValue[] => Array.isArray(x) ? x.flatMap(untitled)
        : x instanceof PResourceType && x.typeName !== null && x.title === null ? [x] : [];
    const bare = untitled(v).map(x => ({ type: (x as PResourceType).typeName as string, title: '' }));
    // Each side is a set: a reference given twice counts once.
    const seen = new Set<string>();
    const ops = [...flattenRefs(v), ...bare].map(x => ({ ref: `${x.type}[${x.title}]`, ...x })).filter(o => !seen.has(o.ref) && seen.add(o.ref) !== undefined);
    return { ops, value: v };
}

type Member = { display: string; resource: CatalogResource | undefined };

/**
 * An operand's members as Puppet's Relationship#arrayify gives them: the references, or a
 * collector's collected resources; on the source side an empty collector gives way to its empty
 * alternative (recursively, as leftmost_alternative).
 */
function members(s: OpsState, ops: Operand[], source: boolean, alternative = false): Member[] {
    return ops.flatMap(o => {
        if (!('collector' in o)) {
            if (o.title === '') {
                // Puppet::Resource refuses a reference without a title (its text `Notify[]` names none); one of a type
                // nothing defines is made without a type either, which Puppet::Resource takes for Class[main], never found.
                if (!s.rt.isResourceType(o.type)) return [{ display: 'Class[main]', resource: undefined }];
                throw new PuppetFailure(CatalogIssues.EVAL_NOT_A_REFERENCE_TEXT.message({ text: rubyInspect(`${capitalize(o.type)}[]`) }));
            }
            // A stand-in is the left side's value itself, named as the type value prints (`Notify['a']`).
            const display = alternative ? formatValue(referenceValue(o.type, o.title)) : targetRef(o.type, o.title);
            return [{ display, resource: findTarget(s, o.type, o.title) }];
        }
        const collected = o.collector.collected;
        if (collected.length > 0 || !source) return collected.map(r => ({ display: r.ref, resource: r as CatalogResource | undefined }));
        const standIn = o.collector.emptyAlternative;
        return standIn ? members(s, standIn, true, true) : [];
    });
}

/**
 * The recorded relationships as before/notify parameters of their sources. As Puppet's
 * Relationship#evaluate: every source with every target, each pair checked when it is made, so an
 * empty side (a collector that found nothing) makes no pair and checks nothing.
 */
export function applyRelationships(s: OpsState): void {
    for (const rel of s.relationships) {
        const forward = rel.op === '->' || rel.op === '~>';
        const param = rel.op === '->' || rel.op === '<-' ? 'before' : 'notify';
        const sources = members(s, forward ? rel.left : rel.right, true);
        const targets = members(s, forward ? rel.right : rel.left, false);
        for (const src of sources) {
            for (const t of targets) {
                if (!src.resource) throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_NOT_FOUND.message({ ref: src.display, side: `on '${t.display}'` }));
                if (!t.resource) throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_NOT_FOUND.message({ ref: t.display, side: `from '${src.display}'` }));
                addRelationshipParam(s, src.resource, param, refOf(t.resource));
            }
        }
    }
}

/**
 * A target added to a relationship parameter as Puppet's Relationship#evaluate adds it: appended
 * to an array value in place (the parameter keeps where and by whom it was set), else the
 * parameter is set anew by the resource's own code, at no location (what an override of it, or a
 * failed check of its targets, then reports).
 */
export function addRelationshipParam(s: OpsState, r: CatalogResource, param: string, ref: PuppetValue): void {
    const prev = r.params.get(param);
    if (prev && Array.isArray(prev.value)) {
        const value = [...prev.value, ref];
        r.params.set(param, { ...prev, value });
        // A resource default's array is one object in Puppet, shared by every resource that took
        // the default: the target is appended for all of them.
        if (prev.origin === 'resourceDefault') {
            for (const other of s.catalog.resources) {
                const p = other.params.get(param);
                if (other !== r && p?.value === prev.value) other.params.set(param, { ...p, value });
            }
        }
        return;
    }
    const value = prev === undefined || prev.value === null ? [ref] : [prev.value, ref];
    r.params.set(param, { value, origin: 'relationship', ...(r.scope ? { source: s.overrideRules.sourceOf(r.scope) } : {}) });
}

/** Every before/require/notify/subscribe value must name a resource of the catalog (Puppet's catalog validation). */
export function validateRelationshipTargets(s: OpsState): void {
    for (const r of s.catalog.resources) {
        // An exported resource is virtual until a collector takes it (an exported one, or `<| |>`).
        if (r.virtual) continue;
        r.params.forEach((p, name) => {
            if (!RELATIONSHIP_PARAMS.has(name)) return;
            for (const v of Array.isArray(p.value) ? (p.value as PuppetValue[]).flat(Infinity as 1) : [p.value]) {
                if (v === null) continue;
                // A value that is no reference is read as the text of one, `Type[title]`.
                const found = typeof v === 'string' ? referenceText(v) : flattenRefs(v)[0] ?? referenceText(v);
                // A reference without a title is read as its text, `Notify[]`, which names none.
                const ref = typeof found !== 'string' && found.title === '' ? `${capitalize(found.type)}[]` : found;
                // That of a type nothing defines is Class[main] (see members), not found.
                if (typeof found !== 'string' && found.title === '' && !s.rt.isResourceType(found.type)) {
                    throw targetFailure(CatalogIssues.EVAL_RELATIONSHIP_TARGET_NOT_FOUND.message({ ref: 'Class[main]', name }), p.where);
                }
                if (typeof ref === 'string') throw targetFailure(CatalogIssues.EVAL_NOT_A_REFERENCE_TEXT.message({ text: rubyInspect(ref) }), p.where);
                // A virtual resource never realized is still in the catalog when Puppet checks.
                if (findTarget(s, ref.type, ref.title)) continue;
                throw targetFailure(CatalogIssues.EVAL_RELATIONSHIP_TARGET_NOT_FOUND.message({ ref: targetRef(ref.type, ref.title), name }), p.where);
            }
        });
    }
}

/**
 * A relationship's resource. Puppet looks a reference up as its 3.x form names it, a class by its
 * capitalized name: `Class[Main]`, which is not the main class (titled `main`).
 */
function findTarget(s: OpsState, type: string, title: string): CatalogResource | undefined {
    return isMainClass(type, title) ? undefined : s.catalog.find(type, title);
}

function targetRef(type: string, title: string): string {
    return isMainClass(type, title) ? 'Class[Main]' : displayRef(type, title);
}

const isMainClass = (type: string, title: string): boolean => type.toLowerCase() === 'class' && title.replace(/^::/, '').toLowerCase() === 'main';

/**
 * A relationship parameter's failure. Puppet reports the line of the attribute that set the
 * parameter (a default's or an override's included), none for one set by a relationship,
 * require() or create_resources; the cause reported is the innermost located error: an
 * unlocated one names none.
 */
function targetFailure(message: string, at: Where | undefined): PuppetFailure {
    const loc = at ? whereSuffix({ file: at.file, line: at.line }) : '';
    return new PuppetFailure(message + loc, at, 'Puppet::Error', at ? 'Puppet::Parser::Compiler::CatalogValidationError' : undefined);
}

/** Puppet::Resource's reading of a reference's text: `type[title]` (any type case), else the text refused. */
function referenceText(v: PuppetValue): { type: string; title: string } | string {
    const text = rubyToS(v);
    const m = /^([^[\]]+)\[(.+)\]$/s.exec(text);
    return m ? { type: capitalize(m[1]), title: m[2] } : text;
}
