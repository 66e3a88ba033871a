import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { oneLine } from '../../src/common/index.js';

/**
 * `modelc resource` against what real `puppet resource` (and `puppet device --resource`) printed
 * for the same cases: test/fixtures/apply/resource/record.sh ran Puppet 7.23 with Debian's
 * puppet-resource-api gem over the fixture module (Resource API types with Ruby providers, a
 * transport and its device shim, classic types) and this host's accounts, copied to root/etc.
 * modelc runs under --root on those copies. Only what differs by nature is normalized: the
 * error prefix (Puppet's `Error: Could not run:` is `modelc: error CODE:`), timings, the ctime
 * of a file just made, and absolute paths of the scratch files.
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'apply', 'resource');
const WORK = '/tmp/modelc-resource-record';
const RECORDED_DEVICECONF = '/tmp/modelc-resource-record.device.conf';

interface Case {
    readonly name: string;
    readonly kind: 'resource' | 'device';
    readonly args: readonly string[];
}

const cases: Case[] = readFileSync(join(FIXTURES, 'cases.tsv'), 'utf8').split('\n').filter(l => l.trim() !== '').map(l => {
    const [name, kind, args] = l.split('\t');
    return { name, kind: kind as Case['kind'], args: args.split(' ').map(a => a.replace('@WORK@', WORK)) };
});

const scratch = mkdtempSync(join(tmpdir(), 'modelc-resource-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const deviceconfig = join(scratch, 'device.conf');
writeFileSync(deviceconfig, readFileSync(join(FIXTURES, 'device.conf.in'), 'utf8').replaceAll('@DIR@', FIXTURES));

/** A root holding the recorded accounts and the scratch file the recorder made before each case. */
function freshRoot(name: string): string {
    const root = join(scratch, name);
    cpSync(join(FIXTURES, 'root'), root, { recursive: true });
    const work = join(root, WORK);
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'app.conf'), 'hello\n');
    chmodSync(join(work, 'app.conf'), 0o640);
    const mtime = new Date('2024-01-02T03:04:05Z');
    utimesSync(join(work, 'app.conf'), mtime, mtime);
    return root;
}

function normalize(text: string): string {
    return text
        .replace(/\d+\.\d+ seconds/g, 'N seconds')
        .replace(/(ctime\s*(?:=>|:)\s*)'[^']*'/g, "$1'<ctime>'")
        .replace(/(\['ctime'\] contains a Time value\. It will be converted to the String )'[^']*'/g, "$1'<ctime>'")
        .replaceAll(RECORDED_DEVICECONF, '<deviceconfig>').replaceAll(deviceconfig, '<deviceconfig>')
        .replace(/\/\S*\/test\/fixtures\/apply\/resource/g, '<fixtures>')
        .split('\n').map(l => l.trimEnd()).join('\n').trim();
}

/**
 * Puppet's `Error: Could not run: MESSAGE` and modelc's `WHERE: error CODE: MESSAGE` both become
 * MESSAGE. Puppet's message may go on over more lines; modelc's diagnostic is one line, those
 * lines joined as oneLine joins them.
 */
function messages(stderr: string, ours: boolean): string {
    if (ours) return normalize(stderr.replace(/^(?:\S+: )?error [A-Z][A-Z0-9_]*: /gm, ''));
    const joined: string[] = [];
    for (const line of stderr.split('\n')) {
        if (joined.length === 0 || /^(Error|Warning|Notice|Info|Debug): /.test(line)) joined.push(line);
        else joined[joined.length - 1] += `\n${line}`;
    }
    return normalize(joined.map(m => (m.startsWith('Error: ') ? oneLine(m) : m)).join('\n').replace(/^Error: (?:Could not run: )?/gm, ''));
}

const asRoot = process.getuid?.() === 0;

describe('modelc resource prints what puppet resource prints', () => {
    it.each(cases)('$name', async c => {
        const root = freshRoot(c.name);
        const args = c.kind === 'device'
            ? ['resource', '--root', root, '--modulepath', join(FIXTURES, 'modules'), '--deviceconfig', deviceconfig, '--target', c.args[0], ...c.args.slice(1)]
            : ['resource', '--root', root, '--modulepath', join(FIXTURES, 'modules'), ...c.args];
        // Files the run makes belong to the user running it; Puppet's were root's.
        if (c.name.startsWith('file-') && !asRoot) return;
        const result = await runCli(...args);
        const expected = (ext: string): string => readFileSync(join(FIXTURES, 'expected', `${c.name}.${ext}`), 'utf8');
        expect(normalize(result.out)).toBe(normalize(expected('out')));
        expect(messages(result.err, true)).toBe(messages(expected('err'), false));
        expect(result.code).toBe(Number(expected('rc').trim()));
    });
});
