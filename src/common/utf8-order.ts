/** A UTF-16 code unit of a surrogate pair (or a lone one). */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Compares two strings by their UTF-8 bytes, as Ruby sorts strings (and Puppet its catalog's
 * resources and tags). Without surrogates, UTF-8 byte order is code point order, which is the
 * code unit order JavaScript's own comparison uses, done natively (a sort of a large catalog
 * calls this hundreds of thousands of times). A surrogate (a code point above U+FFFF, or a lone
 * surrogate, which encoding replaces) sorts after U+E000..U+FFFF in UTF-8 but before them in
 * code units: such strings take the encoding's way.
 */
export function compareUtf8(a: string, b: string): number {
    if (a === b) return 0;
    if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1;
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

const compareCodeUnits = (a: string, b: string): number => (a === b ? 0 : a < b ? -1 : 1);

/**
 * compareUtf8's order for sorting these strings: the native comparison when none of them holds a
 * surrogate (the same order then), found with one test per string instead of two per comparison.
 */
export function utf8OrderFor(strings: Iterable<string>): (a: string, b: string) => number {
    for (const s of strings) if (SURROGATE.test(s)) return compareUtf8;
    return compareCodeUnits;
}
