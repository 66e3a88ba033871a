import { describeMismatch, formatMismatches, isInstance, joinMismatchLines, parseTypeString, type PAnyType } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import type { HieraTypeSupport } from './engine.js';
import { LookupError, PuppetErrorClass } from './errors.js';

/**
 * Type assertions for lookups through the shared Puppet type system (src/types), with
 * TypeAsserter's message: "Found value has wrong type, expects an Integer value, got String".
 * `convert` (lookup_options convert_to) needs Puppet's `new`, which the catalog builder owns;
 * pass it in when available.
 */
export function createTypeSupport(newFunction?: (type: PuppetValue, value: PuppetValue, args: readonly PuppetValue[]) => PuppetValue): HieraTypeSupport {
    const parsed = new Map<string, PAnyType>();
    return {
        assertType(type, value, subject) {
            let t = typeof type === 'string' ? parsed.get(type) : type as PAnyType;
            if (!t) { t = parseTypeString(type as string); parsed.set(type as string, t); }
            if (isInstance(t, value)) return value;
            throw new LookupError(typeAssertionMessage(subject, t, value), { code: BindingsIssues.LOOKUP_TYPE_MISMATCH, puppetClass: PuppetErrorClass.TYPE_ASSERTION });
        },
        convert(type, value, args) {
            if (!newFunction) {
                throw new LookupError("convert_to needs Puppet's new() function, which the catalog builder does not provide yet", { code: BindingsIssues.LOOKUP_UNSUPPORTED });
            }
            const target = typeof type === 'string' ? parseTypeString(type) : type;
            return newFunction(target, value, args);
        }
    };
}

const parsedTypes = new Map<string, PAnyType>();

/**
 * TypeAsserter's message for `value` against `type`: "SUBJECT has wrong type, expects ...", one
 * line per mismatch joined as TypeMismatchDescriber joins several.
 */
export function typeAssertionMessage(subject: string, type: PAnyType | string, value: PuppetValue): string {
    let t = typeof type === 'string' ? parsedTypes.get(type) : type;
    if (t === undefined) { t = parseTypeString(type as string); parsedTypes.set(type as string, t); }
    return joinMismatchLines(formatMismatches(`${subject} has wrong type,`, describeMismatch(t, value)));
}

/** Whether `value` is an instance of the type written `type`. */
export function isInstanceOf(type: string, value: PuppetValue): boolean {
    let t = parsedTypes.get(type);
    if (t === undefined) { t = parseTypeString(type); parsedTypes.set(type, t); }
    return isInstance(t, value);
}
