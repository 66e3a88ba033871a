import { describeMismatch, formatMismatches, isInstance, parseTypeString, type PAnyType } from '../../types/index.js';
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
            let t = parsed.get(type);
            if (!t) { t = parseTypeString(type); parsed.set(type, t); }
            if (isInstance(t, value)) return value;
            const message = formatMismatches(`${subject} has wrong type,`, describeMismatch(t, value)).join('\n');
            throw new LookupError(message, { code: BindingsIssues.LOOKUP_TYPE_MISMATCH, puppetClass: PuppetErrorClass.TYPE_ASSERTION });
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
