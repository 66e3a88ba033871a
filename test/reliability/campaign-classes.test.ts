import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { expectOneLocatedLine, type BadInputCase } from './bad-input-case.js';
import { scratch, writeTree } from './harness.js';

// One case per class of violation the fuzz campaigns found (test/reliability/cli-fuzz.test.ts,
// serve-fuzz, lsp-fuzz), each the smallest input of its class: one located line with a stable
// code, exit 1, nothing on stdout, nothing written. In-process (the test's small stack): the
// nesting cases stay below what it holds.

type Case = BadInputCase;

const RUBY_FUNCTION = (body: string): string => `Puppet::Functions.create_function(:deep) do\n  def deep\n    ${body}\n  end\nend\n`;

const cases: Record<string, Case> = {
    'compile: a Ruby syntax error Ruby reports over three lines is one line': {
        files: { 'manifests/site.pp': "notify { 'x': message => template('m/t.erb') }\n", 'modules/m/templates/t.erb': '<% if true %>\nx\n' },
        args: d => ['compile', d, '--format', 'puppet'], code: 'EVAL_PUPPET_ERROR', message: /syntax error, unexpected end-of-input/
    },
    'resource: a type nobody defines is located at the module directory': {
        files: { 'modules/.keep': '' }, args: d => ['resource', 'nosuchtype', '--modulepath', join(d, 'modules'), '--root', d], code: 'APPLY_RESOURCE', message: /modules: error APPLY_RESOURCE: Could not find type nosuchtype/
    },
    'compile: a manifest that is a directory is named': {
        files: { 'manifests/site.pp': 'include a\n', 'modules/a/manifests/init.pp/x': '' }, args: d => ['compile', d, '--format', 'puppet'],
        code: 'EVAL_FILE_UNREADABLE', message: /modules\/a\/manifests\/init\.pp: error EVAL_FILE_UNREADABLE: Could not read modules\/a\/manifests\/init\.pp: is a directory/
    },
    'compile: environments.pp that is a directory': {
        files: { 'environments.pp/x': '', 'manifests/site.pp': 'notice(1)\n' }, args: d => ['compile', d, '--format', 'puppet'], code: 'BIND_PARSE', message: /environments\.pp: error BIND_PARSE: is a directory/
    },
    'compile --store with a scheme no store has is located at the URL': {
        files: { 'manifests/site.pp': 'notice(1)\n' }, args: d => ['compile', d, '--format', 'puppet', '--store', 'mysql:x'], code: 'STORE_BAD_URL', message: /^mysql:x: error STORE_BAD_URL/
    },
    'compile --explain of a class the catalog does not hold is located at the environment': {
        files: { 'manifests/site.pp': 'class a {}\ninclude a\n' }, args: d => ['compile', d, '--explain', 'nope::param'], code: 'REVIEW_USAGE', message: /: error REVIEW_USAGE: class 'nope' is not in the catalog/
    },
    'compile: options that exclude each other are located at the environment': {
        files: { 'manifests/site.pp': 'notice(1)\n', 'e.json': '{}' }, args: d => ['compile', d, '--format', 'puppet', '--no-bindings', '--effective', join(d, 'e.json')],
        code: 'EVAL_USAGE', message: /^\/[^:]+: error EVAL_USAGE: --no-bindings excludes/
    },
    'compile --setting without a value is located at the environment': {
        files: { 'manifests/site.pp': 'notice(1)\n' }, args: d => ['compile', d, '--format', 'puppet', '--setting', 'x'], code: 'EVAL_USAGE', message: /^\/[^:]+: error EVAL_USAGE: --setting expects NAME=VALUE/
    },
    'compile --explain of a compile that fails prints no catalog object': {
        files: { 'manifests/site.pp': 'fail("stop")\n' }, args: d => ['compile', d, '--explain', 'a::b'], code: 'EVAL_RUNTIME', message: /stop/
    },
    'parse: 3,000 unclosed interpolations are one error, not one per level': {
        files: { 'a.pp': `${'"${'.repeat(3000)}\n` }, args: d => ['parse', join(d, 'a.pp')], code: 'PARSE_UNCLOSED_QUOTE', message: /Unclosed quote/
    },
    'parse: 150 unclosed brackets are one syntax error (error recovery at that depth took seconds)': {
        files: { 'a.pp': `$x = ${'['.repeat(150)}\n` }, args: d => ['parse', join(d, 'a.pp')], code: 'PARSE_SYNTAX_ERROR', message: /Syntax error at end of input/
    },
    'compile: a Ruby function of 2,000 nested interpolations (each level lexed again inside the last: minutes at 100,000)': {
        files: { 'manifests/site.pp': 'notice(deep())\n', 'modules/m/lib/puppet/functions/deep.rb': RUBY_FUNCTION(`x = ${'"#{'.repeat(2000)}1${'}"'.repeat(2000)}`) },
        args: d => ['compile', d, '--format', 'puppet'], code: 'RUBY_SYNTAX', message: /deep\.rb:3:\d+: error RUBY_SYNTAX: syntax error, string interpolations nested more than 1000 levels deep/
    },
    'parse: 100,000 unary minuses nest as brackets do (minutes of parsing before)': {
        files: { 'a.pp': `$x = ${'-'.repeat(100_000)}1\n` }, args: d => ['parse', join(d, 'a.pp')], code: 'PARSE_TOO_COMPLEX', message: /a\.pp:1:10006: error PARSE_TOO_COMPLEX: .*more than 10000 levels/
    },
    'compile: trusted facts of 20,000 nested flow sequences (40 s in the YAML scanner before)': {
        files: { 'manifests/site.pp': 'notice(1)\n', 'trusted.yaml': `extensions:\n  ${'['.repeat(20_000)}\n` }, args: d => ['compile', d, '--format', 'puppet', '--trusted', join(d, 'trusted.yaml')],
        code: 'NODE_INPUT_SYNTAX', message: /trusted\.yaml:2:1003: error NODE_INPUT_SYNTAX: not YAML: flow collections nested more than 1000 levels deep/
    },
    'compile: a Ruby function of 100,000 nested lambdas': {
        files: { 'manifests/site.pp': 'notice(deep())\n', 'modules/m/lib/puppet/functions/deep.rb': RUBY_FUNCTION(`x = ${'-> { '.repeat(100_000)}1${' }'.repeat(100_000)}`) },
        args: d => ['compile', d, '--format', 'puppet'], code: 'RUBY_SYNTAX', message: /deep\.rb:3:\d+: error RUBY_SYNTAX: syntax error, the code is nested more than 10000 levels deep/
    },
    'lookup --compile: Puppet\'s message of several lines (one per missing class parameter) is one line': {
        files: {
            'hiera.yaml': 'version: 5\n', 'manifests/site.pp': 'include p\n',
            'modules/p/manifests/init.pp': 'class p(String $a, String $b) {}\n'
        },
        args: d => ['lookup', d, 'k', '--compile'], code: 'LOOKUP_COMPILE_FAILED', message: /expects a value for parameter 'a' \| expects a value for parameter 'b'/
    },
    'compile: a Ruby function of 1,500 nested parentheses cut short': {
        files: { 'manifests/site.pp': 'notice(deep())\n', 'modules/m/lib/puppet/functions/deep.rb': RUBY_FUNCTION(`x = ${'('.repeat(1500)}1`) },
        args: d => ['compile', d, '--format', 'puppet'], code: 'RUBY_SYNTAX', message: /deep\.rb:\d+:\d+: error RUBY_SYNTAX: syntax error/
    }
};

describe('classes the campaigns found: one located line, exit 1, nothing written', () => {
    test.each(Object.entries(cases))('%s', async (_name, c) => {
        await expectOneLocatedLine(c);
    });
});

describe('what a failed compile logged before it failed', () => {
    const DIAGNOSTIC = /^[^\n]+: (error|warning|info) [A-Z][A-Z0-9]*_[A-Z0-9_]+: [^\n]+$/;

    test.each([
        { id: 'a notice', site: "notice('before')\nfail('stop')\n", logged: /manifests\/site\.pp:1: info EVAL_LOGGED_NOTICE: Scope\(Class\[main\]\): before/ },
        { id: 'a warning', site: "warning('careful')\nfail('stop')\n", logged: /manifests\/site\.pp:1: warning EVAL_LOGGED_WARNING: Scope\(Class\[main\]\): careful/ }
    ])('$id is a located diagnostic line before the error', async ({ site, logged }) => {
        const dir = writeTree(scratch(), { 'manifests/site.pp': site });
        const r = await runCli('compile', dir, '--format', 'puppet');
        expect(r.code).toBe(1);
        const lines = r.err.trimEnd().split('\n');
        expect(lines.every(l => DIAGNOSTIC.test(l))).toBe(true);
        expect(lines[0]).toMatch(logged);
        expect(lines.filter(l => / error /.test(l))).toHaveLength(1);
    });

    test('a compile that succeeds prints its log as Puppet does', async () => {
        const dir = writeTree(scratch(), { 'manifests/site.pp': "notice('fine')\n" });
        const r = await runCli('compile', dir, '--format', 'puppet');
        expect(r.code).toBe(0);
        expect(r.err).toBe('Notice: Scope(Class[main]): fine\n');
    });
});
