import { randomUUID } from 'node:crypto';
import type { PuppetValue } from '../model/index.js';
import type { EvaluationScope, InstanceFactory, ProducerObject } from './spi.js';
import type { InjectedValue } from './values.js';

/** The producer arguments (ARM-8 `producer_args => {...}`): one hash argument, or none. */
function argsHash(args: readonly InjectedValue[]): ReadonlyMap<PuppetValue, PuppetValue> {
    const first = args[0];
    return first instanceof Map ? first : new Map();
}

/**
 * The runtime producer classes every injector knows, for `to producer Type[P] { producer_args => {...} }`:
 * - `ConstantProducer` (`value`): what `bind x to 42` means internally (ARM-8 Producer);
 * - `LookupProducer` (`name`, optional `type`): the value bound to another key;
 * - `SequenceProducer` (`start` = 1, `step` = 1): start, start+step, ... one per production, so a
 *   singleton binding (the producer kept) continues the series and `singleton => false` restarts it;
 * - `UuidProducer`: a fresh random UUID per production (ARM-8's own example of a producer).
 * Other class names go to `next` (e.g. a factory of plug-in classes); undefined means unknown.
 */
export function builtinProducers(next: InstanceFactory = { instantiate: () => undefined }): InstanceFactory {
    return {
        instantiate(className, args, scope) {
            const a = argsHash(args);
            const producer = (runtimeType: string, produce: (s: EvaluationScope) => InjectedValue): ProducerObject => ({ runtimeType, produce });
            switch (className.replace(/^Type\[(.*)\]$/, '$1')) {
                case 'ConstantProducer': {
                    const value = a.get('value') ?? (args.length === 1 && !(args[0] instanceof Map) ? args[0] as PuppetValue : null);
                    return producer('ConstantProducer', () => value);
                }
                case 'LookupProducer': {
                    const name = a.get('name');
                    const type = a.get('type');
                    return producer('LookupProducer', s => s.inject(typeof name === 'string' ? name : '', typeof type === 'string' ? type : undefined));
                }
                case 'SequenceProducer': {
                    const start = a.get('start');
                    const step = a.get('step');
                    let next = typeof start === 'bigint' ? start : 1n;
                    const by = typeof step === 'bigint' ? step : 1n;
                    return producer('SequenceProducer', () => { const v = next; next += by; return v; });
                }
                case 'UuidProducer':
                    return producer('UuidProducer', () => randomUUID());
                default:
                    return next.instantiate(className, args, scope);
            }
        }
    };
}
