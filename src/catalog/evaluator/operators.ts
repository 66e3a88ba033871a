import { formatValue, inferType, isAssignable, isInstance, objectValueAttribute, PAnyType, PResourceType, rubyMessageValue, typesEqual } from '../../types/index.js';
import { compareSemVer, fitsInt64, hashGet, hashSet, lookupKey, PDefault, PDeferred, PError, PObjectValue, PRegexp, PSemVer, PSemVerRange, semverRangeIncludes, PTimespan, PTimestamp, puppetEquals, type PuppetValue } from '../../values/index.js';
import { EvalIssue, RuntimeFailure } from '../errors.js';
import { article, CatalogIssues } from '../issues.js';
import { parseNumericString } from './ast-util.js';
import { timeArith } from './time-arith.js';

/** A short type label for operator errors: Integer, String, Array, ... */
function label(v: PuppetValue): string {
    const t = inferType(v);
    return t.kind === 'Tuple' ? 'Array' : t.kind === 'Struct' ? 'Hash' : t.kind;
}

/** Told when a numeric string is used as a number (Puppet warns about it). */
export type CoercionListener = (text: string, value: bigint | number) => void;

function toNumber(v: PuppetValue, side: 'left' | 'right', onCoerce?: CoercionListener): bigint | number {
    if (typeof v === 'bigint' || typeof v === 'number') return v;
    if (typeof v === 'string') {
        const n = parseNumericString(v);
        if (n !== undefined) {
            onCoerce?.(v, n);
            return n;
        }
    }
    // Puppet interpolates the Ruby value itself: an array or hash as Ruby inspects it, undef as ''.
    throw EvalIssue.of(CatalogIssues.EVAL_NOT_NUMERIC, { value: rubyMessageValue(v) }, undefined, side);
}

function checked(n: bigint, op: string): bigint {
    if (!fitsInt64(n)) {
        const hex = (n < 0n ? '-0x' : '+0x') + (n < 0n ? -n : n).toString(16);
        throw EvalIssue.of(CatalogIssues.EVAL_NUMERIC_OVERFLOW, { op, value: hex });
    }
    return n;
}

/** Ruby's floor division and modulo (the sign of the divisor). */
function floorDiv(a: bigint, b: bigint): bigint {
    const q = a / b;
    return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function floorMod(a: bigint, b: bigint): bigint {
    const m = a % b;
    return m !== 0n && ((m < 0n) !== (b < 0n)) ? m + b : m;
}

function arith(op: string, l: PuppetValue, r: PuppetValue, onCoerce?: CoercionListener): PuppetValue {
    const time = (v: PuppetValue): v is PTimespan | PTimestamp => v instanceof PTimespan || v instanceof PTimestamp;
    if (time(l) || time(r)) return timeArith(op, time(l) ? l : toNumber(l, 'left', onCoerce), time(r) ? r : toNumber(r, 'right', onCoerce));
    const a = toNumber(l, 'left', onCoerce);
    let b = toNumber(r, 'right', onCoerce);
    // Ruby's Integer#<< and #>> take a Float count truncated to an Integer.
    if (typeof a === 'bigint' && typeof b === 'number' && (op === '<<' || op === '>>')) b = BigInt(Math.trunc(b));
    if (typeof a === 'bigint' && typeof b === 'bigint') {
        switch (op) {
            case '+': return checked(a + b, op);
            case '-': return checked(a - b, op);
            case '*': return checked(a * b, op);
            case '/': if (b === 0n) throw EvalIssue.of(CatalogIssues.EVAL_DIV_BY_ZERO, {}); return checked(floorDiv(a, b), op);
            case '%': if (b === 0n) throw EvalIssue.of(CatalogIssues.EVAL_DIV_BY_ZERO, {}); return floorMod(a, b);
            case '<<': return checked(b >= 0n ? a << b : a >> -b, op);
            case '>>': return checked(b >= 0n ? a >> b : a << -b, op);
            default: break;
        }
    }
    const x = Number(a);
    const y = Number(b);
    if (op === '%' || op === '<<' || op === '>>') {
        if (typeof a === 'number') throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE, { op, operand: 'a Float' }, undefined, 'left');
        throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE_WHEN, { op }, undefined, 'left');
    }
    let result: number;
    switch (op) {
        case '+': result = x + y; break;
        case '-': result = x - y; break;
        case '*': result = x * y; break;
        default: result = x / y; break;
    }
    if (!Number.isFinite(result)) throw EvalIssue.of(CatalogIssues.EVAL_RESULT_IS_INFINITY, { op }, undefined, 'left');
    return result;
}

/** The binary operators + - * / % << >> with Puppet's collection semantics. */
export function binaryArith(op: string, l: PuppetValue, r: PuppetValue, onCoerce?: CoercionListener): PuppetValue {
    if (op === '+') {
        if (Array.isArray(l)) {
            if (Array.isArray(r)) return [...l, ...r];
            if (r instanceof Map) return [...l, ...[...r].map(([k, v]) => [k, v])];
            return [...l, r];
        }
        if (l instanceof Map) {
            const out = new Map(l);
            if (r instanceof Map) {
                for (const [k, v] of r) hashSet(out, k, v);
                return out;
            }
            if (Array.isArray(r)) {
                const pairs = r.length === 2 && !Array.isArray(r[0]) ? [r] : r;
                for (const p of pairs) if (Array.isArray(p) && p.length === 2) hashSet(out, p[0], p[1]);
                return out;
            }
            throw new RuntimeFailure(CatalogIssues.EVAL_HASH_APPEND.message());
        }
    }
    if (op === '-') {
        if (Array.isArray(l)) {
            const remove = Array.isArray(r) ? r : r instanceof Map ? [...r].map(([k, v]) => [k, v]) : [r];
            return l.filter(x => !remove.some(y => puppetEquals(x, y)));
        }
        if (l instanceof Map) {
            const keys = r instanceof Map ? [...r.keys()] : Array.isArray(r) ? r : [r];
            const out = new Map(l);
            for (const k of keys) {
                const e = lookupKey(out, k);
                if (e) out.delete(e[0]);
            }
            return out;
        }
    }
    if (op === '<<' && Array.isArray(l)) return [...l, r];
    // Only + - << are collection operators; with the others a collection is coerced to a number (and refused).
    if (op === '<<' && l instanceof Map) {
        throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE, { op, operand: article(label(l)) }, undefined, 'left');
    }
    return arith(op, l, r, onCoerce);
}

function compareKind(v: PuppetValue): string {
    if (typeof v === 'bigint' || typeof v === 'number') return 'Numeric';
    if (typeof v === 'string') return 'String';
    return label(v);
}

/** `<`, `<=`, `>`, `>=`: numbers, strings (case-insensitively), types (by assignability), versions, times. */
export function compare(op: string, l: PuppetValue, r: PuppetValue): boolean {
    let c: number;
    if ((typeof l === 'bigint' || typeof l === 'number') && (typeof r === 'bigint' || typeof r === 'number')) {
        c = typeof l === 'bigint' && typeof r === 'bigint' ? (l < r ? -1 : l > r ? 1 : 0) : Math.sign(Number(l) - Number(r));
    } else if (typeof l === 'string' && typeof r === 'string') {
        const a = l.toLowerCase();
        const b = r.toLowerCase();
        c = a < b ? -1 : a > b ? 1 : 0;
    } else if (l instanceof PAnyType && r instanceof PAnyType) {
        const eq = typesEqual(l, r);
        switch (op) {
            case '<': return !eq && isAssignable(r, l);
            case '<=': return eq || isAssignable(r, l);
            case '>': return !eq && isAssignable(l, r);
            default: return eq || isAssignable(l, r);
        }
    } else if (l instanceof PSemVer && r instanceof PSemVer) {
        c = compareSemVer(l, r);
    } else if ((l instanceof PTimestamp && r instanceof PTimestamp) || (l instanceof PTimespan && r instanceof PTimespan)) {
        c = l.nanos < r.nanos ? -1 : l.nanos > r.nanos ? 1 : 0;
    } else if ((l instanceof PTimestamp || l instanceof PTimespan) && (typeof r === 'bigint' || typeof r === 'number')) {
        c = timeToNumber(l, r);
    } else if ((r instanceof PTimestamp || r instanceof PTimespan) && (typeof l === 'bigint' || typeof l === 'number')) {
        // Puppet compares the other way and inverts the result.
        c = -timeToNumber(r, l);
    } else if (l instanceof PDefault && r instanceof PDefault) {
        // Ruby compares the two :default symbols.
        c = 0;
    } else {
        if (l instanceof PAnyType) return false;
        const lk = compareKind(l);
        const why = lk === 'Numeric' ? 'A Numeric is not comparable to non Numeric'
            : lk === 'String' ? 'A String is not comparable to a non String'
                : l instanceof PTimespan ? 'Timespans are only comparable to Timespans, Integers, and Floats'
                    : l instanceof PTimestamp ? 'Timestamps are only comparable to Timestamps, Integers, and Floats'
                        : l instanceof PSemVer ? 'Versions not comparable to non Versions'
                            : l instanceof PDefault ? 'Symbol not comparable to non Symbol' : 'Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable';
        // Puppet labels the Ruby values here: a version by its class name's last segment as Ruby
        // capitalizes it, nil as "Undef Value", the :default symbol as any object.
        // A type by its string (`Integer-Type`, `Notify['a'] Resource-Reference`), as Puppet's label provider names it.
        const named = (v: PuppetValue): string => v instanceof PSemVer ? 'Semver' : v === null ? 'Undef Value' : v instanceof PDefault ? 'Object'
            : v instanceof PAnyType ? `${formatValue(v)}${v instanceof PResourceType && v.title !== null ? ' Resource-Reference' : '-Type'}` : label(v);
        throw EvalIssue.of(CatalogIssues.EVAL_COMPARISON_NOT_POSSIBLE, { left: named(l), op, right: named(r), reason: why });
    }
    switch (op) {
        case '<': return c < 0;
        case '<=': return c <= 0;
        case '>': return c > 0;
        default: return c >= 0;
    }
}

/**
 * `==`: Puppet's equality, where a Timespan or Timestamp on the left equals a number of the same
 * whole seconds (Ruby's Comparable#== through TimeData#<=>); a number on the left never equals one.
 */
export function equalsOperator(l: PuppetValue, r: PuppetValue): boolean {
    if ((l instanceof PTimestamp || l instanceof PTimespan) && (typeof r === 'bigint' || typeof r === 'number')) return timeToNumber(l, r) === 0;
    return puppetEquals(l, r);
}

/**
 * An attribute of one of Puppet's Object values read as a method ($deferred.name,
 * $error.message); undefined when the value has no such attribute.
 */
export function objectAttribute(v: PuppetValue, name: string): PuppetValue | undefined {
    if (v instanceof PDeferred) return name === 'name' ? v.name : name === 'arguments' ? v.args : undefined;
    if (v instanceof PObjectValue) return objectValueAttribute(v, name);
    if (v instanceof PError) {
        switch (name) {
            case 'message': case 'msg': return v.msg;
            case 'kind': return v.kind;
            case 'issue_code': return v.issueCode;
            case 'details': return v.details;
            default: return undefined;
        }
    }
    return undefined;
}

/** TimeData#<=> with a number: whole seconds (rounded down) against an Integer, seconds as a Float against a Float. */
function timeToNumber(t: PTimestamp | PTimespan, n: bigint | number): number {
    if (typeof n === 'bigint') {
        const ns = 1_000_000_000n;
        const secs = t.nanos >= 0n ? t.nanos / ns : -((-t.nanos + ns - 1n) / ns);
        return secs < n ? -1 : secs > n ? 1 : 0;
    }
    return Math.sign(Number(t.nanos) / 1e9 - n);
}


/** The result of a regexp match: the groups ($0..$n), or null when it does not match. */
export function regexMatch(re: PRegexp, s: string): (string | null)[] | null {
    const m = re.regexp.exec(s);
    return m ? [...m].map(g => g ?? null) : null;
}

/** `in`: substring (case-insensitive), array membership, hash key; regexps and types match elements. */
export function inOperator(l: PuppetValue, r: PuppetValue, onMatch: (groups: (string | null)[]) => void): boolean {
    if (typeof r === 'string') {
        if (typeof l === 'string') return r.toLowerCase().includes(l.toLowerCase());
        if (l instanceof PRegexp) {
            const m = regexMatch(l, r);
            if (m) onMatch(m);
            return m !== null;
        }
        return typeof l === 'bigint' || typeof l === 'number' ? puppetEquals(r, l) : false;
    }
    const candidates = Array.isArray(r) ? r : r instanceof Map ? [...r.keys()] : null;
    if (candidates === null) return false;
    for (const c of candidates) {
        if (l instanceof PRegexp) {
            if (typeof c === 'string') {
                const m = regexMatch(l, c);
                if (m) { onMatch(m); return true; }
            }
        } else if (l instanceof PAnyType) {
            if (isInstance(l, c)) return true;
        } else if (typeof l === 'string' || l instanceof PSemVer) {
            // A string (or version) is matched by each element as by a case option: a regexp, a type, a value.
            if (caseOptionMatches(c, l, onMatch)) return true;
        } else if (puppetEquals(l, c)) {
            return true;
        }
    }
    return false;
}

/** Truthiness: only undef and false are false. */
export function isTruthy(v: PuppetValue): boolean {
    return v !== null && v !== false;
}

export { formatValue };

/**
 * Puppet's case/selector match of one option value: a regexp matches strings (reporting its
 * match), a type its instances, an array or hash element by element (a hash: each of the
 * option's keys), `default` anything inside a collection, other values by equality.
 */
export function caseOptionMatches(option: PuppetValue, test: PuppetValue, onMatch: (m: Array<string | null>) => void): boolean {
    if (option instanceof PRegexp) {
        if (typeof test !== 'string') return false;
        const m = regexMatch(option, test);
        if (m) onMatch(m);
        return m !== null;
    }
    // A type option (a reference too) matches its instances only: a type value equal to it is none (Puppet's is_match?).
    if (option instanceof PAnyType) return isInstance(option, test);
    if (option instanceof PSemVerRange) return semverRangeIncludes(option.range, test);
    if (option instanceof PSemVer) {
        // A version matches an equal version, or a string that parses as one (build metadata aside).
        const m = typeof test === 'string' ? /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(test) : null;
        const v = test instanceof PSemVer ? test : m ? new PSemVer(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]), m[4] ?? '', '') : null;
        return v !== null && v.major === option.major && v.minor === option.minor && v.patch === option.patch && v.prerelease === option.prerelease;
    }
    if (Array.isArray(option)) return Array.isArray(test) && test.length === option.length && option.every((o, i) => caseOptionMatches(o, test[i], onMatch));
    if (option instanceof Map) return test instanceof Map && [...option].every(([k, o]) => caseOptionMatches(o, hashGet(test, k) ?? null, onMatch));
    return option instanceof PDefault || puppetEquals(option, test);
}
