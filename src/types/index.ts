export * from './model.js';
export { typeToString, typeName, puppetQuote, acceptsUndef } from './to-string.js';
export { isInstance, isData, isScalarData, isIterableValue } from './instance.js';
export { isAssignable, resolveAlias } from './assignable.js';
export { inferType, inferReduced, generalize, commonType } from './infer.js';
export { describeMismatch, formatMismatches, joinMismatchLines, type Mismatch } from './mismatch.js';
export { coreType, parameterize, capitalize, typesEqual, TypeConstructionError } from './construct.js';
export { parseTypeString, type TypeNameResolver } from './parse-type.js';
