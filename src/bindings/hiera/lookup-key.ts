import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { LookupError } from './errors.js';

/** A key segment: a string, or an integer (bigint) that indexes arrays. */
export type KeySegment = string | bigint;

const SPECIAL = /['".]/;
const SPLIT = /(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)/;

/**
 * Splits a dotted key as Puppet's SubLookup#split_key does: `a.b."c.d".0` gives
 * ['a', 'b', 'c.d', 0n]. `problem` builds the error for a malformed key.
 */
export function splitKey(key: string, problem: (what: string) => LookupError): KeySegment[] {
    if (!SPECIAL.test(key)) return [key];
    const parts = key.split(SPLIT);
    while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop(); // Ruby drops trailing empties
    if (parts.length === 0 || parts.shift() !== '') throw problem('Syntax error');
    const count = parts.length;
    if (count === 0) throw problem('Syntax error');
    const segments = parts.filter(p => p !== '.');
    if (segments.length * 2 !== count + 1) throw problem('Syntax error');
    return segments.map(raw => {
        const seg = raw.trim();
        if (seg.startsWith('"') || seg.startsWith("'")) return seg.slice(1, -1);
        if (/^(:?[+-]?[0-9]+)$/.test(seg)) return seg.startsWith(':') ? 0n : BigInt(seg);
        return seg;
    });
}

/** A parsed lookup key: the root key a data file is searched for, its module, and the dig path. */
export class LookupKey {
    readonly rootKey: string;
    readonly moduleName: string | undefined;
    readonly segments: readonly KeySegment[];

    constructor(readonly text: string) {
        const all = splitKey(text, p => new LookupError(`${p} in key: '${text}'`, { code: BindingsIssues.LOOKUP_KEY_SYNTAX, keyPath: text }));
        this.rootKey = String(all[0]);
        const q = this.rootKey.indexOf('::');
        // Ruby's root_key[0..qual_index-1]: a key starting with '::' takes the whole root key as its module name.
        this.moduleName = q < 0 ? undefined : q === 0 ? this.rootKey : this.rootKey.slice(0, q);
        this.segments = all.slice(1);
    }

    toString(): string {
        return this.text;
    }
}

/** The class name Ruby would report for a value (in dig type-mismatch messages). */
export function rubyClassName(v: PuppetValue): string {
    if (v === null) return 'NilClass';
    if (typeof v === 'string') return 'String';
    if (typeof v === 'bigint') return 'Integer';
    if (typeof v === 'number') return 'Float';
    if (typeof v === 'boolean') return v ? 'TrueClass' : 'FalseClass';
    if (Array.isArray(v)) return 'Array';
    if (v instanceof Map) return 'Hash';
    return v.constructor.name;
}

export const NOT_FOUND: unique symbol = Symbol('not found');
export type Found = PuppetValue | typeof NOT_FOUND;

/**
 * Digs `segments` into `value` (SubLookup#sub_lookup): a missing step is "not found", a step
 * into a scalar is a type-mismatch error naming the key.
 */
export function dig(key: string, segments: readonly KeySegment[], value: PuppetValue, onStep?: (seg: KeySegment, v: Found) => void): Found {
    let cur: PuppetValue = value;
    for (const seg of segments) {
        if (cur === null) { onStep?.(seg, NOT_FOUND); return NOT_FOUND; }
        if (typeof seg === 'bigint' && Array.isArray(cur)) {
            if (seg < 0n || seg >= BigInt(cur.length)) { onStep?.(seg, NOT_FOUND); return NOT_FOUND; }
            cur = cur[Number(seg)];
        } else {
            if (typeof cur === 'bigint') {
                // An Integer passes SubLookup's `respond_to?(:[])` test (bit access), then fails on
                // `include?`: Ruby's NoMethodError, with the error_highlight excerpt of Puppet's line.
                throw new LookupError(`undefined method \`include?' for ${cur}:Integer\n\n            unless value.include?(segment)\n                        ^^^^^^^^^`, {
                    code: BindingsIssues.LOOKUP_DIG_TYPE_MISMATCH, keyPath: key, puppetClass: 'NoMethodError'
                });
            }
            if (!(cur instanceof Map)) {
                throw new LookupError(`Data Provider type mismatch: Got ${rubyClassName(cur)} when a hash-like object was expected to access value using '${String(seg)}' from key '${key}'`, {
                    code: BindingsIssues.LOOKUP_DIG_TYPE_MISMATCH, keyPath: key
                });
            }
            if (!cur.has(seg)) { onStep?.(seg, NOT_FOUND); return NOT_FOUND; }
            cur = cur.get(seg) as PuppetValue;
        }
        onStep?.(seg, cur);
    }
    return cur;
}
