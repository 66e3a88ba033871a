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

/** `a -> b` (and `~>`, `<-`, `<~`): recorded now, turned into parameters when the catalog is finished. */
export function relationship(s: OpsState, e: RelationshipExpression, scope: Scope): PuppetValue {
    const left = operand(s, e.left, scope);
    const right = operand(s, e.right, scope);
    s.relationships.push({ left: left.ops, right: right.ops, op: e.operator, where: s.ev.where(e) });
    return right.value;
}

function operand(s: OpsState, e: Expression, scope: Scope): { ops: Operand[]; value: PuppetValue } {
    if (e.$type === 'CollectExpression') {
        const c = makeCollector(s, e, scope);
        return { ops: [{ collector: c }], value: null };
    }
    const v = s.ev.evaluate(e, scope);
    return { ops: flattenRefs(v).map(x => ({ ref: `${x.type}[${x.title}]`, ...x })), value: v };
}

function expand(s: OpsState, ops: Operand[], other: () => string): CatalogResource[] {
    const out: CatalogResource[] = [];
    for (const o of ops) {
        if ('collector' in o) { out.push(...o.collector.collected); continue; }
        const r = s.catalog.find(o.type, o.title);
        if (!r) throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_NOT_FOUND.message({ ref: displayRef(o.type, o.title), side: other() }));
        out.push(r);
    }
    return out;
}

/** The recorded relationships as before/notify parameters of their sources. */
export function applyRelationships(s: OpsState): void {
    for (const rel of s.relationships) {
        const forward = rel.op === '->' || rel.op === '~>';
        const param = rel.op === '->' || rel.op === '<-' ? 'before' : 'notify';
        const srcOps = forward ? rel.left : rel.right;
        const tgtOps = forward ? rel.right : rel.left;
        // A missing source is reported "on" the first target, a missing target "from" the first source.
        const known = (ops: Operand[]): CatalogResource | undefined => {
            for (const o of ops) {
                const r = 'collector' in o ? o.collector.collected[0] : s.catalog.find(o.type, o.title);
                if (r) return r;
            }
            return undefined;
        };
        const sources = expand(s, srcOps, () => `on '${known(tgtOps)?.ref ?? ''}'`);
        const firstSource = sources[0];
        const targets = expand(s, tgtOps, () => firstSource ? `from '${firstSource.ref}'` : '');
        for (const src of sources) {
            for (const t of targets) {
                const prev = src.param(param);
                const ref = refOf(t);
                const list = prev === undefined || prev === null ? [] : Array.isArray(prev) ? prev : [prev];
                src.params.set(param, { value: [...list, ref], origin: 'relationship', where: rel.where });
            }
        }
    }
}

/** Every before/require/notify/subscribe value must name a resource of the catalog (Puppet's catalog validation). */
export function validateRelationshipTargets(s: OpsState): void {
    for (const r of s.catalog.resources) {
        if (r.virtual || r.exported) continue;
        r.params.forEach((p, name) => {
            if (!RELATIONSHIP_PARAMS.has(name)) return;
            for (const ref of flattenRefs(p.value)) {
                const target = s.catalog.find(ref.type, ref.title);
                if (target && !target.virtual) continue;
                // Puppet reports the line of the attribute that set the parameter (a default's or an override's included).
                const at = p.where ?? r.where;
                const loc = at ? whereSuffix({ file: at.file, line: at.line }) : '';
                throw new PuppetFailure(CatalogIssues.EVAL_RELATIONSHIP_TARGET_NOT_FOUND.message({ ref: displayRef(ref.type, ref.title), name }) + loc, at,
                    'Puppet::Error', 'Puppet::Parser::Compiler::CatalogValidationError');
            }
        });
    }
}
