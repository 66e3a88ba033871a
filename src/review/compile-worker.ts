import { parentPort } from 'node:worker_threads';
import { compileTask, type CompileTask } from './compile-node.js';

/**
 * A compile worker thread: compiles the tasks it is sent, one at a time, with services (and so
 * their caches) kept for the life of the thread. Unexpected failures are sent back, not thrown.
 */
const port = parentPort;
if (port) {
    port.on('message', (task: CompileTask) => {
        try {
            port.postMessage(compileTask(task));
        } catch (e) {
            port.postMessage({ id: task.id, millis: 0, error: { code: 'EVAL_INTERNAL', message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } });
        }
    });
}
