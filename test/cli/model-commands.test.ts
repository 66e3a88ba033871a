import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'modelc-cli-'));
const catalog = join(scratch, 'catalog.json');
writeFileSync(catalog, `${JSON.stringify({
    $type: 'http://modelc.dev/catalog/1.0#//Catalog', name: 'web01', environment: 'production',
    resources: [{ $type: 'http://modelc.dev/catalog/1.0#//Resource', $id: 'Notify[hi]', ref: 'Notify[hi]', type: 'Notify', title: 'hi' }]
}, null, 2)}\n`);

const badFiles: Array<[string, string, RegExp]> = [
    ['missing.json', '', /missing\.json: error MODEL_FILE_NOT_FOUND: no such file/],
    ['syntax.json', '{"$type": ', /syntax\.json:1:\d+: error MODEL_INVALID_JSON: invalid JSON/],
    ['array.json', '[]', /array\.json: error MODEL_NOT_A_MODEL: .* \(at \/\)/],
    ['unknown.json', '{"$type":"http://nowhere/1.0#//X"}', /error MODEL_UNKNOWN_PACKAGE: .* \(at \/\$type\)/],
    ['extra.json', '{"$type":"http://modelc.dev/catalog/1.0#//Catalog","name":"n","environment":"e","colour":1}', /error MODEL_UNKNOWN_FEATURE: unknown feature 'colour' \(at \/colour\)/],
    ['model.yaml', 'a: 1', /model\.yaml: error MODEL_UNKNOWN_FORMAT/]
];

describe('modelc validate', () => {
    test('a valid model', async () => {
        const r = await runCli('validate', catalog);
        expect(r).toEqual({ code: 0, out: `${catalog}: valid Catalog model (Catalog)\n`, err: '' });
    });

    test('--kind rejects a model of another package', async () => {
        const r = await runCli('validate', catalog, '--kind', 'bindings');
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/error MODEL_KIND_MISMATCH: expected a bindings model, got Catalog/);
    });

    test.each(badFiles)('%s: one located diagnostic, exit 1, no stack trace', async (name, content, expected) => {
        const file = join(scratch, name);
        if (content !== '') writeFileSync(file, content);
        const r = await runCli('validate', file);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(expected);
        expect(r.err).not.toMatch(/\n\s+at /);
    });
});

describe('modelc convert', () => {
    test.each(['json', 'msgpack', 'xmi', 'rgen'])('--to %s writes the output file', async format => {
        const out = join(scratch, `out.${format}`);
        const r = await runCli('convert', catalog, '--to', format, '-o', out);
        expect(r).toEqual({ code: 0, out: '', err: '' });
        expect(readFileSync(out).length).toBeGreaterThan(0);
    });

    test('msgpack converts back to the same JSON', async () => {
        const packed = join(scratch, 'back.msgpack');
        await runCli('convert', catalog, '--to', 'msgpack', '-o', packed);
        const r = await runCli('convert', packed, '--to', 'json');
        expect(r.out).toBe(readFileSync(catalog, 'utf8'));
    });

    test('an invalid input leaves no output file behind', async () => {
        const bad = join(scratch, 'bad-for-convert.json');
        writeFileSync(bad, '{"$type":"http://modelc.dev/catalog/1.0#//Catalog"}');
        const out = join(scratch, 'never.json');
        const r = await runCli('convert', bad, '--to', 'json', '-o', out);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/error MODEL_MISSING_FEATURE: missing required feature 'name' \(at \/\)/);
        expect(existsSync(out)).toBe(false);
        expect(readdirSync(scratch).filter(f => f.includes('never'))).toEqual([]);
    });

    test('an unknown target format is a usage error', async () => {
        const r = await runCli('convert', catalog, '--to', 'yaml');
        expect(r.code).toBe(64);
        expect(r.err).toMatch(/argument 'yaml' is invalid/);
    });
});

describe('modelc diff', () => {
    test('a model equals itself: exit 0', async () => {
        const r = await runCli('diff', catalog, catalog);
        expect(r.code).toBe(0);
        expect(r.out).toMatch(/no differences\n$/);
    });

    test('models of different kinds cannot be compared', async () => {
        const diff = join(scratch, 'diff.json');
        writeFileSync(diff, (await runCli('diff', catalog, catalog, '--format', 'json')).out);
        const r = await runCli('diff', catalog, diff);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/error MODEL_KIND_MISMATCH: cannot compare a Catalog model with a Diff model/);
    });
});

describe('modelc generate --check', () => {
    test('passes on this repository', async () => {
        const r = await runCli('generate', '--check');
        expect(r.code, r.err).toBe(0);
        expect(r.out).toMatch(/generated files are up to date/);
    });
});
