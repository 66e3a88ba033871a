import { describe, expect, test } from 'vitest';
import {
    isLookupError, LookupKey, MergeStrategy, NOT_FOUND, parseYamlData, provideHieraBindings, hieraBindingsModel, splitKey, LookupError
} from '../../../src/bindings/index.js';
import { tokenizePlain } from '../../../src/values/index.js';
import { encodeJson, decodeJson } from '../../../src/model/index.js';
import { rubyFloat, rubyToS } from '../../../src/bindings/hiera/ruby-format.js';
import type { PuppetValue } from '../../../src/values/index.js';
import { hieraFor, V5 } from './fixture.js';

const h = (entries: [PuppetValue, PuppetValue][]): Map<PuppetValue, PuppetValue> => new Map(entries);

// Psych asks its class loader for Date whenever the text looks like one, so an impossible date is refused too.
describe('Psych YAML 1.1 plain scalars', () => {
    test.each<[string, PuppetValue | 'Date' | 'Time']>([
        ['42', 42n], ['-7', -7n], ['0755', 493n], ['0x1F', 31n], ['0b101', 5n], ['1_000', 1000n], ['08', '08'],
        ['1.50', 1.5], ['1.10', 1.1], ['1e3', '1e3'], ['1.0e+3', 1000], ['.5', 0.5], ['1.', 1], ['.', '.'],
        ['yes', true], ['On', true], ['NO', false], ['off', false], ['true', true], ['y', 'y'], ['n', 'n'],
        ['~', null], ['null', null], ['Null', null], ['', null], ['nulls', 'nulls'],
        ['.inf', Infinity], ['-.Inf', -Infinity], ['1:30', 5400n],
        ['2024-01-31', 'Date'], ['2024-02-30', 'Date'], ['2024-01-31 10:00:00', 'Time'], ['1.2.3', '1.2.3'], ['hello world', 'hello world']
    ])('%s', (text, expected) => {
        const v = tokenizePlain(text);
        if (expected === 'Date' || expected === 'Time') expect(v).toMatchObject({ className: expected });
        else expect(v).toEqual(expected);
    });

    test('a symbol is kept apart: a lookup of it fails as in Puppet', () => {
        expect(tokenizePlain(':sym')).toMatchObject({ name: 'sym' });
        const svc = hieraFor({ 'hiera.yaml': V5('  - name: c\n    path: common.yaml\n'), 'data/common.yaml': 'sym: :foo\n:k: v\n' });
        expect(() => svc.lookup('sym')).toThrow("Value for key 'sym', in hash returned from data_hash function 'yaml_data', when using location 'data/common.yaml', has wrong type, expects Puppet::LookupValue, got Runtime[ruby, 'Symbol']");
        expect(svc.lookup('k')).toBe('v');
    });

    test('quoted scalars stay strings, merge keys merge, aliases resolve', () => {
        const v = parseYamlData("a: '42'\nb: &x {k: 1}\nc:\n  <<: *x\n  j: 2\nd: *x\ne: !!str 12\n", 't.yaml').value;
        expect(v).toEqual(h([['a', '42'], ['b', h([['k', 1n]])], ['c', h([['k', 1n], ['j', 2n]])], ['d', h([['k', 1n]])], ['e', '12']]));
    });

    test('a Date is refused as Psych safe_load refuses it', () => {
        expect(() => parseYamlData('d: 2024-01-31\n', 'data/x.yaml')).toThrow('Unable to parse (data/x.yaml): Tried to load unspecified class: Date');
    });
});

describe('dotted keys', () => {
    const err = (p: string): LookupError => new LookupError(p, { code: 'LOOKUP_KEY_SYNTAX' });
    test.each<[string, (string | bigint)[] | 'error']>([
        ['a', ['a']], ['a.b', ['a', 'b']], ['a.0', ['a', 0n]], ['"a.b"', ['a.b']], ["x.'y.z'.w", ['x', 'y.z', 'w']],
        ['mod::k.sub', ['mod::k', 'sub']], ['a..b', 'error'], ['a.', 'error'], ['"a"b', 'error']
    ])('%s', (key, expected) => {
        if (expected === 'error') expect(() => splitKey(key, err)).toThrow('Syntax error');
        else expect(splitKey(key, err)).toEqual(expected);
    });

    test('module name comes from the root key', () => {
        expect(new LookupKey('ntp::servers.0').moduleName).toBe('ntp');
        expect(new LookupKey('plain').moduleName).toBeUndefined();
    });
});

describe('merge strategies (highest precedence first)', () => {
    const fold = (s: MergeStrategy, values: PuppetValue[]): PuppetValue | typeof NOT_FOUND => s.lookup(values, v => v);
    test.each<[string, MergeStrategy, PuppetValue[], PuppetValue]>([
        ['first', MergeStrategy.FIRST, [[1n], [2n]], [1n]],
        ['unique flattens and dedups', MergeStrategy.UNIQUE, [[1n, [2n]], 3n, [1n, 4n]], [1n, 2n, 3n, 4n]],
        ['unique single value keeps nesting', MergeStrategy.UNIQUE, [[1n, 1n, [2n]]], [1n, [2n]]],
        ['hash: lower key order, higher values', MergeStrategy.HASH, [h([['b', 1n], ['c', 1n]]), h([['a', 2n], ['b', 2n]])], h([['a', 2n], ['b', 1n], ['c', 1n]])],
        ['deep merges nested hashes and arrays', MergeStrategy.DEEP, [h([['x', h([['l', ['b']]])]]), h([['x', h([['l', ['a']], ['k', 1n]])]])], h([['x', h([['l', ['a', 'b']], ['k', 1n]])]])],
        ['deep knockout removes array elements', MergeStrategy.deepWith({ knockoutPrefix: '--' }), [['--a', 'c'], ['a', 'b']], ['b', 'c']],
        ['deep knockout of a hash entry leaves ""', MergeStrategy.deepWith({ knockoutPrefix: '--' }), [h([['u', '--']]), h([['u', h([['s', 1n]])]])], h([['u', '']])],
        ['deep sort_merged_arrays', MergeStrategy.deepWith({ sortMergedArrays: true }), [['b'], ['c', 'a']], ['a', 'b', 'c']],
        ['deep merge_hash_arrays', MergeStrategy.deepWith({ mergeHashArrays: true }), [[h([['a', 1n]])], [h([['b', 2n]])]], [h([['b', 2n], ['a', 1n]])]],
        ['deep: a false lower value is replaced', MergeStrategy.DEEP, [h([['k', 1n]]), false], h([['k', 1n]])]
    ])('%s', (_name, s, values, expected) => {
        expect(fold(s, values)).toEqual(expected);
    });

    // Puppet describes the inferred type of a non-empty array: Tuple (recorded in fixture e53).
    test('hash merge of a non-hash is a type error', () => {
        expect(() => fold(MergeStrategy.HASH, [h([]), [1n]])).toThrow('The second element of the merge has wrong type, expects a Hash value, got Tuple');
    });

    test.each<[PuppetValue, string]>([
        ['nope', "Unknown merge strategy: 'nope'"],
        [h([['knockout_prefix', 'x']]), "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'"]
    ])('bad merge %#', (merge, message) => {
        expect(() => MergeStrategy.from(merge)).toThrow(message);
    });
});

describe('Ruby string forms used by interpolation', () => {
    test.each<[PuppetValue, string]>([
        [[1n, 2n], '[1, 2]'], [['a', null], '["a", nil]'], [h([['k', 'v']]), '{"k"=>"v"}'], [1.5, '1.5'], [100, '100.0'],
        [1e20, '1.0e+20'], [true, 'true'], [null, '']
    ])('%#', (v, s) => expect(rubyToS(v)).toBe(s));
    test('floats', () => expect(rubyFloat(0.0001)).toBe('0.0001'));
    // Real Puppet: `z: -0.0` in data looks up as -0.0 (checked with the oracle).
    test('negative zero keeps its sign', () => expect(rubyFloat(-0)).toBe('-0.0'));
});

describe('hiera.yaml validation (Puppet 7.23 messages)', () => {
    test.each<[string, string, string]>([
        ['unknown level key', V5('  - name: common\n    pth: common.yaml\n'), "The Lookup Configuration at 'hiera.yaml' has wrong type, entry 'hierarchy' index 0 unrecognized key 'pth'"],
        ['missing name', V5('  - path: common.yaml\n'), "The Lookup Configuration at 'hiera.yaml' has wrong type, entry 'hierarchy' index 0 expects a value for key 'name'"],
        ['name twice', V5('  - name: x\n    path: common.yaml\n  - name: x\n    path: other.yaml\n'), "Hierarchy name 'x' defined more than once. First defined at (line: 4) (file: hiera.yaml, line: 6)"],
        ['version 6', '---\nversion: 6\nhierarchy: []\n', 'This runtime does not support hiera.yaml version 6 (file: hiera.yaml)'],
        ['two locations', V5('  - name: x\n    path: common.yaml\n    paths: [a.yaml]\n'), 'Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy \'x\' (file: hiera.yaml)'],
        ['unknown top key', '---\nversion: 5\nfoo: 1\nhierarchy: []\n', "The Lookup Configuration at 'hiera.yaml' has wrong type, unrecognized key 'foo'"],
        ['defaults without function', V5('  - name: common\n    path: common.yaml\n', 'defaults:\n  datadir: data\n'), "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy 'common' (file: hiera.yaml)"],
        ['reserved option', V5('  - name: c\n    path: common.yaml\n    options:\n      path: x\n'), "Option key 'path' used in hierarchy 'c' is reserved by Puppet (file: hiera.yaml)"],
        ['unknown function', V5('  - name: c\n    path: common.yaml\n    lookup_key: nope\n'), "Unable to find 'lookup_key' function named 'nope' (file: hiera.yaml)"],
        ['method syntax in a path', V5('  - name: m\n    path: "%{lookup(\'x\')}.yaml"\n'), 'Interpolation using method syntax is not allowed in this context (file: hiera.yaml)'],
        ['yaml_data with a uri', V5('  - name: m\n    uri: "http://x/y"\n'), "'yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"]
    ])('%s', (_name, config, message) => {
        const svc = hieraFor({ 'hiera.yaml': config, 'data/common.yaml': 'a: 1\n' });
        expect(() => svc.lookup('a')).toThrow(message);
    });
});

describe('lookups', () => {
    const env = {
        'hiera.yaml': V5('  - name: node\n    path: "nodes/%{trusted.certname}.yaml"\n  - name: os\n    path: "os/%{facts.os.family}.yaml"\n  - name: common\n    path: common.yaml\n'),
        'data/nodes/n1.example.com.yaml': 'k: node\nlist: [n]\n',
        'data/os/Debian.yaml': 'k: debian\nlist: [d]\nlookup_options:\n  list:\n    merge: unique\n',
        'data/common.yaml': 'k: common\nlist: [c, n]\nref: "%{lookup(\'k\')}!"\nalias: "%{alias(\'list\')}"\nscoped: "%{::os.family}"\nnested:\n  deep:\n    v: 1\n',
        'modules/m/hiera.yaml': V5('  - name: common\n    path: common.yaml\n'),
        'modules/m/data/common.yaml': 'm::x: from module\nother: ignored\n'
    };
    const facts = { os: h([['family', 'Debian']]) };
    test.each<[string, string, PuppetValue]>([
        ['first found', 'k', 'node'],
        ['lookup_options merge', 'list', ['n', 'd', 'c']],
        ['lookup() interpolation', 'ref', 'node!'],
        ['alias keeps type', 'alias', ['n', 'd', 'c']],
        ['top-scope fact', 'scoped', 'Debian'],
        ['dotted key', 'nested.deep.v', 1n],
        ['module layer', 'm::x', 'from module']
    ])('%s', (_name, key, expected) => {
        expect(hieraFor(env, facts).lookup(key)).toEqual(expected);
    });

    test('not found, default, default block', () => {
        const svc = hieraFor(env, facts);
        expect(() => svc.lookup('nope')).toThrow("Function lookup() did not find a value for the name 'nope'");
        expect(() => svc.lookup(['a', 'b'])).toThrow("Function lookup() did not find a value for any of the names ['a', 'b']");
        expect(svc.lookup('nope', { default: { value: 3n } })).toBe(3n);
        expect(svc.lookup('nope', { defaultFn: n => `no ${String(n)}` })).toBe('no nope');
        expect(svc.lookupOptional('other')).toBe(NOT_FOUND);
    });

    test('type assertion', () => {
        const svc = hieraFor(env, facts);
        expect(svc.lookup('nested.deep.v', { type: 'Integer' })).toBe(1n);
        expect(() => svc.lookup('k', { type: 'Integer' })).toThrow('Found value has wrong type, expects an Integer value, got String');
    });

    test('digging into a scalar is a type mismatch', () => {
        expect(() => hieraFor(env, facts).lookup('k.x')).toThrow("Data Provider type mismatch: Got String when a hash-like object was expected to access value using 'x' from key 'k.x'");
    });

    test('module data outside the module namespace is dropped with a warning', () => {
        const svc = hieraFor(env, facts);
        expect(svc.lookup('m::x')).toBe('from module');
        expect(svc.warnings.some(w => w.includes("Module 'm'") && w.includes('must use keys qualified with the name of the module'))).toBe(true);
    });

    test('the explanation lists providers, levels and paths', () => {
        const r = hieraFor(env, facts).explain('k');
        expect(r.value).toBe('node');
        expect(r.text).toContain('Searching for "k"');
        expect(r.text).toContain('    Hierarchy entry "node"\n      Path "data/nodes/n1.example.com.yaml"\n        Original path: "nodes/%{trusted.certname}.yaml"\n        Found key: "k" value: "node"');
    });

    test('recursion is reported with the stack', () => {
        const svc = hieraFor({ 'hiera.yaml': V5('  - name: c\n    path: common.yaml\n'), 'data/common.yaml': 'a: "%{lookup(\'b\')}"\nb: "%{lookup(\'a\')}"\n' });
        try {
            svc.lookup('a');
            expect.unreachable();
        } catch (e) {
            expect(isLookupError(e) && e.message).toBe("Lookup of key 'a' failed: Recursive lookup detected in [a, b]");
        }
    });
});

describe('hiera: bindings provider', () => {
    const env = {
        'hiera.yaml': V5('  - name: node\n    path: "nodes/%{trusted.certname}.yaml"\n  - name: common\n    path: common.yaml\n'),
        'data/nodes/n1.example.com.yaml': 'k: node\n',
        'data/common.yaml': 'k: common\ni: "%{facts.x}"\nlookup_options:\n  k:\n    merge: unique\n',
        'modules/m/hiera.yaml': V5('  - name: common\n    path: common.yaml\n'),
        'modules/m/data/common.yaml': 'm::x: 1\n'
    };

    test('one HieraLevelBindings per level, keys with file:line:col, a valid Bindings model', () => {
        const svc = hieraFor(env);
        const [c] = provideHieraBindings(svc, 'hiera:/');
        expect(c.name).toBe('hiera:/');
        const levels = c.bindings ?? [];
        expect(levels.map(l => l.$type === 'HieraLevelBindings' ? [l.levelName, l.levelIndex, l.dataFiles] : [])).toEqual([
            ['node', 0, ['data/nodes/n1.example.com.yaml']], ['common', 1, ['data/common.yaml']]
        ]);
        const common = levels[1].bindings ?? [];
        expect(common.map(b => b.$type === 'Binding' ? [b.name, b.location?.line, b.location?.column, b.producer?.$type] : [])).toEqual([
            ['k', 1, 1, 'ConstantProducerDescriptor'], ['i', 2, 1, 'HieraInterpolationProducerDescriptor'], ['lookup_options', 3, 1, 'ConstantProducerDescriptor']
        ]);
        const text = encodeJson(hieraBindingsModel(c));
        expect(() => decodeJson(text, 'hiera.json')).not.toThrow();
    });

    test('module layers', () => {
        const svc = hieraFor(env);
        expect(provideHieraBindings(svc, 'hiera:/modules/*').map(c => c.name)).toEqual(['hiera:/modules/m']);
        expect(provideHieraBindings(svc, 'hiera:/modules/none')).toEqual([]);
    });
});

describe('data binding for the catalog builder', () => {
    test('top-scope variables reach paths and values, and a changed variable re-resolves the hierarchy', async () => {
        const { createHieraDataBinding } = await import('../../../src/bindings/index.js');
        const { trustedFor } = await import('../../../src/node/index.js');
        const { writeEnv } = await import('./fixture.js');
        const dir = writeEnv({
            'hiera.yaml': V5('  - name: role\n    path: "role/%{::role}.yaml"\n  - name: common\n    path: common.yaml\n'),
            'data/role/builder.yaml': 'greeting: builder\n',
            'data/common.yaml': 'greeting: "common [%{::role}]"\n'
        });
        const binding = createHieraDataBinding({ environment: dir });
        const facts = new Map<string, PuppetValue>();
        const trusted = trustedFor('n1');
        let role: PuppetValue | undefined;
        const ctx = () => ({ facts, trusted, environment: 'production', variable: (n: string) => n === 'role' ? role : undefined });
        expect(binding.lookup('greeting', {}, ctx())).toMatchObject({ found: true, value: 'common []', origin: { category: 'common', file: 'data/common.yaml', line: 1 } });
        role = 'builder';
        expect(binding.lookup('greeting', {}, ctx())).toMatchObject({ found: true, value: 'builder', origin: { category: 'role', file: 'data/role/builder.yaml', line: 1 } });
        expect(binding.lookup('missing', {}, ctx())).toEqual({ found: false });
        expect(binding.lookup('missing', { defaultValue: 1n }, ctx())).toEqual({ found: true, value: 1n });
    });
});

describe('oracle output shape', () => {
    test('Integer and Float stay apart in the JSON text; non-string keys use the Hash pair form', async () => {
        const { lookupJson } = await import('../../../src/bindings/index.js');
        expect(lookupJson(h([['f', 2], ['i', 2n], ['e', 1e20], ['n', null]]))).toBe('{\n  "f": 2.0,\n  "i": 2,\n  "e": 1.0e+20,\n  "n": null\n}\n');
        expect(JSON.parse(lookupJson(h([[1n, 'one']])))).toEqual({ __ptype: 'Hash', __pvalue: [1, 'one'] });
    });
});

describe('global layer (confdir hiera.yaml)', () => {
    test('global data wins first-found, lookup_options merge with global entries winning (checked against puppet --setting hiera_config)', async () => {
        const { createHieraLookup, createHieraServices } = await import('../../../src/bindings/index.js');
        const { trustedFor } = await import('../../../src/node/index.js');
        const { writeEnv } = await import('./fixture.js');
        const confdir = writeEnv({
            'hiera.yaml': '---\nversion: 5\ndefaults:\n  datadir: gdata\n  data_hash: yaml_data\nhierarchy:\n  - name: global common\n    path: common.yaml\n',
            'gdata/common.yaml': 'g: from global\nshared: global\nlist: [g]\nlookup_options:\n  list:\n    merge: unique\n  h:\n    merge: hash\nh: {a: g}\n',
            'environments/production/hiera.yaml': V5('  - name: common\n    path: common.yaml\n'),
            'environments/production/data/common.yaml': 'shared: env\nlist: [e]\ne: env only\nlookup_options:\n  h:\n    merge: deep\n  e:\n    merge: unique\nh: {b: e}\n'
        });
        const svc = createHieraLookup({
            environment: { name: 'production', root: `${confdir}/environments/production`, modulePath: [], globalConfig: `${confdir}/hiera.yaml` },
            context: { environment: 'production', facts: new Map(), trusted: trustedFor('n1') },
            services: createHieraServices()
        });
        expect(svc.lookup('g')).toBe('from global');
        expect(svc.lookup('shared')).toBe('global');
        expect(svc.lookup('list')).toEqual(['g', 'e']);
        expect(svc.lookup('e')).toEqual(['env only']);
        expect(svc.lookup('h')).toEqual(h([['b', 'e'], ['a', 'g']]));
        expect(svc.explain('g').text).toContain('Global Data Provider (hiera configuration version 5)\n    Using configuration "');
    });

    test('hiera3_backend yaml in the global layer asks for data_hash', async () => {
        const { parseHieraConfig } = await import('../../../src/bindings/index.js');
        expect(() => parseHieraConfig('---\nversion: 5\nhierarchy:\n  - name: x\n    hiera3_backend: yaml\n', 'hiera.yaml', 'global'))
            .toThrow('Use "data_hash: yaml_data" instead of "hiera3_backend: yaml" (file: hiera.yaml, line: 5)');
    });
});

describe('lookup() override and default_values_hash options', () => {
    const env = { 'hiera.yaml': V5('  - name: c\n    path: common.yaml\n'), 'data/common.yaml': 'a: data\nmsg: "v=%{var}"\n' };
    test.each<[string, Parameters<ReturnType<typeof hieraFor>['lookup']>[1], PuppetValue]>([
        ['an override wins over data', { overrides: h([['a', 'over']]) }, 'over'],
        ['a default value applies only when nothing is found', { defaultValues: h([['a', 'dv']]) }, 'data']
    ])('%s', (_n, req, expected) => expect(hieraFor(env).lookup('a', req)).toBe(expected));

    test('default values hash for a missing name, and as an interpolation variable', () => {
        const svc = hieraFor(env);
        expect(svc.lookup(['x', 'y'], { defaultValues: h([['y', 'dy']]) })).toBe('dy');
        expect(svc.lookup('msg', { overrides: h([['var', 'o']]) })).toBe('v=o');
        expect(() => svc.lookup('x', { overrides: h([['x', 'str']]), type: 'Integer' })).toThrow("Value found for key 'x' in override hash has wrong type, expects an Integer value, got String");
    });
});

describe('hiera.yaml version 4 (deprecated, still read by Puppet 7)', () => {
    const env = {
        'hiera.yaml': '---\nversion: 4\ndatadir: data\nhierarchy:\n  - name: node\n    backend: yaml\n    path: "nodes/%{trusted.certname}"\n  - name: j\n    backend: json\n    datadir: jd\n    paths: [a, b.json]\n  - name: common\n    backend: yaml\n',
        'data/nodes/n1.example.com.yaml': 'k: node\n',
        'jd/a.json': '{"k": "json", "j": 1}',
        'jd/b.json': '{"j2": 2}',
        'data/common.yaml': 'k: common\nc: 1\n'
    };
    test.each<[string, PuppetValue]>([['k', 'node'], ['j', 1n], ['j2', 2n], ['c', 1n]])('%s', (key, expected) => {
        expect(hieraFor(env).lookup(key)).toEqual(expected);
    });
    test('the deprecation is logged with the file', () => {
        const svc = hieraFor(env);
        svc.lookup('c');
        expect(svc.warnings).toEqual(["hiera.yaml: Use of 'hiera.yaml' version 4 is deprecated. It should be converted to version 5\n   (file: hiera.yaml)"]);
    });
    test('an unknown backend fails where Puppet fails', () => {
        const svc = hieraFor({ ...env, 'hiera.yaml': env['hiera.yaml'].replace('backend: json', 'backend: xml') });
        expect(() => svc.lookup('c')).toThrow("No data provider is registered for backend 'xml' (file: hiera.yaml, line: 9)");
    });
});

describe('diagnostics', () => {
    test.each<[string, Record<string, string>, string, string]>([
        ['interpolation failure at the key in the data file', { 'data/common.yaml': 'ok: 1\nbad: "%{upcase(\'x\')}"\n' }, 'bad', "data/common.yaml:2:1: error LOOKUP_UNKNOWN_INTERPOLATION_METHOD: Unknown interpolation method 'upcase'"],
        ['YAML syntax at its position', { 'data/common.yaml': 'a: [1, 2\n' }, 'a', 'data/common.yaml:'],
        ['not found at the key path', { 'data/common.yaml': 'a: 1\n' }, 'zz', "<input>: error LOOKUP_NOT_FOUND: Function lookup() did not find a value for the name 'zz' (at zz)"]
    ])('%s', async (_n, files, key, prefix) => {
        const { formatDiagnostic } = await import('../../../src/common/index.js');
        const svc = hieraFor({ 'hiera.yaml': V5('  - name: c\n    path: common.yaml\n'), ...files });
        try {
            svc.lookup(key);
            expect.unreachable();
        } catch (e) {
            expect(e).toBeInstanceOf(LookupError);
            expect(formatDiagnostic((e as LookupError).toDiagnostic()).startsWith(prefix)).toBe(true);
        }
    });
});

describe('json_data reads JSON as Ruby does (checked against ruby json 2.6)', () => {
    test.each<[string, string]>([
        ['{"a": 1,}', "859: unexpected token at '{\"a\": 1,}'"],
        ['[1, tru]', "451: unexpected token at 'tru]'"],
        ['{"a": [1, {"b": x}]}', "451: unexpected token at '{\"b\": x}]}'"],
        ['{"a": {"b": 1,}}', "859: unexpected token at '{\"a\": {\"b\": 1,}}'"],
        ['{"a": 1}}', "859: unexpected token at '}'"],
        ['[01]', "451: unexpected token at '01]'"],
        ['[NaN]', "225: unexpected token at 'NaN]'"],
        ['{"a": 1} // x', "859: unexpected token at ''"]
    ])('%s', async (text, message) => {
        const { parseRubyJson } = await import('../../../src/values/index.js');
        expect(() => parseRubyJson(text)).toThrow(message);
    });

    test('comments, duplicate keys, integer/float kinds', async () => {
        const { parseRubyJson } = await import('../../../src/values/index.js');
        expect(parseRubyJson('{"a": 1 /* c */, "a": 2, // x\n "b": [1e5, -0, 2.5]}').value).toEqual(h([['a', 2n], ['b', [100000, 0n, 2.5]]]));
    });
});
