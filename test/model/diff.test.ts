import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { diffCases } from './fixtures.js';

// Vitest runs from the repository root, so repo-relative paths print the same everywhere.
const repo = join(import.meta.dirname, '..', '..');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const io: CliIo = { out: t => { out += typeof t === 'string' ? t : Buffer.from(t).toString(); }, err: t => { err += t; } };
    const code = await main(['node', 'modelc', ...args], io);
    return { code, out, err };
}

describe.each(diffCases())('modelc diff $name', ({ dir }) => {
    const oldFile = relative(repo, join(dir, 'old.json'));
    const newFile = relative(repo, join(dir, 'new.json'));
    const expectedCode = existsSync(join(dir, 'expected.txt')) && readFileSync(join(dir, 'expected.txt'), 'utf8').endsWith('no differences\n') ? 0 : 2;

    test.each([['text', 'expected.txt'], ['markdown', 'expected.md'], ['json', 'expected.json']])('%s', async (format, golden) => {
        const result = await run(['diff', oldFile, newFile, '--format', format]);
        expect(result.err).toBe('');
        expect(result.code).toBe(expectedCode);
        expect(result.out).toBe(readFileSync(join(dir, golden), 'utf8'));
    });

    test('the json output is a valid Diff model', async () => {
        const { out } = await run(['diff', oldFile, newFile, '--format', 'json']);
        const { decodeJson } = await import('../../src/model/index.js');
        expect(decodeJson(out, 'diff.json', { kind: 'diff' }).root.$type).toBe('ModelDiff');
    });
});
