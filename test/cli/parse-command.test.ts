import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeJson, decodeMsgpack } from '../../src/model/index.js';
import { runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'modelc-parse-'));
mkdirSync(join(scratch, 'manifests'));
const good = join(scratch, 'manifests', 'good.pp');
const bad = join(scratch, 'manifests', 'bad.pp');
const template = join(scratch, 'motd.epp');
writeFileSync(good, "class web($port = 80) {\n  notify { \"port ${port}\": }\n}\ninclude web\n");
writeFileSync(bad, "notify { 'x':\n  message => 'unterminated\n");
writeFileSync(template, '<%- | String $name | -%>\nHello <%= $name %>\n');

describe('modelc parse', () => {
    test('one file prints PN to stdout', async () => {
        const r = await runCli('parse', good);
        expect(r.code).toBe(0);
        expect(r.err).toBe('');
        expect(r.out).toMatch(/^\(block \(class \{:name "web"/);
    });

    test('an EPP template parses as a template', async () => {
        const r = await runCli('parse', template);
        expect(r.code).toBe(0);
        expect(r.out).toMatch(/^\(lambda \{:params \{:name \{:type \(qr "String"\)\}\}/);
    });

    test.each(['json', 'msgpack'] as const)('--format %s writes an AST model that validates against schemas/puppet.schema.json', async format => {
        const out = join(scratch, `out-${format}`);
        const r = await runCli('parse', good, '--format', format, '--out-dir', out);
        expect(r).toEqual({ code: 0, out: '', err: '' });
        const file = join(out, `${good.replace(/^\//, '')}.${format}`);
        const model = format === 'json' ? decodeJson(readFileSync(file, 'utf8'), file) : decodeMsgpack(readFileSync(file), file);
        expect(model.index.pkg.name).toBe('Puppet');
        expect(model.root.$type).toBe('Program');
    });

    test('batch mode: a failing file gets diagnostics and no output, the others go on, exit 1', async () => {
        const out = join(scratch, 'batch');
        const r = await runCli('parse', bad, good, '--out-dir', out);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/bad\.pp:\d+:\d+: error PARSE_\w+: /);
        expect(existsSync(join(out, `${bad.replace(/^\//, '')}.pn`))).toBe(false);
        expect(readFileSync(join(out, `${good.replace(/^\//, '')}.pn`), 'utf8')).toMatch(/^\(block /);
    });

    test('a missing file is reported with its name', async () => {
        const r = await runCli('parse', join(scratch, 'nope.pp'));
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/nope\.pp: error PARSE_FILE_NOT_FOUND: no such file/);
    });

    test('several files without --out-dir print a header per file, like puppet parser dump', async () => {
        const r = await runCli('parse', good, template);
        expect(r.out).toContain(`--- ${good}\n(block `);
        expect(r.out).toContain(`--- ${template}\n(lambda `);
    });
});

describe('modelc parse DIRECTORY', () => {
    test('parses every .pp and .epp below it in sorted order', async () => {
        const r = await runCli('parse', scratch);
        const headers = r.out.split('\n').filter(l => l.startsWith('--- ')).map(l => l.slice(4));
        expect(headers).toEqual([join(scratch, 'manifests', 'bad.pp'), join(scratch, 'manifests', 'good.pp'), template].filter(f => f !== bad));
        expect(r.code).toBe(1);
    });
});
