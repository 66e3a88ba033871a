import type { Expression, RelationshipExpression } from '../../../generated/langium/ast.js';
import type { PuppetValue } from '../../values/index.js';
import { RELATIONSHIP_PARAMS } from '../core-types.js';
import { PuppetFailure, whereSuffix } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { CatalogResource } from '../resource.js';
import type { Scope } from '../scope.js';
import { makeCollector } from './collectors.js';
import { displayRef, flattenRefs, refOf } from './refs.js';
import type { OpsState, Operand } from './state.js';

/**
 * `a -> b` (and `~>`, `<-`, `<~`): recorded now, turned into parameters when the catalog is
 * finished. As Puppet's RelationshipOperator: each side is flattened and made unique, and every
 * source is related to every target by a relationship of its own. The result (the left operand
 * of the next arrow in a chain) is the right side, or the left one when the right is empty; a
 * lone collector on the right remembers the left side, which stands in for it if it collects
 * nothing (so `a -> Notify <| nothing |> -> c` still relates a to c).
 */
export function relationship(s: OpsState, e: RelationshipExpression, scope: Scope): PuppetValue {
    return relate(s, e, scope).value;
}

function relate(s: OpsState, e: RelationshipExpression, scope: Scope): { ops: Operand[]; value: PuppetValue } {
    const left = operand(s, e.left, scope);
    const right = operand(s, e.right, scope);
    const reverse = e.operator === '<-' || e.operator === '<~';
    const [sources, targets] = reverse ? [right.ops, left.ops] : [left.ops, right.ops];
    const param = e.operator === '->' || e.operator === '<-' ? 'before' : 'notify';
    const where = s.ev.where(e);
    for (const source of sources) for (const target of targets) s.relationships.push({ source, target, param, where });
    if (right.ops.length === 0) return left;
    if (right.ops.length === 1 && 'collector' in right.ops[0]) right.ops[0].collector.emptyAlternative = left.ops;
    return right;
}

function operand(s: OpsState, e: Expression, scope: Scope): { ops: Operand[]; value: PuppetValue } {
    if (e.$type === 'RelationshipExpression') return relate(s, e, scope);
    if (e.$type === 'CollectExpression') {
        const c = makeCollector(s, e, scope);
        return { ops: [{ collector: c }], value: null };
    }
    const v = s.ev.evaluate(e, scope);
    const seen = new Set<string>();
    const ops: Operand[] = [];
    for (const x of flattenRefs(v)) {
        const ref = `${x.type}[${x.title}]`;
        if (seen.has(ref)) continue;
        seen.add(ref);
        ops.push({ ref, ...x });
    }
    return { ops, value: v };
}

type Member = { display: string; resource: CatalogResource | undefined };

function refMember(s: OpsState, o: { readonly type: string; readonly title: string }): Member {
    return { display: displayRef(o.type, o.title), resource: s.catalog.find(o.type, o.title) };
}

/** A source as Puppet's Relationship#arrayify takes it: a collector's resources, or what stood in for it when it found none. */
function sourceMembers(s: OpsState, o: Operand): Member[] {
    if (!('collector' in o)) return [refMember(s, o)];
    const c = o.collector;
    if (c.collected.length > 0) return c.collected.map(r => ({ display: r.ref, resource: r }));
    const alt = c.emptyAlternative;
    if (!alt) return [];
    if (alt.length === 1 && 'collector' in alt[0]) return sourceMembers(s, alt[0]);
    return alt.flatMap(a => ('collector' in a ? a.collector.collected.map(r => ({ display: r.ref, resource: r as CatalogResource | undefined })) : [refMember(s, a)]));
}

function targetMembers(s: OpsState, o: Operand): Member[] {
    return 'collector' in o ? o.collector.collected.map(r => ({ display: r.ref, resource: r })) : [refMember(s, o)];
}

/**
 * The recorded relationships as before/notify parameters of their sources. As Puppet's
 * Relationship#evaluate: every source with every target, each pair checked when it is made, so an
 * empty side (a collector that found nothing) makes no pair and checks nothing.
 */
export function applyRelationships(s: OpsState): void {
    for (const rel of s.relationships) {
        const sources = sourceMembers(s, rel.source);
        const targets = targetMembers(s, rel.target);
        for (const src of sources) {
            for (const t of targets) {
                if (!src.resource) throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_NOT_FOUND.message({ ref: src.display, side: `on '${t.display}'` }));
                if (!t.resource) throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_NOT_FOUND.message({ ref: t.display, side: `from '${src.display}'` }));
                const prev = src.resource.param(rel.param);
                const ref = refOf(t.resource);
                const list = prev === undefined || prev === null ? [] : Array.isArray(prev) ? prev : [prev];
                src.resource.params.set(rel.param, { value: [...list, ref], origin: 'relationship', where: rel.where });
            }
        }
    }
}

/** Every before/require/notify/subscribe value must name a resource of the catalog (Puppet's catalog validation). */
export function validateRelationshipTargets(s: OpsState): void {
    for (const r of s.catalog.resources.values()) {
        if (r.virtual || r.exported) continue;
        for (const [name, p] of r.params) {
            if (!RELATIONSHIP_PARAMS.has(name)) continue;
            for (const ref of flattenRefs(p.value)) {
                const target = s.catalog.find(ref.type, ref.title);
                if (target && !target.virtual) continue;
                // Puppet reports the line of the attribute that set the parameter (a default's or an override's included).
                const at = p.where ?? r.where;
                const loc = at ? whereSuffix({ file: at.file, line: at.line }) : '';
                throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_TARGET_NOT_FOUND.message({ ref: displayRef(ref.type, ref.title), name }) + loc, at,
                    'Puppet::Error', 'Puppet::Parser::Compiler::CatalogValidationError');
            }
        }
    }
}
