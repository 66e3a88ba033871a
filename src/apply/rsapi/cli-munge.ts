import { isInstance, PAnyType, PArrayType, POptionalType, PVariantType, typeToString } from '../../types/index.js';
import { DevError } from '../errors.js';
import type { PuppetValue } from '../values.js';

const INTEGER = /^-?\d+$/;
const NUMERIC = /^-?(?:\d+\.\d+(?:[eE]-?\d+)?|\d+[eE]-?\d+|0[xX][0-9a-fA-F]+|0[0-7]+)$/;

/**
 * What `puppet resource` does to command-line strings before validation (features.md §5.3): only
 * there are strings turned into booleans and numbers; normal runs never coerce. The gem's message
 * for an ambiguous Variant has two typos ("unabiguously convertable"); they are fixed here.
 */
export function mungeCliValue(prefix: string, type: PAnyType, value: PuppetValue): PuppetValue {
    if (value === null) return value;
    if (type instanceof POptionalType) return type.type ? mungeCliValue(prefix, type.type, value) : value;
    if (type instanceof PVariantType) {
        const successes = type.types.filter(m => m.kind !== 'String')
            .map(m => ({ m, v: mungeCliValue(prefix, m, value) }))
            .filter(({ m, v }) => isInstance(m, v));
        if (successes.length === 1) return successes[0].v;
        if (successes.length > 1) throw new DevError(`${prefix} ${JSON.stringify(value)} is not unambiguously convertible to ${typeToString(type)}`);
        return value;
    }
    if (type instanceof PArrayType && Array.isArray(value)) {
        const element = type.element;
        if (!element) return value;
        const converted = value.map(v => mungeCliValue(prefix, element, v));
        return converted.every(v => isInstance(element, v)) ? converted : value;
    }
    if (typeof value !== 'string') return value;
    switch (type.kind) {
        case 'Boolean':
            return value === 'true' ? true : value === 'false' ? false : value;
        case 'Integer': case 'Float': case 'Numeric':
            if (INTEGER.test(value)) return BigInt(value);
            if (NUMERIC.test(value)) return /^-?0[xX]|^-?0[0-7]/.test(value) ? BigInt(Number(value)) : Number(value);
            return value;
        default:
            return value;
    }
}
