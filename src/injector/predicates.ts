import type { Category, CategoryPredicate } from '../../generated/model/bindings.js';
import type { Categorization } from './categorization.js';

/**
 * Where a binding applies: one conjunction of category predicates that the request satisfies,
 * with its precedence score. A `when` nested in a `when` is an AND; `or` yields several
 * alternatives, i.e. several bindings with their own precedence (ARM-8).
 */
export interface Alternative {
    /** The predicates of the conjunction, outermost first (`common` ones dropped). */
    readonly categories: readonly Category[];
    /** The numbered-paragraph score: the categories' precedences, unique and descending; [0] for common. */
    readonly score: readonly number[];
    /** "node kermit and environment dev", or "common". */
    readonly label: string;
}

export const COMMON: Alternative = { categories: [], score: [0], label: 'common' };

/** The predicate as disjunctive normal form: alternatives of conjunctions. */
export function toDnf(p: CategoryPredicate): Category[][] {
    switch (p.$type) {
        case 'Category': return [[p]];
        case 'OrPredicate': return p.operands.flatMap(toDnf);
        case 'AndPredicate': return p.operands.map(toDnf).reduce(cross, [[]]);
    }
}

export function cross(a: readonly Category[][], b: readonly Category[][]): Category[][] {
    return a.flatMap(x => b.map(y => [...x, ...y]));
}

export type MatchResult = { readonly kind: 'match'; readonly alternative: Alternative } | { readonly kind: 'noMatch' } | { readonly kind: 'unknown'; readonly category: Category };

/**
 * Does the request satisfy the conjunction? As in the binder: `common` always matches whatever
 * its value; a categorization the site does not define makes the block silently not apply
 * (reported as a warning); values compare case-insensitively.
 */
export function matchConjunction(cats: readonly Category[], categorization: Categorization): MatchResult {
    const kept: Category[] = [];
    const precedences: number[] = [];
    for (const c of cats) {
        if (c.categorization === 'common') continue;
        const def = categorization.byName.get(c.categorization);
        if (!def) return { kind: 'unknown', category: c };
        if (def.value === undefined || def.value !== c.value.toLowerCase()) return { kind: 'noMatch' };
        kept.push(c);
        if (!precedences.includes(def.precedence)) precedences.push(def.precedence);
    }
    if (kept.length === 0) return { kind: 'match', alternative: COMMON };
    precedences.sort((x, y) => y - x);
    return { kind: 'match', alternative: { categories: kept, score: precedences, label: kept.map(c => `${c.categorization} ${c.value}`).join(' and ') } };
}

/** Lexicographic, a longer score winning on an equal prefix (Ruby Array#<=>, as the binder compared). */
export function compareScores(a: readonly number[], b: readonly number[]): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
        if (a[i] !== b[i]) return a[i] - b[i];
    }
    return a.length - b.length;
}

export function formatScore(s: readonly number[]): string {
    return `[${s.join(', ')}]`;
}
