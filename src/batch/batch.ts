import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../model/index.js';
import { BatchCompiler, type BatchResult, type BatchSettings, type BatchTask } from './compile-one.js';
import type { BatchNode } from './nodes.js';

export interface BatchOptions extends BatchSettings {
    /** Parallel compiles (default: one per core). */
    readonly jobs?: number;
    /** Called as each node finishes, in the order they finish. */
    readonly onResult?: (result: BatchResult) => void;
}

export interface BatchSummary {
    readonly nodes: number;
    readonly failed: number;
    /** Threads that compiled (1: this one). */
    readonly jobs: number;
    readonly wallMs: number;
    /** CPU time of the whole process (every thread) during the batch. */
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

/** Thread stacks as the CLI's own (src/cli/launch.ts): deep input must not overflow in a worker either. */
const STACK_MB = 1024;

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
    const { jobs: wanted, onResult, ...settings } = options;
    const tasks: BatchTask[] = nodes.map((n, id) => ({ id, ...n }));
    const results = new Array<BatchResult>(tasks.length);
    const workers = Math.min(wanted ?? defaultJobs(), Math.floor(tasks.length / MIN_NODES_PER_WORKER));
    const script = workers > 1 ? workerScript() : undefined;
    if (script === undefined) {
        const compiler = new BatchCompiler(settings);
        for (const t of tasks) {
            results[t.id] = compiler.compile(t);
            onResult?.(results[t.id]);
        }
    } else {
        await inWorkers(script, workers, settings, tasks, r => {
            results[r.id] = r;
            onResult?.(r);
        });
    }
    const used = process.cpuUsage(cpu);
    const childrenAfter = childCpuMs();
    return {
        nodes: tasks.length, failed: results.filter(r => r.error !== undefined).length, jobs: script === undefined ? 1 : workers,
        wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000,
        ...(children !== undefined && childrenAfter !== undefined ? { childCpuMs: childrenAfter - children } : {}), results
    };
}

/**
 * The user and system time of this process's waited-for children, in ms, from /proc/self/stat
 * (cutime and cstime, in clock ticks: 100 a second on Linux); undefined elsewhere.
 */
function childCpuMs(): number | undefined {
    try {
        const stat = readFileSync('/proc/self/stat', 'utf8');
        // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[13]) + Number(fields[14]);
        return Number.isFinite(ticks) ? ticks * 10 : undefined;
    } catch {
        return undefined;
    }
}

/** Hands the tasks out one at a time to `count` workers, each getting its next node as it finishes one. */
async function inWorkers(script: string, count: number, settings: BatchSettings, tasks: readonly BatchTask[], done: (r: BatchResult) => void): Promise<void> {
    let next = 0;
    const pool = Array.from({ length: count }, () => new Worker(script, { workerData: settings, resourceLimits: { stackSizeMb: STACK_MB } }));
    try {
        await Promise.all(pool.map(w => new Promise<void>((resolveWorker, reject) => {
            const feed = (): void => {
                if (next >= tasks.length) {
                    resolveWorker();
                    return;
                }
                w.postMessage(tasks[next++]);
            };
            w.on('message', (r: BatchResult) => {
                done(r);
                feed();
            });
            w.on('error', reject);
            w.on('exit', code => {
                if (code !== 0) reject(new Error(`compile worker exited with code ${code}`));
            });
            feed();
        })));
    } finally {
        await Promise.all(pool.map(w => w.terminate()));
    }
}
