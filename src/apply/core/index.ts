import type { ClassicType } from '../dsl/type.js';
import { groupType, userType } from './account-types.js';
import { execType } from './exec.js';
import { fileType } from './file.js';
import { notifyType } from './notify.js';
import { packageType, serviceType } from './package-service.js';

/** Fresh instances of the core types, one set per environment registry. */
export function coreTypes(): ClassicType[] {
    return [notifyType(), fileType(), execType(), userType(), groupType(), packageType(), serviceType()];
}
