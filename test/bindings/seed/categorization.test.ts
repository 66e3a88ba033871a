import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "Categorization", "Category Specific Bindings" and "Nesting of Categorized Bindings":
 * every rule, through `modelc lookup` and `modelc compile` on a small environment. The seed puts
 * `site { categories {} }` in the environment's manifest (it "delegates to the manifest specified
 * by the selected environment's manifest property"); modelc also reads it from bindings/site.pp.
 */
const VIRTUAL = 'fqdn: n1.example.com\nis_virtual: true\ndc: AMS1\n';
const site = (categories: string): string => `site {\n  categories {\n${categories}\n  }\n}\n`;
const COLOR = b(`  bind 'color' to 'common'
  when virtual true { bind 'color' to 'virtual' }
  when node 'n1.example.com' { bind 'size' to 'node' }`);

const CASES: readonly SeedCase[] = [
    {
        section: 'Categorization', rule: 'site { categories {} } in the environment manifest defines the categories',
        files: { 'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`node => "$::fqdn",\nvirtual => "$::is_virtual"`), 'bindings/default.pp': COLOR },
        key: 'color', expect: 'virtual'
    },
    {
        section: 'Categorization', rule: 'the categories of bindings/site.pp work the same',
        files: { 'facts.yaml': VIRTUAL, 'bindings/site.pp': site(`node => "$::fqdn",\nvirtual => "$::is_virtual"`), 'bindings/default.pp': COLOR },
        key: 'color', expect: 'virtual'
    },
    {
        section: 'Categorization', rule: 'the categories apply in the catalog (compile)',
        files: {
            'facts.yaml': VIRTUAL,
            'manifests/site.pp': site(`virtual => "$::is_virtual"`) + notifies({ c: "inject('color')" }),
            'bindings/default.pp': COLOR
        },
        run: 'compile', expect: { c: 'virtual' }
    },
    {
        section: 'Categorization', rule: 'the order defines the precedence: the first category wins',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`node => "$::fqdn",\ndc => downcase($facts['dc']),\nvirtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when virtual true { bind 'x' to 'virtual' }
  when dc ams1 { bind 'x' to 'dc' }`)
        },
        key: 'x', expect: 'dc'
    },
    {
        section: 'Categorization', rule: 'a category value may be any expression (conditional logic, function calls)',
        files: {
            'facts.yaml': VIRTUAL,
            'manifests/site.pp': site(`kind => if $facts['is_virtual'] { 'vm' } else { 'metal' },\ndc => [$facts['dc']].map |$d| { downcase($d) }[0]`),
            'bindings/default.pp': b(`  when kind vm and dc ams1 { bind 'x' to 'vm in ams1' }`)
        },
        key: 'x', expect: 'vm in ams1'
    },
    {
        section: 'Categorization', rule: 'an undef or empty category value means the category does not apply',
        files: {
            'manifests/site.pp': site(`rack => $facts['rack'],\nrole => ''`),
            'bindings/default.pp': b(`  bind 'x' to 'common'
  when rack '' { bind 'x' to 'rack' }
  when role '' { bind 'x' to 'role' }`)
        },
        key: 'x', expect: 'common'
    },
    {
        section: 'Categorization', rule: 'values compare case-insensitively (a Boolean value matches true)',
        files: { 'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`dc => $facts['dc'],\nvirtual => $facts['is_virtual']`), 'bindings/default.pp': b(`  when dc 'ams1' and virtual true { bind 'x' to 'yes' }`) },
        key: 'x', expect: 'yes'
    },
    {
        section: 'Categorization', rule: 'a category value must be a literal (String, Boolean, Number)',
        files: { 'manifests/site.pp': site(`role => { a => 1 }`), 'bindings/default.pp': COLOR },
        key: 'color', error: { code: 'INJECT_CATEGORY_VALUE_NOT_LITERAL', at: 'manifests/site.pp:3' }
    },
    {
        section: 'Categorization', rule: 'a Number category value',
        files: { 'manifests/site.pp': site(`rack => 40 + 2`), 'bindings/default.pp': b(`  bind 'x' to 1
  when rack 42 { bind 'x' to 2 }`) },
        key: 'x', expect: 2
    },
    {
        section: 'Categorization rules', rule: 'the user may not specify the category common',
        files: { 'manifests/site.pp': site(`common => true`), 'bindings/default.pp': COLOR },
        key: 'color', error: { code: 'BIND_PARSE', at: 'manifests/site.pp:3:1', message: /VALIDATE_CATEGORY_COMMON/ }
    },
    {
        section: 'Categorization rules', rule: 'environment, when specified, must be true',
        files: { 'manifests/site.pp': site(`node => "$::fqdn",\nenvironment => 'production'`), 'bindings/default.pp': COLOR },
        key: 'color', error: { code: 'BIND_PARSE', at: 'manifests/site.pp:4:16', message: /VALIDATE_CATEGORY_ENVIRONMENT_VALUE/ }
    },
    {
        section: 'Categorization rules', rule: 'node below environment is an error',
        files: { 'manifests/site.pp': site(`environment => true,\nnode => "$::fqdn"`), 'bindings/default.pp': COLOR },
        key: 'color', error: { code: 'BIND_PARSE', at: 'manifests/site.pp:4:1', message: /VALIDATE_CATEGORY_NODE_BELOW_ENVIRONMENT/ }
    },
    {
        section: 'Categorization rules', rule: 'a missing environment is added just above common (below every user category)',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when environment production { bind 'x' to 'environment' }
  when virtual true { bind 'x' to 'virtual' }
  bind 'x' to 'common'`)
        },
        key: 'x', expect: 'virtual'
    },
    {
        section: 'Categorization rules', rule: 'environment given above a category ranks above it',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`node => "$::fqdn",\nenvironment => true,\nvirtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when environment production { bind 'x' to 'environment' }
  when virtual true { bind 'x' to 'virtual' }`)
        },
        key: 'x', expect: 'environment'
    },
    {
        section: 'Categorization rules', rule: 'the environment category always evaluates to $environment',
        files: {
            'environments/dev/bindings/default.pp': b(`  bind 'x' to 'common'
  when environment dev { bind 'x' to 'dev' }
  when environment production { bind 'x' to 'production' }`),
            'environments/dev/manifests/site.pp': notifies({ x: "inject('x')" })
        },
        run: 'compile', args: ['--environment', 'dev'], expect: { x: 'dev' }
    },
    {
        section: 'Categorization rules', rule: 'a missing node is added with the highest precedence, its value $::fqdn',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when virtual true { bind 'x' to 'virtual' }
  when node 'n1.example.com' { bind 'x' to 'node' }`)
        },
        node: 'certname-differs', key: 'x', expect: 'node'
    },
    {
        section: 'Categorization rules', rule: 'the user may alter the expression for node',
        files: {
            'manifests/site.pp': site(`node => $trusted['certname']`),
            'bindings/default.pp': b(`  bind 'x' to 'common'
  when node 'c1' { bind 'x' to 'certname' }`)
        },
        node: 'c1', key: 'x', expect: 'certname'
    },
    {
        section: 'Categorization rules', rule: 'no injection in a category value expression',
        files: { 'manifests/site.pp': site(`role => inject('x')`), 'bindings/default.pp': b(`  bind 'x' to 'y'`) },
        key: 'x', error: { code: 'INJECT_CATEGORY_INJECTION', at: 'manifests/site.pp:3:9' }
    },
    {
        section: 'Categorization rules', rule: 'more than one site { categories {} } is an error',
        files: {
            'manifests/site.pp': site(`role => 'a'`) + site(`dc => 'b'`),
            'bindings/default.pp': b(`  bind 'x' to 'y'`)
        },
        key: 'x', error: { code: 'BIND_PARSE', at: 'manifests/site.pp:7:3', message: /VALIDATE_SITE_DUPLICATE_CATEGORIES/ }
    },
    {
        section: 'Categorization rules', rule: 'categories in both the manifest and bindings/site.pp is more than one',
        files: { 'manifests/site.pp': site(`role => 'a'`), 'bindings/site.pp': site(`dc => 'b'`), 'bindings/default.pp': b(`  bind 'x' to 'y'`) },
        key: 'x', error: { code: 'BIND_SITE_TWICE', at: 'bindings/site.pp:2:3' }
    },
    {
        section: 'Categorization rules', rule: 'node, environment and common are always there, in that order',
        files: { 'bindings/default.pp': b(`  bind 'x' to 'common'\n  when environment production { bind 'x' to 'env' }\n  when node 'n1.example.com' { bind 'x' to 'node' }`) },
        run: 'effective', args: ['--explain', 'x'],
        check: r => {
            const order = [...r.out.matchAll(/category (\w+)\S* ?\S* \[(\d+)\]/g)].map(m => `${m[1]} ${m[2]}`);
            expect(order).toEqual(['node 1000', 'environment 999', 'common 0']);
        }
    },
    // Category Specific Bindings
    {
        section: 'Category Specific Bindings', rule: 'a binding outside when is in the common category (lowest)',
        files: { 'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`), 'bindings/default.pp': COLOR },
        node: 'other', key: 'color', expect: 'virtual'
    },
    {
        section: 'Category Specific Bindings', rule: 'the same when may occur several times',
        files: {
            'bindings/default.pp': b(`  when node 'n1.example.com' { bind 'a' to 1 }
  bind 'b' to 0
  when node 'n1.example.com' { bind 'b' to 2 }`),
            'manifests/site.pp': notifies({ a: "inject('a')", b: "inject('b')" })
        },
        run: 'compile', expect: { a: 1, b: 2 }
    },
    {
        section: 'Category Specific Bindings', rule: 'a when that does not match does not apply',
        files: { 'bindings/default.pp': b(`  bind 'x' to 'common'\n  when node 'kermit.example.com' { bind 'x' to 'kermit' }`) },
        key: 'x', expect: 'common'
    },
    {
        section: 'Explicit when common{}', rule: 'when common {} is the same as no when',
        files: { 'bindings/default.pp': b(`  when common true { bind 'x' to 1 }`) },
        key: 'x', expect: 1
    },
    // Nesting of Categorized Bindings
    {
        section: 'Nesting of Categorized Bindings', rule: 'nesting is an and: both must hold',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  bind 'x' to 'common'
  when virtual true {
    when node 'kermit.example.com' { bind 'x' to 'virtual kermit' }
  }`)
        },
        key: 'x', expect: 'common'
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'a nested binding beats each of its parts (numbered paragraphs)',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when node 'n1.example.com' { bind 'x' to 'node' }
  when virtual true {
    bind 'x' to 'virtual'
    when node 'n1.example.com' { bind 'x' to 'virtual node' }
  }`)
        },
        key: 'x', expect: 'virtual node'
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'a combination never beats a single higher category (environment + virtual < node)',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`node => "$::fqdn",\nvirtual => "$::is_virtual",\nenvironment => true`),
            'bindings/default.pp': b(`  when node 'n1.example.com' { bind 'x' to 'node' }
  when environment production and virtual true { bind 'x' to 'environment virtual' }`)
        },
        key: 'x', expect: 'node'
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'and has the effect of nesting',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when node 'n1.example.com' { bind 'x' to 'node' }
  when virtual true and node 'n1.example.com' { bind 'x' to 'virtual and node' }`)
        },
        key: 'x', expect: 'virtual and node'
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'nested and and-ed bindings of the same categories conflict',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when virtual true and node 'n1.example.com' { bind 'x' to 1 }
  when node 'n1.example.com' {
    when virtual true { bind 'x' to 2 }
  }`)
        },
        key: 'x', error: { code: 'INJECT_CONFLICT_SAME_BINDINGS', at: 'bindings/default.pp:2:49' }
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'or: one binding per alternative, each with its own precedence',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when virtual true { bind 'x' to 'virtual' }
  when virtual false or node 'n1.example.com' { bind 'x' to 'virtual false or node' }`)
        },
        key: 'x', expect: 'virtual false or node'
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'or: an alternative in conflict is reported with its category, file and line',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when virtual true { bind 'x' to 'virtual' }
  when virtual true or node 'kermit' { bind 'x' to 'or' }`)
        },
        key: 'x', error: { code: 'INJECT_CONFLICT_SAME_BINDINGS', at: 'bindings/default.pp:2:23', message: /category 'virtual true'.*bindings\/default\.pp:3/ }
    },
    {
        section: 'Nesting of Categorized Bindings', rule: 'an or of two matching alternatives is one binding (no conflict with itself)',
        files: {
            'facts.yaml': VIRTUAL, 'manifests/site.pp': site(`virtual => "$::is_virtual"`),
            'bindings/default.pp': b(`  when virtual true or node 'n1.example.com' { bind 'x' to 'either' }`)
        },
        key: 'x', expect: 'either'
    }
];

describe('ARM-8 Categorization (seed statements through the CLI)', () => {
    test.each(named(CASES))('%s', async (_n, c) => check(c));
});
