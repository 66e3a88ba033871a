import { enableCompileCache } from 'node:module';
import { constants } from 'node:os';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { processIo, writeStdout, type CliIo } from './io.js';

/**
 * The stack of the thread the CLI runs on. Puppet's parser is a table-driven LALR parser and
 * accepts 1,000 nested brackets or `if`s and 100k-term expressions; modelc's parser, checks,
 * evaluator and model writers recurse, which Node's default ~1 MB stack bounds at about 60
 * levels. The thread's stack is reserved, not committed: only what deep input uses is touched.
 */
const STACK_MB = 1024;

/**
 * The young generation of the CLI's thread (three semi-spaces' worth; V8 grows it to 192 MB, two
 * 64 MB semi-spaces and more, on large inputs). A compile of 100,000 resources peaked at 520 MB
 * with V8's default and 420 MB with 48, for 7% more CPU; small compiles never grow it that far.
 */
const YOUNG_GENERATION_MB = 24;

/** Shared with the worker: [0] the number of the signal that asked a run to stop (0: none). */
interface LaunchData {
    readonly argv: readonly string[];
    readonly signal: Int32Array;
    /** The URL of the CLI's main module to run: the build's bundle of it (dist/snapshot/esm/), or else ./main.js. */
    readonly main?: string;
}

/** Commands that stop at a safe point on SIGTERM/SIGINT (and write what they owe) instead of dying. */
const GRACEFUL = new Set(['apply', 'serve']);
/** Commands that read the process's stdin. */
const STDIN_COMMANDS = new Set(['lsp']);
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Runs the CLI for `bin/modelc.js`: on a worker thread with a large stack, with signals turned
 * into a flag that `apply` polls between resources (its work is synchronous, so a signal
 * handler on its own thread would only run after it finished).
 */
export async function launch(argv: readonly string[], mainUrl?: string): Promise<void> {
    if (!isMainThread) {
        // The CLI is loaded on the worker only: the main thread just starts it and relays signals,
        // so a command does not pay for loading every stage twice.
        // Node's compile cache is per thread: the main thread's (bin/modelc.js) does not reach here,
        // and this thread loads every module of the command.
        enableCompileCache?.();
        const data = workerData as LaunchData;
        const { main } = await loadMain(data.main);
        const io: CliIo = {
            ...processIo,
            out: writeStdout,
            interrupted: () => {
                const n = Atomics.load(data.signal, 0);
                return n === 0 ? undefined : signalName(n);
            }
        };
        process.exitCode = await main(data.argv, io);
        return;
    }
    const signal = new Int32Array(new SharedArrayBuffer(4));
    // A worker's process.stdin is empty unless the main thread feeds it: commands that read
    // stdin (the language server) get the main thread's.
    const readsStdin = STDIN_COMMANDS.has(argv[2] ?? '');
    const worker = new Worker(new URL(import.meta.url), {
        workerData: { argv: [...argv], signal, ...(mainUrl !== undefined ? { main: mainUrl } : {}) } satisfies LaunchData,
        resourceLimits: { stackSizeMb: STACK_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        argv: [],
        stdin: readsStdin
    });
    if (readsStdin && worker.stdin) process.stdin.pipe(worker.stdin);
    const graceful = GRACEFUL.has(argv[2] ?? '');
    const onSignal = (name: NodeJS.Signals): void => {
        const n = constants.signals[name];
        if (graceful && Atomics.compareExchange(signal, 0, 0, n) === 0) return;
        // Not a command that can stop cleanly, or a second signal: stop now, as the signal would.
        void worker.terminate().then(() => {
            for (const s of SIGNALS) process.removeAllListeners(s);
            process.kill(process.pid, name);
        });
    };
    for (const s of SIGNALS) process.on(s, onSignal);
    worker.on('error', e => {
        process.stderr.write(`modelc: error CLI_INTERNAL: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
    });
    worker.on('exit', code => {
        for (const s of SIGNALS) process.removeListener(s, onSignal);
        if (readsStdin) {
            process.stdin.unpipe();
            process.stdin.destroy();
        }
        const n = Atomics.load(signal, 0);
        // A run stopped by a signal exits as shells report one (128 + its number); serve's stop
        // on a signal is its normal end, and its exit code (0) is the command's own.
        process.exitCode = n !== 0 && argv[2] !== 'serve' ? 128 + n : (process.exitCode ?? code);
    });
}

/**
 * The CLI's main module: the bundle when the launcher found one up to date (one module to load per
 * part of a command instead of hundreds), else dist/'s own. A bundle that fails to load is passed
 * over, so a broken build artifact costs time, not the command.
 */
async function loadMain(url: string | undefined): Promise<typeof import('./main.js')> {
    if (url !== undefined) {
        try {
            return await import(url) as typeof import('./main.js');
        } catch {
            // fall through to the modules of dist/
        }
    }
    return import('./main.js');
}

function signalName(n: number): string {
    return Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;
}

if (!isMainThread && (workerData as LaunchData | undefined)?.signal !== undefined) {
    await launch([]);
}
