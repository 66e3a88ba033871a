import type { SourceLocation } from '../../generated/model/bindings.js';
import type { ShadowReason } from '../../generated/model/effective-bindings.js';
import type { BinderResult } from './binder.js';
import { formatLocation } from './diagnostics.js';
import type { Candidate, Entry, Unused } from './entries.js';
import { formatScore } from './predicates.js';

export interface ExplainedCandidate {
    /** winner: produces the value; shadowed: lost to the winner; unused: did not apply to this request. */
    readonly status: 'winner' | 'shadowed' | 'unused' | 'contribution';
    readonly bindingKind: string;
    readonly layer: string;
    readonly namedBindings: string;
    readonly category: string;
    readonly precedence: readonly number[];
    readonly location: SourceLocation | undefined;
    readonly reason?: ShadowReason;
    readonly explanation: string;
    /** A contribution's own name (a Hash fragment's key, an included class). */
    readonly name?: string;
}

export interface Explanation {
    readonly key: string;
    /** False when nothing is bound (or the key was renamed away). */
    readonly found: boolean;
    readonly candidates: readonly ExplainedCandidate[];
}

export function winnerExplanation(e: Entry, w: Candidate): string {
    if (e.erasedBy) return `renamed away by the binding at ${formatLocation(e.erasedBy.location)}`;
    const others = e.shadowed.length === 0 ? 'the only binding' : `wins over ${e.shadowed.length} other binding${e.shadowed.length === 1 ? '' : 's'}`;
    return `${w.alternative.label} (precedence ${formatScore(w.alternative.score)}) in layer ${w.layer} wins: ${others}`;
}

/** Every candidate of a key in precedence order: the winner, the shadowed ones, then those that did not apply. */
export function explainKey(result: BinderResult, key: string): Explanation {
    const e = result.entries.get(key);
    const out: ExplainedCandidate[] = [];
    const summary = (c: Candidate, status: ExplainedCandidate['status'], explanation: string, reason?: ShadowReason): ExplainedCandidate => ({
        status, bindingKind: c.bindingKind, layer: c.layer, namedBindings: c.namedBindings, category: c.alternative.label,
        precedence: c.alternative.score, location: c.location, explanation, ...(reason ? { reason } : {})
    });
    if (e?.winner) {
        out.push(summary(e.winner, 'winner', winnerExplanation(e, e.winner), e.erasedBy ? 'renamed' : undefined));
        for (const s of e.shadowed) out.push(summary(s.candidate, 'shadowed', s.explanation, s.reason));
        if (e.winner.multibindId !== undefined) {
            for (const f of result.fragments.get(e.winner.multibindId) ?? []) {
                out.push({ ...summary(f, 'contribution', `contributes${f.name ? ` '${f.name}'` : ''} to '${e.winner.multibindId}'`), ...(f.name ? { name: f.name } : {}) });
            }
            for (const u of result.unused.get(`#${e.winner.multibindId}`) ?? []) out.push(unused(u));
        }
    }
    for (const u of result.unused.get(key) ?? []) out.push(unused(u));
    return { key, found: e?.winner !== undefined && e.erasedBy === undefined && !e.winner.abstract, candidates: out };
}

function unused(u: Unused): ExplainedCandidate {
    return { status: 'unused', bindingKind: u.bindingKind, layer: u.layer, namedBindings: u.namedBindings, category: u.category, precedence: [], location: u.location, reason: u.reason, explanation: u.explanation };
}

/** The text form `modelc lookup --explain` and `modelc effective --explain` print. */
export function formatExplanation(x: Explanation): string {
    const lines = [`${x.key}: ${x.found ? 'bound' : 'not bound'}`];
    x.candidates.forEach((c, i) => {
        const prec = c.precedence.length > 0 ? ` ${formatScore(c.precedence)}` : '';
        lines.push(`  ${i + 1}. ${c.status.padEnd(12)} ${formatLocation(c.location)}  layer ${c.layer}, ${c.namedBindings}, category ${c.category}${prec}`);
        lines.push(`     ${c.reason ? `${c.reason}: ` : ''}${c.explanation}`);
    });
    return `${lines.join('\n')}\n`;
}
