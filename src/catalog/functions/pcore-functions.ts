import { PAnyType, resolveAlias, PObjectType } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import type { PuppetFunction } from './function.js';

/**
 * Puppet's Ruby building an annotation from its initialization hash: the Annotation type itself
 * is abstract (its class has no from_hash), so any hash given for it fails there.
 */
const NO_FROM_HASH = "undefined method `from_hash' for Puppet::Pops::Types::Annotation:Class\n\n    implementation_class.from_hash(hash)\n                        ^^^^^^^^^^";

function isNamed(t: PuppetValue, name: string): boolean {
    const r = t instanceof PAnyType ? resolveAlias(t) : undefined;
    return r instanceof PObjectType && r.name === name && r.parent === null;
}

/** Whether `t` is Pcore's abstract Annotation type (the only annotation type a manifest can name). */
const isAnnotation = (t: PuppetValue): boolean => isNamed(t, 'Annotation');

/** An annotation of `type` from the hash given for it (undef: none). */
function annotationOf(type: PuppetValue, hash: PuppetValue): PuppetValue {
    if (hash === null) return null;
    if (isAnnotation(type)) throw new RuntimeFailure(NO_FROM_HASH);
    throw new RuntimeFailure(`annotations of ${String(type)} cannot be created: only Pcore's own annotation types are known`);
}

export const pcoreFunctions: Record<string, PuppetFunction> = {
    /**
     * annotate(Annotation, value) reads the value's annotation (none: no value carries one here),
     * building it from the block's hash; annotate(Annotation, value, hash or 'clear') sets or
     * clears it; annotate(Pcore, value, {Annotation type => hash}) sets each and returns the value.
     */
    annotate: (call, [type, value, third], block) => {
        if (third === undefined) return block ? annotationOf(type, call.callLambda(block, [])) : null;
        // The dispatch on Type[Pcore] takes a hash of annotation types; the one on Type[Annotation] that type's hash.
        if (third instanceof Map && isNamed(type, 'Pcore')) {
            for (const [t, hash] of third) annotationOf(t, hash);
            return value;
        }
        return third === 'clear' ? null : annotationOf(type, third);
    }
};
