// Builds what makes the CLI start faster into dist/snapshot/ (run by `npm run build`, after tsc):
//   modelc.cjs   dist/src/cli/snapshot-entry.js and everything it imports, bundled into one script
//   modelc.blob  the heap after running that script under `node --build-snapshot` (modules loaded,
//                parser built, the warm-up of src/cli/snapshot-warmup.ts run on scripts/warmup/):
//                the commands that run on one thread start from it
//   esm/         dist/src/cli/main.js bundled as ES modules (one module per command's part instead
//                of ~750 files): the other commands (apply, serve, lsp, ...) load it on the
//                launcher's worker thread, as does every command where the snapshot cannot be used
//   stamp.json   what they were built from: bin/modelc.js uses them only while all of that is
//                unchanged (the Node binary, the compiled modules, the installed packages), and
//                the flags a start from the snapshot takes
//   launch.sh    the same for bin/modelc, the `modelc` command (a shell script)
// Both only make the CLI start faster: when missing or stale, bin/modelc.js runs the modules of
// dist/ as before. A failure here is reported and leaves them out; it never fails the build.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'snapshot');
const entry = join(root, 'dist', 'src', 'cli', 'snapshot-entry.js');

/** The files whose change makes a snapshot stale; bin/modelc.js compares their mtimes with the stamp's. */
const WATCHED = ['dist/src/cli/main.js', 'dist/src/cli/snapshot-entry.js', 'node_modules/.package-lock.json'];

/**
 * Built-in modules whose native parts cannot be in a user snapshot (Node refuses to serialize
 * them). The bundle loads them on first use instead, through a stand-in object; a compile
 * without `--store` never touches them (they serve the catalog store and `modelc serve`).
 */
const UNSNAPSHOTTABLE = ['sqlite', 'http', 'https', 'http2', 'tls', 'repl'];

/**
 * The commands that start from the snapshot (bin/modelc.js reads them from the stamp). The others
 * run on the launcher's worker thread (from esm/): `apply` and `serve`
 * stop at a safe point on a signal, which needs the main thread free to receive it; `lsp` and
 * `serve` are long-running (their start-up does not matter); `generate` is a developer's command
 * whose libraries (json-schema-to-typescript and prettier) would be half of the snapshot;
 * `review` compiles on worker threads, and a thread of a process started from a user snapshot
 * aborts when it loads a built-in the snapshot holds with native parts (Node asserts on the
 * class templates of crypto's KeyObject, of child_process's pipes); `compile --nodes-dir` runs
 * its workers as processes from the snapshot instead (src/batch/workers.ts).
 */
/** V8's stack for the snapshot's main thread, in KB: the worker's 1 GB (src/cli/launch.ts), less a margin. */
const STACK_KB = 1024 * 1024 - 256;
/**
 * V8 grows the young generation to two 64 MB semi-spaces (and more) on large inputs; 8 MB ones
 * keep a compile of 100,000 resources at 310 MB peak instead of 400 (560 with collectors), for
 * about 5 % more CPU there; small compiles never grow it that far. (The worker thread of a start
 * without the snapshot gets the same limit, src/cli/launch.ts.) It starts at that size rather than
 * growing to it through a dozen scavenges of a few MB (generated 5k site -2.5 % instructions,
 * callgrind; 1k unchanged).
 */
const YOUNG_GENERATION = ['--max-semi-space-size=8', '--min-semi-space-size=8'];
/**
 * Sparkplug, V8's baseline compiler, compiles each function that gets warm as it does, not in
 * batches: the snapshot holds bytecode but no baseline code, so a cold compile baseline-compiles
 * some 850 functions, and batching them cost more than it saved (callgrind, --single-threaded:
 * generated 1k site 728 -> 720 M instructions, 5k 1,884 -> 1,864 M).
 */
const BASELINE = ['--no-baseline-batch-compilation'];
/**
 * V8's optimizing compiler stays off: a compile is short and megamorphic, and TurboFan's compile
 * threads cost more CPU than its code saves. Measured cold from the snapshot (CPU, medians): the
 * example's web01 unchanged, the real-world mysql case -4 %, generated sites of 1k, 5k and 20k
 * resources -5 %, -14 % and -20 %, 100k equal, `--nodes-dir` with 300 nodes -8 %; Maglev, the
 * mid-tier compiler, stays (without it 20k is 15 % slower, 1k 30 % faster), but only for functions
 * called 5,000 times instead of V8's 400: a short compile then spends nothing compiling code it
 * will not run long enough to win back. Measured the same way: web01 -15 %, mysql -15 %,
 * generated 1k -30 %, 5k -5 %, 20k and 100k unchanged (higher counts lose at 5k).
 */
const COMPILERS = ['--no-turbofan', '--invocation-count-for-maglev=5000', ...BASELINE];
/**
 * The old generation starts at 64 MB instead of growing from a few: the snapshot's heap is already
 * 20 MB, and a compile of a few thousand resources otherwise runs a full mark-compact or two on
 * the way up that free little (generated 5k -9 % CPU, 1k -5 %, 20k +2 %, web01 unchanged, peak
 * RSS unchanged: the memory is reserved, used only as the heap grows).
 */
const OLD_GENERATION = ['--initial-old-space-size=64'];
/**
 * The snapshot's hash tables (property dictionaries, descriptor arrays, the string table) are
 * hashed with the seed of the process that built it. A process started with another seed, V8's
 * default (a random one per process), first rehashes every one of them and computes the hash of
 * every string again: 15 % of the instructions of starting at all (`help`), 4 % of a cold compile
 * of 1,000 resources (callgrind). Started with the build's seed, nothing needs rehashing. The seed
 * is random per build, not a constant anyone could know: the reason V8 randomizes it (inputs made
 * to collide in its hash tables, slowing a process down) holds as well for one chosen at install.
 */
const HASH_SEED = 1 + randomInt(2 ** 31 - 2);
const HASHING = [`--hash-seed=${HASH_SEED}`, '--no-rehash-snapshot'];
/**
 * The environment a start from the snapshot gets (when the user's sets none of it). Node reads
 * the snapshot file into memory and copies it once more before V8 deserializes it: 16 MB each,
 * touched page by page, 7,500 of the 15,000 page faults of starting at all, a third of a cold
 * start's CPU in the kernel. With glibc's malloc asking for transparent huge pages (where the
 * system grants them on request, Linux's default), each buffer takes a few faults: CPU of `help`
 * -20 %, of a cold compile of 1,000 resources -12 % (medians of 31, interleaved); peak RSS and CPU
 * of 100,000 resources unchanged. The CLI takes it out of its environment again at start
 * (snapshot-entry.ts), so nothing it runs inherits it; elsewhere glibc ignores it.
 */
const ENVIRONMENT = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' };
/** Node's options for a start from the snapshot (both launchers read them from what this script writes). */
const FLAGS = [`--stack-size=${STACK_KB}`, ...COMPILERS, ...YOUNG_GENERATION, ...OLD_GENERATION, ...HASHING];

const COMMANDS = ['compile', 'parse', 'validate', 'convert', 'diff', 'bindings', 'effective', 'lookup'];
const LEFT_OUT = ['apply', 'serve', 'lsp', 'generate', 'review'];

/** main.js imports each command's module when it runs: those left out become a module that says so. */
const leftOut = {
    name: 'left-out-commands',
    setup(build) {
        const filter = new RegExp(`^\\./(${LEFT_OUT.join('|')})-command\\.js$`);
        build.onResolve({ filter }, a => (a.importer.endsWith(join('cli', 'main.js')) ? { path: a.path, namespace: 'left-out' } : undefined));
        build.onLoad({ filter: /.*/, namespace: 'left-out' }, a => ({
            loader: 'js',
            contents: `throw new Error(${JSON.stringify(`${a.path} is not in the startup snapshot (bin/modelc.js runs it from dist/)`)});`
        }));
    }
};

const lazyBuiltins = {
    name: 'lazy-builtins',
    setup(build) {
        const filter = new RegExp(`^(node:)?(${UNSNAPSHOTTABLE.join('|')})$`);
        build.onResolve({ filter }, a => ({ path: a.path.replace(/^node:/, ''), namespace: 'lazy-builtin' }));
        build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, a => {
            // The bundle copies a module's properties when it imports it (as getters that read
            // them later): the names are known here, the values are read on first use.
            const names = Object.keys(process.getBuiltinModule(`node:${a.path}`));
            return {
                loader: 'js',
                contents: `let m;
const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(`node:${a.path}`)}));
for (const k of ${JSON.stringify(names)}) Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });`
            };
        });
    }
};

/**
 * Node makes the random bytes behind crypto.randomUUID() in batches, kept in the module on first
 * use: made while the snapshot is built, one batch would be in the snapshot and every start would
 * hand out the same uuids (a catalog's catalog_uuid, a report's transaction uuid). The bundle's
 * `node:crypto` is Node's with randomUUID() built from fresh random bytes at every call.
 */
const freshUuids = {
    name: 'fresh-uuids',
    setup(build) {
        build.onResolve({ filter: /^(node:)?crypto$/ }, () => ({ path: 'crypto', namespace: 'fresh-uuids' }));
        build.onLoad({ filter: /.*/, namespace: 'fresh-uuids' }, () => ({
            loader: 'js',
            contents: `const c = process.getBuiltinModule('node:crypto');
for (const k of ${JSON.stringify(Object.keys(process.getBuiltinModule('node:crypto')).filter(k => k !== 'randomUUID'))}) Object.defineProperty(exports, k, { enumerable: true, get: () => c[k] });
Object.defineProperty(exports, 'randomUUID', { enumerable: true, value: () => {
  const b = c.randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
} });`
        }));
    }
};

/**
 * `import.meta` has no meaning in a CommonJS bundle: each module's `import.meta.url` becomes the
 * URL of the file it was bundled from, so paths found from it (the project root, packages loaded
 * with createRequire, worker scripts) are those of the unbundled run.
 */
const moduleUrls = {
    name: 'module-urls',
    setup(build) {
        build.onLoad({ filter: /\.m?js$/ }, a => {
            const text = readFileSync(a.path, 'utf8');
            if (!text.includes('import.meta')) return undefined;
            const url = pathToFileURL(a.path).href;
            return {
                loader: 'js',
                contents: text
                    .replaceAll('import.meta.url', JSON.stringify(url))
                    .replaceAll('import.meta.dirname', JSON.stringify(dirname(a.path)))
                    .replaceAll('import.meta.filename', JSON.stringify(a.path))
            };
        });
    }
};

function mtime(file) {
    return statSync(join(root, file)).mtimeMs;
}

/** The snapshot (modelc.cjs, modelc.blob); a failure's reason, or undefined. */
async function buildSnapshot(esbuild) {
    const bundle = join(out, 'modelc.cjs');
    const blob = join(out, 'modelc.blob');
    const result = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: `node${process.versions.node.split('.')[0]}`,
        outfile: bundle,
        plugins: [leftOut, lazyBuiltins, freshUuids, moduleUrls],
        logLevel: 'silent',
        // The snapshot holds the script's text, and every start reads the snapshot: without
        // whitespace and comments it is a quarter smaller; the source map leads a stack trace
        // back to dist/ and src/. No keepNames: its `__name(fn, "name")` around every function
        // turned 2,900 functions' properties into dictionaries (0.8 MB of the snapshot's heap)
        // and ran again for every closure made at run time (cold 1k compile 720 -> 706 M
        // instructions, callgrind --single-threaded). Functions and classes still have their
        // names, but for the few renamed for a clash and classes assigned to properties; nothing
        // tells classes apart by name (yaml-js's events and tokens: psych-syntax.ts's yamlClass).
        minifyWhitespace: true,
        minifySyntax: true,
        keepNames: false,
        sourcemap: 'linked'
    });
    for (const w of result.warnings) process.stderr.write(`build-snapshot: warning: ${w.text} (${w.location?.file ?? ''}:${w.location?.line ?? ''})\n`);
    // Node warns that some built-in modules are "not yet fully verified" in snapshots; the
    // warm-up's own errors are written to stderr directly and stay visible.
    // Fixed seeds (and V8's predictable mode, for the build only) make the same inputs and hash
    // seed give the same snapshot, byte for byte. Math.random and crypto are seeded afresh in every start.
    const r = spawnSync(process.execPath, ['--no-warnings', '--predictable', '--random-seed=1', `--hash-seed=${HASH_SEED}`, '--snapshot-blob', blob, '--build-snapshot', bundle], {
        cwd: root, encoding: 'utf8', env: { ...process.env, MODELC_WARMUP_DIR: join(root, 'scripts', 'warmup') }
    });
    if (r.status !== 0 || !existsSync(blob)) {
        return `node --build-snapshot failed (${r.status ?? r.signal}): ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`;
    }
    // A warm-up that loaded a package file through require() leaves a snapshot that Node
    // cannot start from (its module loader is then initialized at build time): try it once.
    const check = spawnSync(process.execPath, [...HASHING, '--snapshot-blob', blob, '--', 'help'], { cwd: root, encoding: 'utf8' });
    if (check.status !== 0 || !check.stdout.startsWith('Usage: modelc')) {
        return `the snapshot does not start (${check.status ?? check.signal}): ${(check.stderr || check.stdout).trim().split('\n').slice(0, 3).join(' | ')}`;
    }
    return undefined;
}

/**
 * A package the code imports with import() stays outside the worker's bundle: Node's own loader
 * then gives it the named exports it finds in CommonJS packages (json-schema-to-typescript's
 * `compile`), which a bundler's interop does not, and the package costs nothing until then.
 */
const dynamicPackages = {
    name: 'dynamic-packages',
    setup(build) {
        build.onResolve({ filter: /^[^./]/ }, a => (a.kind === 'dynamic-import' && !a.path.startsWith('node:') ? { path: a.path, external: true } : undefined));
    }
};

/** The worker's bundle (esm/); a failure's reason, or undefined. */
async function buildWorkerBundle(esbuild) {
    const dir = join(out, 'esm');
    const result = await esbuild.build({
        entryPoints: { main: join(root, 'dist', 'src', 'cli', 'main.js') },
        bundle: true,
        splitting: true,
        platform: 'node',
        format: 'esm',
        target: `node${process.versions.node.split('.')[0]}`,
        outdir: dir,
        chunkNames: 'chunks/[name]-[hash]',
        plugins: [dynamicPackages, moduleUrls],
        logLevel: 'silent',
        keepNames: true,
        sourcemap: 'linked',
        // The CommonJS packages inside require Node's built-in modules.
        banner: { js: "import { createRequire as __modelcCreateRequire } from 'node:module'; const require = __modelcCreateRequire(import.meta.url);" }
    });
    for (const w of result.warnings) process.stderr.write(`build-snapshot: warning: ${w.text} (${w.location?.file ?? ''}:${w.location?.line ?? ''})\n`);
    const check = spawnSync(process.execPath, ['--input-type=module', '-e',
        `const { main } = await import(${JSON.stringify(pathToFileURL(join(dir, 'main.js')).href)}); process.exitCode = await main(['node', 'modelc', 'help'], { out: s => process.stdout.write(s), err: s => process.stderr.write(s) });`],
    { cwd: root, encoding: 'utf8' });
    if (check.status !== 0 || !check.stdout.startsWith('Usage: modelc')) {
        return `the bundle does not load (${check.status ?? check.signal}): ${(check.stderr || check.stdout).trim().split('\n').slice(0, 3).join(' | ')}`;
    }
    return undefined;
}

/** A word for sh, quoted. */
const shWord = w => `'${String(w).replaceAll("'", "'\\''")}'`;

/**
 * What bin/modelc (the `modelc` command, a POSIX shell script) needs to start a command from the
 * snapshot without starting Node twice: sourced by it, it defines the values below and nothing
 * else runs. The stamp's checks, as far as sh can make them without starting a program: the
 * checkout's place, the command, and no watched file (nor the Node binary) newer than the blob;
 * bin/modelc.js makes the exact ones for everything that does not pass these.
 */
function launchScript(stamp) {
    return [
        '# Written by scripts/build-snapshot.mjs for bin/modelc: DO NOT EDIT (npm run build rewrites it).',
        `snapshot_root=${shWord(stamp.root)}`,
        `snapshot_node=${shWord(stamp.execPath)}`,
        `snapshot_blob=${shWord(join(out, 'modelc.blob'))}`,
        `snapshot_watched=${shWord(Object.keys(stamp.watched).join(' '))}`,
        `snapshot_flags=${shWord(stamp.flags.join(' '))}`,
        `snapshot_tunables=${shWord(stamp.env.GLIBC_TUNABLES)}`,
        `snapshot_command() { case $1 in ${stamp.commands.join('|')}) return 0 ;; esac; return 1; }`,
        ''
    ].join('\n');
}

async function build() {
    let esbuild;
    try {
        esbuild = await import('esbuild');
    } catch {
        return ['esbuild is not installed (a production install): the CLI starts from dist/src'];
    }
    if (!existsSync(entry)) return [`${relative(root, entry)} is missing (run tsc first)`];
    mkdirSync(out, { recursive: true });
    const failures = [];
    const snapshot = await buildSnapshot(esbuild).catch(e => `${e instanceof Error ? e.message : String(e)}`);
    if (snapshot !== undefined) {
        failures.push(`no startup snapshot: ${snapshot}`);
        for (const f of ['modelc.cjs', 'modelc.cjs.map', 'modelc.blob']) rmSync(join(out, f), { force: true });
    }
    const esm = await buildWorkerBundle(esbuild).catch(e => `${e instanceof Error ? e.message : String(e)}`);
    if (esm !== undefined) {
        failures.push(`no worker bundle: ${esm}`);
        rmSync(join(out, 'esm'), { recursive: true, force: true });
    }
    if (snapshot !== undefined && esm !== undefined) return failures;
    const node = statSync(process.execPath);
    const stamp = {
        node: process.version,
        execPath: process.execPath,
        nodeSize: node.size,
        nodeMtimeMs: node.mtimeMs,
        root,
        commands: snapshot === undefined ? COMMANDS : [],
        flags: FLAGS,
        env: ENVIRONMENT,
        ...(esm === undefined ? { esm: 'esm/main.js' } : {}),
        watched: Object.fromEntries(WATCHED.filter(f => existsSync(join(root, f))).map(f => [f, mtime(f)]))
    };
    writeFileSync(join(out, 'stamp.json'), JSON.stringify(stamp, null, 2) + '\n');
    if (snapshot === undefined) writeFileSync(join(out, 'launch.sh'), launchScript(stamp));
    return failures;
}

rmSync(out, { recursive: true, force: true });
const failures = await build().catch(e => [`${e instanceof Error ? e.message : String(e)}`]);
for (const f of failures) process.stdout.write(`build-snapshot: ${f}\n`);
if (!existsSync(join(out, 'stamp.json'))) rmSync(out, { recursive: true, force: true });
