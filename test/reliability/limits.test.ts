import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { filesBelow, ONE_LINE, runBin, scratch, writeTree } from './harness.js';

// Deep and large input through the real launcher (bin/modelc.js: a worker thread with a large
// stack), limits that stop runaway manifests with a located error, and provider programs that
// misbehave. Inputs are generated here; the spawn timeout only guards against hangs.

const terms = (n: number): string => `$x = ${Array.from({ length: n }, () => '1').join('+')}\nnotice($x)\n`;
const nested = (open: string, inner: string, close: string, n: number): string => open.repeat(n) + inner + close.repeat(n);

describe('deep input parses as Puppet parses it', () => {
    test.each([
        ['5,000 terms, PN', terms(5000), 'pn'],
        ['5,000 terms, JSON model', terms(5000), 'json'],
        ['100,000 terms (parsing is linear)', terms(100_000), 'pn'],
        ['1,000 nested brackets', `$x = ${nested('[', '1', ']', 1000)}\n`, 'pn'],
        ['1,000 nested ifs', nested('if true { ', 'notice(1)', ' }', 1000), 'pn'],
        ['10,000 nested parentheses', `$x = ${nested('(', '1', ')', 10_000)}\n`, 'pn']
    ])('%s', (_name, text, format) => {
        const dir = writeTree(scratch(), { 'in.pp': text });
        const r = runBin(['parse', join(dir, 'in.pp'), '--format', format]);
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(r.out.length).toBeGreaterThan(0);
    });

    test('a model whose data nests 5,000 deep validates, converts and diffs', () => {
        const dir = writeTree(scratch(), { 'manifests/site.pp': "notify { 'x': message => [1] }\n" });
        const compiled = runBin(['compile', dir, '--format', 'json']);
        expect(compiled.code).toBe(0);
        const model = JSON.parse(compiled.out) as unknown;
        const deep = nested('[', '1', ']', 5000);
        const text = JSON.stringify(model).replace('"value":[1]', `"value":${deep}`);
        expect(text).toContain(deep);
        writeTree(dir, { 'deep.json': text });
        const file = join(dir, 'deep.json');
        expect(runBin(['validate', file])).toMatchObject({ code: 0, err: '' });
        expect(runBin(['convert', file, '--to', 'msgpack', '-o', join(dir, 'deep.msgpack')])).toMatchObject({ code: 0, err: '' });
        expect(runBin(['diff', file, join(dir, 'deep.msgpack')])).toMatchObject({ code: 0, err: '' });
    });
});

const env = (site: string): string => writeTree(scratch(), { 'manifests/site.pp': site });

describe('runaway manifests stop at a stated limit, located', () => {
    test('a 2,000-link -> chain compiles', () => {
        const chain = Array.from({ length: 2000 }, (_, i) => `notify { 'n${i}': }`).join(' -> ');
        const r = runBin(['compile', env(`${chain}\n`), '--format', 'puppet']);
        expect(r.code).toBe(0);
        expect(JSON.parse(r.out).resources.length).toBeGreaterThan(2000);
    });

    test('an include chain 400 deep compiles; 1,000 deep stops at the class nesting limit, located', () => {
        const chain = (n: number): string => `include c0\n${Array.from({ length: n }, (_, i) => `class c${i} { include c${i + 1} }`).join('\n')}\nclass c${n} {}\n`;
        expect(runBin(['compile', env(chain(400)), '--format', 'puppet']).code).toBe(0);
        const r = runBin(['compile', env(chain(1000)), '--format', 'puppet']);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(ONE_LINE('EVAL_RUNTIME'));
        expect(r.err).toMatch(/^manifests\/site\.pp:501:\d+: error EVAL_RUNTIME: .*more than 500 levels deep \(a limit of modelc\) at Class\[C500\]/);
    });

    test('a define declaring itself under a new title stops as Puppet does', () => {
        const r = runBin(['compile', env("define foo() { foo { \"${title}x\": } }\nfoo { 'a': }\n"), '--format', 'puppet']);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(ONE_LINE('EVAL_PUPPET_ERROR'));
        expect(r.err).toContain('Somehow looped more than 1000 times while evaluating host catalog');
    });
});

const RUBY_FN = (body: string): string => `Puppet::Functions.create_function(:deep) do\n  def deep\n    ${body}\n  end\nend\n`;
const rubySite = (body: string): Record<string, string> => ({ 'manifests/site.pp': 'notice(deep())\n', 'modules/m/lib/puppet/functions/deep.rb': RUBY_FN(body) });
const yamlSite = (data: string): Record<string, string> => ({
    'hiera.yaml': 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n', 'data/common.yaml': data, 'manifests/site.pp': "notice(lookup('key'))\n"
});
const indented = (n: number, item: (i: number) => string): string => Array.from({ length: n }, (_, i) => item(i)).join('');

describe('deep Ruby and YAML constructs: Ruby\'s own parser refuses them ("nesting too deep"), modelc says so in one located line', () => {
    test.each([
        ['100,000 nested classes (names of quadratic size ran out of memory)', rubySite(`${'class A\n'.repeat(100_000)}${'end\n'.repeat(100_000)}`), 'RUBY_SYNTAX', /deep\.rb:5000:\d+: error RUBY_SYNTAX: syntax error, statements nested more than 5000 levels deep/],
        ['20,000 nested begin...end', rubySite(`x = ${'begin\n'.repeat(20_000)}1${'\nend'.repeat(20_000)}`), 'RUBY_SYNTAX', /statements nested more than 5000 levels deep/],
        ['100,000 nested defs', rubySite(`${'def a\n'.repeat(100_000)}1${'\nend'.repeat(100_000)}`), 'RUBY_SYNTAX', /statements nested more than 5000 levels deep/],
        ['100,000 nested ifs', rubySite(`x = ${'if true\n'.repeat(100_000)}1${'\nend'.repeat(100_000)}`), 'RUBY_SYNTAX', /statements nested more than 5000 levels deep/],
        ['100,000 nested do blocks', rubySite(`x = ${'[1].each do |a|\n'.repeat(100_000)}1${'\nend'.repeat(100_000)}`), 'RUBY_', /deep\.rb:\d+:\d+: error RUBY_(SYNTAX|LIMIT): /],
        ['100,000 nested braces blocks', rubySite(`x = ${'[1].map { |a| '.repeat(100_000)}1${' }'.repeat(100_000)}`), 'RUBY_SYNTAX', /the code is nested more than 10000 levels deep/],
        ['3,000 nested heredocs with interpolation', rubySite(`x = ${indented(3000, i => `<<~E${i}\n#{`)}1${indented(3000, i => `}\nE${2999 - i}\n`)}`), 'RUBY_SYNTAX', /string interpolations nested more than 1000 levels deep/],
        ['YAML: 20,000 nested block mappings (a 200 MB file of spaces failed inside Node)', yamlSite(`key:\n${indented(20_000, i => `${' '.repeat(i + 2)}a:\n`)}`), 'EVAL_PUPPET_ERROR', /common\.yaml:1001: error EVAL_PUPPET_ERROR: .*block collections nested more than 1000 levels deep/],
        ['YAML: 5,000 nested block sequences', yamlSite(`key:\n${indented(5000, i => `${' '.repeat(2 * i + 2)}-\n`)}x\n`), 'EVAL_PUPPET_ERROR', /block collections nested more than 1000 levels deep/],
        ['YAML: 100,000 compact sequences on one line', yamlSite(`key:\n${'- '.repeat(100_000)}x\n`), 'EVAL_PUPPET_ERROR', /common\.yaml:2: error EVAL_PUPPET_ERROR: .*block collections nested more than 1000 levels deep/]
    ])('%s', (_name, files, code, message) => {
        const dir = writeTree(scratch(), files);
        const r = runBin(['compile', dir, '--format', 'puppet']);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(code.endsWith('_') ? /^[^\n]+: error RUBY_[A-Z]+: [^\n]+\n$/ : ONE_LINE(code));
        expect(r.err).toMatch(message);
    });

    test.each([
        ['900 compact sequences', `key:\n${'- '.repeat(900)}x\n`],
        ['a literal block scalar of 100,000 lines (each line copied all before it: minutes)', `key: |\n${'  line\n'.repeat(100_000)}`],
        ['a folded block scalar of 100,000 lines', `key: >-\n${'  word\n'.repeat(50_000)}\n${'  word\n'.repeat(50_000)}`]
    ])('YAML that Psych reads: %s', (_name, data) => {
        const r = runBin(['lookup', writeTree(scratch(), yamlSite(data)), 'key']);
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(r.out.length).toBeGreaterThan(0);
    });
});

/** A "billion laughs": 9^11 strings from a few hundred bytes. */
const BOMB = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...Array.from({ length: 11 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array.from({ length: 9 }, () => `*a${i}`).join(',')}]`), 'key: *a11', ''].join('\n');

describe('YAML alias bombs are refused wherever YAML is read', () => {
    const hiera = { 'hiera.yaml': 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n', 'data/common.yaml': BOMB, 'manifests/site.pp': "notice(lookup('key'))\n" };
    test('Hiera data, through lookup', () => {
        const r = runBin(['lookup', writeTree(scratch(), hiera), 'key']);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(ONE_LINE('LOOKUP_DATA_PARSE'));
        expect(r.err).toContain('billion laughs');
    });
    test('Hiera data, through a compile', () => {
        const r = runBin(['compile', writeTree(scratch(), hiera), '--format', 'puppet']);
        expect(r.code).toBe(1);
        expect(r.err).toContain('billion laughs');
    });
    test('a facts file', () => {
        const dir = writeTree(scratch(), { 'manifests/site.pp': 'notice(1)\n', 'facts.yaml': BOMB });
        const r = runBin(['compile', dir, '--facts', join(dir, 'facts.yaml'), '--format', 'puppet']);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/^[^\n]+: error [A-Z_]+: [^\n]*billion laughs[^\n]*\n$/);
    });
});

describe('provider programs that misbehave', () => {
    const site = (uri: string): string => `site {\n  bindings => [\n    layer { 'x': include => '${uri}' },\n  ]\n}\n`;
    const withProvider = (script: string, uri: string, key: 'enc' | 'ext'): string => {
        const dir = scratch();
        writeTree(dir, { 'prog.sh': script, 'bindings/site.pp': site(uri), 'manifests/site.pp': '' });
        const cmd = `[sh, ${JSON.stringify(join(dir, 'prog.sh'))}]`;
        writeTree(dir, { 'bindings/providers.yaml': key === 'enc' ? `enc: ${cmd}\n` : `schemes:\n  ext: ${cmd}\n` });
        return dir;
    };

    test('an ENC that leaves a child running in the background is done when it exits', () => {
        const dir = withProvider('sleep 300 >/dev/null 2>&1 &\nsleep 300 &\necho "classes: [ntp]"\n', 'enc:', 'enc');
        // The hang guard is far below the 60 s provider timeout the old pipes waited for.
        const r = runBin(['bindings', dir], { timeoutMs: 40_000 });
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(r.out).toContain('ntp');
    });

    test('a provider that never reads its stdin does not fail with EPIPE', () => {
        const big = 'x'.repeat(300_000);
        const dir = withProvider(`echo '{"$type": "http://modelc.dev/bindings/1.0#//NamedBindings", "name": "ext::n"}'\n`, 'ext:/n', 'ext');
        writeTree(dir, { 'facts.yaml': `big: ${big}\n` });
        const r = runBin(['bindings', dir, '--facts', join(dir, 'facts.yaml')]);
        expect(r.err).not.toContain('EPIPE');
        expect(r.code).toBe(0);
    });

    test('a provider flooding stderr is reported with a bounded tail', () => {
        const dir = withProvider("head -c 5000000 /dev/zero | tr '\\0' 'e' >&2\necho last words >&2\nexit 1\n", 'ext:/x', 'ext');
        const r = runBin(['bindings', dir]);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(ONE_LINE('BIND_EXTERNAL_FAILED'));
        expect(r.err.length).toBeLessThan(3000);
        expect(r.err).toContain('last words');
    });

    test.each([
        ['an ENC', 'cat /dev/zero\n', 'enc:', 'enc', 'BIND_ENC_FAILED'],
        ['a scheme, through a shell child (a grandchild outlived the timeout, writing until the disk was full)', 'sh -c "cat /dev/zero"\n', 'ext:/x', 'ext', 'BIND_EXTERNAL_FAILED']
    ] as const)('%s printing without end stops at the output limit', (_name, script, uri, key, code) => {
        const r = runBin(['bindings', withProvider(script, uri, key)], { timeoutMs: 60_000 });
        expect(r.code).toBe(1);
        expect(r.err).toMatch(ONE_LINE(code));
        expect(r.err).toContain('printed more than 64 MB');
    });

    test('a provider that cannot run says so', () => {
        const dir = withProvider('', 'enc:', 'enc');
        writeTree(dir, { 'bindings/providers.yaml': 'enc: [no-such-program-anywhere]\n' });
        const r = runBin(['bindings', dir]);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/^[^\n]+providers\.yaml:1:1: error BIND_ENC_FAILED: cannot run 'no-such-program-anywhere[^']*': .*not found\n$/);
    });

    test('a provider printing JSON nested 100k deep', () => {
        const dir = withProvider(`python3 -c "print('{\\"a\\":'*100000 + '1' + '}'*100000)"\n`, 'ext:/deep', 'ext');
        const r = runBin(['bindings', dir]);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/^[^\n]+: error BIND_EXTERNAL_MODEL: MODEL_TOO_DEEP[^\n]*\n$/);
    });
});

describe('bin/modelc.js runs whatever node is first on the PATH', () => {
    const old = ['/usr/bin/node', '/bin/node'].find(p => existsSync(p));
    const version = old ? runVersion(old) : undefined;
    test.skipIf(version === undefined || version >= 24)('under an older Node it re-executes with the project\'s Node 24', () => {
        const dir = writeTree(scratch(), { 'a.pp': 'notice(1)\n', 'hiera.yaml': 'version: 5\n', 'data/common.yaml': 'k: v\n' });
        const r = runBin(['parse', join(dir, 'a.pp')], { node: old as string });
        expect(r).toMatchObject({ code: 0, err: '', out: '(invoke {:functor (qn "notice") :args [1]})\n' });
        // The Hiera layer uses fs.globSync and the JSON writer JSON.rawJSON (Node 22+).
        expect(runBin(['lookup', dir, 'k'], { node: old as string })).toMatchObject({ code: 0, out: '"v"\n' });
        expect(filesBelow(dir)).toEqual(['a.pp', 'data', 'data/common.yaml', 'hiera.yaml']);
    });
    test('the README says which Node runs modelc', () => {
        const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
        expect(readme).not.toMatch(/Node 20\+/);
        expect(readme).toMatch(/node_modules\/node/);
    });
});

function runVersion(node: string): number | undefined {
    const m = /^v(\d+)/.exec(execFileSync(node, ['--version'], { encoding: 'utf8' }));
    return m ? Number(m[1]) : undefined;
}
