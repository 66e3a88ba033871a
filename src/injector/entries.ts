import type { AbstractBinding, NamedArgument, ProducerDescriptor, SourceLocation } from '../../generated/model/bindings.js';
import type { ShadowReason } from '../../generated/model/effective-bindings.js';
import type { PuppetValue, RichData } from '../model/index.js';
import type { Alternative } from './predicates.js';
import { compareScores, formatScore } from './predicates.js';
import type { InjectedValue } from './values.js';

/**
 * How a candidate's value is made. Most come straight from a producer descriptor; the ARM-8
 * forms the model expands (parameters, variables, maps, aliases, classes) get their own kinds.
 */
export type ProducerSpec =
    | { readonly kind: 'descriptor'; readonly descriptor: ProducerDescriptor }
    | { readonly kind: 'value'; readonly value: RichData }
    | { readonly kind: 'computed'; readonly value: InjectedValue }
    | { readonly kind: 'parameter'; readonly source: SharedSource; readonly parameter: string }
    | { readonly kind: 'alias'; readonly originalKey: string }
    | { readonly kind: 'rebind' }
    | { readonly kind: 'multibind' }
    | { readonly kind: 'classes' }
    | { readonly kind: 'none' };

/** The object a non-hash `bind parameters` draws values from, produced once for all its parameters. */
export interface SharedSource {
    readonly descriptor: ProducerDescriptor;
    readonly target: string;
    readonly candidate?: Candidate;
}

/** A value-producing thing made lazily from a spec, at the first lookup. */
export interface Producer {
    produce(): InjectedValue;
}

/** One binding considered for a key (or contributed to a multibind id), in one applicable alternative. */
export interface Candidate {
    readonly bindingKind: string;
    readonly binding: AbstractBinding;
    readonly key: string;
    readonly name: string;
    readonly declaredType: string | undefined;
    readonly layerIndex: number;
    readonly layer: string;
    readonly namedBindings: string;
    readonly contributedBy: string | undefined;
    readonly alternative: Alternative;
    /** Document order over the whole model: ties in collection order. */
    readonly order: number;
    /** A provider's ranking inside one layer and category (Hiera levels: lower wins); empty when none. */
    readonly rank: readonly number[];
    readonly abstract: boolean;
    readonly override: boolean;
    readonly final: boolean;
    readonly optional: boolean;
    readonly singleton: boolean;
    /** A singleton's value is kept, except a producer-producer's: it keeps the producer and asks it every time. */
    readonly cachesValue: boolean;
    readonly spec: ProducerSpec;
    readonly producerArgs: readonly NamedArgument[];
    readonly location: SourceLocation | undefined;
    /** The hash an `inject(name, { ... })` call passes to the producer (a per-call copy of the winner). */
    readonly callArgs?: ReadonlyMap<PuppetValue, PuppetValue>;
    /** For a multibinding: the id its fragments attach to. */
    readonly multibindId: string | undefined;
    producer?: Producer;
}

/** A candidate that lost, why, and to whom; the text is made only when someone reads it. */
export class Shadow {
    constructor(readonly candidate: Candidate, readonly reason: ShadowReason, readonly by: Candidate | undefined) {}

    get explanation(): string {
        const c = this.candidate;
        const by = this.by;
        switch (this.reason) {
            case 'lowerLayer': return `layer ${by?.layer ?? '?'} is above layer ${c.layer}`;
            case 'lowerCategory': case 'overridden': return `shadowed by the binding at ${where(by)} (category ${by?.alternative.label ?? '?'})`;
            case 'abstractReplaced': return `replaced by the concrete binding at ${where(by)}`;
            case 'conflict': return by ? `same precedence ${formatScore(c.alternative.score)} as the binding at ${where(by)}` : 'a rebind at the same precedence as the binding it rebinds has no effect';
            case 'finalViolation': return `${c.name === '' ? c.key : c.name} is final (${where(c)})`;
            case 'excluded': case 'notApplicable': case 'renamed': return this.reason;
        }
    }
}

function where(c: Candidate | undefined): string {
    const l = c?.location;
    if (!l) return '<unknown location>';
    return l.line !== undefined ? `${l.file}:${l.line}` : l.file;
}

/** A binding that was not used at all for this request, kept for explanations. */
export interface Unused {
    readonly bindingKind: string;
    readonly name: string;
    readonly layer: string;
    readonly namedBindings: string;
    readonly category: string;
    readonly location: SourceLocation | undefined;
    readonly reason: ShadowReason;
    readonly explanation: string;
}

/** The outcome for one key. */
export class Entry {
    winner: Candidate | undefined;
    readonly shadowed: Shadow[] = [];
    /** Lower candidates a value falls through to when an optional winner produces nothing. */
    fallbacks: Candidate[] = [];
    overrideResolved = false;
    /** The `bind renamed` that erased this key. */
    erasedBy: Candidate | undefined;
    /** Types of shadowed abstract (variable) bindings the value must also satisfy. */
    constraints: string[] = [];
    /** The candidate a winning `rebind` reuses. */
    rebindDelegate: Candidate | undefined;
    /** Set once a singleton winner produced a value. */
    cached: { readonly value: InjectedValue } | undefined;
    readonly unused: Unused[] = [];

    constructor(readonly key: string, readonly type: string, readonly name: string, readonly candidates: Candidate[]) {}
}

/** > 0 when `a` has higher precedence: a higher layer first, then the higher category score. */
export function comparePrecedence(a: Candidate, b: Candidate): number {
    if (a.layerIndex !== b.layerIndex) return b.layerIndex - a.layerIndex;
    const byScore = compareScores(a.alternative.score, b.alternative.score);
    if (byScore !== 0 || a.rank.length === 0 || b.rank.length === 0) return byScore;
    return -compareScores(a.rank, b.rank);
}
