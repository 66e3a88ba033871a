import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeJson, encodeMsgpack } from '../../src/model/index.js';
import { parsePuppet } from '../../src/parse/index.js';
import { runCli } from '../cli/run-cli.js';
import { expectOneLocatedLine, type BadInputCase } from './bad-input-case.js';
import { ONE_LINE, scratch, writeTree } from './harness.js';

// Bad input of every kind ends as one located line on stderr with a stable code, exit 1, and
// no output file left behind (issue 14: crashes, silent wrong results). In-process: none of
// these needs the launcher's large stack.

const CATALOG = JSON.stringify({ resources: [{ type: 'File', title: '/made-by-apply', parameters: { ensure: 'file', content: 'x' } }] });

type Case = BadInputCase;

const cases: Record<string, Case> = {
    'apply: a missing catalog': { args: d => ['apply', join(d, 'nope.json'), '--root', d], code: 'APPLY_CATALOG_FORMAT', message: /no such file/ },
    'apply: a directory as catalog': { files: { 'sub/x': '' }, args: d => ['apply', join(d, 'sub'), '--root', d], code: 'APPLY_CATALOG_FORMAT', message: /is a directory/ },
    'apply --report into a missing directory (checked before any change)': {
        files: { 'c.json': CATALOG }, args: d => ['apply', join(d, 'c.json'), '--root', d, '--report', join(d, 'missing', 'r.json')], code: 'APPLY_BAD_OUTPUT', message: /does not exist/
    },
    'apply --report onto a directory': {
        files: { 'c.json': CATALOG, 'rep/x': '' }, args: d => ['apply', join(d, 'c.json'), '--root', d, '--report', join(d, 'rep')], code: 'APPLY_BAD_OUTPUT', message: /is a directory/
    },
    'convert -o into a missing directory': {
        files: { 'm.json': '{}' }, args: d => ['convert', join(d, 'm.json'), '--to', 'json', '-o', join(d, 'no', 'out.json')], code: 'MODEL_WRITE_FAILED', message: /does not exist/
    },
    'parse --out-dir under a file': {
        files: { 'a.pp': 'notice(1)\n', 'plain': 'x' }, args: d => ['parse', join(d, 'a.pp'), '--out-dir', join(d, 'plain', 'sub')], code: 'PARSE_BAD_OUTPUT', message: /is not a directory/
    },
    'parse: a manifest that is not UTF-8': {
        files: { 'bad.pp': Buffer.from([...Buffer.from('notice("caf'), 0xe9, ...Buffer.from('")\n')]) }, args: d => ['parse', join(d, 'bad.pp')],
        code: 'PARSE_INVALID_ENCODING', message: /bad\.pp:1:12: error PARSE_INVALID_ENCODING: invalid byte sequence in UTF-8/
    },
    'compile: a manifest that is not UTF-8 (as Puppet)': {
        files: { 'manifests/site.pp': Buffer.from([...Buffer.from('notice("caf'), 0xe9, ...Buffer.from('")\n')]) }, args: d => ['compile', d, '--format', 'puppet'],
        code: 'EVAL_SYNTAX', message: /manifests\/site\.pp:1:12: error EVAL_SYNTAX: invalid byte sequence in UTF-8/
    },
    'validate: a JSON model that is not UTF-8': {
        files: { 'm.json': Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }, args: d => ['validate', join(d, 'm.json')], code: 'MODEL_INVALID_ENCODING', message: /invalid byte sequence/
    },
    'validate: JSON nested 100k deep': {
        files: { 'm.json': `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` }, args: d => ['validate', join(d, 'm.json')], code: 'MODEL_TOO_DEEP', message: /deeper than 10000 levels/
    },
    'convert: JSON nested 100k deep': {
        files: { 'm.json': `{"$type":"x","v":${'['.repeat(100_000)}${']'.repeat(100_000)}}` }, args: d => ['convert', join(d, 'm.json'), '--to', 'msgpack', '-o', join(d, 'out.msgpack')],
        code: 'MODEL_TOO_DEEP', message: /\(at \/v\/0\/0/
    },
    'diff: JSON nested 100k deep': {
        files: { 'a.json': `{"resources":[{"type":"Notify","title":"x","parameters":{"message":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]}` },
        args: d => ['diff', join(d, 'a.json'), join(d, 'a.json')], code: 'MODEL_TOO_DEEP', message: /nest/
    },
    'epp() cannot climb out of the module': {
        files: { 'manifests/site.pp': "notice(epp('m/../../../../../../../../../../etc/hostname'))\n", 'modules/m/templates/ok.epp': 'ok' }, args: d => ['compile', d, '--format', 'puppet'],
        code: 'EVAL_RUNTIME', message: /Could not find template 'm\/\.\.\//
    },
    'template() cannot climb out of the module': {
        files: { 'manifests/site.pp': "notice(template('m/../../../../../../../../../../etc/hostname'))\n", 'modules/m/templates/ok.erb': 'ok' }, args: d => ['compile', d, '--format', 'puppet'],
        code: 'EVAL_RUNTIME', message: /Could not find template 'm\/\.\.\//
    },
    'file() cannot climb out of the module': {
        files: { 'manifests/site.pp': "notice(file('m/../../../../../../../../../../etc/hostname'))\n", 'modules/m/files/ok': 'ok' }, args: d => ['compile', d, '--format', 'puppet'],
        code: 'EVAL_RUNTIME', message: /Could not find any files from m\/\.\.\//
    },
    'a typo is one syntax error, as Puppet reports it': {
        files: { 'a.pp': "class a {\n  file { '/x': ensure => presnt, mode => }\n  notice(1)\n}\n" }, args: d => ['parse', join(d, 'a.pp')], code: 'PARSE_SYNTAX_ERROR', message: /Syntax error at/
    },
    'a compile error is one line on stderr (format puppet prints nothing)': {
        files: { 'manifests/site.pp': '$a = 1\nfail("stop")\n' }, args: d => ['compile', d, '--format', 'puppet'], code: 'EVAL_RUNTIME', message: /site\.pp:2:1: error EVAL_RUNTIME: .*stop/
    },
    'lookup says a failure once': {
        files: { 'hiera.yaml': 'version: 5\n', 'data/common.yaml': 'a: 1\n' }, args: d => ['lookup', d, 'nope'], code: 'LOOKUP_NOT_FOUND', message: /did not find a value for the name 'nope'/
    }
};

describe('bad input is one located line, exit 1, nothing written', () => {
    test.each(Object.entries(cases))('%s', async (_name, c) => {
        await expectOneLocatedLine(c);
    });

    test('compile --format normalized keeps the oracle-shaped error object and also prints the line', async () => {
        const dir = writeTree(scratch(), { 'manifests/site.pp': 'fail("stop")\n' });
        const r = await runCli('compile', dir);
        expect(r.code).toBe(1);
        expect(JSON.parse(r.out)).toMatchObject({ error: { message: expect.stringMatching(/stop/) } });
        expect(r.err).toMatch(ONE_LINE('EVAL_RUNTIME'));
    });

    test('usage errors have their own exit code, not diff\'s 2', async () => {
        expect((await runCli('frobnicate')).code).toBe(64);
        expect((await runCli('convert', 'x.json', '--to', 'yaml')).code).toBe(64);
    });

    test('absolute template paths stay allowed, as in Puppet', async () => {
        const dir = scratch();
        const tpl = join(dir, 'abs.epp');
        writeFileSync(tpl, 'from <%= "abs" %>');
        mkdirSync(join(dir, 'manifests'));
        writeFileSync(join(dir, 'manifests', 'site.pp'), `notice(epp('${tpl}'))\n`);
        const r = await runCli('compile', dir, '--format', 'puppet');
        expect(r.code).toBe(0);
        expect(r.err).toContain('from abs');
        expect(existsSync(join(dir, 'manifests', 'site.pp'))).toBe(true);
        expect(readFileSync(tpl, 'utf8')).toContain('abs');
    });
});

describe('nesting beyond what the stack holds', () => {
    // In-process on purpose: the test worker's stack is the ordinary small one.
    // Located at the first bracket nested beyond the limit (10,000 levels): the 10,001st opener.
    test.each([['brackets', '[', 0], ['parentheses', '(', 0], ['ifs', 'if true { ', 8]] as const)('%s: PARSE_TOO_COMPLEX, no internal error text', (_name, open, bracketAt) => {
        const r = parsePuppet(`$x = ${open.repeat(60_000)}1`, 'deep.pp');
        expect(r.diagnostics).toHaveLength(1);
        expect(r.diagnostics[0]).toMatchObject({ code: 'PARSE_TOO_COMPLEX', at: { line: 1, column: '$x = '.length + 10_000 * open.length + bracketAt + 1 } });
        expect(r.diagnostics[0]?.message).not.toMatch(/TypeError|Cannot read|undefined/);
    });
});

describe('effective --values', () => {
    test('exits 1 when producing a value fails (the model lists the error issue)', async () => {
        const dir = writeTree(scratch(), {
            'bindings/site.pp': "site {\n  bindings => [\n    layer { 'site': include => 'confdir:/default' },\n  ]\n}\n",
            'bindings/default.pp': "bindings default {\n  bind Integer, 'x::count' to \"not ${::fqdn} a number\"\n  bind String, 'x::ok' to 'fine'\n}\n"
        });
        const composed = await runCli('bindings', dir);
        expect(composed.code).toBe(0);
        writeFileSync(join(dir, 'b.json'), composed.out);
        const plain = await runCli('effective', join(dir, 'b.json'), '--node', 'n1.example.com');
        expect([plain.code, plain.err]).toEqual([0, '']);
        const r = await runCli('effective', join(dir, 'b.json'), '--node', 'n1.example.com', '--values');
        expect(r.code).toBe(1);
        expect(r.err).toMatch(ONE_LINE('INJECT_PRODUCER_TYPE'));
        expect(JSON.parse(r.out).issues).toEqual([expect.objectContaining({ severity: 'error', code: 'INJECT_PRODUCER_TYPE' })]);
    });
});

describe('msgpack models', () => {
    test('a string that is not UTF-8 is refused, not read as replacement characters', async () => {
        const model = decodeJson(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'model', 'valid', 'catalog', 'minimal.json'), 'utf8'), 'minimal.json');
        const bytes = Buffer.from(encodeMsgpack(model));
        const at = bytes.indexOf(Buffer.from('localhost'));
        expect(at).toBeGreaterThan(0);
        bytes[at + 3] = 0xff;
        const dir = writeTree(scratch(), { 'm.msgpack': bytes });
        const r = await runCli('validate', join(dir, 'm.msgpack'));
        expect(r.code).toBe(1);
        expect(r.err).toMatch(ONE_LINE('MODEL_INVALID_ENCODING'));
        expect(r.err).toContain(`at byte ${at - 1}`);
    });
});
