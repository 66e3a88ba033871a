import { isMany, type MFeature } from './metamodel.js';
import type { PackageIndex } from './package-index.js';

/**
 * EMF's notion of an unset feature, shared by every writer so a model has one form in all of
 * them: absent or null, an empty list, or a value equal to the declared default. In a `Data`
 * feature only absence is unset: `null` is Puppet's undef, and `[]` / `{}` are values.
 */
export function isUnset(v: unknown, f: MFeature, index: PackageIndex): boolean {
    if (v === undefined) return true;
    if (f.kind === 'attribute' && !isMany(f) && index.primitiveOf(f.type) === 'Data') return false;
    if (v === null) return true;
    if (Array.isArray(v) && v.length === 0 && isMany(f)) return true;
    return f.defaultValue !== undefined && f.kind === 'attribute' && String(v) === f.defaultValue;
}
