export { METAPARAMS, RELATIONSHIP_PARAMS, type ResourceAttributeSchema, type ResourceTypeSchema } from './schema.js';
export { CORE_RESOURCE_TYPES, coreResourceType } from './core-types.js';
