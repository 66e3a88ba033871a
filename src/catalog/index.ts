export { createCatalogServices, type CatalogServices, type CatalogModule } from './services.js';
export { bootEnvironment, type Environment } from './boot.js';
export { Compiler, type CompileOptions, type CompileResult, type LogEntry } from './compiler.js';
export { normalizedResult, jsonText, toCatalogJson, type Json } from './normalize.js';
export { CompileError } from './errors.js';
export { CatalogIssues, type CatalogIssueCode } from './issues.js';
export type { LookupService, LookupContext, LookupOptions, LookupResult } from './lookup.js';
export { coreFunctions } from './functions/index.js';
export { readFacts, readDataFile, defaultFactsFile, nodeNameFor, toPuppetData, type FactsInput } from './node-input.js';
