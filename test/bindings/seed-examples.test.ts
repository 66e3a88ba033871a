import { describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { writeEnv } from './hiera/fixture.js';

/**
 * Every combinator, multibind, producer and inject example of ARM-8 (the seed), named after the
 * seed's sections, run from `modelc lookup` and from `modelc compile --bindings` (through
 * `inject()` in a manifest). Where the seed's own text is wrong it is run as written too, with
 * the error it gives (see docs/bindings.md, "Seed examples that do not run as written").
 */
interface SeedCase {
    readonly section: string;
    readonly bindings: string;
    readonly key: string;
    readonly expected?: unknown;
    /** The error code when the example fails (lookup and compile). */
    readonly error?: string;
    /** Extra files (module bindings, facts). */
    readonly files?: Record<string, string>;
}

const b = (body: string): string => `bindings default {\n${body}\n}\n`;

const CASES: readonly SeedCase[] = [
    {
        section: 'Multibind Array Combinator Option', key: 'flattened-data', expected: [1, 2, 3, 4, 5, 6],
        bindings: b(`  multibind Array[Data], 'flattened-data' AS 'example' {
    combinator => |$memo, $x| { $memo + flatten($x) }
  }
  bind to [1,2,[3]] in 'example'
  bind to [4,[[5,6]]] in 'example'`)
    },
    {
        section: 'Multibind Hash Combinator Option (condition corrected)', key: 'merged-hash',
        expected: { fruits: ['apple', 'orange', 'pear', 'mango'], berries: ['strawberry', 'blueberry'] },
        bindings: b(`  multibind Hash[Data], 'merged-hash' AS 'example' {
    combinator => | $key, $current, $value| {
      unless $current
        { $value }
      else
        { $current + $value }
    }
  }
  bind 'fruits' to ['apple', 'orange'] in 'example'
  bind 'fruits' to ['pear', 'mango'] in 'example'
  bind 'berries' to ['strawberry', 'blueberry'] in 'example'`)
    },
    {
        section: 'Multibind Hash Combinator Option (as the seed writes it)', key: 'merged-hash', error: 'INJECT_EVALUATION_FAILED',
        bindings: b(`  multibind Hash[Data], 'merged-hash' AS 'example' {
    combinator => | $key, $current, $value| {
      unless !$current
        { $value }
      else
        { $current + $value }
    }
  }
  bind 'fruits' to ['apple', 'orange'] in 'example'`)
    },
    {
        section: 'Multibind combinator: ignore (first contribution wins)', key: 'h', expected: { a: 1, b: 3 },
        bindings: b(`  multibind Hash[Data], 'h' { combinator => |$k, $current, $value| { if $current == undef { $value } else { $current } } }
  bind 'a' to 1 in 'h'
  bind 'a' to 2 in 'h'
  bind 'b' to 3 in 'h'`)
    },
    {
        section: 'Multibind combinator: append and uniq', key: 'u', expected: ['x', 'y', 'z'],
        bindings: b(`  multibind Array[String], 'u' { combinator => |$memo, $x| { unique($memo + $x) } }
  bind to ['x', 'y'] in 'u'
  bind to ['y', 'z'] in 'u'`)
    },
    {
        section: 'Multi-binding (Array)', key: 'names', expected: ['Mary', 'John'],
        bindings: b(`  multibind Array[String], "names" AS "mymodule::list-of-names"
  bind to 'Mary' in 'mymodule::list-of-names'
  bind to 'John' in 'mymodule::list-of-names'`)
    },
    {
        section: 'Multi-binding (Hash[Data])', key: 'names-with-data', expected: { Mary: 'engineering', John: 'support', Fred: ['support', 'sales'] },
        bindings: b(`  multibind Hash[Data], 'names-with-data' AS 'mymodule::names-with-data'
  bind 'Mary' to 'engineering' in 'mymodule::names-with-data'
  bind 'John' to 'support' in 'mymodule::names-with-data'
  bind 'Fred' to ['support', 'sales'] in 'mymodule::names-with-data'`)
    },
    {
        section: 'Multi-binding: without AS the id is the name', key: 'users', expected: ['anna', 'bob'],
        bindings: b(`  multibind Array[String], 'users'
  bind to 'anna' in 'users'
  bind to 'bob' in 'users'`)
    },
    {
        section: 'Array Multibind Example', key: 'users', expected: ['anna', 'akuna', 'ries'],
        bindings: b(`  multibind Array[String], 'users' AS 'included_users'
  bind to 'anna' in 'included_users'
  bind to ['akuna', 'ries'] in 'included_users'`)
    },
    {
        section: 'Multibinding Rules: a Hash multibinding requires named fragments', key: 'h', error: 'VALIDATE_HASH_MULTIBIND_UNNAMED_FRAGMENT',
        bindings: b(`  multibind Hash[Data], 'h'
  bind to 1 in 'h'`)
    },
    {
        section: 'Multibinding Rules: Hash names are unique', key: 'h', error: 'INJECT_DUPLICATE_HASH_KEY',
        bindings: b(`  multibind Hash[Data], 'h'
  bind 'a' to 1 in 'h'
  bind 'a' to 2 in 'h'`)
    },
    {
        section: 'Overriding Multibindings', key: 'syntax', expected: {},
        bindings: b(`  multibind override Hash[Data], 'syntax'`),
        files: {
            'modules/validators/bindings/default.pp': `bindings validators::default {
  multibind Hash[Data], 'syntax' AS 'syntax-validators'
  bind "xml" to 'xmllint' IN 'syntax-validators'
}\n`
        }
    },
    {
        section: 'Producer (ConstantProducer with producer_args)', key: 'the meaning of life', expected: 42,
        bindings: b(`  bind "the meaning of life" to producer Type[ConstantProducer] {
    producer_args => { 'value' => 42 },
    singleton     => true
  }`)
    },
    {
        section: 'Producer: a producer bound by name', key: 'request-id', expected: 1,
        bindings: b(`  bind Type[Producer[Integer]], "mymodule::seq" to Type[SequenceProducer]
  bind Integer, "request-id" to producer "mymodule::seq"`)
    },
    {
        section: 'Optional Producer: nothing produced falls through', key: 'color', expected: 'blue',
        bindings: b(`  bind 'color' to 'blue'
  when node 'n1.example.com' {
    bind 'color' to optional $facts['favorite_color']
  }`)
    },
    {
        section: 'Optional Producer: a value produced wins', key: 'color', expected: 'green',
        bindings: b(`  bind 'color' to 'blue'
  when node 'n1.example.com' {
    bind 'color' to optional $facts['favorite_color']
  }`),
        files: { 'facts.yaml': 'fqdn: n1.example.com\nfavorite_color: green\n' }
    },
    {
        section: 'Producer: undef without optional is an error', key: 'color', error: 'INJECT_PRODUCED_UNDEF',
        bindings: b(`  bind 'color' to $facts['favorite_color']`)
    },
    {
        section: 'Producer: an evaluated producer (any Puppet expression)', key: 'doubled', expected: [2, 4, 6],
        bindings: b(`  bind 'doubled' to [1, 2, 3].map |$x| { $x * 2 }`)
    },
    {
        section: 'Handling Multiple Query Results: no query service', key: 'db', error: 'INJECT_NO_QUERY_SERVICE',
        bindings: b(`  bind 'db' to Sql[?? name == one]`)
    }
];

function envFor(c: SeedCase, manifest: string): string {
    return writeEnv({
        'bindings/default.pp': c.bindings,
        'manifests/site.pp': manifest,
        'facts.yaml': 'fqdn: n1.example.com\n',
        ...c.files
    });
}

/** A manifest printing the injected value of `key` as a notify message. */
const injecting = (key: string): string => `notify { 'injected': message => inject('${key.replace(/'/g, "\\'")}') }\n`;

describe('ARM-8 seed examples through modelc lookup', () => {
    test.each(CASES.map(c => [c.section, c] as const))('%s', async (_name, c) => {
        const env = envFor(c, '');
        const r = await runCli('lookup', env, c.key, '--node', 'n1.example.com');
        if (c.error !== undefined) {
            expect(r.code).toBe(1);
            expect(r.err).toContain(c.error);
            expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
            return;
        }
        // Warnings (a contribution no multibind collects) are allowed; errors are not.
        expect([r.code, r.err.includes(' error ') || r.err.startsWith('Error')]).toEqual([0, false]);
        expect(JSON.parse(r.out)).toEqual(c.expected);
    });
});

describe('ARM-8 seed examples through modelc compile --bindings (inject() in a manifest)', () => {
    test.each(CASES.map(c => [c.section, c] as const))('%s', async (_name, c) => {
        const env = envFor(c, injecting(c.key));
        const r = await runCli('compile', env, '--node', 'n1.example.com', '--format', 'puppet');
        if (c.error !== undefined) {
            expect(r.code).toBe(1);
            expect(r.err).toContain(c.error);
            expect(r.out).toBe('');
            return;
        }
        expect([r.code, r.err.includes(' error ') || r.err.startsWith('Error')]).toEqual([0, false]);
        const catalog = JSON.parse(r.out) as { resources: Array<{ type: string; title: string; parameters?: Record<string, unknown> }> };
        const notify = catalog.resources.find(x => x.type === 'Notify' && x.title === 'injected');
        expect(notify?.parameters?.message ?? {}).toEqual(c.expected);
    });
});

describe('ARM-8 Puppet Functions: inject() with a lambda, singleton and lazy producers', () => {
    const env = writeEnv({
        'bindings/default.pp': b(`  bind 'seq' to producer Type[SequenceProducer]
  bind 'fresh' to producer Type[SequenceProducer] { singleton => false }
  bind 'users' to ['anna', 'bob']`),
        'manifests/site.pp': `notify { 'a': message => inject('users') |$u| { $u.join(',') } }
notify { 'b': message => inject('nothing bound') |$v| { "got '\${v}'" } }
notify { 's1': message => inject('seq') }
notify { 's2': message => inject('seq') }
notify { 'f1': message => inject('fresh') }
notify { 'f2': message => inject('fresh') }
`
    });
    test.each<[string, unknown]>([
        ['a', 'anna,bob'],
        ['b', "got ''"],
        // A singleton producer binding keeps its producer: the series continues.
        ['s1', 1], ['s2', 2],
        // singleton => false: a new producer per injection.
        ['f1', 1], ['f2', 1]
    ])('notify %s', async (title, message) => {
        const r = await runCli('compile', env, '--node', 'n1.example.com', '--format', 'puppet');
        expect([r.code, r.err]).toEqual([0, '']);
        const catalog = JSON.parse(r.out) as { resources: Array<{ type: string; title: string; parameters?: Record<string, unknown> }> };
        expect(catalog.resources.find(x => x.type === 'Notify' && x.title === title)?.parameters?.message).toEqual(message);
    });
});
