import { formatValue } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { EvalIssue } from '../errors.js';
import { CatalogIssues } from '../issues.js';

/**
 * `$string[...]` and `$array[...]`: one index, or a start and a count, where negative numbers
 * count from the end and out-of-range access gives an empty (or undef) result, not an error.
 */

function index(n: PuppetValue): number {
    if (typeof n === 'bigint') return Number(n);
    if (typeof n === 'number') return Math.trunc(n);
    throw EvalIssue.of(CatalogIssues.EVAL_INDEX_NOT_INTEGER, { value: formatValue(n) });
}

function sliceBounds(len: number, keys: PuppetValue[]): [number, number] | undefined {
    let start = index(keys[0]);
    if (start < 0) start += len;
    let count = keys.length > 1 ? index(keys[1]) : 1;
    if (start < 0) { count += start; start = 0; }
    if (start > len) return undefined;
    if (count < 0) count = len + count - start + 1;
    return [start, Math.max(0, Math.min(count, len - start))];
}

export function accessString(s: string, keys: PuppetValue[]): PuppetValue {
    const chars = [...s];
    if (keys.length === 1) {
        let i = index(keys[0]);
        if (i < 0) i += chars.length;
        return i < 0 || i >= chars.length ? '' : chars[i];
    }
    const b = sliceBounds(chars.length, keys);
    return b ? chars.slice(b[0], b[0] + b[1]).join('') : '';
}

export function accessArray(a: PuppetValue[], keys: PuppetValue[]): PuppetValue {
    if (keys.length === 1) {
        let i = index(keys[0]);
        if (i < 0) i += a.length;
        return i < 0 || i >= a.length ? null : a[i];
    }
    const b = sliceBounds(a.length, keys);
    return b ? a.slice(b[0], b[0] + b[1]) : [];
}
