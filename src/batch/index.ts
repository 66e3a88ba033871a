export { compileNodes, defaultJobs, type BatchOptions, type BatchSummary } from './batch.js';
export { outputFile, type BatchFormat, type BatchResult, type BatchSettings } from './compile-one.js';
export { nodesOfFactsDir, type BatchNode } from './nodes.js';
export { processWorkers, serveBatchWorkerProcess, type BatchWorkerFactory } from './workers.js';
