import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "Multi-binding" (overriding, combinators, rules) and "Binding Classes", each statement
 * through the CLI. The seed's own examples run in test/bindings/seed-examples.test.ts.
 */
const MODULE = (name: string, body: string): Record<string, string> => ({ [`modules/${name}/bindings/default.pp`]: `bindings ${name}::default {\n${body}\n}\n` });

const MULTIBIND: readonly SeedCase[] = [
    {
        section: 'Multi-binding', rule: 'the bound type must be an Array or a Hash',
        files: { 'bindings/default.pp': b(`  multibind String, 'x'\n  bind to 'a' in 'x'`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2:13', message: /VALIDATE_MULTIBIND_TYPE/ }
    },
    {
        section: 'Multi-binding', rule: 'fragments need neither type nor name (bind to VALUE in ID)',
        files: { 'bindings/default.pp': b(`  multibind Array[String], "names" AS "mymodule::list-of-names"\n  bind to 'Mary' in 'mymodule::list-of-names'\n  bind String to 'John' in 'mymodule::list-of-names'`) },
        key: 'names', expect: ['Mary', 'John']
    },
    {
        section: 'Multi-binding', rule: 'the result is injected by the multibind\'s name, not its id',
        files: { 'bindings/default.pp': b(`  multibind Array[String], 'users' as 'included_users'\n  bind to 'anna' in 'included_users'`), 'manifests/site.pp': notifies({ u: "inject('users')", i: "String(optionally_inject('included_users'))" }) },
        run: 'compile', expect: { u: ['anna'], i: '' }
    },
    {
        section: 'Multi-binding', rule: 'a fragment of the wrong element type is an error at the fragment',
        files: { 'bindings/default.pp': b(`  multibind Array[String], 'users'\n  bind to 'anna' in 'users'\n  bind to 42 in 'users'`) },
        key: 'users', error: { code: 'INJECT_ARRAY_CONTRIBUTION_TYPE', at: 'bindings/default.pp:4' }
    },
    {
        section: 'Multi-binding', rule: 'a Hash fragment value of the wrong type is an error at the fragment',
        files: { 'bindings/default.pp': b(`  multibind Hash[Integer], 'sizes'\n  bind 'a' to 1 in 'sizes'\n  bind 'b' to 'big' in 'sizes'`) },
        key: 'sizes', error: { code: 'INJECT_HASH_VALUE_TYPE', at: 'bindings/default.pp:4' }
    },
    {
        section: 'Multi-binding', rule: 'modules contribute fragments to a multibind of another layer',
        files: { 'bindings/default.pp': b(`  multibind Array[String], 'admins'\n  bind to 'alice' in 'admins'`), ...MODULE('monitoring', `  bind to ['nagios'] in 'admins'`) },
        key: 'admins', check: r => expect((JSON.parse(r.out) as string[]).sort()).toEqual(['alice', 'nagios'])
    },
    {
        section: 'Multi-binding', rule: 'a fragment in a when that does not match is not collected',
        files: { 'bindings/default.pp': b(`  multibind Array[String], 'admins'\n  bind to 'alice' in 'admins'\n  when node 'other' { bind to 'bob' in 'admins' }\n  when node 'n1.example.com' { bind to 'carol' in 'admins' }`) },
        key: 'admins', expect: ['alice', 'carol']
    },
    {
        section: 'Overriding Multibindings', rule: 'a new multibind with the same key and id gets the same fragments',
        files: { 'bindings/default.pp': b(`  multibind override Hash[Data], 'syntax' AS 'syntax-validators'`), ...MODULE('validators', `  multibind Hash[Data], 'syntax' AS 'syntax-validators'\n  bind "xml" to 'xmllint' IN 'syntax-validators'`) },
        key: 'syntax', expect: { xml: 'xmllint' }
    },
    {
        section: 'Overriding Multibindings', rule: 'without an id, an overriding multibind collects nothing (the fragments are unused)',
        files: { 'bindings/default.pp': b(`  multibind override Hash[Data], 'syntax'`), ...MODULE('validators', `  multibind Hash[Data], 'syntax' AS 'syntax-validators'\n  bind "xml" to 'xmllint' IN 'syntax-validators'`) },
        key: 'syntax', expect: {}, warns: /modules\/validators\/bindings\/default\.pp:3:3: warning INJECT_ORPHAN_CONTRIBUTION/
    },
    {
        section: 'Overriding Multibindings', rule: 'the multibind may be overridden by a plain binding of its name',
        files: { 'bindings/default.pp': b(`  when node 'n1.example.com' { bind 'users' to ['root'] }`), ...MODULE('m', `  multibind Array[String], 'users' as 'included_users'\n  bind to 'anna' in 'included_users'`) },
        key: 'users', expect: ['root'], warns: /INJECT_ORPHAN_CONTRIBUTION/
    },
    {
        section: 'Overriding Multibindings', rule: 'the binding id must be unique across the effective bindings',
        files: { 'bindings/default.pp': b(`  multibind Array[String], 'a' as 'id'\n  multibind Array[String], 'b' as 'id'\n  bind to 'x' in 'id'`) },
        key: 'a', error: { code: 'INJECT_DUPLICATE_MULTIBIND_ID', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Multibind Array Combinator Option', rule: 'by default arrays concatenate and a non-array is appended',
        files: { 'bindings/default.pp': b(`  multibind Array[Data], 'x'\n  bind to [1, [2]] in 'x'\n  bind to 3 in 'x'`) },
        key: 'x', expect: [1, [2], 3]
    },
    {
        section: 'Multibind Array Combinator Option', rule: 'the combinator gets the combined result and the new value',
        files: { 'bindings/default.pp': b(`  multibind Array[Data], 'x' { combinator => |$memo, $x| { [$x] + $memo } }\n  bind to 1 in 'x'\n  bind to 2 in 'x'`) },
        key: 'x', expect: [2, 1]
    },
    {
        section: 'Multibind Array Combinator Option', rule: 'a combinator of the wrong arity is an error',
        files: { 'bindings/default.pp': b(`  multibind Array[Data], 'x' { combinator => |$memo| { $memo } }\n  bind to 1 in 'x'`) },
        key: 'x', error: { code: 'INJECT_COMBINATOR_ARITY', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Multibind Array Combinator Option', rule: 'an Array combinator must produce an Array',
        files: { 'bindings/default.pp': b(`  multibind Array[Data], 'x' { combinator => |$memo, $x| { 'oops' } }\n  bind to 1 in 'x'`) },
        key: 'x', error: { code: 'INJECT_COMBINATOR_RESULT', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Multibind Hash Combinator Option', rule: 'the combinator gets the key, the current value (undef first) and the new value',
        files: { 'bindings/default.pp': b(`  multibind Hash[Data], 'x' { combinator => |$key, $current, $value| { "\${key}:\${current}+\${value}" } }\n  bind 'a' to 1 in 'x'\n  bind 'a' to 2 in 'x'`) },
        key: 'x', expect: { a: 'a:a:+1+2' }
    },
    {
        section: 'Multibind Hash Combinator Option', rule: 'a failing combinator is located at the lambda',
        files: { 'bindings/default.pp': b(`  multibind Hash[Data], 'x' {\n    combinator => |$key, $current, $value| { $current + $value }\n  }\n  bind 'a' to [1] in 'x'`) },
        key: 'x', error: { code: 'INJECT_EVALUATION_FAILED', at: 'bindings/default.pp:3' }
    },
    {
        section: 'Multibinding Rules', rule: 'a Hash multibind requires named fragments',
        files: { 'bindings/default.pp': b(`  multibind Hash[Data], 'h'\n  bind to 1 in 'h'`) },
        key: 'h', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:3', message: /VALIDATE_HASH_MULTIBIND_UNNAMED_FRAGMENT/ }
    },
    {
        section: 'Multibinding Rules', rule: 'a Hash multibind in another file requires named fragments',
        files: { 'bindings/default.pp': b(`  multibind Hash[Data], 'h'`), ...MODULE('m', `  bind to 1 in 'h'`) },
        key: 'h', error: { code: 'INJECT_HASH_CONTRIBUTION_UNNAMED', at: 'modules/m/bindings/default.pp:2:3' }
    },
    {
        section: 'Multibinding Rules', rule: 'Array multibinds ignore the names of fragments',
        files: { 'bindings/default.pp': b(`  multibind Array[String], 'a'\n  bind 'n1' to 'x' in 'a'\n  bind 'n1' to 'y' in 'a'`) },
        key: 'a', expect: ['x', 'y']
    },
    {
        section: 'Multibinding Rules', rule: 'Hash fragment names must be unique (across layers too)',
        files: { 'bindings/default.pp': b(`  multibind Hash[Data], 'h'\n  bind 'k' to 1 in 'h'`), ...MODULE('m', `  bind 'k' to 2 in 'h'`) },
        key: 'h', error: { code: 'INJECT_DUPLICATE_HASH_KEY', at: 'bindings/default.pp:3' }
    },
    {
        section: 'Multibinding Rules', rule: 'a combinator resolves duplicate names',
        files: { 'bindings/default.pp': b(`  multibind Hash[Data], 'h' { combinator => |$k, $c, $v| { if $c == undef { $v } else { $c + $v } } }\n  bind 'k' to 1 in 'h'`), ...MODULE('m', `  bind 'k' to 2 in 'h'`) },
        key: 'h', expect: { k: 3 }
    },
    {
        section: 'Multi-binding', rule: 'a multibind is collected once per request (inject twice, same result)',
        files: { 'bindings/default.pp': b(`  multibind Array[Integer], 'seq'\n  bind to producer Type[SequenceProducer] in 'seq'`), 'manifests/site.pp': notifies({ a: "inject('seq')", b: "inject('seq')" }) },
        run: 'compile', expect: { a: [1], b: [1] }
    }
];

const CLASSES: readonly SeedCase[] = [
    {
        section: 'Binding Classes', rule: 'include name / include [names] declare the classes in the catalog',
        files: {
            'bindings/default.pp': b(`  include ntp\n  include [ssh, motd]`),
            'manifests/site.pp': `class ntp { notify { 'ntp': } }\nclass ssh { notify { 'ssh': } }\nclass motd { notify { 'motd': } }\n`
        },
        run: 'compile', expect: { ntp: 'ntp', ssh: 'ssh', motd: 'motd' }
    },
    {
        section: 'Binding Classes', rule: 'inject(\'/classes\') is included minus excluded',
        files: { 'bindings/default.pp': b(`  include [ntp, ssh, motd]\n  exclude [ssh]`), 'manifests/site.pp': `class ntp {}\nclass ssh {}\nclass motd {}\n${notifies({ c: "inject('/classes').sort" })}` },
        run: 'compile', expect: { c: ['motd', 'ntp'] }
    },
    {
        section: 'Binding Classes', rule: 'an excluded class is not in the catalog',
        files: { 'bindings/default.pp': b(`  include [ntp, ssh]\n  exclude ssh`), 'manifests/site.pp': `class ntp { notify { 'ntp': } }\nclass ssh { notify { 'ssh': } }\n` },
        run: 'compile', expect: { ntp: 'ntp', ssh: null }
    },
    {
        section: 'Binding Classes', rule: 'an include wins over an exclude of lower precedence',
        files: { 'bindings/default.pp': b(`  exclude ssh\n  when node 'n1.example.com' { include ssh }`) },
        key: '/classes', expect: ['ssh']
    },
    {
        section: 'Binding Classes', rule: 'an exclude of higher precedence wins over an include',
        files: { 'bindings/default.pp': b(`  include ssh\n  when node 'n1.example.com' { exclude ssh }`) },
        key: '/classes', expect: []
    },
    {
        section: 'Binding Classes', rule: 'an exclude in a higher layer wins over a module\'s include',
        files: { 'bindings/default.pp': b(`  exclude ssh`), ...MODULE('m', `  include [ssh, ntp]`) },
        key: '/classes', expect: ['ntp']
    },
    {
        section: 'Binding Classes', rule: 'exclude of a class that is not included is a no-op',
        files: { 'bindings/default.pp': b(`  include ntp\n  exclude nothing_here`) },
        key: '/classes', expect: ['ntp']
    },
    {
        section: 'Binding Classes', rule: 'include and exclude are contributions to included_classes and excluded_classes',
        files: { 'bindings/default.pp': b(`  bind to 'ntp' in 'included_classes'\n  bind to ['ssh', 'motd'] in 'included_classes'\n  bind to 'motd' in 'excluded_classes'`) },
        key: '/classes', expect: ['ntp', 'ssh']
    },
    {
        section: 'Binding Classes', rule: 'class names are qualified names, downcased, without a leading ::',
        files: { 'bindings/default.pp': b(`  include [::Profile::Base, profile::web]`) },
        key: '/classes', expect: ['profile::base', 'profile::web']
    },
    {
        section: 'Binding Classes', rule: 'an included class that does not exist is the compile\'s error',
        files: { 'bindings/default.pp': b(`  include nothere`), 'manifests/site.pp': '' },
        run: 'compile', error: { code: 'EVAL_CLASS_NOT_FOUND', at: 'bindings/default.pp:2:3' }
    }
];

describe('ARM-8 Multi-binding and Binding Classes (seed statements through the CLI)', () => {
    test.each(named([...MULTIBIND, ...CLASSES]))('%s', async (_n, c) => check(c));
});
