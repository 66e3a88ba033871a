import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "Producer", "Optional Producer", "Query Result Producer", "Binding the Result of a Query"
 * and "Handling Multiple Query Results", each statement through the CLI. Queries read the
 * catalogs other nodes stored (`modelc compile --store`), as they would on a Puppet server.
 */
const UUID = /^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"\n$/;

const PRODUCERS: readonly SeedCase[] = [
    {
        section: 'Producer', rule: 'bind x to 42 is a ConstantProducer with producer_args value',
        files: { 'bindings/default.pp': b(`  bind "the meaning of life" to producer Type[ConstantProducer] {\n    producer_args => { 'value' => 42 },\n    singleton => true\n  }`) },
        key: 'the meaning of life', expect: 42
    },
    {
        section: 'Producer', rule: 'a producer registered by name in producers, bound type safely (the seed\'s UUID example)',
        files: { 'bindings/default.pp': b(`  bind Type[Producer[String]], "mymodule::uuid" to Type[UuidProducer] in "producers"\n  bind String, "request-id" to producer "mymodule::uuid"`) },
        key: 'request-id', check: r => expect(r.out).toMatch(UUID)
    },
    {
        section: 'Producer', rule: 'a producer registered by a typed name',
        files: { 'bindings/default.pp': b(`  bind Type[Producer[String]], "mymodule::uuid" to Type[UuidProducer]\n  bind String, "request-id" to producer "mymodule::uuid"`) },
        key: 'request-id', check: r => expect(r.out).toMatch(UUID)
    },
    {
        section: 'Producer', rule: 'a registered producer of another type is an error when the injector is created',
        files: { 'bindings/default.pp': b(`  bind Type[Producer[String]], "mymodule::uuid" to Type[UuidProducer] in "producers"\n  bind Integer, "request-id" to producer "mymodule::uuid"\n  bind 'other' to 1`) },
        key: 'other', error: { code: 'INJECT_REGISTERED_PRODUCER_TYPE', at: 'bindings/default.pp:3' }
    },
    {
        section: 'Producer', rule: 'the producer class bound directly (type problem detected when it produces)',
        files: { 'bindings/default.pp': b(`  bind String, "request-id" to producer Type[UuidProducer]\n  bind Integer, "wrong" to producer Type[UuidProducer]`), 'manifests/site.pp': notifies({ a: "inject('request-id') =~ /^[0-9a-f-]{36}$/" }) },
        run: 'compile', expect: { a: true }
    },
    {
        section: 'Producer', rule: 'a producer producing the wrong type fails when it produces',
        files: { 'bindings/default.pp': b(`  bind Integer, "wrong" to producer Type[UuidProducer]`) },
        key: 'wrong', error: { code: 'INJECT_PRODUCER_TYPE', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Summary of Binding Options', rule: 'producer_args are handed to the producer\'s constructor',
        files: { 'bindings/default.pp': b(`  bind 'seq' to producer Type[SequenceProducer] { producer_args => { start => 10, step => 5 } }`), 'manifests/site.pp': notifies({ a: "inject('seq')", b: "inject('seq')" }) },
        run: 'compile', expect: { a: 10, b: 15 }
    },
    {
        section: 'Puppet Functions', rule: 'inject(name, hash) passes the hash to the producer (over producer_args)',
        files: { 'bindings/default.pp': b(`  bind 'seq' to producer Type[SequenceProducer] { producer_args => { start => 10, step => 5 } }\n  bind 'plain' to 7`), 'manifests/site.pp': notifies({ a: "inject('seq', { start => 100 })", b: "inject(Integer, 'seq', { step => 50 })", c: "inject('seq')", d: "inject('plain', { start => 1 })" }) },
        run: 'compile', expect: { a: 100, b: 10, c: 10, d: 7 }
    },
    {
        section: 'Puppet Functions', rule: 'inject() with too many arguments is an error',
        files: { 'bindings/default.pp': b(`  bind 'x' to 1`), 'manifests/site.pp': notifies({ a: "inject('x', 'y', 'z')" }) },
        run: 'compile', error: { code: 'EVAL_RUNTIME', at: 'manifests/site.pp:1' }
    },
    {
        section: 'Producer', rule: 'singleton => false makes a new producer per injection',
        files: { 'bindings/default.pp': b(`  bind 'seq' to producer Type[SequenceProducer] { producer_args => { start => 10 }, singleton => false }`), 'manifests/site.pp': notifies({ a: "inject('seq')", b: "inject('seq')" }) },
        run: 'compile', expect: { a: 10, b: 10 }
    },
    {
        section: 'Producer', rule: 'an unknown producer class is an error at its binding',
        files: { 'bindings/default.pp': b(`  bind 'x' to producer Type[NoSuchProducer]`) },
        key: 'x', error: { code: 'INJECT_CLASS_NOT_FOUND', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Producer', rule: 'producers are lazy: a failing producer nobody asks for does not fail',
        files: { 'bindings/default.pp': b(`  bind 'bad' to producer Type[NoSuchProducer]\n  bind 'worse' to $facts['nothing'] + 1\n  bind 'good' to 1`), 'manifests/site.pp': notifies({ g: "inject('good')" }) },
        run: 'compile', expect: { g: 1 }
    },
    {
        section: 'Producer', rule: 'an evaluated producer sees the facts',
        files: { 'facts.yaml': 'fqdn: n1.example.com\nprocessorcount: 4\n', 'bindings/default.pp': b(`  bind 'workers' to $facts['processorcount'] * 2`) },
        key: 'workers', expect: 8
    },
    {
        section: 'Optional Producer', rule: 'a producer must produce a value (undef is an error)',
        files: { 'bindings/default.pp': b(`  bind 'color' to $facts['favorite_color']`) },
        key: 'color', error: { code: 'INJECT_PRODUCED_UNDEF', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Optional Producer', rule: 'to optional: a producer that produces nothing is ignored',
        files: { 'bindings/default.pp': b(`  bind 'color' to 'blue'\n  when node 'n1.example.com' { bind 'color' to optional $facts['favorite_color'] }`) },
        key: 'color', expect: 'blue'
    },
    {
        section: 'Optional Producer', rule: 'to optional with nothing else bound leaves the key unbound',
        files: { 'bindings/default.pp': b(`  bind 'color' to optional $facts['favorite_color']`), 'manifests/site.pp': notifies({ c: "String(optionally_inject('color'))" }) },
        run: 'compile', expect: { c: '' }
    }
];

/** Node a.example.com stores a catalog with Sql resources (one exported); the case then runs for n1. */
const STORE_SITE = `define sql($user, $password = 'pw', $port = 5432, $tags_list = []) { }
define web($dbuser = 'none', $port = 80) { notify { "web \${title}": message => "\${dbuser} \${port}" } }
node 'a.example.com' {
  sql { 'one': user => 'app', port => 5433, tags_list => ['db', 'primary'] }
  @@sql { 'two': user => 'report', port => 6000 }
  sql { 'three': user => 'backup', port => 5000 }
}
node default { }
`;
const STORE = ['--store', 'sqlite:{dir}/var/store.sqlite'];
const A_STORES = [['compile', '{dir}', '--node', 'a.example.com', ...STORE]] as const;
const query = (q: string, extra = ''): Record<string, string> => ({
    'manifests/site.pp': STORE_SITE,
    'bindings/default.pp': b(`  bind 'q' to Sql[?? ${q}] { select_result => |$rs| { $rs.map |$r| { $r['user'] }.sort } }${extra}`)
});

const QUERIES: readonly SeedCase[] = [
    {
        section: 'Binding the Result of a Query', rule: 'bind to Type[?? query]: one result is unfolded (its parameters)',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to Sql[?? name == one]`) },
        before: A_STORES, args: STORE, key: 'db', check: r => expect(JSON.parse(r.out)).toMatchObject({ user: 'app', port: 5433 })
    },
    {
        section: 'Binding the Result of a Query', rule: 'bind parameters Web[one] to Sql[?? name == one]: the mapped parameters',
        files: { 'manifests/site.pp': `${STORE_SITE}node 'n1.example.com' { web { 'one': } }\n`, 'bindings/default.pp': b(`  bind parameters Web[one] to Sql[?? name == one] { map => { dbuser => user } }`) },
        // The map names the parameters to bind: port is not among them.
        before: A_STORES, run: 'compile', args: STORE, expect: { 'web one': 'app 80' }
    },
    {
        section: 'Handling Multiple Query Results', rule: 'no result is an error',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to Sql[?? name == nothing]`) },
        before: A_STORES, args: STORE, key: 'db', error: { code: 'INJECT_QUERY_RESULT_COUNT', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Handling Multiple Query Results', rule: 'more than one result is an error',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to Sql[?? port > 5000]`) },
        before: A_STORES, args: STORE, key: 'db', error: { code: 'INJECT_QUERY_RESULT_COUNT', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Handling Multiple Query Results', rule: 'select_result picks from the results',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to Sql[?? port >= 5000] { select_result => |$rs| { $rs.map |$r| { $r['port'] }.max } }`) },
        before: A_STORES, args: STORE, key: 'db', expect: 6000
    },
    {
        section: 'Optional Producer', rule: 'to optional Type[?? query] with no result is ignored',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to 'fallback'\n  when node 'n1.example.com' { bind 'db' to optional Sql[?? name == nothing] }`) },
        before: A_STORES, args: STORE, key: 'db', expect: 'fallback'
    },
    { section: 'Query Result Producer', rule: 'operator ==', files: query('user == app'), before: A_STORES, args: STORE, key: 'q', expect: ['app'] },
    { section: 'Query Result Producer', rule: 'operator !=', files: query('user != app'), before: A_STORES, args: STORE, key: 'q', expect: ['backup', 'report'] },
    { section: 'Query Result Producer', rule: 'operator <', files: query('port < 5433'), before: A_STORES, args: STORE, key: 'q', expect: ['backup'] },
    { section: 'Query Result Producer', rule: 'operator >', files: query('port > 5433'), before: A_STORES, args: STORE, key: 'q', expect: ['report'] },
    { section: 'Query Result Producer', rule: 'operator <=', files: query('port <= 5433'), before: A_STORES, args: STORE, key: 'q', expect: ['app', 'backup'] },
    { section: 'Query Result Producer', rule: 'operator >=', files: query('port >= 5433'), before: A_STORES, args: STORE, key: 'q', expect: ['app', 'report'] },
    { section: 'Query Result Producer', rule: 'operator ~= (matches)', files: query('user ~= /^(app|backup)$/'), before: A_STORES, args: STORE, key: 'q', expect: ['app', 'backup'] },
    { section: 'Query Result Producer', rule: 'operator ~! (does not match)', files: query('user ~! /^a/'), before: A_STORES, args: STORE, key: 'q', expect: ['backup', 'report'] },
    { section: 'Query Result Producer', rule: 'and', files: query('port > 5000 and user != report'), before: A_STORES, args: STORE, key: 'q', expect: ['app'] },
    { section: 'Query Result Producer', rule: 'or', files: query('user == app or name == three'), before: A_STORES, args: STORE, key: 'q', expect: ['app', 'backup'] },
    { section: 'Query Result Producer', rule: 'not', files: query('not user == app'), before: A_STORES, args: STORE, key: 'q', expect: ['backup', 'report'] },
    { section: 'Query Result Producer', rule: 'an array parameter matches an element', files: query("tags_list == primary"), before: A_STORES, args: STORE, key: 'q', expect: ['app'] },
    {
        section: 'Query Result Producer', rule: 'in a manifest, Type[?? query] is always an array of resources',
        files: { 'manifests/site.pp': `${STORE_SITE.replace('node default { }', '')}node default { notify { 'r': message => Sql[?? port > 5000].map |$r| { "\${r['node']}:\${r['title']}" } } }\n` },
        before: A_STORES, run: 'compile', args: STORE, expect: { r: ['a.example.com:one', 'a.example.com:two'] }
    },
    {
        section: 'Binding the Result of a Query', rule: 'the result never includes the catalog under compilation',
        files: { 'manifests/site.pp': `${STORE_SITE.replace('node default { }', '')}node default { notify { 'r': message => Sql[?? port > 0].length } }\n`, 'bindings/default.pp': b(`  bind 'mine' to optional Sql[?? user == app]`) },
        before: A_STORES, node: 'a.example.com', run: 'compile', args: STORE,
        check: (_r, cat) => expect(cat?.resources.find(x => x.type === 'Sql' && x.title === 'one')).toBeDefined()
    },
    {
        section: 'Binding the Result of a Query', rule: 'the own node\'s stored catalog is not read either',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'mine' to 'none'\n  when node 'a.example.com' { bind 'mine' to optional Sql[?? user == app] }`) },
        before: A_STORES, node: 'a.example.com', args: STORE, key: 'mine', expect: 'none'
    },
    {
        section: 'Binding the Result of a Query', rule: 'a query is answered by a bound service: without a store it is an error',
        files: { 'bindings/default.pp': b(`  bind 'db' to Sql[?? name == one]`) },
        key: 'db', error: { code: 'INJECT_NO_QUERY_SERVICE', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Query Result Producer', rule: 'a query of an unknown attribute is an error',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to Sql[?? colour == red]`) },
        before: A_STORES, args: STORE, key: 'db', error: { code: 'QUERY_UNKNOWN_ATTRIBUTE', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Query Result Producer', rule: 'a query of an unknown type is an error',
        files: { 'manifests/site.pp': STORE_SITE, 'bindings/default.pp': b(`  bind 'db' to Nope[?? name == x]`) },
        before: A_STORES, args: STORE, key: 'db', error: { code: 'QUERY_UNKNOWN_TYPE', at: 'bindings/default.pp:2' }
    }
];

describe('ARM-8 Producers and Queries (seed statements through the CLI)', () => {
    test.each(named([...PRODUCERS, ...QUERIES]))('%s', async (_n, c) => check(c));
});
