import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../model/index.js';
import { BatchCompiler, type BatchResult, type BatchSettings, type BatchTask } from './compile-one.js';
import type { BatchNode } from './nodes.js';
import { childCpuMs, threadWorkers, type BatchWorkerFactory, type WorkerCpu } from './workers.js';

export interface BatchOptions extends BatchSettings {
    /** Parallel compiles (default: one per core). */
    readonly jobs?: number;
    /** Called as each node finishes, in the order they finish. */
    readonly onResult?: (result: BatchResult) => void;
    /** How a worker is started (default: a thread of this process running dist/src/batch/worker.js). */
    readonly startWorker?: BatchWorkerFactory;
}

export interface BatchSummary {
    readonly nodes: number;
    readonly failed: number;
    /** Threads or worker processes that compiled (1: this thread). */
    readonly jobs: number;
    readonly wallMs: number;
    /** CPU time of the whole process (every thread) during the batch, and of its worker processes. */
    readonly cpuMs: number;
    /**
     * CPU time of the programs the batch ran and waited for (an ENC, external bindings
     * providers), where the system tells it (Linux); their time is not in `cpuMs`.
     */
    readonly childCpuMs?: number;
    readonly results: readonly BatchResult[];
}

/**
 * A worker thread loads the compiler again (a few hundred ms of CPU) and parses the environment
 * once more: below this many nodes per worker, compiling in this thread is faster.
 */
const MIN_NODES_PER_WORKER = 16;

/** The compiled worker script: beside this module in dist/, else dist/ of the project (tests run src/). */
function workerScript(): string | undefined {
    const here = fileURLToPath(new URL('./worker.js', import.meta.url));
    if (existsSync(here)) return here;
    const built = join(projectRoot(), 'dist', 'src', 'batch', 'worker.js');
    return existsSync(built) ? built : undefined;
}

export function defaultJobs(): number {
    return Math.max(1, availableParallelism());
}

/**
 * Compiles many nodes of one environment, each into OUT/<certname>.<ext>: in worker threads when
 * there are enough nodes to pay for them, each thread parsing the environment once. A node that
 * fails is reported and the others still compile.
 */
export async function compileNodes(nodes: readonly BatchNode[], options: BatchOptions): Promise<BatchSummary> {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const children = childCpuMs();
    mkdirSync(options.outDir, { recursive: true });
    const { jobs: wanted, onResult, startWorker, ...settings } = options;
    const tasks: BatchTask[] = nodes.map((n, id) => ({ id, ...n }));
    const results = new Array<BatchResult>(tasks.length);
    const workers = Math.min(wanted ?? defaultJobs(), Math.floor(tasks.length / MIN_NODES_PER_WORKER));
    const script = workers > 1 && !startWorker ? workerScript() : undefined;
    const start = workers > 1 ? startWorker ?? (script !== undefined ? threadWorkers(script) : undefined) : undefined;
    let workerCpus: Array<WorkerCpu | undefined> = [];
    if (start === undefined) {
        const compiler = new BatchCompiler(settings);
        for (const t of tasks) {
            results[t.id] = compiler.compile(t);
            onResult?.(results[t.id]);
        }
    } else {
        workerCpus = await inWorkers(start, workers, settings, tasks, r => {
            results[r.id] = r;
            onResult?.(r);
        });
    }
    const used = process.cpuUsage(cpu);
    const childrenAfter = childCpuMs();
    // Worker processes are children too: of what they cost, the programs they ran are programs, the rest is the batch's.
    const reported = workerCpus.filter(c => c !== undefined);
    const programsMs = reported.reduce((sum, c) => sum + c.programsCpuMs, 0);
    const workersMs = reported.length > 0 && children !== undefined && childrenAfter !== undefined ? Math.max(0, childrenAfter - children - programsMs) : 0;
    return {
        nodes: tasks.length, failed: results.filter(r => r.error !== undefined).length, jobs: start === undefined ? 1 : workers,
        wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 + workersMs,
        ...(children !== undefined && childrenAfter !== undefined ? { childCpuMs: reported.length > 0 ? programsMs : childrenAfter - children } : {}), results
    };
}

/** Hands the tasks out one at a time to `count` workers, each getting its next node as it finishes one; their CPU where this process cannot see it. */
async function inWorkers(start: BatchWorkerFactory, count: number, settings: BatchSettings, tasks: readonly BatchTask[], done: (r: BatchResult) => void): Promise<Array<WorkerCpu | undefined>> {
    let next = 0;
    const pool = Array.from({ length: count }, () => start(settings));
    let failure: unknown;
    try {
        await Promise.all(pool.map(w => new Promise<void>((resolveWorker, reject) => {
            const feed = (): void => {
                if (next >= tasks.length) {
                    resolveWorker();
                    return;
                }
                w.send(tasks[next++]);
            };
            w.onResult(r => {
                done(r);
                feed();
            });
            w.onFailure(reject);
            feed();
        })));
    } catch (e) {
        failure = e;
    }
    // Each worker ends once idle, and is waited for, so its CPU is known.
    const cpus = await Promise.all(pool.map(w => w.finish()));
    if (failure !== undefined) throw failure;
    return cpus;
}
