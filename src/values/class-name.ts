import type { PuppetValue } from './values.js';

/**
 * The name Puppet's messages use for the class of a plain data value ("got Integer", "comparison
 * of String with Hash"). Other values (Sensitive, types, ...) are left to the caller, because
 * Puppet's wording for them differs from message to message.
 */
export function dataClassName(v: PuppetValue): string | undefined {
    if (v === null) return 'Undef';
    if (typeof v === 'string') return 'String';
    if (typeof v === 'bigint') return 'Integer';
    if (typeof v === 'number') return 'Float';
    if (typeof v === 'boolean') return 'Boolean';
    if (Array.isArray(v)) return 'Array';
    if (v instanceof Map) return 'Hash';
    return undefined;
}
