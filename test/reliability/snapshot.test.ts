import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, runBin, scratch, writeTree } from './harness.js';

// The startup snapshot (scripts/build-snapshot.mjs, src/cli/snapshot-entry.ts) is only a faster
// way to start: every command it holds must print, write and exit exactly as the modules of dist/
// do on the launcher's worker thread, and the launcher must fall back whenever the snapshot
// does not fit.

const ROOT = join(import.meta.dirname, '..', '..');
const SITE = join(ROOT, 'examples', 'site');
const FACTS = join(ROOT, 'examples', 'facts');
const STAMP = join(ROOT, 'dist', 'snapshot', 'stamp.json');
const node = (n: string): string[] => ['--node', `${n}.example.com`, '--facts', join(FACTS, `${n}.example.com.yaml`)];

/** Whether this system lets the launcher lift the stack limit (Linux, hard limit unlimited). */
function stackLiftable(): boolean {
    try {
        const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find(l => l.startsWith('Max stack size'));
        return line?.trim().split(/\s+/)[4] === 'unlimited';
    } catch {
        return false;
    }
}

const usable = existsSync(STAMP) && stackLiftable();
const started = (args: readonly string[], env: NodeJS.ProcessEnv = {}): string =>
    runBin(args, { env: { ...env, MODELC_DEBUG: '1' } }).err.split('\n')[0];

/**
 * A copy of the launcher beside its own stamp (the real dist/ is never touched): dist/src and the
 * build's artifacts are links to the real ones; `stamp` writes the stamp over the real one's.
 */
function launcherCopy(): { bin: string; marker: string; stamp: (over: Record<string, unknown>) => void } {
    const root = scratch('modelc-snap-root-');
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'dist', 'snapshot'), { recursive: true });
    copyFileSync(BIN, join(root, 'bin', 'modelc.js'));
    symlinkSync(join(ROOT, 'dist', 'src'), join(root, 'dist', 'src'));
    for (const f of ['modelc.blob', 'esm']) symlinkSync(join(ROOT, 'dist', 'snapshot', f), join(root, 'dist', 'snapshot', f));
    const marker = join(root, 'marker.js');
    writeFileSync(marker, '');
    utimesSync(marker, 1000, 1000);
    const real = JSON.parse(readFileSync(STAMP, 'utf8')) as Record<string, unknown>;
    const stamp = (over: Record<string, unknown>): void =>
        writeFileSync(join(root, 'dist', 'snapshot', 'stamp.json'), JSON.stringify({ ...real, root, watched: { 'marker.js': 1000 * 1000 }, ...over }));
    stamp({});
    return { bin: join(root, 'bin', 'modelc.js'), marker, stamp };
}

describe('the launcher starts from the snapshot', () => {
    test.skipIf(!stackLiftable())('npm run build made a snapshot, and the one-thread commands start from it', () => {
        expect(existsSync(STAMP)).toBe(true);
        const dir = writeTree(scratch(), { 'a.pp': 'notice(1)\n' });
        expect(started(['parse', join(dir, 'a.pp')])).toMatch(/^modelc: starting from the snapshot .*modelc\.blob$/);
    });

    test.each([
        ['apply', ['apply', '/nonexistent.json'], {}, /'apply' is not a command of the snapshot/],
        ['lsp', ['lsp', '--help'], {}, /'lsp' is not a command of the snapshot/],
        // Its compiles run on worker threads, which abort in a process started from the snapshot.
        ['review', ['review', '/nonexistent'], {}, /'review' is not a command of the snapshot/],
        ['no command', ['--help'], {}, /'--help' is not a command of the snapshot/],
        ['turned off', ['parse', '/nonexistent.pp'], { MODELC_NO_SNAPSHOT: '1' }, /MODELC_NO_SNAPSHOT is set/]
    ] as const)('and does not for %s', (_name, args, env, why) => {
        expect(started(args, env)).toMatch(why);
    });

    test.skipIf(!usable)('and falls back when what it was built from changed', () => {
        const { bin, marker, stamp } = launcherCopy();
        const dir = writeTree(scratch(), { 'a.pp': 'notice(1)\n' });
        const run = (): { first: string; out: string; code: number | null } => {
            const r = runBin(['parse', join(dir, 'a.pp')], { bin, env: { MODELC_DEBUG: '1' } });
            return { first: r.err.split('\n')[0], out: r.out, code: r.code };
        };
        const expected = '(invoke {:functor (qn "notice") :args [1]})\n';
        expect(run()).toMatchObject({ first: expect.stringMatching(/starting from the snapshot/), out: expected, code: 0 });
        stamp({ commands: [] });
        expect(run()).toMatchObject({ first: expect.stringMatching(/not a command of the snapshot; on a worker from .*esm\/main\.js$/), out: expected, code: 0 });
        stamp({});
        utimesSync(marker, 2000, 2000);
        expect(run()).toMatchObject({ first: expect.stringMatching(/marker\.js changed since the snapshot was built; on a worker from dist\/src$/), out: expected, code: 0 });
        stamp({ watched: {}, nodeSize: -1 });
        expect(run()).toMatchObject({ first: expect.stringMatching(/changed since the snapshot was built/), out: expected, code: 0 });
        stamp({ watched: {}, root: '/elsewhere' });
        expect(run()).toMatchObject({ first: expect.stringMatching(/the snapshot was built in \/elsewhere/), out: expected, code: 0 });
        stamp({ watched: {}, esm: 'esm/missing.js', commands: [] });
        expect(run()).toMatchObject({ first: expect.stringMatching(/on a worker from dist\/src$/), out: expected, code: 0 });
        writeFileSync(join(bin, '..', '..', 'dist', 'snapshot', 'stamp.json'), '{');
        expect(run()).toMatchObject({ first: expect.stringMatching(/no dist\/snapshot\/stamp\.json/), out: expected, code: 0 });
    });
});

describe.skipIf(!usable)('a start from the snapshot is a fresh process', () => {
    test('random uuids differ between runs (a catalog_uuid was made while the snapshot was built)', () => {
        const uuid = (): string => /"catalog_uuid": "([^"]+)"/.exec(runBin(['compile', SITE, ...node('web01'), '--no-bindings', '--format', 'puppet']).out)?.[1] ?? '';
        const [a, b] = [uuid(), uuid()];
        expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(b).not.toBe(a);
    });
});

describe.skipIf(!usable)('compile --nodes-dir from the snapshot', () => {
    test('compiles on worker processes from the snapshot, each node\'s file as a one-thread batch writes it', () => {
        // Enough nodes for two workers (16 per worker at least), each a new certname.
        const facts = scratch();
        const names = ['db01', 'util01', 'web01', 'web02'];
        for (let i = 0; i < 40; i++) {
            const host = names[i % names.length];
            writeFileSync(join(facts, `${host}-n${i}.example.com.yaml`), readFileSync(join(FACTS, `${host}.example.com.yaml`), 'utf8').replaceAll(host, `${host}-n${i}`));
        }
        const out = (jobs: string, env: NodeJS.ProcessEnv = {}): { dir: string; r: ReturnType<typeof runBin> } => {
            const dir = join(scratch(), 'out');
            return { dir, r: runBin(['compile', SITE, '--nodes-dir', facts, '--out-dir', dir, '--no-bindings', '--jobs', jobs], { env: { ...env, MODELC_DEBUG: '1' } }) };
        };
        const two = out('2');
        expect(two.r.err.split('\n')[0]).toMatch(/starting from the snapshot/);
        expect(two.r.err.split('\n').slice(1).join('')).toBe('');
        expect(two.r.code).toBe(0);
        expect(two.r.out).toMatch(/^compiled 40 of 40 nodes \(0 failed\).* 2 worker processes\n$/);
        const one = out('1', { MODELC_NO_SNAPSHOT: '1' });
        expect(one.r.code).toBe(0);
        for (const f of readdirSync(one.dir)) expect(readFileSync(join(two.dir, f), 'utf8')).toBe(readFileSync(join(one.dir, f), 'utf8'));
        expect(readdirSync(two.dir).sort()).toEqual(readdirSync(one.dir).sort());
    });
});

describe.skipIf(!usable)('a command prints, writes and exits as without the snapshot', () => {
    const bad = writeTree(scratch(), {
        'syntax.pp': "class a {\n  notify { 'x': message => }\n}\n",
        'manifests/site.pp': "notify { 'a': message => $facts['missing']['key'] }\n",
        'model.json': '{"$type": "nope"}\n'
    });
    const model = join(scratch(), 'catalog.json');
    writeFileSync(model, runBin(['compile', SITE, ...node('web01'), '--format', 'json'], { env: { MODELC_NO_SNAPSHOT: '1' } }).out);
    test.each([
        ['compile web01 (bindings and providers)', ['compile', SITE, ...node('web01')]],
        ['compile db01 --no-bindings, Puppet JSON', ['compile', SITE, ...node('db01'), '--no-bindings', '--format', 'puppet']],
        ['compile util01, Catalog model', ['compile', SITE, ...node('util01'), '--format', 'json']],
        ['compile --explain', ['compile', SITE, ...node('web01'), '--explain', 'profile::nginx::worker_processes']],
        ['compile, an evaluation error', ['compile', bad]],
        ['parse a directory', ['parse', SITE]],
        ['parse, JSON model', ['parse', join(SITE, 'manifests', 'site.pp'), '--format', 'json']],
        ['parse, a syntax error', ['parse', join(bad, 'syntax.pp')]],
        ['lookup --explain', ['lookup', SITE, 'profile::nginx::worker_processes', ...node('web02'), '--explain']],
        ['bindings', ['bindings', SITE, ...node('web01')]],
        ['validate', ['validate', model]],
        ['validate, a bad model', ['validate', join(bad, 'model.json')]],
        ['convert', ['convert', model, '--to', 'xmi']],
        ['diff', ['diff', model, model]],
        ['an unknown option', ['compile', SITE, '--frobnicate']]
    ] as const)('%s', (_name, args) => {
        // Puppet's catalog JSON carries the compile's time and a fresh uuid.
        const stable = (r: ReturnType<typeof runBin>): ReturnType<typeof runBin> =>
            ({ ...r, out: r.out.replace(/"version": \d+/, '"version": N').replace(/"catalog_uuid": "[^"]+"/, '"catalog_uuid": U') });
        expect(stable(runBin(args))).toEqual(stable(runBin(args, { env: { MODELC_NO_SNAPSHOT: '1' } })));
    });
});

describe.skipIf(!usable)('on the worker, the bundle prints, writes and exits as dist/src does', () => {
    // The copy's stamp offers the bundle but no snapshot command: everything runs on the worker from esm/.
    const { bin, stamp } = launcherCopy();
    stamp({ commands: [] });
    const model = join(scratch(), 'catalog.json');
    writeFileSync(model, runBin(['compile', SITE, ...node('web01'), '--format', 'json'], { env: { MODELC_NO_SNAPSHOT: '1' } }).out);
    const root = scratch();
    const stable = (r: ReturnType<typeof runBin>): ReturnType<typeof runBin> => ({ ...r, out: r.out.replace(/in [\d.]+ seconds/g, 'in N seconds') });
    test.each([
        ['compile web01 (bindings and providers)', ['compile', SITE, ...node('web01')]],
        ['parse a directory', ['parse', SITE]],
        ['apply --noop', ['apply', model, '--noop', '--root', root]],
        ['generate --check', ['generate', '--check']],
        ['lsp --help', ['lsp', '--help']]
    ] as const)('%s', (_name, args) => {
        const viaBundle = runBin(args, { bin, env: { MODELC_DEBUG: '1' } });
        expect(viaBundle.err.split('\n')[0]).toMatch(/on a worker from .*esm\/main\.js$/);
        const plain = runBin(args, { env: { MODELC_NO_SNAPSHOT: '1' } });
        expect(stable({ ...viaBundle, err: viaBundle.err.split('\n').slice(1).join('\n') })).toEqual(stable(plain));
    });
});
