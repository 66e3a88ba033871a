import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "Bind Operations": abstract, override, abstract override, named, typed (named and
 * anonymous) bindings and rebinding (rebind, alias, renamed), each statement through the CLI.
 */
const SITE_OVER_MODULE = (site: string, module: string): Record<string, string> => ({
    'bindings/default.pp': b(site),
    'modules/mymod/bindings/default.pp': `bindings mymod::default {\n${module}\n}\n`
});

const ABSTRACT: readonly SeedCase[] = [
    {
        section: 'Abstract Bindings', rule: 'an abstract binding nobody overrides is an error when the injector is created (any lookup fails)',
        files: { 'bindings/default.pp': b(`  bind abstract "the meaning of life"\n  bind 'other' to 1`) },
        key: 'other', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3', message: /'Data\/the meaning of life'/ }
    },
    {
        section: 'Abstract Bindings', rule: 'a concrete binding makes it concrete (inject() gives 42)',
        files: { 'bindings/default.pp': b(`  bind abstract "the meaning of life"\n  bind "the meaning of life" to 42`), 'manifests/site.pp': notifies({ m: 'inject("the meaning of life")' }) },
        run: 'compile', expect: { m: 42 }
    },
    {
        section: 'Abstract Bindings', rule: 'a module\'s abstract binding is overridden by the site layer',
        files: SITE_OVER_MODULE(`  bind "the meaning of life" to 42`, `  bind abstract "the meaning of life"`),
        key: 'the meaning of life', expect: 42
    },
    {
        section: 'Abstract Bindings', rule: 'a concrete binding in a lower layer does not override an abstract one',
        files: SITE_OVER_MODULE(`  bind abstract "the meaning of life"`, `  bind "the meaning of life" to 42`),
        key: 'the meaning of life', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Abstract Bindings', rule: 'an abstract binding binds no value (no producer)',
        files: { 'bindings/default.pp': b(`  bind abstract "x" to 42`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2', message: /VALIDATE_BIND_ABSTRACT_PRODUCER/ }
    },
    {
        section: 'Invariants of Abstract Bindings', rule: 'parameters cannot be bound abstract',
        files: { 'bindings/default.pp': b(`  bind abstract parameters ntp`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2:8', message: /VALIDATE_BIND_ABSTRACT_PARAMETERS/ }
    },
    {
        section: 'Override Bindings', rule: 'an override that overrides nothing is an error',
        files: { 'bindings/default.pp': b(`  bind override "the meaning of life" to 42`) },
        key: 'the meaning of life', error: { code: 'INJECT_UNRESOLVED_OVERRIDE', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Override Bindings', rule: 'an override of an abstract binding (higher category) is its value',
        files: { 'bindings/default.pp': b(`  bind abstract "the meaning of life"\n  when node 'n1.example.com' { bind override "the meaning of life" to 42 }`) },
        key: 'the meaning of life', expect: 42
    },
    {
        section: 'Override Bindings', rule: 'an override of a concrete binding in a lower layer',
        files: SITE_OVER_MODULE(`  bind override "color" to 'green'`, `  bind "color" to 'blue'`),
        key: 'color', expect: 'green'
    },
    {
        section: 'Override Bindings', rule: 'a misspelled override reports both the abstract binding and the override',
        files: { 'bindings/default.pp': b(`  bind abstract "the meaning of love"\n  when node 'n1.example.com' { bind override "the meaning of life" to 42 }`) },
        key: 'the meaning of love',
        error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3' },
        check: r => expect(r.err).toMatch(/bindings\/default\.pp:3:\d+: error INJECT_UNRESOLVED_OVERRIDE/)
    },
    {
        section: 'Override Bindings', rule: 'an override at the same precedence is a conflict (Composition of Bindings)',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  bind override "x" to 2`) },
        key: 'x', error: { code: 'INJECT_CONFLICT_SAME_BINDINGS', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Combining Override and Abstract', rule: 'abstract override makes an existing binding abstract again',
        files: SITE_OVER_MODULE(`  bind abstract override "the meaning of life"`, `  bind "the meaning of life" to 43`),
        key: 'the meaning of life', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Combining Override and Abstract', rule: 'someone else then supplies the value',
        files: SITE_OVER_MODULE(`  bind abstract override "the meaning of life"\n  when node 'n1.example.com' { bind "the meaning of life" to 42 }`, `  bind "the meaning of life" to 43`),
        key: 'the meaning of life', expect: 42
    },
    {
        section: 'Combining Override and Abstract', rule: 'abstract override of nothing is an unresolved override',
        files: { 'bindings/default.pp': b(`  bind abstract override "the meaning of life"`) },
        key: 'the meaning of life', error: { code: 'INJECT_UNRESOLVED_OVERRIDE', at: 'bindings/default.pp:2:3' }
    }
];

/** `final` is not in the seed; the binder (3.5+) added it: a final binding may not be replaced. */
const FINAL: readonly SeedCase[] = [
    {
        section: 'final (binder)', rule: 'a higher layer may not replace a final binding',
        files: SITE_OVER_MODULE(`  bind 'x' to 2`, `  bind final 'x' to 1`),
        key: 'x', error: { code: 'INJECT_FINAL_OVERRIDDEN', message: /Override of final binding not allowed/ }
    },
    {
        section: 'final (binder)', rule: 'nor a higher category',
        files: { 'bindings/default.pp': b(`  bind final 'x' to 1
  when node 'n1.example.com' { bind 'x' to 2 }`) },
        key: 'x', error: { code: 'INJECT_FINAL_OVERRIDDEN_IN_LAYER' }
    },
    {
        section: 'final (binder)', rule: 'a final binding nobody replaces is its value',
        files: SITE_OVER_MODULE(`  bind 'y' to 2`, `  bind final 'x' to 1`),
        key: 'x', expect: 1
    },
    {
        section: 'final (binder)', rule: 'abstract and final exclude each other',
        files: { 'bindings/default.pp': b(`  bind abstract final 'x'`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2', message: /VALIDATE_BIND_ABSTRACT_FINAL/ }
    }
];

const NAMED: readonly SeedCase[] = [
    {
        section: 'Named Binding', rule: 'bind a literal to a human-readable name; inject() gives it',
        files: { 'bindings/default.pp': b(`  bind "main site URL for blogs" to 'http://blogs.example.org'`), 'manifests/site.pp': notifies({ u: "inject('main site URL for blogs')" }) },
        run: 'compile', expect: { u: 'http://blogs.example.org' }
    },
    {
        section: 'Named Binding', rule: 'the type is inferred: inject(String, name) is type safe',
        files: { 'bindings/default.pp': b(`  bind "main site URL for blogs" to 'http://blogs.example.org'`), 'manifests/site.pp': notifies({ u: "inject(String, 'main site URL for blogs')" }) },
        run: 'compile', expect: { u: 'http://blogs.example.org' }
    },
    {
        section: 'Named Binding', rule: 'inject(Integer, name) of a String is a type error',
        files: { 'bindings/default.pp': b(`  bind "url" to 'http://blogs.example.org'`), 'manifests/site.pp': notifies({ u: "inject(Integer, 'url')" }) },
        run: 'compile', error: { code: 'INJECT_LOOKUP_TYPE', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Named Binding', rule: 'an Integer and a String cannot be bound to the same name',
        files: { 'bindings/default.pp': b(`  bind Integer, "x" to 1\n  bind String, "x" to 'a'`) },
        key: 'x', error: { code: 'INJECT_CONFLICT_SAME_BINDINGS', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Named Binding', rule: 'inject() of an unbound name is an error',
        files: { 'bindings/default.pp': b(`  bind "x" to 1`), 'manifests/site.pp': notifies({ u: "inject('nothing')" }) },
        run: 'compile', error: { code: 'INJECT_NOT_FOUND', at: 'manifests/site.pp:1' }
    },
    {
        section: 'Named Binding', rule: 'optionally_inject() of an unbound name is undef',
        files: { 'bindings/default.pp': b(`  bind "x" to 1`), 'manifests/site.pp': notifies({ u: "String(optionally_inject('nothing'))" }) },
        run: 'compile', expect: { u: '' }
    },
    {
        section: 'Naming Scheme', rule: 'regular names should not start with a /: a warning, located',
        files: { 'bindings/default.pp': b(`  bind "/mine" to 1`), 'manifests/site.pp': notifies({ u: "inject('/mine')" }) },
        run: 'compile', expect: { u: 1 }, warns: /bindings\/default\.pp:2:\d+: warning INJECT_RESERVED_NAME|INJECT_RESERVED_NAME.*bindings\/default\.pp/
    },
    {
        section: 'Typed, Named Binding', rule: 'bind Integer, "mymodule::size" to 42',
        files: { 'bindings/default.pp': b(`  bind Integer, "mymodule::size" to 42`) },
        key: 'mymodule::size', expect: 42
    },
    {
        section: 'Typed, Named Binding', rule: 'bind Hash, "mymodule::stuff" to a hash',
        files: { 'bindings/default.pp': b(`  bind Hash, "mymodule::stuff" to {'a' => 10, 'b' => [1,2,3]}`) },
        key: 'mymodule::stuff', expect: { a: 10, b: [1, 2, 3] }
    },
    {
        section: 'Typed, Named Binding', rule: 'a value not of the declared type is an error',
        files: { 'bindings/default.pp': b(`  bind Integer, "mymodule::size" to 'big'`) },
        key: 'mymodule::size', error: { code: 'INJECT_CONSTANT_TYPE', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Typed, Named Binding', rule: 'bind abstract Array[class ntp], "ntp resources" names its type',
        files: { 'bindings/default.pp': b(`  bind abstract Array[class ntp], "ntp resources"`) },
        key: 'ntp resources', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3', message: /Array\[Class\[ntp\]\]\/ntp resources/ }
    },
    {
        section: 'Typed, Anonymous Binding', rule: 'bind class ntp to class ntp2: including ntp declares ntp2',
        files: {
            'bindings/default.pp': b(`  bind class ntp to class ntp2`),
            'manifests/site.pp': `class ntp { notify { 'ntp': } }\nclass ntp2 inherits ntp { notify { 'ntp2': } }\ninclude ntp\n`
        },
        run: 'compile', expect: { ntp: 'ntp', ntp2: 'ntp2' },
        check: (_r, cat) => expect(cat?.resources.filter(x => x.type === 'Class').map(x => x.title)).toEqual(expect.arrayContaining(['Ntp', 'Ntp2']))
    },
    {
        section: 'Typed, Anonymous Binding', rule: 'the bound class must be a subtype',
        files: {
            'bindings/default.pp': b(`  bind class ntp to class chrony`),
            'manifests/site.pp': `class ntp { }\nclass chrony { }\ninclude ntp\n`
        },
        run: 'compile', error: { code: 'INJECT_NOT_A_SUBTYPE', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Typed, Anonymous Binding', rule: 'bind MyResourceType to MyBetterResourceType: instances are made of the better type',
        files: {
            'bindings/default.pp': b(`  bind Mytype to Mybettertype`),
            'manifests/site.pp': `define mytype($x = 1) { notify { "plain \${title}": } }\ndefine mybettertype($x = 1, $y = 2) { notify { "better \${title} \${x}": } }\nmytype { 'a': x => 5 }\n`
        },
        run: 'compile', expect: { 'better a 5': 'better a 5', 'plain a': null }
    },
    {
        section: 'Typed, Anonymous Binding', rule: 'the better resource type must take every parameter of the type it replaces',
        files: {
            'bindings/default.pp': b(`  bind Mytype to Othertype`),
            'manifests/site.pp': `define mytype($x = 1) { }\ndefine othertype($y = 2) { }\nmytype { 'a': }\n`
        },
        run: 'compile', error: { code: 'INJECT_NOT_A_SUBTYPE', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Typed, Anonymous Binding', rule: 'an instance cannot change its type (File[foo] to BetterFile[foo])',
        files: { 'bindings/default.pp': b(`  bind File['foo'] to Betterfile['foo']`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2:8', message: /VALIDATE_BIND_INSTANCE_KEY/ }
    }
];

const REBINDING: readonly SeedCase[] = [
    {
        section: 'Rebinding', rule: 'rebind re-binds the key\'s producer at a higher precedence',
        files: SITE_OVER_MODULE(`  bind "the meaning of life" to 1\n  when node 'n1.example.com' { rebind "the meaning of life" }`, ''),
        key: 'the meaning of life', expect: 1
    },
    {
        section: 'Rebinding', rule: 'a rebind that is not higher is meaningless: a warning',
        files: { 'bindings/default.pp': b(`  bind "x" to 1
  rebind "x"`) },
        key: 'x', expect: 1, warns: /bindings\/default\.pp:3:3: warning INJECT_REBIND_NOT_HIGHER/
    },
    {
        section: 'Rebinding', rule: 'bind alias: the new name is bound to the original producer, the original remains',
        files: { 'bindings/default.pp': b(`  bind "the meaning of life" to 42\n  bind alias "the meaning of life" as "the meaning of love"`), 'manifests/site.pp': notifies({ a: "inject('the meaning of love')", b: "inject('the meaning of life')" }) },
        run: 'compile', expect: { a: 42, b: 42 }
    },
    {
        section: 'Rebinding', rule: 'bind renamed: the original key is erased',
        files: { 'bindings/default.pp': b(`  bind "the meaning of life" to 42\n  bind renamed "the meaning of life" as "the meaning of love"`), 'manifests/site.pp': notifies({ a: "inject('the meaning of love')", b: "String(optionally_inject('the meaning of life'))" }) },
        run: 'compile', expect: { a: 42, b: '' }
    },
    {
        section: 'Rebinding', rule: 'AS in capitals (as the seed writes it)',
        files: { 'bindings/default.pp': b(`  bind "the meaning of life" to 42\n  bind alias "the meaning of life" AS "the meaning of love`.replace(/love$/, 'love"')) },
        key: 'the meaning of love', expect: 42
    },
    {
        section: 'Rebinding', rule: 'the rebound key must exist (rebind)',
        files: { 'bindings/default.pp': b(`  rebind "the meaning of life"`) },
        key: 'x', error: { code: 'INJECT_REBIND_MISSING', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Rebinding', rule: 'the rebound key must exist (alias)',
        files: { 'bindings/default.pp': b(`  bind alias "the meaning of life" as "the meaning of love"`) },
        key: 'the meaning of love', error: { code: 'INJECT_REBIND_MISSING', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Rebinding', rule: 'the rebound key must exist (renamed)',
        files: { 'bindings/default.pp': b(`  bind renamed "the meaning of life" as "the meaning of love"`) },
        key: 'x', error: { code: 'INJECT_REBIND_MISSING', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Rebinding', rule: 'none of the three accepts a producer',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  bind alias "x" as "y" to 2`) },
        key: 'y', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:3' }
    },
    {
        section: 'Rebinding', rule: 'rebind accepts no producer either',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  rebind "x" to 2`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:3' }
    },
    {
        section: 'Rebinding', rule: 'override has no effect',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  bind alias "x" as override "y"`) },
        key: 'y', expect: 1
    },
    {
        section: 'Rebinding', rule: 'abstract makes the re-bound key abstract',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  bind alias "x" as abstract "y"`) },
        key: 'y', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:3:3' }
    },
    {
        section: 'Rebinding', rule: 'an abstract alias overridden at a higher precedence',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  bind alias "x" as abstract "y"\n  when node 'n1.example.com' { bind "y" to 5 }`) },
        key: 'y', expect: 5
    },
    {
        section: 'Rebinding', rule: 'an alias follows the original key\'s winner (categories)',
        files: { 'bindings/default.pp': b(`  bind "x" to 1\n  when node 'n1.example.com' { bind "x" to 2 }\n  bind alias "x" as "y"`) },
        key: 'y', expect: 2
    }
];

describe('ARM-8 Bind Operations (seed statements through the CLI)', () => {
    test.each(named([...ABSTRACT, ...FINAL, ...NAMED, ...REBINDING]))('%s', async (_n, c) => check(c));
});
