import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { scratch, writeTree } from './harness.js';

// bin/modelc, the `modelc` command (package.json's bin), starts the snapshot's commands itself
// (one Node process) and hands everything else to bin/modelc.js. Its decisions are checked on a
// copy whose bin/modelc.js only says it was asked: the real snapshot answers, or the stand-in.

const ROOT = join(import.meta.dirname, '..', '..');
const LAUNCH = join(ROOT, 'dist', 'snapshot', 'launch.sh');
const FALLBACK = 'bin/modelc.js was asked:';

/** Whether this system lets a process lift its stack limit (Linux, hard limit unlimited). */
function stackLiftable(): boolean {
    const r = spawnSync('/bin/sh', ['-c', 'ulimit -s unlimited'], { encoding: 'utf8' });
    return r.status === 0;
}

const usable = existsSync(LAUNCH) && stackLiftable();

/** A checkout of the command beside the real snapshot, with a stand-in bin/modelc.js and a watched marker file. */
function commandCopy(): { root: string; command: string; marker: string; launch: (over?: Record<string, string>) => void } {
    const root = scratch('modelc-cmd-root-');
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'dist', 'snapshot'), { recursive: true });
    copyFileSync(join(ROOT, 'bin', 'modelc'), join(root, 'bin', 'modelc'));
    writeFileSync(join(root, 'bin', 'modelc.js'), `process.stdout.write(${JSON.stringify(FALLBACK)} + ' ' + process.argv.slice(2).join(' ') + '\\n');\n`);
    symlinkSync(join(ROOT, 'dist', 'snapshot', 'modelc.blob'), join(root, 'dist', 'snapshot', 'modelc.blob'));
    const marker = join(root, 'marker.js');
    writeFileSync(marker, '');
    utimesSync(marker, 1000, 1000);
    const real = readFileSync(LAUNCH, 'utf8');
    const value = (name: string): string => new RegExp(`^${name}=(.*)$`, 'm').exec(real)?.[1] ?? '';
    const launch = (over: Record<string, string> = {}): void => {
        const values: Record<string, string> = {
            snapshot_root: `'${root}'`, snapshot_node: value('snapshot_node'), snapshot_blob: `'${join(root, 'dist', 'snapshot', 'modelc.blob')}'`,
            snapshot_watched: "'marker.js'", snapshot_flags: value('snapshot_flags'), snapshot_tunables: value('snapshot_tunables'), ...over
        };
        const command = /^snapshot_command\(\).*$/m.exec(real)?.[0] ?? '';
        writeFileSync(join(root, 'dist', 'snapshot', 'launch.sh'), `${Object.entries(values).map(([k, v]) => `${k}=${v}`).join('\n')}\n${command}\n`);
    };
    launch();
    return { root, command: join(root, 'bin', 'modelc'), marker, launch };
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): { out: string; code: number | null } {
    const r = spawnSync(command, args, { encoding: 'utf8', cwd, env: { ...process.env, MODELC_NO_SNAPSHOT: '', MODELC_DEBUG: '', ...env } });
    return { out: r.stdout, code: r.status };
}

describe.skipIf(!usable)('the modelc command', () => {
    const file = join(writeTree(scratch(), { 'a.pp': 'notice(1)\n' }), 'a.pp');
    const parsed = '(invoke {:functor (qn "notice") :args [1]})\n';

    test('starts a command of the snapshot from it, also through links and a relative path', () => {
        const { root, command } = commandCopy();
        expect(run(command, ['parse', file])).toEqual({ out: parsed, code: 0 });
        const link = join(scratch(), 'modelc');
        symlinkSync(command, link);
        expect(run(link, ['parse', file])).toEqual({ out: parsed, code: 0 });
        // A link to that link, by a relative target (as npm's bin links are).
        const again = join(link, '..', 'again');
        symlinkSync('modelc', again);
        expect(run(again, ['parse', file])).toEqual({ out: parsed, code: 0 });
        expect(run('bin/modelc', ['parse', file], {}, root)).toEqual({ out: parsed, code: 0 });
    });

    test.each([
        ['another command', ['apply', 'x.json'], {}, () => undefined],
        ['no command', [], {}, () => undefined],
        ['MODELC_NO_SNAPSHOT', ['parse', 'a.pp'], { MODELC_NO_SNAPSHOT: '1' }, () => undefined],
        ['MODELC_DEBUG (bin/modelc.js says how it starts)', ['parse', 'a.pp'], { MODELC_DEBUG: '1' }, () => undefined],
        ['a watched file newer than the snapshot', ['parse', 'a.pp'], {}, (c: ReturnType<typeof commandCopy>) => { utimesSync(c.marker, new Date(), new Date()); }],
        ['a watched file missing', ['parse', 'a.pp'], {}, (c: ReturnType<typeof commandCopy>) => { rmSync(c.marker); }],
        ['a snapshot of another checkout', ['parse', 'a.pp'], {}, (c: ReturnType<typeof commandCopy>) => { c.launch({ snapshot_root: `'${ROOT}/dist'` }); }],
        ['no snapshot blob', ['parse', 'a.pp'], {}, (c: ReturnType<typeof commandCopy>) => { rmSync(join(c.root, 'dist', 'snapshot', 'modelc.blob')); }],
        ['no launch.sh', ['parse', 'a.pp'], {}, (c: ReturnType<typeof commandCopy>) => { rmSync(join(c.root, 'dist', 'snapshot', 'launch.sh')); }],
        // A PuppetDB store speaks HTTP from a worker thread, which a process from the snapshot cannot run.
        ['a PuppetDB store', ['compile', 'site', '--store', 'puppetdb:http://127.0.0.1:9'], {}, () => undefined],
        ['a PuppetDB store (--store=)', ['lookup', 'site', 'k', '--store=puppetdb:http://127.0.0.1:9'], {}, () => undefined]
    ] as const)('hands %s to bin/modelc.js, arguments unchanged', (_name, args, env, change) => {
        const copy = commandCopy();
        change(copy);
        expect(run(copy.command, args, env)).toEqual({ out: `${FALLBACK} ${args.join(' ')}\n`, code: 0 });
    });

    // The snapshot starts with glibc's tunables from the build (launch.sh) unless the user's
    // environment sets its own; what the CLI runs (generate() here) gets the user's environment.
    test.each([
        ['no tunables of the user\'s', {}, undefined],
        ['the user\'s tunables', { GLIBC_TUNABLES: 'glibc.malloc.check=0' }, 'glibc.malloc.check=0']
    ] as const)('gives what it runs the user\'s environment: %s', (_name, env, expected) => {
        const { command } = commandCopy();
        const site = writeTree(scratch(), { 'manifests/site.pp': "notice(generate('/usr/bin/env'))\n" });
        const r = spawnSync(command, ['compile', site, '--node', 'n1', '--setting', 'allow_generate=true', '--format', 'json'],
            { encoding: 'utf8', env: { ...process.env, MODELC_NO_SNAPSHOT: '', MODELC_DEBUG: '', GLIBC_TUNABLES: undefined, ...env } });
        expect(r.status).toBe(0);
        const seen = /"message":\s*"([^"]*)"/.exec(r.stdout)?.[1] ?? r.stdout;
        expect(seen).toContain('PATH=');
        expect(/GLIBC_TUNABLES=([^\\]*)/.exec(seen)?.[1]).toBe(expected);
        expect(seen).not.toContain('MODELC_TUNABLES_SET');
    });

    test('passes the exit status and the command\'s own options through', () => {
        const { command } = commandCopy();
        expect(run(command, ['parse', '--help']).out).toMatch(/^Usage: modelc parse/);
        expect(run(command, ['parse', '/nonexistent.pp']).code).toBe(1);
    });
});
