export * from './generated-file.js';
export * from './generate.js';
export * from './generate-ecore.js';
export * from './generate-json-schema.js';
export * from './generate-typescript.js';
export * from './grammar-to-metamodel.js';
export * from './issues.js';
export { loadMetamodel } from './metamodel-language/load-metamodel.js';
export { createMetamodelServices } from './metamodel-language/metamodel-module.js';
