import { describe, expect, test } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { writeEnv } from '../hiera/fixture.js';
import { b, check, named, type SeedCase } from './harness.js';

/**
 * Bad bindings input never crashes: each mistake is a located one-line error and exit 1 — wrong
 * types in `to`, cycles between producers, multibind contributions of the wrong type, options
 * of the wrong kind — and every prefix of real bindings files (a truncated file) is either
 * accepted or refused that way.
 */
const CASES: readonly SeedCase[] = [
    { section: 'Bad input', rule: 'a value of the wrong type in to', files: { 'bindings/default.pp': b(`  bind Integer, 'x' to 'str'`) }, key: 'x', error: { code: 'INJECT_CONSTANT_TYPE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'bind parameters to a literal that is not a hash', files: { 'bindings/default.pp': b(`  bind parameters ntp to 42`) }, key: 'x', error: { code: 'INJECT_PARAMETERS_NOT_KEYED', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'bind variables to an array', files: { 'bindings/default.pp': b(`  bind variables to [1, 2]`) }, key: 'x', error: { code: 'INJECT_VARIABLES_NOT_HASH', at: 'bindings/default.pp:2:3' } },
    { section: 'Bad input', rule: 'a cycle between evaluated producers', files: { 'bindings/default.pp': b(`  bind 'a' to inject('b')\n  bind 'b' to inject('a')`) }, key: 'a', error: { code: 'INJECT_LOOKUP_LOOP', at: 'bindings/default.pp:2' } },
    {
        section: 'Bad input', rule: 'a cycle between producer objects',
        files: { 'bindings/default.pp': b(`  bind 'a' to producer Type[LookupProducer] { producer_args => { name => 'b' } }\n  bind 'b' to producer Type[LookupProducer] { producer_args => { name => 'a' } }`) },
        key: 'a', error: { code: 'INJECT_LOOKUP_LOOP', at: 'bindings/default.pp:2' }
    },
    { section: 'Bad input', rule: 'a cycle of aliases', files: { 'bindings/default.pp': b(`  bind alias 'a' as 'b'\n  bind alias 'b' as 'a'`) }, key: 'a', error: { code: 'INJECT_LOOKUP_LOOP' } },
    { section: 'Bad input', rule: 'a Hash contribution of the wrong value type', files: { 'bindings/default.pp': b(`  multibind Hash[String, Integer], 'h'\n  bind 'a' to 'b' in 'h'`) }, key: 'h', error: { code: 'INJECT_HASH_VALUE_TYPE', at: 'bindings/default.pp:3' } },
    { section: 'Bad input', rule: 'an Array contribution of the wrong type', files: { 'bindings/default.pp': b(`  multibind Array[Integer], 'a'\n  bind to [1, 'two'] in 'a'`) }, key: 'a', error: { code: 'INJECT_ARRAY_CONTRIBUTION_TYPE', at: 'bindings/default.pp:3' } },
    { section: 'Bad input', rule: 'a combinator that is not a lambda', files: { 'bindings/default.pp': b(`  multibind Array[String], 'x' { combinator => 3 }`) }, key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'producer_args on a constant', files: { 'bindings/default.pp': b(`  bind 'x' to 1 { producer_args => 3 }`) }, key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'select_result without a query', files: { 'bindings/default.pp': b(`  bind 'x' to 1 { select_result => |$x| { $x } }`) }, key: 'x', error: { code: 'BIND_OPTION_VALUE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'a map that is not a hash', files: { 'bindings/default.pp': b(`  bind parameters Web[one] to Sql[one] { map => 3 }`) }, key: 'x', error: { code: 'BIND_OPTION_VALUE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'a category value that is not a literal', files: { 'bindings/default.pp': b(`  when node $x { bind 'x' to 1 }`) }, key: 'x', error: { code: 'BIND_CATEGORY_VALUE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'an unknown option', files: { 'bindings/default.pp': b(`  bind 'x' to 1 { colour => red }`) }, key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2' } },
    { section: 'Bad input', rule: 'a layer include that is not a URI', files: { 'manifests/site.pp': `site {\n  bindings => [layer { 'a': include => 42 }]\n}\n`, 'bindings/default.pp': b(`  bind 'x' to 1`) }, key: 'x', error: { code: 'BIND_LAYER', at: 'manifests/site.pp:2' } },
    { section: 'Bad input', rule: 'an empty bindings file', files: { 'bindings/default.pp': '' }, key: 'x', error: { code: 'BIND_WRONG_NAME', at: 'bindings/default.pp:1:1' } },
    { section: 'Bad input', rule: 'a binary file', files: { 'bindings/default.pp': '\u0000\u0001\u00ff bindings \u0007' }, key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:1' } },
    { section: 'Bad input', rule: 'providers.yaml that is not YAML', files: { 'bindings/providers.yaml': 'enc: [unclosed\n', 'bindings/default.pp': b(`  bind 'x' to 1`) }, key: 'x', error: { code: 'BIND_PROVIDERS_CONFIG', at: 'bindings/providers.yaml:2' } },
    { section: 'Bad input', rule: 'providers.yaml with an unknown key', files: { 'bindings/providers.yaml': 'enc: sh enc.sh\nldap: x\n', 'bindings/default.pp': b(`  bind 'x' to 1`) }, key: 'x', error: { code: 'BIND_PROVIDERS_CONFIG', at: 'bindings/providers.yaml:2:1' } },
    { section: 'Bad input', rule: 'an ENC that prints something other than YAML', files: { 'bindings/providers.yaml': 'enc: sh enc.sh\n', 'bindings/enc.sh': 'echo "classes: [unclosed"\n', 'manifests/site.pp': `site {\n  bindings => [layer { 'enc': include => 'enc:' }]\n}\n` }, key: 'x', error: { code: 'BIND_ENC_OUTPUT', at: 'bindings/providers.yaml:1:1', message: /the ENC \(sh enc.sh\) printed invalid YAML/ } },
    { section: 'Bad input', rule: 'environments.pp that does not parse', files: { 'environments.pp': 'site {\n  environment { "x": \n' }, run: 'compile', error: { code: 'BIND_PARSE', at: 'environments.pp:3' } },
    { section: 'Bad input', rule: 'environments.pp setting $environment to a hash', files: { 'environments.pp': '$environment = { a => 1 }\n' }, run: 'compile', error: { code: 'BIND_UNKNOWN_ENVIRONMENT', at: 'environments.pp:1' } }
];

describe('ARM-8 bad input (located errors, exit 1)', () => {
    test.each(named(CASES))('%s', async (_n, c) => check(c));
});

/** Real bindings and site files (every form), cut at many places. */
const FILES: ReadonlyArray<readonly [string, string]> = [
    ['bindings/default.pp', `bindings default {
  bind abstract "the meaning of life"
  when node 'n1.example.com' and virtual true { bind override "the meaning of life" to 42 }
  multibind Array[Data], 'flattened' AS 'example' { combinator => |$memo, $x| { $memo + flatten($x) } }
  bind to [1,2,[3]] in 'example'
  bind parameters Web[one] to Sql[?? name == one and port > 5] { map => { dbuser => user } }
  bind map Web to Sql { a => b }
  bind variables Integer to { a => 10 }
  bind abstract variables to ['must_be_set']
  bind alias "x" as abstract "y"
  include [ntp, ssh]
  bind dependency File['/a'] ~> Service['b'] -> File['/c']
  bind String, "request-id" to producer "mymodule::uuid" { producer_args => { a => 1 }, singleton => false }
  bind class ntp to class ntp2
}
`],
    ['manifests/site.pp', `site {
  categories { node => "$::fqdn", environment => true, virtual => if $facts['is_virtual'] { 'yes' } else { 'no' } }
  bindings => [layer { 'site': include => ['confdir:/default', 'confdir:/**::x'], exclude => 'confdir:/a' }, layer { 'modules': include => "module:/*::default" }]
}
notify { 'x': message => optionally_inject('the meaning of life') }
`],
    ['environments.pp', `site {
  Environment { modulepath => 'modules:site' }
  environment { 'production': envdir => "$confdir" }
  dynamic_environments { "$confdir/environments": }
}
if $agent_environment { $environment = $agent_environment } else { $environment = 'production' }
`]
];
// A key nothing binds is Hiera's "not found", which names no file but the environment.
const LINE = /^(\S+:\d+:\d+: (error|warning) [A-Z][A-Z0-9_]+: .*|Warning: .*|Notice: .*|\S+: error LOOKUP_NOT_FOUND: .*)$/;

describe('ARM-8 truncated files never crash', () => {
    const cuts = FILES.flatMap(([file, text]) => Array.from({ length: Math.ceil(text.length / 23) }, (_, i) => [file, text.slice(0, i * 23 + 11)] as const));
    test.each(cuts.map(([f, t]) => [`${f} cut at ${t.length}`, f, t] as const))('%s', async (_n, file, text) => {
        for (const command of ['lookup', 'compile'] as const) {
            const env = writeEnv({ [file]: text, 'facts.yaml': 'fqdn: n1.example.com\n' });
            const r = command === 'lookup' ? await runCli('lookup', env, 'the meaning of life', '--node', 'n1.example.com') : await runCli('compile', env, '--node', 'n1.example.com');
            expect([0, 1]).toContain(r.code);
            const lines = r.err.split('\n').filter(l => l !== '');
            for (const l of lines) expect(l.replace(`${env}/`, '')).toMatch(LINE);
            if (r.code === 1) expect(lines.some(l => / error /.test(l)), r.err).toBe(true);
            expect(r.err).not.toMatch(/INTERNAL|\n\s+at /);
        }
    });
});
