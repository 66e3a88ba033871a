import { enableCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { BatchSettings, BatchTask } from './compile-one.js';

/**
 * A batch worker thread: compiles the nodes it is sent, one at a time, with one BatchCompiler
 * (services and parsed environment) for its life. An unexpected failure is that node's error
 * line, never the thread's end.
 */
const port = parentPort;
if (port) {
    // Node's compile cache is per thread; the compiler is loaded after it is on.
    enableCompileCache?.();
    const { BatchCompiler } = await import('./compile-one.js');
    const { compileOrReport } = await import('./workers.js');
    const compiler = new BatchCompiler(workerData as BatchSettings);
    port.on('message', (task: BatchTask) => { port.postMessage(compileOrReport(compiler, task)); });
}
