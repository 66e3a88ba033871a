import { DevError } from '../errors.js';
import { coreResourceType } from '../../resource-types/index.js';
import type { ClassicType } from '../dsl/type.js';
import { groupType, userType } from './account-types.js';
import { execType } from './exec.js';
import { fileType } from './file.js';
import { notifyType } from './notify.js';
import { packageType, serviceType } from './package-service.js';

/** Fresh instances of the core types, one set per environment registry. */
export function coreTypes(): ClassicType[] {
    return [notifyType(), fileType(), execType(), userType(), groupType(), packageType(), serviceType()].map(conformingToSchema);
}

/**
 * The compiler accepts resources by the shared schema (src/resource-types); a definition here that
 * drifts from it would let the compiler pass what apply rejects, or the reverse, so it is refused.
 */
function conformingToSchema(t: ClassicType): ClassicType {
    const schema = coreResourceType(t.name);
    const mine = t.attributes.filter(a => a.kind !== 'metaparam').map(a => `${a.name}:${a.kind}`).join(' ');
    const theirs = schema?.attributes.map(a => `${a.name}:${a.kind}`).join(' ');
    if (!schema?.applied || mine !== theirs || t.keyAttributes()[0] !== schema.namevar) {
        throw new DevError(`core type '${t.name}' differs from its schema in src/resource-types`);
    }
    return t;
}
