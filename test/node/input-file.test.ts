import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { isUserError } from '../../src/common/index.js';
import { readFactsFile, readNodeInputFile, readNodeRequest, trustedFor } from '../../src/node/index.js';
import type { PuppetValue } from '../../src/values/index.js';

const dir = mkdtempSync(join(tmpdir(), 'modelc-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(name: string, text: string): string {
    const path = join(dir, `${n++}-${name}`);
    writeFileSync(path, text);
    return path;
}

function plain(v: PuppetValue | undefined): unknown {
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
    if (Array.isArray(v)) return v.map(plain);
    return v;
}

/** YAML 1.1 scalars as Ruby's Psych reads a facts file (what the reference's YAML.safe_load gives; Date stays its text). */
const SCALARS: ReadonlyArray<readonly [string, PuppetValue]> = [
    ['on', true], ['yes', true], ['Off', false], ['NO', false], ['true', true], ['y', 'y'], ['n', 'n'],
    ['~', null], ['null', null], ['', null], ['0755', 493n], ['0x1F', 31n], ['1_000', 1000n], ['1:30', 5400n], // Psych's base-60 reading (checked with Ruby's Psych: 1:30 and 1:30:00 both give 5400)
    
    ['1.10', 1.1], ['1e3', '1e3'], ['"on"', 'on'], ['2024-01-02', '2024-01-02'], ['web01', 'web01']
];

describe('facts files', () => {
    test.each(SCALARS)('YAML scalar %s reads as %s', (text, value) => {
        expect(readFactsFile(file('s.yaml', `x: ${text}\n`)).values.get('x')).toEqual(value);
    });

    test.each([
        ['a plain mapping (YAML)', 'f.yaml', 'clientcert: a.example.com\nrole: web\n', undefined, { clientcert: 'a.example.com', role: 'web' }],
        ['puppet facts output {name, values}', 'f.yaml', 'name: b.example.com\nvalues:\n  role: db\n', 'b.example.com', { role: 'db' }],
        ['the fact cache (tagged, with timestamp)', 'f.yaml', "--- !ruby/object:Puppet::Node::Facts\nname: c.example.com\nvalues:\n  kernel: Linux\ntimestamp: '2024-01-01'\n", 'c.example.com', { kernel: 'Linux' }],
        ['a mapping that merely has a values key', 'f.yaml', 'values:\n  a: 1\nrole: x\n', undefined, { values: { a: 1n }, role: 'x' }],
        ['JSON, integers exact and floats kept', 'f.json', '{"name": "d.example.com", "values": {"n": 12345678901234567890, "f": 2.0}}', 'd.example.com', { n: 12345678901234567890n, f: 2 }],
        ['an empty file', 'f.yaml', '', undefined, {}]
    ])('%s', (_what, name, text, node, facts) => {
        const read = readFactsFile(file(name, text));
        expect(read.name).toBe(node);
        expect(plain(read.values)).toEqual(facts);
    });

    test.each([
        ['a missing path', (): string => join(dir, 'absent.yaml'), 'NODE_INPUT_FILE', 'no such facts file'],
        ['a directory', (): string => { const d = join(dir, 'a-dir'); mkdirSync(d, { recursive: true }); return d; }, 'NODE_INPUT_FILE', 'is a directory'],
        ['garbage YAML', (): string => file('g.yaml', 'a: [1, 2\nb: }\n'), 'NODE_INPUT_SYNTAX', 'not YAML'],
        ['garbage JSON', (): string => file('g.json', '{"a": '), 'NODE_INPUT_SYNTAX', 'not JSON'],
        ['a list', (): string => file('l.yaml', '- a\n- b\n'), 'NODE_INPUT_SHAPE', 'must hold a mapping, not a list'],
        ['a scalar', (): string => file('s.yaml', 'just text\n'), 'NODE_INPUT_SHAPE', 'must hold a mapping, not a string']
    ])('%s is a located error, not empty facts', (_what, path, code, message) => {
        const p = path();
        let error: unknown;
        try { readFactsFile(p); } catch (e) { error = e; }
        expect(isUserError(error)).toBe(true);
        const d = isUserError(error) ? error.diagnostics[0] : undefined;
        expect(d?.code).toBe(code);
        expect(d?.file).toBe(p);
        expect(d?.message).toContain(message);
    });

    test('a trusted file must hold a mapping too', () => {
        expect(() => readNodeInputFile(file('t.yaml', '[1]\n'), 'trusted')).toThrow(/trusted file must hold a mapping/);
    });
});

describe('$trusted', () => {
    test.each([
        ['web01.example.com', {}, { certname: 'web01.example.com', hostname: 'web01', domain: 'example.com', authenticated: 'remote', extensions: {}, external: {} }],
        ['standalone', {}, { certname: 'standalone', hostname: 'standalone', domain: null, authenticated: 'remote', extensions: {}, external: {} }],
        ['a.b.c', { certname: 'x.y' }, { certname: 'x.y', hostname: 'x', domain: 'y', authenticated: 'remote', extensions: {}, external: {} }],
        ['a.b', { authenticated: 'local', extensions: { pp_role: 'web' } }, { certname: 'a.b', hostname: 'a', domain: 'b', authenticated: 'local', extensions: { pp_role: 'web' }, external: {} }],
        ['a.b', { authenticated: null }, { certname: 'a.b', hostname: 'a', domain: 'b', authenticated: null, extensions: {}, external: {} }]
    ])('%s with overrides %j', (certname, overrides, expected) => {
        const o = new Map(Object.entries(overrides).map(([k, v]): [string, PuppetValue] => [k, v !== null && typeof v === 'object' ? new Map(Object.entries(v)) : v]));
        expect(plain(trustedFor(certname, o))).toEqual(expected);
    });
});

describe('the node name', () => {
    const facts = file('n.yaml', 'clientcert: fromfact.example.com\n');
    const named = file('n.yaml', 'name: fromname.example.com\nvalues:\n  clientcert: fromfact.example.com\n');
    test.each([
        ['given wins', { node: 'given.example.com', factsFile: named }, 'given.example.com'],
        ["then the facts file's name", { factsFile: named }, 'fromname.example.com'],
        ['then the clientcert fact', { factsFile: facts }, 'fromfact.example.com'],
        ['else testnode.example.com', {}, 'testnode.example.com']
    ])('%s', (_what, opts, certname) => {
        const req = readNodeRequest(opts);
        expect(req.certname).toBe(certname);
        expect(req.trusted.get('certname')).toBe(certname);
        expect(req.environment).toBe('production');
        expect(plain(req.serverFacts)).toEqual({ environment: 'production' });
    });
});
