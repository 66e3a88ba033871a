import { PResourceType, resourceTitleError } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { CompileError, type Where } from '../errors.js';

/**
 * `Type[titles...]`: titles in arrays are flattened and undef ones dropped; each must be a string.
 * Puppet blames a bad title's key at its index among the flattened titles (after Resource's type
 * in `Resource[T, ...]`, whose error names the Resource type), one further when there are several
 * keys and some is an array; past the last of the `keyCount` keys it blames none (its report has no location, the
 * diagnostic points at the access `where`).
 */
export function titledReferences(typeName: string, keys: readonly PuppetValue[], viaResource: boolean, keyCount: number, where: Where): PResourceType[] {
    const titles = (keys as PuppetValue[]).flat(Infinity as 1).filter(k => k !== null);
    const shift = keys.length > 1 && keys.some(k => Array.isArray(k)) ? 1 : 0;
    return titles.map((title, i) => {
        if (typeof title === 'string') return new PResourceType(typeName, title);
        const err = resourceTitleError(viaResource ? 'Resource' : typeName, title, i + shift);
        if (i + shift < keyCount) throw err;
        const basic = `Evaluation Error: ${err.message}`;
        throw new CompileError('EVAL_RUNTIME', { message: basic, basic, issueCode: err.issueCode, rubyClass: 'Puppet::PreformattedError', at: where, log: { message: basic } });
    });
}
