import { copyValue, PSensitive, PRegexp } from './values.js';

/**
 * Exact structural equality of values as the runtime compares current and desired state
 * (Ruby `==` on the provider's hashes): Integer 1 equals Float 1.0, strings case-sensitively,
 * Sensitive by wrapped value.
 */
export function valuesEqual(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (a === undefined || b === undefined) return (a ?? null) === (b ?? null);
    if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return Number(a) === Number(b);
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
    if (a instanceof Map) {
        if (!(b instanceof Map) || a.size !== b.size) return false;
        for (const [k, x] of a) if (!b.has(k) || !valuesEqual(x, b.get(k))) return false;
        return true;
    }
    if (a instanceof PSensitive) return b instanceof PSensitive && valuesEqual(a.value, b.value);
    if (a instanceof PRegexp) return b instanceof PRegexp && a.source === b.source;
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(b) && !(b instanceof Map)) {
        const ka = Object.keys(a);
        const kb = Object.keys(b);
        return ka.length === kb.length && ka.every(k => k in b && valuesEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
    }
    return false;
}

/**
 * A deep copy, so code given our values (canonicalize, providers) cannot change ours: values'
 * copyValue, and provider data's plain objects (definitions, set hashes) copied the same way.
 */
export function deepCopy<T>(v: T): T {
    if (Array.isArray(v)) return v.map(deepCopy) as T;
    if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepCopy(x)])) as T;
    }
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, deepCopy(x)])) as T;
    return v instanceof PSensitive ? copyValue(v) as T : v;
}
