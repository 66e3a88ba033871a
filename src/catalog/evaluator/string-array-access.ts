import { formatValue, generalizePuppet, inferPuppet, rubyMessageValue } from '../../types/index.js';
import { PDefault, type PuppetValue } from '../../values/index.js';
import { EvalIssue, type Where } from '../errors.js';
import { article, CatalogIssues } from '../issues.js';
import { parseNumericString } from './ast-util.js';

/**
 * `$string[...]` and `$array[...]`: one index, or a start and a count, where negative numbers
 * count from the end and out-of-range access gives an empty (or undef) result, not an error.
 * Keys are flattened first (`$s[[1, 2]]` is `$s[1, 2]`). A string takes numeric strings as
 * numbers silently; an array coerces its keys as arithmetic does (warning about a numeric
 * string, refusing what is not a number); either refuses a number that is not an Integer.
 */
export interface AccessContext {
    /** Where key `i` (of the flattened keys) is written: Puppet blames a bad key there. */
    key(i: number): Where | undefined;
    /** Where the accessed expression is: a wrong number of keys is blamed there. */
    readonly left: Where | undefined;
    /** Told when an array key is a numeric string used as a number. */
    coerced(i: number, text: string, value: bigint | number): void;
}

/** The type Puppet names for a bad key: its generalized inferred type. */
function keyTypeName(v: PuppetValue): string {
    if (v === null) return 'Undef';
    if (v instanceof PDefault) return 'Default';
    return formatValue(generalizePuppet(inferPuppet(v)));
}

function stringKey(v: PuppetValue, i: number, cx: AccessContext): number {
    const n = typeof v === 'string' ? parseNumericString(v) ?? v : v;
    if (typeof n === 'bigint') return Number(n);
    const type = keyTypeName(n);
    throw EvalIssue.of(CatalogIssues.EVAL_BAD_STRING_SLICE_KEY_TYPE, { actual: type, article: article(type).split(' ')[0] }, cx.key(i));
}

function numericKey(v: PuppetValue, i: number, cx: AccessContext): bigint | number {
    let n: PuppetValue = v;
    if (typeof v === 'string') {
        const parsed = parseNumericString(v);
        if (parsed !== undefined) cx.coerced(i, v, parsed);
        n = parsed ?? null;
    }
    if (typeof n !== 'bigint' && typeof n !== 'number') throw EvalIssue.of(CatalogIssues.EVAL_NOT_NUMERIC, { value: rubyMessageValue(v) }, cx.key(i));
    return n;
}

function integerKey(n: bigint | number, i: number, cx: AccessContext): number {
    if (typeof n === 'number') throw EvalIssue.of(CatalogIssues.EVAL_BAD_SLICE_KEY_TYPE, { left: 'An Array', actual: 'Float', expected: 'Integer' }, cx.key(i));
    return Number(n);
}

/** Ruby's `o[start, count]` after Puppet's adjustment of negative values; undefined for Ruby's nil. */
function sliceBounds(len: number, k1: number, k2: number): [number, number] | undefined {
    let start = k1 < 0 ? len + k1 : k1;
    let count = k2 < 0 ? len - start + k2 + 1 : k2;
    if (start < 0) { count += start; start = 0; }
    if (start > len || count < 0) return undefined;
    return [start, Math.min(count, len - start)];
}

function flat(keys: readonly PuppetValue[]): PuppetValue[] {
    return keys.flatMap(k => Array.isArray(k) ? flat(k) : [k]);
}

export function accessString(s: string, rawKeys: readonly PuppetValue[], cx: AccessContext): PuppetValue {
    const keys = flat(rawKeys);
    if (keys.length === 0 || keys.length > 2) throw EvalIssue.of(CatalogIssues.EVAL_BAD_STRING_SLICE_ARITY, { actual: keys.length }, cx.left);
    const chars = [...s];
    if (keys.length === 1) {
        let i = stringKey(keys[0], 0, cx);
        if (i < 0) i += chars.length;
        return i < 0 || i >= chars.length ? '' : chars[i];
    }
    const k1 = stringKey(keys[0], 0, cx);
    const k2 = stringKey(keys[1], 1, cx);
    const b = sliceBounds(chars.length, k1, k2);
    return b ? chars.slice(b[0], b[0] + b[1]).join('') : '';
}

export function accessArray(a: PuppetValue[], rawKeys: readonly PuppetValue[], cx: AccessContext): PuppetValue {
    const keys = flat(rawKeys);
    if (keys.length === 0 || keys.length > 2) throw EvalIssue.of(CatalogIssues.EVAL_BAD_ARRAY_SLICE_ARITY, { actual: keys.length }, cx.left);
    if (keys.length === 1) {
        let i = integerKey(numericKey(keys[0], 0, cx), 0, cx);
        if (i < 0) i += a.length;
        return i < 0 || i >= a.length ? null : a[i];
    }
    // Both keys are made numbers before either is checked to be an Integer.
    const [n1, n2] = [numericKey(keys[0], 0, cx), numericKey(keys[1], 1, cx)];
    const k1 = integerKey(n1, 0, cx);
    const k2 = integerKey(n2, 1, cx);
    const b = sliceBounds(a.length, k1, k2);
    return b ? a.slice(b[0], b[0] + b[1]) : [];
}
