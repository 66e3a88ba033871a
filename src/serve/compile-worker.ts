import { parentPort, workerData } from 'node:worker_threads';
import { compileContext, compileTask, type CompileTask, type EnvironmentTimeout } from './compile.js';

/**
 * A serve compile thread: keeps its catalog services (and their caches) and its store connection
 * for its life, and compiles the tasks it is sent one at a time. Unexpected failures are answered
 * as Puppet Server's 500, never thrown.
 */
const port = parentPort;
if (port) {
    const data = workerData as { storeUrl?: string; bindings?: boolean; timeout?: EnvironmentTimeout } | undefined;
    const ctx = compileContext(data?.storeUrl, data?.bindings ?? true, data?.timeout ?? 0);
    port.on('message', (task: CompileTask) => {
        try {
            port.postMessage(compileTask(task, ctx));
        } catch (e) {
            const message = `Server Error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
            port.postMessage({ id: task.id, status: 500, body: JSON.stringify({ message, issue_kind: 'RUNTIME_ERROR' }), millis: 0, environment: task.environment.name, logs: [], cacheHits: 0, parses: 0 });
        }
    });
}
