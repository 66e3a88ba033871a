import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../model/index.js';
import { compileContext, compileTask, type CompileAnswer, type CompileContext, type CompileTask, type EnvironmentTimeout } from './compile.js';

/** The compiled worker script: beside this module in dist/, else dist/ of the project (tests run src/). */
function workerScript(): string | undefined {
    const here = fileURLToPath(new URL('./compile-worker.js', import.meta.url));
    if (existsSync(here)) return here;
    const built = join(projectRoot(), 'dist', 'src', 'serve', 'compile-worker.js');
    return existsSync(built) ? built : undefined;
}

type Pending = { task: CompileTask; resolve: (a: CompileAnswer) => void; reject: (e: Error) => void };

/**
 * Where catalogs are compiled: N worker threads, each keeping its services (so a thread serves
 * an environment's many nodes from its caches), fed from one queue; or, with 0 workers, this
 * thread (compiles then block the event loop: for tests and measurements).
 */
export class CompilePool {
    private readonly workers: Worker[] = [];
    private readonly idle: Worker[] = [];
    private readonly queue: Pending[] = [];
    private readonly busy = new Map<Worker, Pending>();
    private readonly local?: CompileContext;
    private nextId = 1;
    private closing = false;

    constructor(size: number, storeUrl?: string, private readonly bindings = true, private readonly timeout: EnvironmentTimeout = 0) {
        const script = size > 0 ? workerScript() : undefined;
        if (script === undefined) {
            this.local = compileContext(storeUrl, bindings, timeout);
            return;
        }
        for (let i = 0; i < size; i++) this.spawn(script, storeUrl);
    }

    /** Starts a thread; one that dies (out of memory, a crash) fails its request and is replaced. */
    private spawn(script: string, storeUrl: string | undefined): void {
        const w = new Worker(script, { workerData: { bindings: this.bindings, timeout: this.timeout, ...(storeUrl !== undefined ? { storeUrl } : {}) } });
        w.on('message', (a: CompileAnswer) => this.finished(w, p => p.resolve(a)));
        w.on('error', e => {
            const p = this.busy.get(w);
            this.busy.delete(w);
            this.workers.splice(this.workers.indexOf(w), 1);
            p?.reject(e);
            if (!this.closing) this.spawn(script, storeUrl);
        });
        this.workers.push(w);
        this.idle.push(w);
        this.pump();
    }

    /** Requests waiting for a thread. */
    get queueDepth(): number {
        return this.queue.length;
    }

    /** Threads compiling (or 1/0 for this thread). */
    get active(): number {
        return this.busy.size;
    }

    compile(task: Omit<CompileTask, 'id'>): Promise<CompileAnswer> {
        const full: CompileTask = { ...task, id: this.nextId++ };
        if (this.local) {
            try {
                return Promise.resolve(compileTask(full, this.local));
            } catch (e) {
                return Promise.reject(e instanceof Error ? e : new Error(String(e)));
            }
        }
        return new Promise((resolve, reject) => {
            this.queue.push({ task: full, resolve, reject });
            this.pump();
        });
    }

    async close(): Promise<void> {
        this.closing = true;
        this.local?.store?.close();
        for (const p of this.queue.splice(0)) p.reject(new Error('the server is stopping'));
        await Promise.all(this.workers.map(w => w.terminate()));
    }

    private pump(): void {
        while (this.idle.length > 0 && this.queue.length > 0) {
            const w = this.idle.pop() as Worker;
            const p = this.queue.shift() as Pending;
            this.busy.set(w, p);
            w.postMessage(p.task);
        }
    }

    private finished(w: Worker, settle: (p: Pending) => void): void {
        const p = this.busy.get(w);
        this.busy.delete(w);
        if (p) settle(p);
        this.idle.push(w);
        this.pump();
    }
}
