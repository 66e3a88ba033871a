export * from './model.js';
export { typeToString, typeToPlainString, typeName, puppetQuote, acceptsUndef } from './to-string.js';
export { isInstance, isData, isScalarData, isIterableValue } from './instance.js';
export { isAssignable, resolveAlias } from './assignable.js';
export { inferType, inferReduced, generalize, commonType } from './infer.js';
export { countMismatch, describeMismatch, exactly, formatMismatch, formatMismatches, joinMismatchLines, mergeMismatches, type Mismatch, type MismatchKind, type Range as MismatchRange } from './mismatch.js';
export { coreType, parameterize, capitalize, typesEqual, TypeConstructionError } from './construct.js';
export { parseTypeString, type TypeNameResolver } from './parse-type.js';
export { describeClosureCall, describeSignatures, signatureAccepts, signatureString, type BlockArity, type ClosureParam, type Signature, type SignatureBlock, type SignatureParam } from './signature-mismatch.js';
