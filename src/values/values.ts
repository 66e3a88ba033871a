/**
 * The Puppet runtime value representation shared by every stage: JSON-like values are
 * themselves (Integer is a 64-bit bigint, Float a number), the rest are small classes so that
 * a value's Puppet type can always be told from its JavaScript representation.
 */
export type PuppetValue =
    | null | boolean | number | bigint | string
    | PuppetValue[]
    | PuppetHash
    | PDefault | PSensitive | PRegexp | PBinary | PTimestamp | PTimespan | PSemVer | PSemVerRange
    | PIterator | PDeferred | PTypeValue;

/**
 * A Puppet type used as a value (`Integer[1]`). The type classes live in src/types (its PAnyType
 * extends this), which builds on values; values never import types.
 */
export abstract class PTypeValue {
    abstract readonly kind: string;
    /** Puppet compares types by their meaning, which only src/types knows. */
    abstract equalsType(other: PTypeValue): boolean;
}

/** An insertion-ordered Puppet Hash. Keys are compared by identity for objects, so hash keys that are collections go through `hashKey` lookups. */
export type PuppetHash = Map<PuppetValue, PuppetValue>;

/** The `default` literal. */
export class PDefault {
    static readonly instance = new PDefault();
    private constructor() {}
}

/** Sensitive[T]: wraps a value so that no printer, log, report or diff shows it. */
export class PSensitive {
    constructor(readonly value: PuppetValue) {}
    toString(): string {
        return 'Sensitive [value redacted]';
    }
}

/** A Regexp value; `source` is the pattern as written between the slashes. */
export class PRegexp {
    private compiled: RegExp | undefined;
    constructor(readonly source: string) {}
    /** The pattern as a JavaScript RegExp (Ruby's syntax translated where the two differ). */
    get regexp(): RegExp {
        if (!this.compiled) {
            const { pattern, flags } = rubyToJs(this.source);
            this.compiled = new RegExp(pattern, flags);
        }
        return this.compiled;
    }
}

/** The regexp as Ruby's Regexp#inspect writes it: `/a\/b/` (slashes escaped). */
export function regexpLiteral(source: string): string {
    return `/${source.replace(/\\\/|\//g, '\\/')}/`;
}

/**
 * Ruby regexps spell a few things differently from JavaScript: \A, \z, \Z anchors, \h, and
 * leading option groups such as (?i) or (?m) (Ruby's m is JavaScript's s).
 */
export function rubyToJs(source: string): { pattern: string; flags: string } {
    let pattern = source;
    let flags = '';
    const lead = /^\(\?([imx]+)\)/.exec(pattern);
    if (lead) {
        pattern = pattern.slice(lead[0].length);
        if (lead[1].includes('i')) flags += 'i';
        if (lead[1].includes('m')) flags += 's';
        if (lead[1].includes('x')) pattern = pattern.replace(/#.*$/gm, '').replace(/\s+/g, '');
    }
    if (/\(\?<[A-Za-z_]\w*>/.test(pattern)) pattern = uncaptureUnnamed(pattern);
    pattern = pattern.replace(/\\A/g, '(?<![\\s\\S])').replace(/\\z/g, '$(?![\\s\\S])').replace(/\\Z/g, '(?=\\n?$(?![\\s\\S]))').replace(/\\h/g, '[0-9a-fA-F]');
    return { pattern, flags };
}

/**
 * Rewrites a regexp source where it is pattern syntax: escapes and character classes are copied
 * as they are; elsewhere `at(i)` may replace the `length` characters from `i` with `text`.
 */
export function rewritePattern(source: string, at: (i: number) => { text: string; length: number } | undefined): string {
    let out = '';
    let inClass = false;
    for (let i = 0; i < source.length; i++) {
        const c = source[i];
        if (c === '\\') { out += c + (source[i + 1] ?? ''); i++; continue; }
        if (inClass) { if (c === ']') inClass = false; out += c; continue; }
        if (c === '[') { inClass = true; out += c; continue; }
        const r = at(i);
        if (r) { out += r.text; i += r.length - 1; } else out += c;
    }
    return out;
}

/** In Ruby, a regexp with named groups does not capture its unnamed groups: make them (?:...). */
function uncaptureUnnamed(pattern: string): string {
    return rewritePattern(pattern, i => (pattern[i] === '(' && pattern[i + 1] !== '?' ? { text: '(?:', length: 1 } : undefined));
}

/** The translated pattern text alone (callers that add their own flags). */
export function rubyToJsPattern(source: string): string {
    return rubyToJs(source).pattern;
}

export class PBinary {
    constructor(readonly bytes: Uint8Array) {}
}

/** A point in time: nanoseconds since the epoch. */
export class PTimestamp {
    constructor(readonly nanos: bigint) {}
}

/** A duration in nanoseconds. */
export class PTimespan {
    constructor(readonly nanos: bigint) {}
}

export class PSemVer {
    constructor(readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly prerelease: string, readonly build: string) {}
    toString(): string {
        return `${this.major}.${this.minor}.${this.patch}${this.prerelease ? `-${this.prerelease}` : ''}${this.build ? `+${this.build}` : ''}`;
    }
}

export class PSemVerRange {
    constructor(readonly text: string) {}
    toString(): string {
        return this.text;
    }
}

/** A lazy iterator (the result of `reverse_each`, `step` without a block). */
export class PIterator {
    constructor(readonly elementsOf: () => PuppetValue[]) {}
}

/** A Deferred function call, resolved on the agent. */
export class PDeferred {
    constructor(readonly name: string, readonly args: PuppetValue[]) {}
}

export function isHash(v: PuppetValue): v is PuppetHash {
    return v instanceof Map;
}

export function isArray(v: PuppetValue): v is PuppetValue[] {
    return Array.isArray(v);
}

/** Integers are 64-bit in Puppet; anything outside is an error the caller reports. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export function fitsInt64(n: bigint): boolean {
    return n >= INT64_MIN && n <= INT64_MAX;
}
