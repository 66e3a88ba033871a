import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { LOOKUP_CORPUS } from './conformance-cases.js';
import { writeEnv, V5 } from './fixture.js';

const env = writeEnv({
    'hiera.yaml': V5('  - name: node\n    path: "nodes/%{trusted.certname}.yaml"\n  - name: common\n    path: common.yaml\n'),
    'data/nodes/n1.example.com.yaml': 'list: [n]\nratio: 2.0\n',
    'data/common.yaml': 'list: [c]\nratio: 1.5\nport: 80\n',
    'facts.yaml': 'clientcert: n1.example.com\n'
});

describe('modelc lookup', () => {
    test.each<[string, string[], number, string]>([
        ['a value as JSON, node from the facts file', ['list'], 0, '[\n  "n"\n]\n'],
        ['a float keeps its fraction', ['ratio'], 0, '2.0\n'],
        ['--merge unique', ['list', '--merge', 'unique'], 0, '[\n  "n",\n  "c"\n]\n'],
        ['--default JSON', ['nope', '--default', '{"a": 1}'], 0, '{\n  "a": 1\n}\n'],
        ['--default bare word', ['nope', '--default', 'word'], 0, '"word"\n'],
        ['--type', ['port', '--type', 'Integer[1, 100]'], 0, '80\n'],
        ['not found: nothing on stdout, exit 1', ['nope'], 1, '']
    ])('%s', async (_name, args, code, out) => {
        const r = await runCli('lookup', env, ...args);
        expect([r.code, r.out]).toEqual([code, out]);
    });

    test('a failure prints its diagnostic once, on stderr', async () => {
        const r = await runCli('lookup', env, 'nope');
        // A key found nowhere names no file: the line is the environment's.
        expect(r.err).toBe(`${env}: error LOOKUP_NOT_FOUND: Function lookup() did not find a value for the name 'nope' (at nope)\n`);
    });

    test('--node overrides the facts file', async () => {
        expect((await runCli('lookup', env, 'list', '--node', 'other.example.com')).out).toBe('[\n  "c"\n]\n');
    });

    test('--explain prints the explanation', async () => {
        const r = await runCli('lookup', env, 'list', '--explain');
        expect(r.code).toBe(0);
        expect(r.out).toContain('Searching for "list"\n  Global Data Provider (hiera configuration version 5)\n    Using configuration "<tmp>/conf/hiera.yaml"\n    No such key: "list"\n  Environment Data Provider (hiera configuration version 5)');
    });

    test('an unknown merge strategy is a usage error', async () => {
        expect((await runCli('lookup', env, 'list', '--merge', 'bogus')).code).toBe(64);
    });

    test.skipIf(!existsSync(LOOKUP_CORPUS))('--compile evaluates site.pp first', async () => {
        const dir = join(LOOKUP_CORPUS, 'L10-compile-mode');
        const r = await runCli('lookup', dir, 'greeting', '--node', 'cm.example.com', '--facts', join(dir, 'facts.yaml'), '--compile');
        expect(r.out).toBe('"hello from the builder role level"\n');
    });
});
