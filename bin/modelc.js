#!/usr/bin/env node
// Launcher for `node bin/modelc.js` (the `modelc` command, bin/modelc, starts the snapshot's
// commands itself and hands everything else to this file). Keep this file plain JavaScript that
// Node 18+ can load, and light: it runs before every command. Three ways to start, fastest first:
// 1. From the CLI's startup snapshot (dist/snapshot/, built by `npm run build`): `node
//    --snapshot-blob` with the modules loaded, the parser built and a compile's code compiled
//    already. A snapshot starts a new process (with the Node that built it) and runs the command
//    on its main thread, so that thread gets the large stack of 2. (`ulimit -s unlimited` and
//    V8's --stack-size). Used for the commands the snapshot holds, while it is up to date.
// 2. The compiled CLI on a worker thread with a large stack (src/cli/launch.ts), from the bundle
//    of dist/snapshot/esm/ while it is up to date, else from the modules of dist/src/: every
//    other command (apply and serve relay signals to it), and whenever 1. is not possible.
// 3. Under a Node older than 24 without a usable snapshot: this file again with the Node that
//    `npm install` puts into node_modules/node.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REQUIRED_MAJOR = 24;
const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), '..');

/** The Node binary of the `node` npm package installed beside modelc (hoisted or not). */
function projectNode() {
    const candidates = [join(root, 'node_modules', 'node', 'bin', 'node')];
    try {
        candidates.push(join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node'));
    } catch {
        // not resolvable from here: only the first candidate
    }
    return candidates.find(p => existsSync(p));
}

/**
 * Whether this process may lift its stack limit for a child (`ulimit -s unlimited` needs the hard
 * limit to be unlimited). Read from Linux's /proc; elsewhere the snapshot is not used.
 */
function stackUnlimitedAllowed() {
    try {
        const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find(l => l.startsWith('Max stack size'));
        return line !== undefined && line.trim().split(/\s+/)[4] === 'unlimited';
    } catch {
        return false;
    }
}

/** Whether the command's arguments name a PuppetDB store (`--store puppetdb:URL`, `--store=puppetdb:URL`). */
function puppetDbStore(args) {
    return args.some((a, i) => a.startsWith('--store=puppetdb:') || (a.startsWith('puppetdb:') && args[i - 1] === '--store'));
}

/**
 * What dist/snapshot/ offers this command: `blob` (start from the snapshot, with the Node that
 * built it) and `esm` (the worker's bundle), or why neither: missing, stale (anything they were
 * built from changed since: the Node binary, the compiled modules, the installed packages, the
 * checkout's place), or MODELC_NO_SNAPSHOT is set. `why` says why there is no blob.
 */
function startup(command) {
    if (process.env.MODELC_NO_SNAPSHOT) return { why: 'MODELC_NO_SNAPSHOT is set' };
    const dir = join(root, 'dist', 'snapshot');
    let stamp;
    try {
        stamp = JSON.parse(readFileSync(join(dir, 'stamp.json'), 'utf8'));
    } catch {
        return { why: 'no dist/snapshot/stamp.json (npm run build makes it)' };
    }
    try {
        if (stamp.root !== root) return { why: `the snapshot was built in ${stamp.root}` };
        if (!Array.isArray(stamp.flags)) return { why: 'dist/snapshot/stamp.json names no flags (built by an older modelc)' };
        const node = statSync(stamp.execPath);
        if (node.size !== stamp.nodeSize || node.mtimeMs !== stamp.nodeMtimeMs) return { why: `${stamp.execPath} changed since the snapshot was built` };
        for (const [file, mtimeMs] of Object.entries(stamp.watched)) {
            if (statSync(join(root, file)).mtimeMs !== mtimeMs) return { why: `${file} changed since the snapshot was built` };
        }
        const esm = stamp.esm && existsSync(join(dir, stamp.esm)) ? pathToFileURL(join(dir, stamp.esm)).href : undefined;
        const blob = join(dir, 'modelc.blob');
        if (!stamp.commands.includes(command)) return { esm, why: `'${command}' is not a command of the snapshot` };
        // A PuppetDB store speaks HTTP from a worker thread, which a process started from a user
        // snapshot cannot run (Node aborts on an internal assertion).
        if (puppetDbStore(process.argv.slice(3))) return { esm, why: 'a PuppetDB store needs a worker thread' };
        if (!existsSync(blob)) return { esm, why: 'no dist/snapshot/modelc.blob' };
        if (!stackUnlimitedAllowed()) return { esm, why: 'the stack limit cannot be lifted (ulimit -Hs)' };
        return { node: stamp.execPath, blob, esm, flags: stamp.flags, env: stamp.env ?? {} };
    } catch (e) {
        return { why: `dist/snapshot/stamp.json does not fit: ${e instanceof Error ? e.message : String(e)}` };
    }
}

/** Runs `command args` as this process's stand-in: same stdio, signals forwarded, its exit status or signal passed on. */
function runAsChild(command, args, env) {
    const child = spawn(command, args, { stdio: 'inherit', env });
    // The child gets the signals a terminal sends to the whole group by itself; forward the others.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => { child.kill(signal); });
    child.on('exit', (code, signal) => {
        if (signal) {
            process.removeAllListeners(signal);
            process.kill(process.pid, signal);
        }
        process.exitCode = code ?? 1;
    });
}

/**
 * The environment of a start from the snapshot: the build's glibc tunables where the user's
 * environment sets none (MODELC_TUNABLES_SET tells the CLI to take them out again for what it runs).
 */
function snapshotEnvironment(env) {
    if (process.env.GLIBC_TUNABLES !== undefined || typeof env.GLIBC_TUNABLES !== 'string') return process.env;
    return { ...process.env, GLIBC_TUNABLES: env.GLIBC_TUNABLES, MODELC_TUNABLES_SET: '1' };
}

const snapshot = startup(process.argv[2]);
// MODELC_DEBUG (which also prints internal errors' stack traces) says how the CLI starts.
if (process.env.MODELC_DEBUG) {
    process.stderr.write(`modelc: ${snapshot.blob ? `starting from the snapshot ${snapshot.blob}`
        : `starting without the snapshot: ${snapshot.why}; on a worker from ${snapshot.esm ? fileURLToPath(snapshot.esm) : 'dist/src'}`}\n`);
}
if (snapshot.blob) {
    // `--` ends Node's options: the command's own (`--help`, `-e`) reach the CLI.
    // The flags (stack, compilers, heap) are the snapshot build's, scripts/build-snapshot.mjs says why.
    runAsChild('/bin/sh', ['-c', 'ulimit -s unlimited && exec "$@"', 'modelc', snapshot.node,
        ...snapshot.flags, '--snapshot-blob', snapshot.blob, '--', ...process.argv.slice(2)], snapshotEnvironment(snapshot.env));
} else if (Number(process.versions.node.split('.')[0]) >= REQUIRED_MAJOR) {
    // Node's on-disk compile cache (shared with the CLI's worker thread) saves re-compiling modelc's
    // modules at every start.
    const { enableCompileCache } = await import('node:module');
    enableCompileCache?.();
    const { launch } = await import('../dist/src/cli/launch.js');
    await launch(process.argv, snapshot.esm);
} else {
    const node = process.env.MODELC_REEXEC ? undefined : projectNode();
    if (!node) {
        process.stderr.write(`modelc: error CLI_NODE_VERSION: modelc needs Node ${REQUIRED_MAJOR}; this is Node ${process.versions.node} and no Node ${REQUIRED_MAJOR} was found in node_modules/node (run \`npm install\`)\n`);
        process.exit(1);
    }
    runAsChild(node, [here, ...process.argv.slice(2)], { ...process.env, MODELC_REEXEC: '1' });
}
