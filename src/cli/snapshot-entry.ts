import { enableCompileCache } from 'node:module';
import { startupSnapshot } from 'node:v8';
import { serveBatchWorkerProcess } from '../batch/index.js';
import { BATCH_WORKER_COMMAND } from './compile-batch-command.js';
import { processIo, writeStdout, type CliIo } from './io.js';
import { main } from './main.js';
import { warmUp } from './snapshot-warmup.js';

/**
 * The entry of the CLI's V8 startup snapshot. `npm run build` bundles this module with everything
 * it imports into one script (scripts/build-snapshot.mjs) and runs it under `node
 * --build-snapshot`: the modules are then loaded, the parser built and the code of a compile
 * compiled to bytecode once, at build time. `bin/modelc.js` starts `node --snapshot-blob ... --
 * ARGS` for every command that runs on one thread, which lands in `run` below with all of that in
 * the heap: a cold compile skips module resolution and loading, parser construction and most lazy
 * compilation.
 *
 * It runs on the process's main thread, not on the launcher's worker (a worker cannot start from
 * a user snapshot): bin/modelc.js gives that thread the same large stack through `ulimit -s` and
 * `--stack-size`, so deep input parses as on the worker.
 */
function run(): void {
    // The launcher's glibc tunables were for starting this process (scripts/build-snapshot.mjs
    // says why): the commands this one runs get the user's environment.
    if (process.env['MODELC_TUNABLES_SET'] === '1') {
        delete process.env['GLIBC_TUNABLES'];
        delete process.env['MODELC_TUNABLES_SET'];
    }
    // What the snapshot does not hold (packages loaded on first use: msgpackr, ajv's validators
    // kept as code) is read through Node's on-disk compile cache, as on the worker.
    enableCompileCache?.();
    // A worker process of `compile --nodes-dir` started from this snapshot (see compile-batch-command.ts).
    if (process.argv[1] === BATCH_WORKER_COMMAND && process.send) {
        serveBatchWorkerProcess();
        return;
    }
    // From a snapshot, process.argv holds no script: [node, ...ARGS].
    const argv = [process.argv[0], 'modelc', ...process.argv.slice(1)];
    const io: CliIo = { ...processIo, out: writeStdout };
    void main(argv, io).then(code => {
        process.exitCode = code;
        // With nothing left pending (no handle, no request: the output is written synchronously),
        // the process ends here. Left to the event loop, Node would first tear the isolate down,
        // unmapping the heap page by page: 1 % of the instructions of a cold compile of 1,000
        // resources, and a hundred and fifty munmap calls. Anything still pending (a pipe that
        // has not taken all of stderr, say) gets the usual ending.
        if (process.getActiveResourcesInfo().length === 0) process.exit(code);
    });
}

if (startupSnapshot.isBuildingSnapshot()) {
    startupSnapshot.setDeserializeMainFunction(run);
    // The snapshot is written once the event loop is empty, so after the warm-up; a failed
    // warm-up leaves a non-zero exit code, and Node writes no snapshot then.
    const dir = process.env.MODELC_WARMUP_DIR;
    (dir ? warmUp(main, dir) : Promise.reject(new Error('MODELC_WARMUP_DIR is not set'))).catch((e: unknown) => {
        process.stderr.write(`modelc snapshot: error CLI_SNAPSHOT: the warm-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
    });
}
