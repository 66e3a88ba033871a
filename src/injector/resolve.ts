import { diagnostic, type InjectorDiagnostic } from './diagnostics.js';
import { comparePrecedence, Entry, Shadow, type Candidate } from './entries.js';

/**
 * Picks the winner of one key (binder LayerProcessor, with categories): the highest layer that
 * binds the key decides, a lower layer's bindings (and conflicts) are shadowed; inside that
 * layer the highest category score wins, equal scores conflict unless only one is concrete.
 * Then the creation-time checks: final, override resolved, abstract overridden.
 */
export function resolveEntry(key: string, type: string, name: string, candidates: Candidate[], issues: InjectorDiagnostic[]): Entry {
    const sorted = candidates.length > 1 ? [...candidates].sort((a, b) => -comparePrecedence(a, b) || a.order - b.order) : candidates;
    const entry = new Entry(key, type, name, sorted);
    if (sorted.length === 0) return entry;
    if (sorted.length === 1) return single(entry, sorted[0], issues);
    const top = sorted[0];
    let group = sorted.filter(c => c.layerIndex === top.layerIndex && comparePrecedence(c, top) === 0);
    const lost = new Map<Candidate, Shadow>();
    if (group.length > 1) {
        // Binder 3.5+: at equal precedence the concrete binding replaces the abstract one.
        const concrete = group.filter(c => !c.abstract);
        if (concrete.length > 0 && concrete.length < group.length) {
            for (const c of group) if (c.abstract) lost.set(c, new Shadow(c, 'abstractReplaced', concrete[0]));
            group = concrete;
        }
        const rebinds = group.filter(c => c.spec.kind === 'rebind');
        if (rebinds.length > 0 && rebinds.length < group.length) {
            for (const c of rebinds) {
                issues.push(diagnostic('warning', 'INJECT_REBIND_NOT_HIGHER', { key, layers: [c.layer], locations: [c.location] }, key));
                lost.set(c, new Shadow(c, 'conflict', undefined));
            }
            group = group.filter(c => c.spec.kind !== 'rebind');
        }
        if (group.length > 1) conflict(key, name, group, issues, lost);
    }
    const winner = group[0];
    entry.winner = winner;
    for (const c of sorted) {
        if (c !== winner && c.spec.kind === 'rebind' && !lost.has(c)) {
            // ARM-8: rebinding at a precedence that is not higher is meaningless.
            issues.push(diagnostic('warning', 'INJECT_REBIND_NOT_HIGHER', { key, layers: [c.layer], locations: [c.location, winner.location] }, key));
        }
        if (c === winner || lost.has(c)) continue;
        const lowerLayer = c.layerIndex > winner.layerIndex;
        const shadow: Shadow = c.final
            ? finalViolation(key, name, winner, c, issues)
            : lowerLayer
                ? new Shadow(c, 'lowerLayer', winner)
                : new Shadow(c, winner.override ? 'overridden' : 'lowerCategory', winner);
        lost.set(c, shadow);
    }
    for (const c of sorted) {
        const s = lost.get(c);
        if (s) entry.shadowed.push(s);
    }
    entry.fallbacks = sorted.filter(c => c !== winner && !c.abstract && (lost.get(c)?.reason === 'lowerLayer' || lost.get(c)?.reason === 'lowerCategory' || lost.get(c)?.reason === 'overridden'));
    entry.constraints = sorted.filter(c => c !== winner && c.abstract && c.declaredType !== undefined && c.declaredType !== 'Any' && c.key.startsWith('/var/')).map(c => c.declaredType as string);
    entry.overrideResolved = winner.override && sorted.length > 1;
    const site = { key, layers: [winner.layer], locations: [winner.location] };
    if (winner.override && !entry.overrideResolved) issues.push(diagnostic('error', 'INJECT_UNRESOLVED_OVERRIDE', site, display(winner), winner.namedBindings, winner.layer));
    if (winner.abstract) issues.push(diagnostic('error', 'INJECT_ABSTRACT_NOT_OVERRIDDEN', site, display(winner), winner.namedBindings, winner.layer));
    if (winner.spec.kind === 'rebind') {
        entry.rebindDelegate = sorted.find(c => c !== winner && !c.abstract && c.spec.kind !== 'rebind' && lost.get(c)?.reason !== 'conflict');
        if (!entry.rebindDelegate) issues.push(diagnostic('error', 'INJECT_REBIND_MISSING', site, key));
    }
    return entry;
}

/** The common case, one candidate: only the creation checks. */
function single(entry: Entry, winner: Candidate, issues: InjectorDiagnostic[]): Entry {
    entry.winner = winner;
    const site = { key: entry.key, layers: [winner.layer], locations: [winner.location] };
    if (winner.override) issues.push(diagnostic('error', 'INJECT_UNRESOLVED_OVERRIDE', site, display(winner), winner.namedBindings, winner.layer));
    if (winner.abstract) issues.push(diagnostic('error', 'INJECT_ABSTRACT_NOT_OVERRIDDEN', site, display(winner), winner.namedBindings, winner.layer));
    if (winner.spec.kind === 'rebind') issues.push(diagnostic('error', 'INJECT_REBIND_MISSING', site, entry.key));
    return entry;
}

/** The key as the binder printed it in messages: `<declared type>/<name>`. */
export function display(c: Candidate): string {
    return c.key.startsWith('/') ? c.key : `${c.declaredType ?? 'Data'}/${c.name}`;
}

function conflict(key: string, name: string, group: Candidate[], issues: InjectorDiagnostic[], lost: Map<Candidate, Shadow>): void {
    const [a, b] = group;
    const site = { key, layers: [a.layer], locations: [a.location, b.location] };
    const shown = name === '' ? key : name;
    // ARM-8: the message names the category of each binding ("in category 'virtual true' is in conflict with...").
    const [ca, cb] = [a.alternative.label, b.alternative.label];
    const categories = ca === cb ? `category '${ca}'` : `categories '${ca}' and '${cb}'`;
    if (a.final || b.final) issues.push(diagnostic('error', 'INJECT_FINAL_OVERRIDDEN_IN_LAYER', site, shown, a.layer, a.namedBindings, b.namedBindings));
    else if (a.namedBindings === b.namedBindings) issues.push(diagnostic('error', 'INJECT_CONFLICT_SAME_BINDINGS', site, shown, a.layer, a.namedBindings, categories));
    else issues.push(diagnostic('error', 'INJECT_CONFLICT', site, shown, a.layer, a.namedBindings, b.namedBindings, categories));
    for (const c of group.slice(1)) {
        lost.set(c, new Shadow(c, 'conflict', a));
    }
}

/** ARM-8/binder `final`: no binding of higher precedence (a higher layer or category) may replace it. */
function finalViolation(key: string, name: string, winner: Candidate, c: Candidate, issues: InjectorDiagnostic[]): Shadow {
    const shown = name === '' ? key : name;
    const site = { key, layers: [...new Set([winner.layer, c.layer])], locations: [c.location, winner.location] };
    if (winner.layerIndex !== c.layerIndex) issues.push(diagnostic('error', 'INJECT_FINAL_OVERRIDDEN', site, shown, c.layer, winner.layer));
    else issues.push(diagnostic('error', 'INJECT_FINAL_OVERRIDDEN_IN_LAYER', site, shown, c.layer, c.namedBindings, winner.namedBindings));
    return new Shadow(c, 'finalViolation', winner);
}
