import { PSensitive, type PuppetHash, type PuppetValue } from './values.js';

/**
 * A deep copy of a value's mutable parts: arrays and hashes (keys are shared), and a Sensitive
 * wraps a copy of its value. Everything else is immutable and shared. Used where a value is
 * handed to code that may change it (deep merges, non-singleton producers, providers).
 */
export function copyValue<T extends PuppetValue>(v: T): T {
    return copy(v) as T;
}

function copy(v: PuppetValue): PuppetValue {
    if (Array.isArray(v)) return v.map(copy);
    if (v instanceof Map) return new Map([...(v as PuppetHash)].map(([k, x]) => [k, copy(x)]));
    if (v instanceof PSensitive) return new PSensitive(copy(v.value));
    return v;
}
