export type { Closure, FunctionContext, FunctionTable, PuppetFunction } from './function.js';
export { coreFunctions } from './registry.js';
export { primeSignatures } from './signatures.js';
