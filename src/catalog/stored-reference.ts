import { capitalize, PClassType, PResourceType, PStoredReference } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import { RuntimeFailure } from './errors.js';
import { CatalogIssues } from './issues.js';

/**
 * A resource or class reference in its 3.x form (Puppet's Runtime3Converter makes a
 * Puppet::Resource of it, for a resource's parameter and for a 3.x function's argument): a class's
 * as `Class` with its name capitalized as the title. A reference needs a title or a type; other
 * values are returned as they are.
 */
export function storedReference(v: PuppetValue): PuppetValue {
    if (!(v instanceof PResourceType || v instanceof PClassType) || v instanceof PStoredReference) return v;
    const className = v instanceof PClassType ? v.className : v.typeName === null ? undefined : /^(::)?[Cc]lass$/.test(v.typeName) ? v.title : undefined;
    if (className === null) throw new RuntimeFailure(CatalogIssues.EVAL_NOT_A_REFERENCE_TEXT.message({ text: '"class"' }));
    if (className !== undefined) return new PStoredReference('Class', capitalize(className.replace(/^::/, '').toLowerCase()));
    const r = v as PResourceType;
    if (r.typeName === null) throw new RuntimeFailure(CatalogIssues.EVAL_STORED_UNTYPED_REFERENCE.message());
    return new PStoredReference(capitalize(r.typeName.replace(/^::/, '').toLowerCase()), r.title ?? '');
}
