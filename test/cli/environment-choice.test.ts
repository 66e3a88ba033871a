import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeEnv } from '../bindings/hiera/fixture.js';
import { runCli } from './run-cli.js';

interface Recorded { readonly cases: ReadonlyArray<{ node: string; agent: string | null; environment: string; notify: string[] }> }

const ENC_DIR = join(import.meta.dirname, 'fixtures', 'enc-environment');
/** What real Puppet 7.23 compiled for each node/agent pair (record-with-puppet.rb, exec ENC + catalog compiler terminus). */
const RECORDED = JSON.parse(readFileSync(join(ENC_DIR, 'expected-puppet.json'), 'utf8')) as Recorded;

interface Catalog { readonly environment: string; readonly resources: ReadonlyArray<{ type: string; title: string }> }

describe("the ENC's environment against the agent's, as real Puppet serves it", () => {
    test.each(RECORDED.cases.map(c => [c.node, c.agent, c] as const))('%s asking for %s', async (node, agent, expected) => {
        const r = await runCli('compile', ENC_DIR, '--node', node, ...(agent !== null ? ['--environment', agent] : []), '--format', 'puppet');
        expect([r.code, r.err]).toEqual([0, '']);
        const catalog = JSON.parse(r.out) as Catalog;
        expect(catalog.environment).toBe(expected.environment);
        expect(catalog.resources.filter(x => x.type === 'Notify').map(x => x.title)).toEqual(expected.notify);
    });
});

const ENVIRONMENTS_PP = `site {
  dynamic_environments { "$confdir/environments": }
  environment { 'production': envdir => "$confdir/main" }
}
case $facts['role'] {
  /^db/:   { $environment = 'db' }
  'guest': { $environment = 'nowhere' }
  default: { if $agent_environment =~ String[1] { $environment = $agent_environment } }
}
`;

describe('environments.pp decides the environment of every command', () => {
    const confdir = writeEnv({
        'environments.pp': ENVIRONMENTS_PP,
        'main/manifests/site.pp': "notify { \"main ${environment}\": message => lookup('where') }\n",
        'main/data/common.yaml': 'where: main data\n',
        'main/hiera.yaml': 'version: 5\n',
        'environments/db/manifests/site.pp': "notify { \"db ${environment}\": message => lookup('where') }\n",
        'environments/db/data/common.yaml': 'where: db data\n',
        'environments/db/hiera.yaml': 'version: 5\n',
        'db.json': '{"role": "db1"}',
        'guest.json': '{"role": "guest"}',
        'web.json': '{"role": "web"}'
    });
    const facts = (f: string): string[] => ['--facts', join(confdir, `${f}.json`)];

    test.each<[string, string[], string, string]>([
        ['a fact picks the dynamic environment', facts('db'), 'db db', 'db data'],
        ['the agent cannot leave it (environments.pp ignores it for db roles)', [...facts('db'), '--environment', 'production'], 'db db', 'db data'],
        ["nothing chosen: the static production's envdir", facts('web'), 'main production', 'main data'],
        ["environments.pp passes the agent's choice on", [...facts('web'), '--environment', 'db'], 'db db', 'db data']
    ])('compile: %s', async (_name, args, title, message) => {
        const r = await runCli('compile', confdir, '--node', 'n1.example.com', ...args, '--format', 'puppet', '--no-bindings');
        expect([r.code, r.err]).toEqual([0, '']);
        const catalog = JSON.parse(r.out) as Catalog & { resources: Array<{ type: string; title: string; parameters?: { message?: string } }> };
        expect(catalog.resources.filter(x => x.type === 'Notify').map(x => [x.title, x.parameters?.message])).toEqual([[title, message]]);
    });

    test('lookup answers from the chosen environment', async () => {
        const r = await runCli('lookup', confdir, 'where', '--node', 'n1.example.com', ...facts('db'));
        expect([r.code, r.out, r.err]).toEqual([0, '"db data"\n', '']);
    });

    test('bindings and effective --confdir: the request is served in the chosen environment', async () => {
        const b = await runCli('bindings', confdir, '--node', 'n1.example.com', ...facts('db'), '--no-hiera');
        expect([b.code, b.err]).toEqual([0, '']);
        const file = join(writeEnv({ 'b.json': b.out }), 'b.json');
        const e = await runCli('effective', file, '--node', 'n1.example.com', ...facts('db'), '--environment', 'production', '--confdir', confdir);
        expect([e.code, e.err]).toEqual([0, '']);
        expect((JSON.parse(e.out) as { request: { environment: string } }).request.environment).toBe('db');
        const asked = await runCli('effective', file, '--node', 'n1.example.com', ...facts('db'), '--environment', 'production');
        expect((JSON.parse(asked.out) as { request: { environment: string } }).request.environment).toBe('production');
    });

    test.each([['compile'], ['lookup'], ['bindings']])('%s: an unknown environment is one located line, nothing on stdout', async command => {
        const args = command === 'lookup' ? [confdir, 'where'] : [confdir];
        const r = await runCli(command, ...args, '--node', 'n1.example.com', ...facts('guest'));
        expect([r.code, r.out]).toEqual([1, '']);
        expect(r.err).toBe(`${join(confdir, 'environments.pp')}:7:27: error BIND_UNKNOWN_ENVIRONMENT: unknown environment 'nowhere'\n`);
    });
});
