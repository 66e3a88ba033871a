import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, ONE_LINE, runBin, scratch, writeTree } from './harness.js';

// What a file system can put where an input file is expected besides a file or a directory: a
// FIFO (reading one waits for a writer, blocking the thread so that not even SIGTERM ends the
// run) and devices (/dev/zero never ends). Each is refused as one located line; /dev/null reads
// as an empty file, as Puppet reads it. Through the launcher, whose hang guard is SIGKILL.

const SITE = {
    'hiera.yaml': 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n', 'data/common.yaml': 'key: 1\n', 'manifests/site.pp': "notice(lookup('key'))\n",
    'facts.yaml': 'os: {family: Debian}\n', 'modules/m/manifests/init.pp': 'class m {}\n', 'modules/m/templates/t.epp': 'x', 'modules/m/lib/puppet/functions/m/f.rb': '',
    'catalog.json': '{}', 'device.conf': '[sw1]\ntype demo\nurl file:///nowhere\n', 'modules/.keep': ''
};

type Special = 'fifo' | 'zero' | 'null';

/** Replaces REL under DIR by a FIFO or a link to a device. */
function make(dir: string, rel: string, special: Special): void {
    const path = join(dir, rel);
    rmSync(path, { force: true });
    if (special === 'fifo') execFileSync('mkfifo', [path]);
    else symlinkSync(special === 'zero' ? '/dev/zero' : '/dev/null', path);
}

interface Case {
    readonly file: string;
    readonly args: (d: string) => string[];
    readonly code: string;
    readonly site?: string;
}

const CASES: Record<string, Case> = {
    'compile --facts': { file: 'facts.yaml', args: d => ['compile', d, '--facts', join(d, 'facts.yaml'), '--format', 'puppet'], code: 'NODE_INPUT_FILE' },
    'lookup --facts': { file: 'facts.yaml', args: d => ['lookup', d, 'key', '--facts', join(d, 'facts.yaml')], code: 'NODE_INPUT_FILE' },
    'parse': { file: 'manifests/site.pp', args: d => ['parse', join(d, 'manifests', 'site.pp')], code: 'PARSE_FILE_NOT_FOUND' },
    'validate': { file: 'catalog.json', args: d => ['validate', join(d, 'catalog.json')], code: 'MODEL_FILE_NOT_FOUND' },
    'convert': { file: 'catalog.json', args: d => ['convert', join(d, 'catalog.json'), '--to', 'json'], code: 'MODEL_FILE_NOT_FOUND' },
    'diff': { file: 'catalog.json', args: d => ['diff', join(d, 'catalog.json'), join(d, 'catalog.json')], code: 'MODEL_FILE_NOT_FOUND' },
    'apply': { file: 'catalog.json', args: d => ['apply', join(d, 'catalog.json'), '--noop', '--root', d], code: 'APPLY_CATALOG_FORMAT' },
    'compile: Hiera data': { file: 'data/common.yaml', args: d => ['compile', d, '--format', 'puppet'], code: 'EVAL_FILE_UNREADABLE' },
    'lookup: hiera.yaml': { file: 'hiera.yaml', args: d => ['lookup', d, 'key'], code: 'CLI_UNREADABLE' },
    'compile: a class manifest': { file: 'modules/m/manifests/init.pp', args: d => ['compile', d, '--format', 'puppet'], code: 'EVAL_FILE_UNREADABLE', site: 'include m\n' },
    'compile: an EPP template': { file: 'modules/m/templates/t.epp', args: d => ['compile', d, '--format', 'puppet'], code: 'EVAL_FILE_UNREADABLE', site: "notice(epp('m/t.epp'))\n" },
    'resource --deviceconfig (reading a FIFO blocked the thread)': {
        file: 'device.conf', args: d => ['resource', 'x', '--deviceconfig', join(d, 'device.conf'), '--target', 'sw1', '--modulepath', join(d, 'modules'), '--root', d], code: 'APPLY_DEVICE_CONFIG'
    },
    'compile: a Ruby function': { file: 'modules/m/lib/puppet/functions/m/f.rb', args: d => ['compile', d, '--format', 'puppet'], code: 'EVAL_FILE_UNREADABLE', site: 'notice(m::f())\n' }
};

describe.each(['fifo', 'zero'] as const)('a %s where an input file is expected: one located line, exit 1', special => {
    test.each(Object.entries(CASES))('%s', (_name, c) => {
        const dir = writeTree(scratch(), { ...SITE, ...(c.site ? { 'manifests/site.pp': c.site } : {}) });
        make(dir, c.file, special);
        const r = runBin(c.args(dir), { timeoutMs: 60_000 });
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(ONE_LINE(c.code));
        expect(r.err).toMatch(special === 'fifo' ? /FIFO/ : /character device|not a regular file/);
    });
});

describe('/dev/null is read as an empty file', () => {
    test.each([
        ['compile --facts', (d: string) => ['compile', d, '--facts', join(d, 'facts.yaml'), '--format', 'puppet'], 'facts.yaml'],
        ['parse', (d: string) => ['parse', join(d, 'manifests', 'site.pp')], 'manifests/site.pp']
    ])('%s', (_name, args, file) => {
        const dir = writeTree(scratch(), SITE);
        make(dir, file, 'null');
        const r = runBin(args(dir));
        expect(r.code).toBe(0);
        expect(r.err).toMatch(/^(Notice: Scope\(Class\[main\]\): 1\n)?$/);
    });
});

// Root reads files whatever their mode: the unreadable cases run as nobody, through setpriv.
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
// ...and only where nobody can run this checkout at all: a clone below a directory only root may
// enter (mktemp -d makes those) cannot be, and the cases are skipped there.
const AS_NOBODY = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0
    && spawnSync('setpriv', [...NOBODY, process.execPath, BIN, '--version'], { encoding: 'utf8', timeout: 60_000 }).status === 0;

describe.skipIf(!AS_NOBODY)('a file no one may read (mode 000): one located line saying so', () => {
    test.each([
        ['parse', 'manifests/site.pp', (d: string) => ['parse', join(d, 'manifests', 'site.pp')], 'PARSE_FILE_NOT_FOUND', /site\.pp: error PARSE_FILE_NOT_FOUND: permission denied/],
        ['compile: the site manifest', 'manifests/site.pp', (d: string) => ['compile', d, '--format', 'puppet'], 'EVAL_FILE_UNREADABLE', /permission denied \(EACCES\)/],
        ['compile: Hiera data', 'data/common.yaml', (d: string) => ['compile', d, '--format', 'puppet'], 'EVAL_FILE_UNREADABLE', /permission denied \(EACCES\)/],
        ['lookup: hiera.yaml', 'hiera.yaml', (d: string) => ['lookup', d, 'key'], 'CLI_UNREADABLE', /permission denied \(EACCES\)/],
        ['compile --facts', 'facts.yaml', (d: string) => ['compile', d, '--facts', join(d, 'facts.yaml'), '--format', 'puppet'], 'NODE_INPUT_FILE', /EACCES/]
    ])('%s', (_name, file, args, code, message) => {
        const dir = writeTree(scratch(), SITE);
        chmodSync(dir, 0o755);
        for (const d of ['manifests', 'data', 'modules']) chmodSync(join(dir, d), 0o755);
        chmodSync(join(dir, file), 0o000);
        const r = spawnSync('setpriv', [...NOBODY, process.execPath, BIN, ...args(dir)], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, HOME: dir } });
        expect(r.status).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(ONE_LINE(code));
        expect(r.stderr).toMatch(message);
    });
});
