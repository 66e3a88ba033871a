import { rubyToJs } from './ruby-regexp.js';

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
    | PIterator | PDeferred | PError | PObjectValue | PTypeValue;

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

/** The regexp as Ruby's Regexp#inspect writes it: `/a\/b/` (a slash not already escaped gets a backslash; `\\/` is an escaped backslash and a slash). */
export function regexpLiteral(source: string): string {
    return `/${source.replace(/\\[\s\S]|\//g, m => (m === '/' ? '\\/' : m))}/`;
}

export class PBinary {
    constructor(readonly bytes: Uint8Array) {}
}

/**
 * A Ruby binary (ASCII-8BIT) String, as YAML's `!!binary` reads: a String for Puppet's types and
 * string operations, written as a Binary by rich data.
 */
export class PBinaryString extends PBinary {
    /** The bytes as a string, one character each, as Ruby compares and splices them. */
    get text(): string {
        return Buffer.from(this.bytes).toString('latin1');
    }
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
    /** `range`: the range it stands for, when that is not what its text says (a range made of two versions). */
    constructor(readonly text: string, readonly range: string = text) {}
    toString(): string {
        return this.text;
    }
}

/** A lazy iterator (the result of `reverse_each`, `step` without a block). */
export class PIterator {
    /**
     * `pairs`: the elements are a hash's [key, value] pairs (its type is a Tuple of the two);
     * `typed`: the collection whose elements give the iterator's element type (all of them, in
     * their order, as Puppet infers it before stepping or reversing).
     * `rubyClass`: tree_each's iterators are plain Ruby objects, not Puppet iterators: their string
     * form is Ruby's default `#<Class:0x...>` (with the object's address).
     */
    constructor(readonly elementsOf: () => PuppetValue[], readonly pairs = false, readonly typed?: readonly PuppetValue[], readonly rubyClass?: string) {}
}

/** Puppet's Error data type (what dig's failures hand get's block): message, kind, details, issue code. */
export class PError {
    constructor(readonly msg: string, readonly kind: string | null, readonly details: PuppetValue, readonly issueCode: string | null) {}
    /** The attributes as Puppet's Error object holds them, in its order (unset ones left out). */
    attributes(): Array<[string, PuppetValue]> {
        const all: Array<[string, PuppetValue]> = [['msg', this.msg], ['kind', this.kind], ['details', this.details], ['issue_code', this.issueCode]];
        return all.filter(([, v]) => v !== null);
    }
}

/**
 * An instance of a Pcore Object type (one of src/types' PObjectType): its attribute values by
 * name, in the type's order (a parent's attributes first); the ones at their default are left out
 * (read through the type), as Puppet's initialization hash leaves them out.
 */
export class PObjectValue {
    constructor(readonly type: PTypeValue, readonly values: ReadonlyMap<string, PuppetValue>, readonly methods?: ObjectMethods) {}
}

/**
 * The functions of an Object type that the runtime implements rather than Puppet code (Puppet's
 * Puppet::LookupContext, whose `$context.not_found()` leaves a Hiera data provider function).
 */
export interface ObjectMethods {
    has(name: string): boolean;
    /** `block` calls the method call's lambda, when it has one. */
    call(name: string, args: readonly PuppetValue[], block: ((...args: PuppetValue[]) => PuppetValue) | undefined): PuppetValue;
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
