import { UserError } from '../common/index.js';
import { compileNodes, nodesOfFactsDir, processWorkers, type BatchWorkerFactory } from '../batch/index.js';
import type { CompileCommandOptions } from './compile-command.js';
import { ExitCode, type CliIo } from './io.js';

export interface CompileBatchOptions extends CompileCommandOptions {
    readonly nodesDir?: string;
    readonly outDir?: string;
    readonly jobs?: string;
}

/** The hidden command of the snapshot that runs a batch's worker process (snapshot-entry.ts). */
export const BATCH_WORKER_COMMAND = '__batch-worker';

/**
 * In a start from the CLI's snapshot, the batch's workers are processes from the same snapshot
 * (same Node, same V8 flags, the stack limit inherited): worker threads cannot start there (Node
 * aborts when a thread of a snapshot process that loaded `node:crypto` loads it too), and a
 * process from the snapshot starts in a fraction of the CPU a thread needs to load the compiler.
 */
function snapshotWorkers(): BatchWorkerFactory | undefined {
    const blob = process.execArgv.some(a => a === '--snapshot-blob' || a.startsWith('--snapshot-blob='));
    return blob ? processWorkers(process.execPath, [...process.execArgv, '--', BATCH_WORKER_COMMAND]) : undefined;
}

function usage(message: string): never {
    throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message });
}

/** Options that name one node's inputs or outputs, which a batch of nodes cannot take. */
const SINGLE_NODE_ONLY: ReadonlyArray<readonly [keyof CompileBatchOptions, string]> = [
    ['node', '--node'], ['facts', '--facts'], ['store', '--store'], ['graph', '--graph'], ['explain', '--explain'],
    ['bindingsModel', '--bindings-model'], ['effective', '--effective']
];

/**
 * `modelc compile CODEDIR --nodes-dir FACTS_DIR --out-dir OUT [--jobs N]`: every node of the
 * facts directory compiled from one parsed environment (per thread) into OUT/<certname>.<ext>.
 * A node that fails is one error line on stderr and the others still compile; a summary goes to
 * stdout; exit 1 if any node failed.
 */
export async function compileBatchAction(codedir: string, options: CompileBatchOptions, io: CliIo): Promise<number> {
    if (options.outDir === undefined) usage('--nodes-dir needs --out-dir DIR (one output file per node)');
    for (const [key, flag] of SINGLE_NODE_ONLY) {
        const v = options[key];
        if (v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) usage(`${flag} names one node's input or output; it cannot be used with --nodes-dir`);
    }
    let jobs: number | undefined;
    if (options.jobs !== undefined) {
        jobs = Number(options.jobs);
        if (!Number.isInteger(jobs) || jobs < 1) usage(`--jobs expects a positive whole number, got '${options.jobs}'`);
    }
    const settings: Array<[string, string]> = [];
    for (const s of options.setting ?? []) {
        const i = s.indexOf('=');
        if (i < 1) usage(`--setting expects NAME=VALUE, got '${s}'`);
        settings.push([s.slice(0, i), s.slice(i + 1)]);
    }
    const nodes = nodesOfFactsDir(options.nodesDir ?? '');
    const startWorker = snapshotWorkers();
    const summary = await compileNodes(nodes, {
        codedir, outDir: options.outDir, format: options.format, classes: options.class ?? [], settings,
        basemodulepath: options.basemodulepath ? options.basemodulepath.split(':') : [], bindings: options.bindings !== false,
        ...(options.environment !== undefined ? { environment: options.environment } : {}),
        ...(options.trusted !== undefined ? { trustedFile: options.trusted } : {}),
        ...(jobs !== undefined ? { jobs } : {}),
        ...(startWorker ? { startWorker } : {}),
        onResult: r => { if (r.error !== undefined) io.err(`${r.error}\n`); }
    });
    const ok = summary.nodes - summary.failed;
    const workersText = summary.jobs === 1 ? '1 thread' : startWorker ? `${summary.jobs} worker processes` : `${summary.jobs} threads`;
    const perSecond = (n: number, ms: number): string => (ms > 0 ? (n * 1000 / ms).toFixed(1) : '-');
    io.out(`compiled ${ok} of ${summary.nodes} nodes (${summary.failed} failed) into ${options.outDir}: `
        + `${(summary.wallMs / 1000).toFixed(2)} s wall, ${perSecond(summary.nodes, summary.wallMs)} nodes/s; `
        + `${(summary.cpuMs / 1000).toFixed(2)} s CPU, ${perSecond(summary.nodes, summary.cpuMs)} nodes/s per core; ${workersText}`
        + (summary.childCpuMs ? `; programs it ran (ENC, bindings providers): ${(summary.childCpuMs / 1000).toFixed(2)} s CPU` : '') + '\n');
    return summary.failed > 0 ? ExitCode.ERROR : ExitCode.OK;
}
