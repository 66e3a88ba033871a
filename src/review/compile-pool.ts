import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../model/index.js';
import { compileTask, startBatch, type CompiledNode, type CompileTask } from './compile-node.js';

/** The compiled worker script: beside this module when running from dist/, else dist/ of the project (tests run src/). */
function workerScript(): string | undefined {
    const here = fileURLToPath(new URL('./compile-worker.js', import.meta.url));
    if (existsSync(here)) return here;
    const built = join(projectRoot(), 'dist', 'src', 'review', 'compile-worker.js');
    return existsSync(built) ? built : undefined;
}

/**
 * A worker thread loads the whole compiler again (about a second of CPU): below this many
 * compiles per worker, compiling in this thread is faster.
 */
const MIN_TASKS_PER_WORKER = 8;

/** The default number of parallel compiles: one per core. */
export function defaultJobs(): number {
    return Math.max(1, availableParallelism());
}

/**
 * Compiles every task, `jobs` at a time: in worker threads when jobs > 1 and there are enough
 * tasks to pay for starting them (each thread keeps its services, so the tasks of one revision
 * it receives share their caches), in this thread otherwise. Tasks are handed out in order, so giving a revision's nodes consecutively keeps
 * each thread on one revision as long as possible. `onDone` is called as each task finishes.
 */
export async function compileAll(tasks: readonly CompileTask[], jobs: number, onDone?: (done: number) => void): Promise<CompiledNode[]> {
    const results = new Array<CompiledNode>(tasks.length);
    const workers = Math.min(jobs, Math.floor(tasks.length / MIN_TASKS_PER_WORKER));
    const script = workers > 1 ? workerScript() : undefined;
    if (!script) {
        startBatch();
        tasks.forEach((t, i) => { results[i] = compileTask(t); onDone?.(i + 1); });
        return results;
    }
    const byId = new Map(tasks.map((t, i) => [t.id, i]));
    let next = 0;
    let done = 0;
    const pool = Array.from({ length: workers }, () => new Worker(script));
    try {
        await Promise.all(pool.map(w => new Promise<void>((resolveWorker, reject) => {
            const feed = (): void => {
                if (next >= tasks.length) { resolveWorker(); return; }
                w.postMessage(tasks[next++]);
            };
            w.on('message', (r: CompiledNode) => {
                results[byId.get(r.id) ?? -1] = r;
                onDone?.(++done);
                feed();
            });
            w.on('error', reject);
            w.on('exit', code => { if (code !== 0) reject(new Error(`compile worker exited with code ${code}`)); });
            feed();
        })));
    } finally {
        await Promise.all(pool.map(w => w.terminate()));
    }
    return results;
}
