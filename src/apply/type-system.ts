/**
 * What the apply stage needs from Puppet's data-type system. The implementation is the shared
 * one in `src/types` (see shared-type-system.ts); the stage never parses type strings itself.
 * Types are opaque here.
 */
import type { PuppetValue } from './values.js';

export type PuppetType = object;

export type TypeParseResult =
    | { readonly ok: true; readonly type: PuppetType }
    /** `syntax`: not parsable at all; `notAType`: parsed, but not a type expression. */
    | { readonly ok: false; readonly kind: 'syntax' | 'notAType'; readonly message: string };

export interface TypeSystem {
    parse(typeString: string): TypeParseResult;
    isInstance(type: PuppetType, value: unknown): boolean;
    /** Puppet's TypeMismatchDescriber text, e.g. `pfx expects an Integer value, got String`. */
    describeMismatch(prefix: string, type: PuppetType, value: unknown): string;
    typeToString(type: PuppetType): string;
    typesEqual(a: PuppetType, b: PuppetType): boolean;
    /** What `puppet resource` does to a command-line string before validation ('true' → true, '5' → 5). */
    mungeCliValue(prefix: string, type: PuppetType, value: PuppetValue): PuppetValue;
    /**
     * The type a converted command-line value is checked against first: the gem's try_mungify
     * validates a non-nil value of `Optional[T]` against T, so its error names T.
     */
    cliCheckedType(type: PuppetType, value: PuppetValue): PuppetType;
    /** Whether the type is written `Optional[...]`: what the gem takes for "not mandatory" (Any or Variant[Undef, ...] are not). */
    isOptional(type: PuppetType): boolean;
}

/** Parses or throws the parse message; for type strings this stage writes itself. */
export function parseOrThrow(ts: TypeSystem, typeString: string): PuppetType {
    const r = ts.parse(typeString);
    if (!r.ok) throw new Error(`${typeString}: ${r.message}`);
    return r.type;
}
