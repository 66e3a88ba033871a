import { PAnyType, typesEqual } from '../types/index.js';
import { PDefault, PRegexp, strictEquals, type PuppetValue } from '../values/index.js';
import { RClass, classOf, RObject, RProc, RRange, RSymbol, type RValue } from './objects.js';
import { regexpOptions } from './regexp.js';

const isNum = (v: RValue): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

/** Ruby's `==` for values without a user-visible override (numbers by value, collections deeply). */
export function rEquals(a: RValue, b: RValue, other: (a: RValue, b: RValue) => boolean): boolean {
    if (a === b) return true;
    if (isNum(a) && isNum(b)) return typeof a === typeof b ? a === b : Number(a) === Number(b) && (typeof a === 'number' ? Number.isInteger(a) : Number.isInteger(b));
    if (a instanceof PDefault || b instanceof PDefault) return symbolName(a) === 'default' && symbolName(b) === 'default';
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => rEquals(x, b[i], other));
    if (a instanceof Map) {
        if (!(b instanceof Map) || a.size !== b.size) return false;
        for (const [k, x] of a) {
            const e = findKey(b, k);
            if (e === undefined || !rEquals(x, e[1], other)) return false;
        }
        return true;
    }
    if (a instanceof RRange) return b instanceof RRange && a.exclusive === b.exclusive && rEquals(a.from, b.from, other) && rEquals(a.to, b.to, other);
    if (a instanceof PRegexp) return b instanceof PRegexp && a.source === b.source && regexpOptions(a) === regexpOptions(b);
    if (a instanceof PAnyType) return b instanceof PAnyType && typesEqual(a, b);
    if (a instanceof RSymbol || a instanceof RClass || a instanceof RProc) return false;
    // An object inside a collection compares by its own `==` (Puppet::Resource references, Structs).
    if (a instanceof RObject) return other(a, b);
    return strictEquals(a as PuppetValue, b as PuppetValue);
}

function symbolName(v: RValue): string | undefined {
    return v instanceof RSymbol ? v.name : v instanceof PDefault ? 'default' : undefined;
}

/** `eql?`: like `==` but 1 and 1.0 differ (Hash keys, `uniq`). */
export function rEql(a: RValue, b: RValue): boolean {
    if (isNum(a) && isNum(b)) return typeof a === typeof b && a === b;
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => rEql(x, b[i]));
    return rEquals(a, b, () => false);
}

/** The entry of `h` whose key is `eql?` to `k`. */
export function findKey(h: Map<RValue, RValue>, k: RValue): [RValue, RValue] | undefined {
    if (h.has(k)) return [k, h.get(k) as RValue];
    if (k instanceof PDefault) return findKey(h, RSymbol.of('default'));
    if (k !== null && typeof k === 'object') for (const e of h) if (typeof e[0] === 'object' && rEql(e[0], k)) return e;
    return undefined;
}

/** `<=>`: -1, 0, 1, or null when the two cannot be compared. */
export function compare(a: RValue, b: RValue): number | null {
    if (isNum(a) && isNum(b)) {
        if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
        const x = Number(a);
        const y = Number(b);
        if (Number.isNaN(x) || Number.isNaN(y)) return null;
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    if (a instanceof RSymbol && b instanceof RSymbol) return compare(a.name, b.name);
    if (Array.isArray(a) && Array.isArray(b)) {
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
            const c = compare(a[i], b[i]);
            if (c !== 0) return c;
        }
        return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
    }
    if (a === b) return 0;
    return null;
}

/** `pattern === value` for classes, ranges and procs; anything else is `==`. */
export function caseEquals(pattern: RValue, value: RValue, eq: (a: RValue, b: RValue) => boolean): boolean {
    if (pattern instanceof RClass) return classOf(value).isSubclassOf(pattern);
    if (pattern instanceof RRange) return rangeIncludes(pattern, value);
    if (pattern instanceof RProc) { const r = pattern.call([value]); return r !== null && r !== false; }
    return eq(pattern, value);
}

export function rangeIncludes(r: RRange, v: RValue): boolean {
    const lo = r.from === null ? -1 : compare(r.from, v);
    const hi = r.to === null ? -1 : compare(v, r.to);
    if (lo === null || hi === null) return false;
    return lo <= 0 && (r.exclusive ? hi < 0 : hi <= 0);
}
