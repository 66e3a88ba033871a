export { NodeIssues } from './issues.js';
export { readNodeInputFile, type NodeInputKind } from './input-file.js';
export { defaultFactsFile, inEnvironment, readFactsFile, readNodeRequest, type FactsFile, type NodeRequest, type NodeRequestOptions } from './request.js';
export { trustedFor } from './trusted.js';
