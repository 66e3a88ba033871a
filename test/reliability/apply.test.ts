import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { scratch, startBin } from './harness.js';

// apply under faults: it must not write outside --root, must not leave half-written files,
// must report what really happened, and must leave a report when stopped by a signal.

const catalog = (resources: Array<{ type: string; title: string; parameters: Record<string, unknown> }>, edges = false): string =>
    JSON.stringify({
        resources,
        ...(edges ? { edges: [] } : {})
    });

function writeCatalog(dir: string, resources: Parameters<typeof catalog>[0]): string {
    const file = join(dir, 'catalog.json');
    writeFileSync(file, catalog(resources));
    return file;
}

describe('apply under --root', () => {
    test('a symlink inside the root cannot lead a file resource outside it', async () => {
        const outside = scratch('modelc-outside-');
        const root = scratch();
        mkdirSync(join(root, 'etc'));
        // /etc/app inside the root points at a directory outside it (absolute and climbing links).
        symlinkSync(outside, join(root, 'etc', 'app'));
        symlinkSync('../../../../../../../../..' + outside, join(root, 'etc', 'up'));
        const work = scratch();
        const file = writeCatalog(work, [
            { type: 'File', title: '/etc/app/conf', parameters: { ensure: 'file', content: 'pwned' } },
            { type: 'File', title: '/etc/up/conf2', parameters: { ensure: 'file', content: 'pwned' } }
        ]);
        await runCli('apply', file, '--root', root);
        expect(readdirSync(outside)).toEqual([]);
    });

    test('file content is replaced through a rename: mode kept, no temporary file left', async () => {
        const root = scratch();
        mkdirSync(join(root, 'etc'));
        const target = join(root, 'etc', 'motd');
        writeFileSync(target, 'old content\n', { mode: 0o640 });
        const inode = statSync(target).ino;
        const work = scratch();
        const r = await runCli('apply', writeCatalog(work, [{ type: 'File', title: '/etc/motd', parameters: { ensure: 'file', content: 'new content\n' } }]), '--root', root);
        expect(r.code).toBe(0);
        expect(readFileSync(target, 'utf8')).toBe('new content\n');
        expect(statSync(target).mode & 0o777).toBe(0o640);
        // A new inode: the old file was never truncated in place.
        expect(statSync(target).ino).not.toBe(inode);
        expect(readdirSync(join(root, 'etc'))).toEqual(['motd']);
    });

    test('a package is not reported as created when nothing ran', async () => {
        const root = scratch();
        const work = scratch();
        const report = join(work, 'report.json');
        const r = await runCli('apply', writeCatalog(work, [{ type: 'Package', title: 'chrony', parameters: { ensure: 'installed' } }]), '--root', root, '--report', report);
        expect(r.code).toBe(0);
        expect(r.out).not.toMatch(/Package\[chrony\]\/ensure: created/);
        expect(r.out).toMatch(/Package\[chrony\]\/ensure: current_value 'absent', should be 'present' \(noop\)/);
        const text = readFileSync(report, 'utf8');
        expect(text).not.toMatch(/"status": "success"/);
    });
});

describe('apply stopped by a signal', () => {
    test.each(['SIGTERM', 'SIGINT'] as const)('%s: the report of the interrupted run is written', async signal => {
        const root = scratch();
        const work = scratch();
        const report = join(work, 'report.json');
        const steps = Array.from({ length: 8 }, (_, i) => ({ type: 'Exec', title: `step${i}`, parameters: { command: `/bin/sleep 0.4`, path: '/bin:/usr/bin' } }));
        const file = writeCatalog(work, steps);
        const child = startBin(['apply', file, '--root', root, '--report', report]);
        let out = '';
        const stopped = new Promise<number | null>(resolve => child.on('exit', (code, sig) => resolve(code ?? (sig ? -1 : null))));
        await new Promise<void>(resolve => {
            child.stdout?.on('data', (d: Buffer) => {
                out += d.toString();
                // Stop once the first step has run: the rest cannot have been reached.
                if (/Exec\[step0\]\/returns: executed successfully/.test(out)) resolve();
            });
        });
        child.kill(signal);
        const code = await stopped;
        expect(code).toBe(signal === 'SIGTERM' ? 143 : 130);
        expect(existsSync(report)).toBe(true);
        const text = readFileSync(report, 'utf8');
        expect(text).toMatch(/"status": "failed"/);
        expect(text).toMatch(/"skipped": true/);
        expect(text).toContain('step7');
        expect(readdirSync(work).sort()).toEqual(['catalog.json', 'report.json']);
        expect(lstatSync(report).isFile()).toBe(true);
    }, 60_000);
});
