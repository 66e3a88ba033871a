import { PDefault, PRegexp, type PuppetValue } from '../values/index.js';
import { TypeConstructionError } from './construct.js';
import { describeMismatch, formatMismatches, joinMismatchLines } from './mismatch.js';
import { PHashType, PPatternType, PStringType, PStructType, PTypeSetType, PTypeType, PVariantType, type StructMember } from './model.js';
import { rubyInspectScalar } from './object.js';

const TYPE_NAME = /^[A-Z]\w*(?:::[A-Z]\w*)*$/;
const TYPE_NAME_TYPE = 'Pattern[/\\A[A-Z][\\w]*(?:::[A-Z][\\w]*)*\\z/]';
/** The initializer's keys in the order Puppet keeps (and prints) them. */
const KEYS = ['pcore_uri', 'pcore_version', 'name_authority', 'name', 'version', 'types', 'references', 'annotations'];

const raised = (message: string): TypeConstructionError => new TypeConstructionError(message, 'RUNTIME_ERROR', undefined, true);

/** The initializer hash's type: pcore_version is required, the other keys optional. */
function initType(): PStructType {
    const member = (name: string, value: StructMember['value'], required = false): StructMember => ({ name, keyType: required ? 'plain' : 'optional', value });
    return new PStructType([
        member('pcore_uri', new PStringType()), member('pcore_version', new PStringType(), true), member('name_authority', new PStringType()),
        member('name', new PPatternType([new PRegexp(TYPE_NAME.source)])), member('version', new PStringType()),
        // A type set's types are types or the initializer hashes of Object types (not modelled: an empty one).
        member('types', new PHashType(new PStringType(), new PVariantType([new PTypeType(), new PStructType([])]))), member('references', new PHashType()), member('annotations', new PHashType())
    ]);
}

/**
 * `TypeSet[init]`: an empty hash (or undef) is the default type set, a string its name; a hash
 * is checked as Puppet's initializer type checks it (each problem a line) and kept in Puppet's
 * key order, the name always (undef when not given).
 */
export function typeSetOf(args: readonly PuppetValue[]): PTypeSetType {
    if (args.length !== 1) throw new TypeConstructionError(`TypeSet-Type[] accepts 1 argument. Got ${args.length}`, 'BAD_TYPE_SLICE_ARITY');
    const init = args[0];
    if (init === null || (init instanceof Map && init.size === 0)) return new PTypeSetType();
    if (typeof init === 'string') {
        if (!TYPE_NAME.test(init)) throw raised(`TypeSet name has wrong type, expects a match for ${TYPE_NAME_TYPE}, got '${init}'`);
        return typeSetOf([new Map([['name', init]])]);
    }
    if (!(init instanceof Map)) {
        const text = init instanceof PDefault ? ':default:Symbol' : rubyInspectScalar(init);
        throw raised(`undefined method \`empty?' for ${text}\n\n    hash.nil? || hash.empty? ? PTypeSetType::DEFAULT : PTypeSetType.new(hash)\n                     ^^^^^^^`);
    }
    const lines = formatMismatches('TypeSet initializer has wrong type,', describeMismatch(initType(), init));
    if (lines.length > 0) throw raised(joinMismatchLines(lines));
    const kept = new Map<string, PuppetValue>();
    for (const k of KEYS) if (init.has(k) || k === 'name') kept.set(k, init.get(k) ?? null);
    return new PTypeSetType(kept);
}
