import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { checkFiles, generateAll, loadSourcePackages, writeFiles } from '../../src/modelc/index.js';

const repo = join(import.meta.dirname, '..', '..');
const temps: string[] = [];

/** A scratch copy of everything `generate` reads and writes. */
function scratchCopy(): string {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-gen-'));
    temps.push(dir);
    for (const d of ['metamodel', 'generated/model', 'generated/ecore', 'schemas']) {
        if (existsSync(join(repo, d))) cpSync(join(repo, d), join(dir, d), { recursive: true });
    }
    return dir;
}

afterEach(() => {
    while (temps.length > 0) rmSync(temps.pop()!, { recursive: true, force: true });
});

describe('modelc generate --check', () => {
    test('the committed generated files are up to date', async () => {
        const files = await generateAll(await loadSourcePackages(repo));
        expect(checkFiles(repo, files)).toEqual({ stale: [], missing: [], extra: [] });
    });

    test('generation is deterministic', async () => {
        const a = await generateAll(await loadSourcePackages(repo));
        const b = await generateAll(await loadSourcePackages(repo));
        expect(b).toEqual(a);
    });

    test('every generated file carries a DO NOT EDIT marker', async () => {
        for (const f of await generateAll(await loadSourcePackages(repo))) {
            expect(f.content.slice(0, 400), f.path).toContain('DO NOT EDIT');
        }
    });

    test('a deleted generated file is reported missing', async () => {
        const dir = scratchCopy();
        rmSync(join(dir, 'schemas', 'puppet.schema.json'));
        const result = checkFiles(dir, await generateAll(await loadSourcePackages(dir)));
        expect(result.missing).toEqual(['schemas/puppet.schema.json']);
    });

    test('a directory where a generated file belongs is stale for --check and refused, located, by generate (EISDIR before)', async () => {
        const dir = scratchCopy();
        rmSync(join(dir, 'schemas', 'puppet.schema.json'));
        mkdirSync(join(dir, 'schemas', 'puppet.schema.json'));
        const files = await generateAll(await loadSourcePackages(dir));
        expect(checkFiles(dir, files).stale).toEqual(['schemas/puppet.schema.json']);
        expect(() => writeFiles(dir, files)).toThrow(/schemas\/puppet\.schema\.json: error META_NOT_A_FILE: cannot write the generated file: it is a directory, not a file/);
    });

    test.each([
        ['a metamodel source that is a directory', (dir: string) => { const f = readdirSync(join(dir, 'metamodel')).find(n => n.endsWith('.emfatic')) as string; rmSync(join(dir, 'metamodel', f)); mkdirSync(join(dir, 'metamodel', f)); },
            /\.emfatic: error META_NOT_A_FILE: is a directory, not a file/],
        ['a NUL in a metamodel (XML cannot carry it) is located at the metamodel, not at <input>', (dir: string) => {
            const f = join(dir, 'metamodel', readdirSync(join(dir, 'metamodel')).find(n => n.endsWith('.emfatic')) as string);
            writeFileSync(f, readFileSync(f, 'utf8').replace('\n', '\n// \u0000\n').replace(/("[^"\n]*)"/, '$1\u0000"'));
        }, /^metamodel\/[^:]+\.emfatic(:\d+:\d+)?: error [A-Z_]+: /]
    ])('%s', async (_name, damage, message) => {
        const dir = scratchCopy();
        damage(dir);
        await expect(loadSourcePackages(dir).then(p => generateAll(p))).rejects.toThrow(message);
    });

    test('a hand edit of a generated file is reported stale', async () => {
        const dir = scratchCopy();
        const p = join(dir, 'generated', 'ecore', 'puppet.ecore');
        writeFileSync(p, readFileSync(p, 'utf8').replace('Puppet', 'Puppett'));
        const result = checkFiles(dir, await generateAll(await loadSourcePackages(dir)));
        expect(result.stale).toEqual(['generated/ecore/puppet.ecore']);
    });

    test('an edited metamodel makes its outputs stale', async () => {
        const dir = scratchCopy();
        const sources = readdirSync(join(dir, 'metamodel')).filter(f => f.endsWith('.emfatic'));
        const file = sources.length > 0 ? join(dir, 'metamodel', sources[0]) : join(dir, 'metamodel', 'extra.emfatic');
        const original = existsSync(file) ? readFileSync(file, 'utf8') : '@namespace(uri="http://modelc.dev/extra/1.0", prefix="extra")\npackage Extra;\n';
        writeFileSync(file, `${original}\n/** Added by a test. */\nclass AddedByTest { attr String label; }\n`);
        const result = checkFiles(dir, await generateAll(await loadSourcePackages(dir)));
        expect(result.stale.length + result.missing.length).toBeGreaterThan(0);
    });

    test('a generated file without a source is reported extra', async () => {
        const dir = scratchCopy();
        writeFileSync(join(dir, 'schemas', 'orphan.schema.json'), '{}\n');
        const result = checkFiles(dir, await generateAll(await loadSourcePackages(dir)));
        expect(result.extra).toEqual(['schemas/orphan.schema.json']);
    });
});
