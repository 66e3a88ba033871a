import { describe, expect, it } from 'vitest';
import { and, bind, cat, contributed, layer, layered, layerExcluding, named, or, site, when } from './build.js';
import { fakeEvaluator, runCase, strictErrors, type Case } from './harness.js';

const categorization: Case[] = [
    {
        name: 'ARM-8 Categorization: node, environment and common are always present, in that order, with sane defaults',
        model: () => site(when(cat('node', 'kermit.example.com'), bind('x', 'node')), when(cat('environment', 'production'), bind('y', 'env')), bind('z', 'common')),
        values: { x: 'node', y: 'env', z: 'common' },
        check: inj => {
            const req = inj.effectiveBindings().root.request as { categories: { categorization: string; precedence: number }[] };
            expect(req.categories.map(c => c.categorization)).toEqual(['node', 'environment', 'common']);
            expect(req.categories.at(-1)?.precedence).toBe(0);
        }
    },
    {
        name: 'ARM-8 Categorization rule: if user specifies the category common, an error is raised',
        model: () => layered([layer('site', named('s', bind('x', 1)))], [{ name: 'node', expr: '$::fqdn' }, { name: 'common', expr: 'true' }]),
        errors: [['INJECT_CATEGORY_COMMON_SPECIFIED', "The category 'common' may not be specified"]]
    },
    {
        name: 'binder define_categories: a common given anywhere but last is a redefinition (ARM-8: an error)',
        model: () => layered([layer('site')], [{ name: 'common' }, { name: 'node' }]),
        errors: ['INJECT_CATEGORY_COMMON_SPECIFIED']
    },
    {
        name: 'binder define_categories: the built-in common listed last by the composer is accepted (commit "Prevent error when common is given")',
        model: () => layered([layer('site', named('s', bind('x', 1)))], [{ name: 'node' }, { name: 'environment' }, { name: 'common' }]),
        values: { x: 1 }
    },
    {
        name: 'ARM-8 Categorization rule: environment may only be set to true',
        model: () => layered([layer('site')], [{ name: 'node', expr: '$::fqdn' }, { name: 'environment', expr: '$::env_fact' }]),
        errors: [['INJECT_CATEGORY_ENVIRONMENT_NOT_TRUE', "got: $::env_fact"]]
    },
    {
        name: 'ARM-8 Categorization rule: environment => true is accepted and always evaluates to $environment',
        model: () => layered([layer('site', named('s', when(cat('environment', 'staging'), bind('x', 'staging'))))], [{ name: 'node', expr: '$::fqdn' }, { name: 'environment', expr: 'true' }]),
        request: { environment: 'staging' },
        values: { x: 'staging' }
    },
    {
        name: 'ARM-8 Categorization rule: if node is given lower precedence than environment an error is raised',
        model: () => layered([layer('site')], [{ name: 'environment', expr: 'true' }, { name: 'node', expr: '$::fqdn' }]),
        errors: ['INJECT_CATEGORY_NODE_BELOW_ENVIRONMENT']
    },
    {
        name: 'ARM-8 Categorization rule: a missing environment is added just above common; a missing node on top with $::fqdn',
        model: () => layered([layer('site', named('s',
            when(cat('virtual', 'true'), bind('a', 'virtual')), when(cat('environment', 'production'), bind('a', 'env')),
            when(cat('node', 'kermit.example.com'), bind('b', 'node')), when(cat('virtual', 'true'), bind('b', 'virtual'))))],
        [{ name: 'virtual', expr: '$::is_virtual' }]),
        request: { facts: { fqdn: 'kermit.example.com', is_virtual: true } },
        values: { a: 'virtual', b: 'node' },
        check: inj => {
            const req = inj.effectiveBindings().root.request as { categories: { categorization: string }[] };
            expect(req.categories.map(c => c.categorization)).toEqual(['node', 'virtual', 'environment', 'common']);
        }
    },
    {
        name: 'binder define_categories: "Attempt to redefine categorization: <name>"',
        model: () => layered([layer('site')], [{ name: 'node' }, { name: 'virtual', expr: '$::is_virtual' }, { name: 'virtual', expr: '$::v' }]),
        errors: [['INJECT_CATEGORY_REDEFINED', 'Attempt to redefine categorization: virtual']]
    },
    {
        name: 'binder define_categories: "Category limit (1000) exceeded"',
        model: () => layered([layer('site')], Array.from({ length: 1000 }, (_, i) => ({ name: `c${i}`, expr: 'true' }))),
        errors: [['INJECT_CATEGORY_LIMIT', 'Category limit (1000) exceeded']]
    },
    {
        name: 'ARM-8 Categorization: category value expressions are evaluated per request from facts ($facts[...] and interpolation)',
        model: () => layered([layer('site', named('s', when(cat('osfamily', 'RedHat'), bind('pkg', 'openssh-server')), when(cat('dc', 'fra1'), bind('dc', 'frankfurt'))))],
            [{ name: 'node', expr: '"${::fqdn}"' }, { name: 'osfamily', expr: "$facts['os']['family']" }, { name: 'dc', expr: '"${::datacenter}1"' }]),
        request: { facts: { fqdn: 'kermit.example.com', os: new Map([['family', 'RedHat']]), datacenter: 'fra' } },
        values: { pkg: 'openssh-server', dc: 'frankfurt' }
    },
    {
        name: 'ARM-8 Categorization: a category value must be a Literal (String, Boolean, Number)',
        model: () => layered([layer('site')], [{ name: 'node' }, { name: 'os', expr: '$::os' }]),
        request: { facts: { os: new Map([['family', 'RedHat']]) } },
        errors: [['INJECT_CATEGORY_VALUE_NOT_LITERAL', "The value of category 'os' must be a String, Boolean or Number, got: Hash"]]
    },
    {
        name: 'ARM-8 Categorization rule: it is not allowed to perform injection in a category value expression',
        model: () => layered([layer('site')], [{ name: 'node' }, { name: 'tier', expr: "inject('tier')" }]),
        services: fakeEvaluator({}, { "inject('tier')": scope => scope.inject('tier') }).services,
        errors: [['INJECT_CATEGORY_INJECTION', 'Injection is not allowed']]
    },
    {
        name: 'binder §3.2: when a categorization is not defined the whole block is silently skipped (reported as a warning)',
        model: () => site(when(cat('rack', 'r1'), bind('x', 'rack')), bind('x', 'common')),
        values: { x: 'common' },
        warnings: ['INJECT_UNKNOWN_CATEGORY']
    },
    {
        name: 'binder §3.2: common predicates always match, whatever their value (when common false still applies)',
        model: () => site(when(cat('common', 'false'), bind('x', 'applies'))),
        values: { x: 'applies' }
    },
    {
        name: 'binder §3.1: category values are downcased and predicates compare case-insensitively',
        model: () => layered([layer('site', named('s', when(cat('osfamily', 'RedHat'), bind('x', 'rh'))))], [{ name: 'node' }, { name: 'osfamily', expr: '$::osfamily' }]),
        request: { facts: { osfamily: 'REDHAT' } },
        values: { x: 'rh' }
    },
    {
        name: 'explicit category precedences must descend strictly',
        model: () => layered([layer('site')], [{ name: 'node', precedence: 10 }, { name: 'virtual', expr: 'true', precedence: 20 }, { name: 'environment', precedence: 5 }]),
        errors: ['INJECT_CATEGORY_PRECEDENCE_ORDER']
    },
    {
        name: 'request category values win over evaluating the expressions',
        model: () => layered([layer('site', named('s', when(cat('tier', 'gold'), bind('x', 'gold'))))], [{ name: 'node' }, { name: 'tier', expr: '$::tier' }]),
        request: { categoryValues: { tier: 'Gold' } },
        values: { x: 'gold' }
    }
];

const precedence: Case[] = [
    {
        name: 'binder §3.2 table: top level [0] < environment < node < node+environment < a higher category',
        model: () => layered([layer('site', named('s',
            bind('a', 'top'), when(cat('environment', 'production'), bind('a', 'env')),
            when(cat('environment', 'production'), bind('b', 'env')), when(cat('node', 'kermit.example.com'), bind('b', 'node')),
            when(cat('node', 'kermit.example.com'), bind('c', 'node')), when(and(cat('node', 'kermit.example.com'), cat('environment', 'production')), bind('c', 'node+env')),
            when([cat('node', 'kermit.example.com'), cat('environment', 'production')], bind('d', 'node+env')), when(cat('highest', 'test'), bind('d', 'highest'))))],
        [{ name: 'highest', expr: "'test'" }, { name: 'node' }, { name: 'environment' }]),
        values: { a: 'env', b: 'node', c: 'node+env', d: 'highest' }
    },
    {
        name: 'ARM-8 Nesting of Categorized Bindings: a nested when is an AND, scored like when a and b',
        model: () => site(when(cat('environment', 'production'), when(cat('node', 'kermit.example.com'), bind('x', 'nested'))), when(cat('node', 'kermit.example.com'), bind('x', 'node'))),
        values: { x: 'nested' }
    },
    {
        name: 'ARM-8 Nesting: nested when with one predicate not matching does not apply',
        model: () => site(when(cat('environment', 'test'), when(cat('node', 'kermit.example.com'), bind('x', 'nested'))), bind('x', 'common')),
        values: { x: 'common' },
        check: inj => expect(inj.explain('x').candidates.some(c => c.reason === 'notApplicable')).toBe(true)
    },
    {
        name: 'ARM-8 Discuss "Precedence score": numbered paragraphs, environment(2)+virtual(3) = 3.2 is below node(4)',
        model: () => layered([layer('site', named('s',
            when(and(cat('virtual', 'true'), cat('environment', 'production')), bind('x', 'virtual+env')), when(cat('node', 'kermit.example.com'), bind('x', 'node'))))],
        [{ name: 'node' }, { name: 'virtual', expr: 'true' }, { name: 'environment' }]),
        values: { x: 'node' }
    },
    {
        name: 'ARM-8 "or": internally several bindings with different precedence; the matching alternative applies',
        model: () => site(when(or(cat('environment', 'staging'), cat('node', 'kermit.example.com')), bind('x', 'either')), when(cat('environment', 'production'), bind('x', 'env'))),
        values: { x: 'either' },
        check: inj => expect(inj.explain('x').candidates[0].category).toBe('node kermit.example.com')
    },
    {
        name: 'ARM-8 "or": when both alternatives match the binding does not conflict with itself',
        model: () => site(when(or(cat('environment', 'production'), cat('node', 'kermit.example.com')), bind('x', 'both'))),
        values: { x: 'both' }
    },
    {
        name: 'ARM-8 "or": the alternative may conflict, and the message names both places',
        model: () => site(when(or(cat('environment', 'staging'), cat('node', 'kermit.example.com')), bind('x', 1, { line: 100 })), when(cat('node', 'kermit.example.com'), bind('x', 2, { line: 200 }))),
        errors: [['INJECT_CONFLICT_SAME_BINDINGS', 'bindings/test.pp:100 and bindings/test.pp:200']]
    }
];

const layers: Case[] = [
    {
        name: 'ARM-8 Composition of Bindings: a binding in a higher layer shadows the same key in lower layers',
        model: () => layered([layer('site', named('site::default', bind('color', 'green'))), layer('modules', named('a::default', bind('color', 'blue')), named('b::default', bind('color', 'red')))]),
        values: { color: 'green' },
        check: inj => expect(inj.explain('color').candidates.map(c => c.reason ?? c.status)).toEqual(['winner', 'lowerLayer', 'lowerLayer'])
    },
    {
        name: 'binder conflict message: same layer, same NamedBindings ("both from", two spaces) naming both locations',
        model: () => site(bind('x', 1, { line: 10 }), bind('x', 2, { line: 11 })),
        errors: [['INJECT_CONFLICT_SAME_BINDINGS', "Conflicting binding for name: 'x' in layer: 'site',  both from: 'site::default', in category 'common' (at bindings/test.pp:10 and bindings/test.pp:11)"]],
        check: inj => expect(inj.issues[0].locations.map(l => l.line)).toEqual([10, 11])
    },
    {
        name: 'binder conflict message: same layer, different NamedBindings',
        model: () => layered([layer('modules', named('a::default', bind('x', 1)), named('b::default', bind('x', 2)))]),
        errors: [['INJECT_CONFLICT', "Conflicting binding for name: 'x' in layer: 'modules', from: 'a::default', and 'b::default', in category 'common'"]]
    },
    {
        name: 'bindings_composer_spec: conflicts in a lower layer are masked when a higher layer binds the key (the_meaning_of_life)',
        model: () => layered([layer('site', named('site', bind('the_meaning_of_life', 42))), layer('modules', named('awesome::default', bind('the_meaning_of_life', 100)), named('awesome2::default', bind('the_meaning_of_life', 300)))]),
        values: { the_meaning_of_life: 42 }
    },
    {
        name: 'ARM-8 Named Binding / key_factory: Data-compatible types share one name space (String x and Integer x conflict)',
        model: () => site(bind('x', 'a', { type: 'String' }), bind('x', 1, { type: 'Integer' })),
        errors: ['INJECT_CONFLICT_SAME_BINDINGS']
    },
    {
        name: 'key_factory: lookup(Integer, x) and lookup(x) hit the same Data entry; non-Data types keep their own key',
        model: () => site(bind('x', 1, { type: 'Integer' }), bind('x', undefined, { type: 'Type[Logger]', producer: { $type: 'InstanceProducerDescriptor', className: 'Logger' } })),
        services: { instances: () => ({ instantiate: (name: string) => ({ runtimeType: name }) }) },
        values: { x: 1, 'x@Integer': 1 },
        check: inj => expect(inj.lookup('x', 'Type[Logger]')).toEqual({ runtimeType: 'Logger' })
    },
    {
        name: 'ARM-8 Abstract Bindings: an abstract binding that is not overridden is an error naming Data and the key',
        model: () => site(bind('the meaning of life', undefined, { abstract: true })),
        errors: [['INJECT_ABSTRACT_NOT_OVERRIDDEN', "The abstract binding 'Data/the meaning of life' in 'site::default' in layer 'site' was not overridden"]]
    },
    {
        name: 'ARM-8 Abstract Bindings: overridden by a concrete binding in a higher layer',
        model: () => layered([layer('site', named('site', bind('the meaning of life', 42))), layer('modules', named('m', bind('the meaning of life', undefined, { abstract: true })))]),
        values: { 'the meaning of life': 42 }
    },
    {
        name: 'ARM-8 Abstract Bindings: an abstract binding does not bind any value (no producer)',
        model: () => layered([layer('site', named('s', bind('x', 2))), layer('modules', named('m', bind('x', 1, { abstract: true })))]),
        errors: [['INJECT_ABSTRACT_WITH_PRODUCER', "The abstract binding 'Data/x' binds a producer"]]
    },
    {
        name: 'binder §4.4: a concrete binding in a LOWER layer does not satisfy an abstract one',
        model: () => layered([layer('site', named('site', bind('x', undefined, { abstract: true }))), layer('modules', named('m', bind('x', 1)))]),
        errors: ['INJECT_ABSTRACT_NOT_OVERRIDDEN']
    },
    {
        name: 'binder 3.5+: abstract and concrete at the same precedence: the concrete one wins',
        model: () => site(bind('x', undefined, { abstract: true }), bind('x', 7)),
        values: { x: 7 },
        check: inj => expect(inj.explain('x').candidates[1].reason).toBe('abstractReplaced')
    },
    {
        name: 'binder §4.3: an abstract binding beaten by a higher category in its own layer is overridden',
        model: () => site(bind('x', undefined, { abstract: true }), when(cat('node', 'kermit.example.com'), bind('x', 'k'))),
        values: { x: 'k' }
    },
    {
        name: 'ARM-8 Override Bindings: "Binding with unresolved override detected" when nothing is overridden',
        model: () => site(bind('bananas', 42, { override: true })),
        errors: [['INJECT_UNRESOLVED_OVERRIDE', "Binding with unresolved 'override' detected: binding: 'Data/bananas' in: 'site::default' in layer: 'site'"]]
    },
    {
        name: 'ARM-8 Override Bindings: an override of a lower layer binding is resolved',
        model: () => layered([layer('site', named('s', bind('the meaning of life', 42, { override: true }))), layer('modules', named('m', bind('the meaning of life', undefined, { abstract: true })))]),
        values: { 'the meaning of life': 42 },
        check: inj => expect((inj.effectiveBindings().root.entries as { key: string; overrideResolved: boolean }[]).find(e => e.key === 'Data/the meaning of life')?.overrideResolved).toBe(true)
    },
    {
        name: 'binder §4.5: an override binding that loses is silently dropped',
        model: () => layered([layer('site', named('s', bind('x', 1))), layer('modules', named('m', bind('x', 2, { override: true })))]),
        values: { x: 1 }
    },
    {
        name: 'ARM-8 Combining Override and Abstract: the existing binding must be supplied by someone else',
        model: () => layered([layer('resolutions', named('r', bind('the meaning of life', undefined, { abstract: true, override: true }))), layer('modules', named('m', bind('the meaning of life', 43)))]),
        errors: ['INJECT_ABSTRACT_NOT_OVERRIDDEN']
    },
    {
        name: 'ARM-8 Combining Override and Abstract: resolved once a higher layer supplies the value',
        model: () => layered([layer('site', named('s', bind('the meaning of life', 42))), layer('resolutions', named('r', bind('the meaning of life', undefined, { abstract: true, override: true }))), layer('modules', named('m', bind('the meaning of life', 43)))]),
        values: { 'the meaning of life': 42 }
    },
    {
        name: 'binder 3.5+ final: a final binding may not be overridden in a higher layer (both locations named)',
        model: () => layered([layer('site', named('s', bind('x', 2, { line: 50 }))), layer('modules', named('m', bind('x', 1, { final: true, line: 60 })))]),
        errors: [['INJECT_FINAL_OVERRIDDEN', "Conflicting binding for 'x' being resolved across layers 'modules' and 'site'. Override of final binding not allowed (at bindings/test.pp:60 and bindings/test.pp:50)"]]
    },
    {
        name: 'binder 3.5+ final: an equal-precedence conflict with a final binding gets the final suffix',
        model: () => site(bind('x', 1, { final: true }), bind('x', 2)),
        errors: [['INJECT_FINAL_OVERRIDDEN_IN_LAYER', 'Override of final binding not allowed']]
    },
    {
        name: 'final: a higher category in the same layer may not override it either',
        model: () => site(bind('site::admin_email', 'ops@example.com', { final: true }), when(cat('node', 'kermit.example.com'), bind('site::admin_email', 'me@example.com'))),
        errors: ['INJECT_FINAL_OVERRIDDEN_IN_LAYER']
    },
    {
        name: 'ARM-8 Selecting Bindings with include and exclude: excluded contributions are never used',
        model: () => layered([layerExcluding('modules', ['module:/myspecial::default'], contributed('myspecial::default', 'module:/myspecial::default', bind('x', 'default')), contributed('MySpecial::load_balanced', 'module:/MySpecial::load_balanced', bind('y', 'lb')))]),
        values: { y: 'lb' },
        lookupErrors: { x: 'INJECT_NOT_FOUND' },
        warnings: ['INJECT_EXCLUDED_CONTRIBUTION'],
        check: inj => expect(inj.explain('x').candidates[0].reason).toBe('excluded')
    },
    {
        name: 'ARM-8 Confdir Bindings Provider: exclude URIs take `*` for one segment and `**` recursively',
        model: () => layered([layerExcluding('modules', ['module:/*::experimental', 'confdir:/legacy/**'],
            contributed('a::experimental', 'module:/a::experimental', bind('a', 1)), contributed('b::default', 'module:/b::default', bind('b', 2)),
            contributed('legacy', 'confdir:/legacy/x/y', bind('c', 3)))]),
        values: { b: 2 },
        lookupErrors: { a: 'INJECT_NOT_FOUND', c: 'INJECT_NOT_FOUND' }
    },
    {
        name: 'binder checker MISSING_LAYERS: a layered bindings without layers is a warning',
        model: () => layered([]),
        warnings: ['INJECT_NO_LAYERS']
    },
    {
        name: 'ARM-8 Naming Scheme: regular names should not start with a /',
        model: () => site(bind('/mine', 1)),
        warnings: ['INJECT_RESERVED_NAME'],
        values: { '/mine': 1 }
    }
];

describe('ARM-8 categorization (seed rules, binder define_categories)', () => {
    it.each(categorization)('$name', c => runCase(c));
});

describe('precedence of categorized bindings (numbered-paragraph score)', () => {
    it.each(precedence)('$name', c => runCase(c));
});

describe('layers, conflicts, abstract / override / final', () => {
    it.each(layers)('$name', c => runCase(c));

    it('binder: conflicts are raised when the injector is created, never at lookup', () => {
        expect(strictErrors(site(bind('x', 1), bind('x', 2)))).toEqual(['INJECT_CONFLICT_SAME_BINDINGS']);
    });
});

export const COUNTS = { categorization: categorization.length, precedence: precedence.length, layers: layers.length };
