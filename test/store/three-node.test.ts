import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { writeEnv } from '../bindings/hiera/fixture.js';

/**
 * Three nodes sharing one catalog store: A exports `@@host`, `@@nagios_service` and a `Sql`
 * resource, C exports a host and a service, B collects with `<<| |>>` and binds
 * `Web[one]`'s parameters `to Sql[?? name == one]`. Expected values follow Puppet's exported
 * resource semantics with storeconfigs (other nodes' exports come from the store with
 * exported = false; the node's own stored catalog is never read) and ARM-8's query rules.
 */
const SITE = `define host($ip, $host_aliases = []) { }
define nagios_service($check_command, $host_name, $service_description = $title) { }
define sql($user, $password, $port = 5432) { }
define web($dbuser = 'nobody', $dbpassword = undef, $port = 80) {
  notify { "web \${title}": message => "\${dbuser}:\${dbpassword}@\${port}" }
}
node 'a.example.com' {
  @@host { 'a.example.com': ip => '10.0.0.1', host_aliases => ['a'] }
  @@nagios_service { 'check_ssh_a': check_command => 'check_ssh', host_name => 'a.example.com' }
  @@sql { 'one': user => 'app', password => 's3cret', port => 5433 }
  sql { 'local': user => 'x', password => 'y' }
  Host <<| |>>
  $mine = Sql[?? name == one]
  notify { 'own query': message => "\${mine.length}" }
}
node 'c.example.com' {
  @@host { 'c.example.com': ip => '10.0.0.3' }
  @@nagios_service { 'check_ssh_c': check_command => 'check_ssh', host_name => 'c.example.com' }
}
node 'b.example.com' {
  Host <<| |>>
  Nagios_service <<| host_name == 'a.example.com' |>>
  web { 'one': }
  $dbs = Sql[?? port > 5000]
  notify { 'dbs': message => $dbs.map |$d| { "\${d['node']}:\${d['title']}" } }
}
`;

const BINDINGS = `bindings default {
  bind parameters Web[one] to Sql[?? name == one] {
    map => { dbuser => user, dbpassword => password }
  }
  bind dependency Notify['dbs'] -> Notify['web one']
  bind 'db port' to Sql[?? user == app] { select_result => |$rs| { $rs.map |$r| { $r['port'] }.max } }
  bind 'two dbs' to Sql[?? user ~= /^(app|x)$/]
  bind 'no db' to Sql[?? name == nothing]
  bind 'maybe db' to optional Sql[?? name == nothing]
  bind 'bad attribute' to Sql[?? colour == red]
  bind 'bad type' to Nope[?? name == x]
}
`;

interface Resource { readonly type: string; readonly title: string; readonly exported: boolean; readonly parameters?: Record<string, unknown> }

describe('three nodes, one SQLite store', () => {
    const env = writeEnv({ 'manifests/site.pp': SITE, 'bindings/default.pp': BINDINGS });
    const store = `sqlite:${join(env, 'var', 'three.sqlite')}`;
    const compile = (n: string): ReturnType<typeof runCli> => runCli('compile', env, '--node', `${n}.example.com`, '--store', store, '--format', 'puppet');
    let b: Resource[] = [];
    let a: Resource[] = [];

    beforeAll(async () => {
        for (const n of ['a', 'c']) {
            const r = await compile(n);
            expect([r.code, r.err]).toEqual([0, '']);
        }
        const rb = await compile('b');
        expect([rb.code, rb.err]).toEqual([0, '']);
        b = (JSON.parse(rb.out) as { resources: Resource[] }).resources;
        const ra = await compile('a');
        expect([ra.code, ra.err]).toEqual([0, '']);
        a = (JSON.parse(ra.out) as { resources: Resource[] }).resources;
    });

    const find = (list: Resource[], type: string, title: string): Resource | undefined => list.find(r => r.type === type && r.title === title);

    test.each<[string, string, unknown]>([
        ['Host', 'a.example.com', { exported: false, parameters: { ip: '10.0.0.1', host_aliases: ['a'] } }],
        ['Host', 'c.example.com', { exported: false, parameters: { ip: '10.0.0.3', host_aliases: [] } }],
        ['Nagios_service', 'check_ssh_a', { exported: false, parameters: { check_command: 'check_ssh', host_name: 'a.example.com', service_description: 'check_ssh_a' } }],
        ['Web', 'one', { parameters: { dbuser: 'app', dbpassword: 's3cret', port: 80 } }],
        ['Notify', 'web one', { parameters: { message: 'app:s3cret@80' } }],
        ['Notify', 'dbs', { parameters: { message: ['a.example.com:local', 'a.example.com:one'], before: ['Notify[web one]'] } }]
    ])('B has %s[%s]', (type, title, expected) => {
        expect(find(b, type, title)).toMatchObject(expected as object);
    });

    test("B collects only A's service (the collector's query), nothing of its own", () => {
        expect(find(b, 'Nagios_service', 'check_ssh_c')).toBeUndefined();
        expect(b.filter(r => r.exported)).toEqual([]);
    });

    test("A's own exports come from its compile (exported stays true), the others' from the store; its own stored catalog is never queried", () => {
        expect(find(a, 'Host', 'a.example.com')).toMatchObject({ exported: true });
        expect(find(a, 'Host', 'c.example.com')).toMatchObject({ exported: false });
        expect(find(a, 'Notify', 'own query')?.parameters?.message).toBe('0');
    });

    test.each<[string, string[], string]>([
        ['/param/Web[one]/dbuser', [], '"app"\n'],
        ['db port', [], '5433\n'],
        ['maybe db', [], 'ERROR INJECT_NOT_FOUND'],
        ['two dbs', [], 'ERROR INJECT_QUERY_RESULT_COUNT'],
        ['no db', [], 'ERROR INJECT_QUERY_RESULT_COUNT'],
        ['bad attribute', [], 'ERROR QUERY_UNKNOWN_ATTRIBUTE'],
        ['bad type', [], 'ERROR QUERY_UNKNOWN_TYPE']
    ])('modelc lookup %s --store (from B)', async (key, extra, expected) => {
        const r = await runCli('lookup', env, key, '--node', 'b.example.com', '--store', store, ...extra);
        if (expected.startsWith('ERROR ')) {
            expect(r.code).toBe(1);
            expect(r.err).toContain(expected.slice(6));
            expect(r.err).not.toMatch(/\n\s+at /);
        } else {
            expect([r.code, r.out, r.err]).toEqual([0, expected, '']);
        }
    });

    test('without a store a query in a manifest is a located error', async () => {
        const r = await runCli('compile', env, '--node', 'b.example.com', '--format', 'puppet');
        expect([r.code, r.out]).toEqual([1, '']);
        expect(r.err).toMatch(/manifests\/site\.pp:\d+(:\d+)?: error STORE_NOT_CONFIGURED:/);
    });
});
