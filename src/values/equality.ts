import { PBinary, PDefault, PError, PObjectValue, PRegexp, PSemVer, PSensitive, PTimespan, PTimestamp, PTypeValue, type PuppetValue } from './values.js';

/**
 * Puppet's `==`: strings compare case-insensitively, Integer and Float compare by value,
 * arrays and hashes deeply (hash order does not matter).
 */
export function puppetEquals(a: PuppetValue, b: PuppetValue): boolean {
    if (a === b) return true;
    if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
    if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
        return Number(a) === Number(b);
    }
    return structEquals(a, b, puppetEquals);
}

/** Exact equality (case-sensitive strings, Integer 1 != Float 1.0): hash keys, `unique`, Enum. */
export function strictEquals(a: PuppetValue, b: PuppetValue): boolean {
    if (a === b) return true;
    if (typeof a !== typeof b) return false;
    return structEquals(a, b, strictEquals);
}

function structEquals(a: PuppetValue, b: PuppetValue, eq: (x: PuppetValue, y: PuppetValue) => boolean): boolean {
    if (Array.isArray(a)) {
        return Array.isArray(b) && a.length === b.length && a.every((x, i) => eq(x, b[i]));
    }
    if (a instanceof Map) {
        if (!(b instanceof Map) || a.size !== b.size) return false;
        for (const [k, x] of a) {
            const other = lookupKey(b, k);
            if (other === undefined || !eq(x, other[1])) return false;
        }
        return true;
    }
    if (a instanceof PRegexp) return b instanceof PRegexp && a.source === b.source;
    if (a instanceof PDefault) return b instanceof PDefault;
    // Sensitive#== compares the wrapped values' hashes: equal values are equal.
    if (a instanceof PSensitive) return b instanceof PSensitive && strictEquals(a.value, b.value);
    if (a instanceof PTimestamp) return b instanceof PTimestamp && a.nanos === b.nanos;
    if (a instanceof PTimespan) return b instanceof PTimespan && a.nanos === b.nanos;
    if (a instanceof PSemVer) return b instanceof PSemVer && a.toString() === b.toString();
    if (a instanceof PBinary) return b instanceof PBinary && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
    if (a instanceof PTypeValue) return b instanceof PTypeValue && a.equalsType(b);
    if (a instanceof PError) {
        return b instanceof PError && a.msg === b.msg && a.kind === b.kind && a.issueCode === b.issueCode && eq(a.details, b.details);
    }
    // Objects are equal when of the same type with equal attributes.
    if (a instanceof PObjectValue) {
        return b instanceof PObjectValue && a.type.equalsType(b.type) && a.values.size === b.values.size && [...a.values].every(([k, x]) => b.values.has(k) && eq(x, b.values.get(k) ?? null));
    }
    return false;
}

/** The entry of `h` whose key equals `k` (by value for collections), or undefined. */
export function lookupKey(h: Map<PuppetValue, PuppetValue>, k: PuppetValue): [PuppetValue, PuppetValue] | undefined {
    if (h.has(k)) return [k, h.get(k) as PuppetValue];
    if (k !== null && typeof k === 'object') {
        for (const e of h) if (strictEquals(e[0], k)) return e;
    }
    return undefined;
}

export function hashGet(h: Map<PuppetValue, PuppetValue>, k: PuppetValue): PuppetValue | undefined {
    return lookupKey(h, k)?.[1];
}

/** Sets `k`, replacing an equal key that is a collection (Map itself compares objects by identity). */
export function hashSet(h: Map<PuppetValue, PuppetValue>, k: PuppetValue, v: PuppetValue): void {
    const e = k !== null && typeof k === 'object' ? lookupKey(h, k) : undefined;
    h.set(e ? e[0] : k, v);
}
