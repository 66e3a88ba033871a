import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { checkFiles, generateAll, loadSourcePackages } from '../../src/modelc/index.js';

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
