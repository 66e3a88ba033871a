import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { BatchCompiler, type BatchResult, type BatchSettings, type BatchTask } from './compile-one.js';

/** Thread stacks as the CLI's own (src/cli/launch.ts): deep input must not overflow in a worker either. */
const STACK_MB = 1024;

/**
 * What a worker process tells of its CPU: that of the programs it ran (ENC, bindings providers),
 * in ms. Its own is the rest of what it cost (the parent sees the sum once it has waited for it).
 */
export interface WorkerCpu {
    readonly programsCpuMs: number;
}

/** One compile worker of a batch, a thread or a process, fed one node at a time. */
export interface BatchWorker {
    send(task: BatchTask): void;
    onResult(handler: (result: BatchResult) => void): void;
    /** The worker failed (it ended without being asked to). */
    onFailure(handler: (error: Error) => void): void;
    /** Asks the worker to end once idle; resolves when it has, with its CPU where this process cannot see it. */
    finish(): Promise<WorkerCpu | undefined>;
}

/** Starts one compile worker for a batch's settings. */
export type BatchWorkerFactory = (settings: BatchSettings) => BatchWorker;

/** Compile workers as threads of this process running `script` (dist/src/batch/worker.js). */
export function threadWorkers(script: string): BatchWorkerFactory {
    return settings => {
        const w = new Worker(script, { workerData: settings, resourceLimits: { stackSizeMb: STACK_MB } });
        let finishing = false;
        return {
            send: task => { w.postMessage(task); },
            onResult: handler => { w.on('message', handler); },
            onFailure: handler => {
                w.on('error', handler);
                w.on('exit', code => { if (code !== 0 && !finishing) handler(new Error(`compile worker exited with code ${code}`)); });
            },
            finish: async () => {
                finishing = true;
                await w.terminate();
                return undefined;
            }
        };
    };
}

/** What a worker process is sent: its settings first, then tasks, then `finish`. */
type ToWorker = { readonly settings: BatchSettings } | { readonly task: BatchTask } | { readonly finish: true };
/** What a worker process answers: a result per task, and its CPU when it finishes. */
type FromWorker = { readonly result: BatchResult } | { readonly cpu: WorkerCpu };

/**
 * Compile workers as processes: `command args` must start a process that runs
 * `serveBatchWorkerProcess()` (the CLI's snapshot does, for a hidden command). Used where threads
 * cannot be: in a process started from a V8 startup snapshot that loaded `node:crypto`, Node
 * aborts when a worker thread loads it too (an assertion in its KeyObject setup). A process from
 * the snapshot also starts far cheaper than a thread loading the compiler's modules.
 */
export function processWorkers(command: string, args: readonly string[]): BatchWorkerFactory {
    return settings => {
        const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
        const send = (m: ToWorker): void => { child.send(m); };
        send({ settings });
        let finishing = false;
        let cpu: WorkerCpu | undefined;
        const exited = new Promise<void>(resolve => { child.on('exit', () => { resolve(); }); });
        const handlers: Array<(r: BatchResult) => void> = [];
        child.on('message', (m: FromWorker) => {
            if ('result' in m) for (const h of handlers) h(m.result);
            else cpu = m.cpu;
        });
        return {
            send: task => { send({ task }); },
            onResult: handler => { handlers.push(handler); },
            onFailure: handler => {
                child.on('error', handler);
                child.on('exit', (code, signal) => {
                    if (!finishing) handler(new Error(`compile worker process exited with ${signal ?? `code ${code}`}`));
                });
            },
            finish: async () => {
                finishing = true;
                if (child.exitCode === null && child.signalCode === null) send({ finish: true });
                await exited;
                return cpu;
            }
        };
    };
}

/** A failure of the compiler itself is that node's error line, never the worker's end. */
export function compileOrReport(compiler: BatchCompiler, task: BatchTask): BatchResult {
    try {
        return compiler.compile(task);
    } catch (e) {
        const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
        return { id: task.id, node: task.node, error: `${task.factsFile}: error CLI_INTERNAL: ${message} (on node ${task.node}; an internal error: please report it)` };
    }
}

/**
 * The body of a worker process (see `processWorkers`): compiles the tasks its parent sends over
 * the IPC channel with one BatchCompiler, and reports its CPU when told to finish.
 */
export function serveBatchWorkerProcess(): void {
    let compiler: BatchCompiler | undefined;
    const programs0 = childCpuMs() ?? 0;
    const reply = (m: FromWorker): void => { process.send?.(m); };
    process.on('message', (m: ToWorker) => {
        if ('settings' in m) {
            compiler = new BatchCompiler(m.settings);
        } else if ('task' in m) {
            reply({ result: compiler ? compileOrReport(compiler, m.task) : { id: m.task.id, node: m.task.node, error: `${m.task.factsFile}: error CLI_INTERNAL: a compile worker got a node before its settings (on node ${m.task.node}; an internal error: please report it)` } });
        } else {
            reply({ cpu: { programsCpuMs: (childCpuMs() ?? 0) - programs0 } });
            process.disconnect();
        }
    });
}

/**
 * The user and system time of this process's waited-for children, in ms, from /proc/self/stat
 * (cutime and cstime, in clock ticks: 100 a second on Linux); undefined elsewhere.
 */
export function childCpuMs(): number | undefined {
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
