import type { BinderResult } from './binder.js';
import type { Candidate, Entry } from './entries.js';
import type { InjectorServices } from './services.js';
import type { EvaluationScope } from './spi.js';
import type { InjectedValue } from './values.js';

/** Marks "no value": the key is unbound, or every applicable producer was optional and produced nothing. */
export const NOTHING: unique symbol = Symbol('nothing');
export type Maybe = InjectedValue | typeof NOTHING;

/** What producers may use of the injector that runs them. */
export interface ProducerRuntime {
    readonly services: InjectorServices;
    readonly scope: EvaluationScope;
    readonly result: BinderResult;
    /** The value of a key (loop-checked, type-checked against `type` when given). */
    valueOfKey(key: string, type: string | undefined, ignoreErasure?: boolean): Maybe;
    /** The value of one candidate (its producer created lazily). */
    produce(candidate: Candidate): InjectedValue;
    /** The value of an entry, falling through optional producers that produced nothing. */
    produceEntry(entry: Entry, ignoreErasure?: boolean): Maybe;
}
