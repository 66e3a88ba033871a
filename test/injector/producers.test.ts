import { describe, expect, it } from 'vitest';
import type { ProducerDescriptor } from '../../generated/model/bindings.js';
import { arg, bind, cat, constant, lambda, layer, layered, named, site, when } from './build.js';
import { fakeEvaluator, pv, runCase, type Case } from './harness.js';
import type { EvaluationScope, InjectedValue, InjectorOverrides, ProducerObject } from '../../src/injector/index.js';

const lookupOf = (name: string, type?: string): ProducerDescriptor => ({ $type: 'LookupProducerDescriptor', name, ...(type ? { type } : {}) });
const nonCaching = (producer: ProducerDescriptor): ProducerDescriptor => ({ $type: 'NonCachingProducerDescriptor', producer });
const optional = (producer: ProducerDescriptor): ProducerDescriptor => ({ $type: 'OptionalProducerDescriptor', producer });
const instance = (className: string, ...args: number[]): ProducerDescriptor => ({ $type: 'InstanceProducerDescriptor', className, arguments: args });
const reference = (ref: string): ProducerDescriptor => ({ $type: 'InstanceReferenceProducerDescriptor', reference: ref });
const evaluating = (source: string): ProducerDescriptor => ({ $type: 'EvaluatingProducerDescriptor', expression: { $type: 'PuppetExpression', source } });

/** The binder spec's ScroogeProducer: 200, 400, 800... */
class Scrooge implements ProducerObject {
    readonly runtimeType = 'ScroogeProducer';
    private value = 100n;
    produce(): InjectedValue {
        this.value *= 2n;
        return this.value;
    }
}
const scrooge: InjectorOverrides = { instances: () => ({ instantiate: (name: string) => (name === 'ScroogeProducer' ? new Scrooge() : undefined) }) };

const plusOne = lambda('|$value| { $value + 1 }', 'value');
const evaluator = fakeEvaluator(
    { [plusOne.source]: ([v]) => (v as bigint) + 1n, '|$scope| { $scope[\'processorcount\'] * 25 }': ([s]) => ((s as Map<string, bigint>).get('processorcount') ?? 0n) * 25n },
    { '"Hello $duck"': (s: EvaluationScope) => `Hello ${String(s.variables().get('duck'))}`, 'undef': () => null }
);

const query = (results: InjectedValue[]): InjectorOverrides => ({ query: () => ({ query: () => results }) });

const cases: Case[] = [
    {
        name: 'binder §5.1: a Constant is a singleton: to(42) gives the identical object on repeated lookup',
        model: () => site(bind('a', [1, 2])),
        check: inj => expect(inj.lookup('a')).toBe(inj.lookup('a'))
    },
    {
        name: 'binder §5.1: to_series_of (NonCaching constant): equal but not identical',
        model: () => site(bind('a', [1, 2], { producer: nonCaching(constant([1, 2])) })),
        check: inj => {
            expect(inj.lookup('a')).toEqual(inj.lookup('a'));
            expect(inj.lookup('a')).not.toBe(inj.lookup('a'));
        }
    },
    {
        name: 'ARM-8 Producer: the producer_args option singleton => false produces on every lookup',
        model: () => site(bind('a', [1], { args: [arg('singleton', false)] })),
        check: inj => expect(inj.lookup('a')).not.toBe(inj.lookup('a'))
    },
    {
        name: 'binder §5.2 Lookup: to_lookup_of(name) produces the value bound to another key',
        model: () => site(bind('b', undefined, { producer: lookupOf('a') }), bind('a', 'A')),
        values: { b: 'A' }
    },
    {
        name: 'binder §5.4: "Lookup loop detected for key: <key>" (bind a_string to lookup of a_string)',
        model: () => site(bind('a_string', undefined, { producer: lookupOf('a_string') })),
        lookupErrors: { a_string: ['INJECT_LOOKUP_LOOP', 'Lookup loop detected for key: Data/a_string'] }
    },
    {
        name: 'binder §5.2 HashLookup: the entry at key of a hash-valued key, undef otherwise',
        model: () => site(bind('defaults', { ntp: 'pool.ntp.org' }), bind('ntp', undefined, { producer: { $type: 'HashLookupProducerDescriptor', name: 'defaults', key: 'ntp' } }),
            bind('other', undefined, { producer: optional({ $type: 'HashLookupProducerDescriptor', name: 'defaults', key: 'nope' }) })),
        values: { ntp: 'pool.ntp.org' },
        check: inj => expect(inj.optionallyLookup('other')).toBeNull()
    },
    {
        name: 'binder §5.2 FirstFound: each lookup in turn, the first non-undef wins',
        model: () => site(bind('preferred', undefined, { producer: { $type: 'FirstFoundProducerDescriptor', producers: [{ $type: 'LookupProducerDescriptor', name: 'missing' }, { $type: 'LookupProducerDescriptor', name: 'second', type: 'String' }] } }), bind('second', '2nd')),
        values: { preferred: '2nd' }
    },
    {
        name: 'binder §5.2 Evaluating: the expression is evaluated in the request scope ("Hello $duck")',
        model: () => site(bind('greeting', undefined, { producer: evaluating('"Hello $duck"') })),
        request: { facts: { duck: 'Donald' } },
        services: evaluator.services,
        values: { greeting: 'Hello Donald' }
    },
    {
        name: 'Evaluating a lambda: it is called with the top scope as a hash',
        model: () => site(bind('max', undefined, { type: 'Integer', producer: { $type: 'EvaluatingProducerDescriptor', expression: lambda("|$scope| { $scope['processorcount'] * 25 }", 'scope') } })),
        request: { facts: { processorcount: 4n } },
        services: evaluator.services,
        values: { max: 100 }
    },
    {
        name: 'without the Puppet evaluator an evaluating producer fails at lookup, naming the expression',
        model: () => site(bind('x', undefined, { producer: evaluating('fqdn_rand(10)') })),
        lookupErrors: { x: ['INJECT_NO_EVALUATOR', "Cannot evaluate 'fqdn_rand(10)'"] }
    },
    {
        name: 'binder §5.3 transformer: bind an_int to 42 {transformer => |$value| {$value + 1}} gives 43',
        model: () => site(bind('an_int', 42, { args: [arg('transformer', plusOne)] })),
        services: evaluator.services,
        values: { an_int: 43 }
    },
    {
        name: 'binder §5.3 QUIRK not copied: a transformer on a singleton lookup producer runs once (43, not 44)',
        model: () => site(bind('a', 42), bind('b', undefined, { producer: lookupOf('a'), args: [arg('transformer', plusOne)] })),
        services: evaluator.services,
        values: { b: 43 },
        check: inj => expect(inj.lookup('b')).toBe(43n)
    },
    {
        name: 'binder: "Transformer lambda must take one argument; value."',
        model: () => site(bind('a', 42, { args: [arg('transformer', lambda('|$a, $b| { $a }', 'a', 'b'))] })),
        lookupErrors: { a: ['INJECT_TRANSFORMER_ARITY', 'Transformer lambda must take one argument; value.'] }
    },
    {
        name: 'binder §5.2 Instance: "Can not load the class <name> specified in binding named: <name>"',
        model: () => site(bind('logger', undefined, { type: 'Type[Logger]', producer: instance('Puppetx::Missing') })),
        lookupErrors: { 'logger@Type[Logger]': ['INJECT_CLASS_NOT_FOUND', "Can not load the class Puppetx::Missing specified in binding named: 'logger'"] }
    },
    {
        name: 'binder §5.1 to_producer (singleton ProducerProducer): the series continues across lookups (200, 400)',
        model: () => site(bind('money', undefined, { type: 'Integer', producer: { $type: 'ProducerProducerDescriptor', producer: instance('ScroogeProducer') } })),
        services: scrooge,
        check: inj => {
            expect(inj.lookup('money')).toBe(200n);
            expect(inj.lookup('money')).toBe(400n);
        }
    },
    {
        name: 'binder §5.1 to_producer_series (non-caching ProducerProducer): every lookup restarts the series (200, 200)',
        model: () => site(bind('money', undefined, { type: 'Integer', producer: nonCaching({ $type: 'ProducerProducerDescriptor', producer: instance('ScroogeProducer') }) })),
        services: scrooge,
        check: inj => {
            expect(inj.lookup('money')).toBe(200n);
            expect(inj.lookup('money')).toBe(200n);
        }
    },
    {
        name: 'ProducerProducer: the produced object must itself be a producer',
        model: () => site(bind('p', undefined, { producer: { $type: 'ProducerProducerDescriptor', producer: constant(1) } })),
        lookupErrors: { p: 'INJECT_NOT_A_PRODUCER' }
    },
    {
        name: 'ARM-8 Optional Producer: a producer that produces nothing is silently ignored (the lower binding applies)',
        model: () => layered([layer('site', named('s', bind('web', undefined, { producer: optional(reference('LimitedServices[web]')) }))), layer('modules', named('m', bind('web', 'default')))]),
        values: { web: 'default' }
    },
    {
        name: 'ARM-8 Optional Producer: an optional producer alone that produces nothing means unbound',
        model: () => site(bind('web', undefined, { producer: optional(reference('LimitedServices[web]')) })),
        lookupErrors: { web: 'INJECT_NOT_FOUND' },
        check: inj => expect(inj.optionallyLookup('web')).toBeNull()
    },
    {
        name: 'ARM-8 Producer: normally a producer must produce a value other than undef',
        model: () => site(bind('x', undefined, { producer: lookupOf('missing') })),
        lookupErrors: { x: ['INJECT_PRODUCED_UNDEF', "bind it 'to optional'"] }
    },
    {
        name: 'ARM-8 Query Result Producer: one result is unfolded from the array',
        model: () => site(bind('db', undefined, { type: 'Hash', producer: { $type: 'QueryProducerDescriptor', resourceType: 'Sql', query: { $type: 'PuppetExpression', source: "name == 'one'" } } })),
        services: query([pv({ user: 'admin' })]),
        values: { db: { user: 'admin' } }
    },
    {
        name: 'ARM-8 Handling Multiple Query Results: 0 or more than one result is an error without select_result',
        model: () => site(bind('db', undefined, { producer: { $type: 'QueryProducerDescriptor', resourceType: 'Sql', query: { $type: 'PuppetExpression', source: 'tag == prod' } } })),
        services: query(['a', 'b']),
        lookupErrors: { db: ['INJECT_QUERY_RESULT_COUNT', 'returned 2 results'] }
    },
    {
        name: 'ARM-8 Handling Multiple Query Results: select_result picks from the array',
        model: () => site(bind('db', undefined, { producer: { $type: 'QueryProducerDescriptor', resourceType: 'Sql', query: { $type: 'PuppetExpression', source: 'tag == prod' }, selectResult: lambda('|$matches| { $matches[0] }', 'matches') } })),
        services: { ...query(['a', 'b']), ...fakeEvaluator({ '|$matches| { $matches[0] }': ([m]) => (m as string[])[0] }).services },
        values: { db: 'a' }
    },
    {
        name: 'ARM-8 Query: an optional query with no result is ignored',
        model: () => layered([layer('site', named('s', bind('db', undefined, { producer: optional({ $type: 'QueryProducerDescriptor', resourceType: 'Sql', query: { $type: 'PuppetExpression', source: 'x' } }) }))), layer('modules', named('m', bind('db', 'fallback')))]),
        services: query([]),
        values: { db: 'fallback' }
    },
    {
        name: 'ARM-8 Query: the query service is pluggable; without one the lookup fails',
        model: () => site(bind('db', undefined, { producer: { $type: 'QueryProducerDescriptor', query: { $type: 'PuppetExpression', source: 'x' } } })),
        lookupErrors: { db: ['INJECT_NO_QUERY_SERVICE', "No query service is configured to answer the query of 'Data/db'"] }
    },
    {
        name: 'binder §2: "Type error: incompatible type returned by producer, expected: <T>, got: <inferred>"',
        model: () => site(bind('n', undefined, { type: 'Integer', producer: lookupOf('s') }), bind('s', 'text')),
        lookupErrors: { n: ['INJECT_PRODUCER_TYPE', 'Type error: incompatible type returned by producer, expected: Integer, got: String'] }
    },
    {
        name: 'binder §2: lookup(T, name) asserts the value: "Type error: incompatible type, expected: <T>, got: <inferred>"',
        model: () => site(bind('s', 'text')),
        lookupErrors: { 's@Integer': ['INJECT_LOOKUP_TYPE', 'Type error: incompatible type, expected: Integer, got: String'] }
    },
    {
        name: 'binder checker INCOMPATIBLE_TYPE: a Lookup producer whose type is not assignable to the binding type',
        model: () => site(bind('n', undefined, { type: 'Integer', producer: lookupOf('s', 'String') }), bind('s', 'x')),
        errors: [['INJECT_LOOKUP_PRODUCER_TYPE', 'A Binding with a Lookup producer has an incompatible type: expected a Integer, but got a String.']]
    },
    {
        name: 'ARM-8 Injector: producers are lazy: a failing producer does not fail creation, only its lookup',
        model: () => site(bind('bad', undefined, { producer: instance('Nope') }), bind('good', 1)),
        values: { good: 1 },
        lookupErrors: { bad: 'INJECT_CLASS_NOT_FOUND' }
    },
    {
        name: 'model invariant: a non-caching producer may not wrap another one',
        model: () => site(bind('x', undefined, { producer: nonCaching(nonCaching(constant(1))) })),
        lookupErrors: { x: 'INJECT_NESTED_NON_CACHING' }
    },
    {
        name: 'ARM-8 Puppet Functions inject / optionally_inject: unbound keys raise, or give undef',
        model: () => site(bind('x', 1)),
        lookupErrors: { nope: ['INJECT_NOT_FOUND', "No binding for key 'Data/nope'"] },
        check: inj => expect(inj.optionallyLookup('nope')).toBeNull()
    },
    {
        name: 'binder checker MISSING_PRODUCER: a concrete binding without a producer',
        model: () => site(bind('x')),
        errors: [['INJECT_MISSING_PRODUCER', "A Binding has no producer: 'Data/x'"]]
    },
    {
        name: 'ARM-8 Typed, Anonymous Binding: bind Type[Logger] to Type[SpecialLogger] (type-only key)',
        model: () => site(bind(undefined, undefined, { type: 'Type[Logger]', producer: instance('SpecialLogger') })),
        services: { instances: () => ({ instantiate: (name: string) => ({ runtimeType: name }) }) },
        check: inj => expect(inj.lookup('', 'Type[Logger]')).toEqual({ runtimeType: 'SpecialLogger' })
    },
    {
        name: 'a producer extension makes descriptor kinds the injector does not know',
        model: () => site(bind('h', undefined, { producer: { $type: 'HieraInterpolationProducerDescriptor', template: 'x' } as unknown as ProducerDescriptor })),
        services: { extensions: () => ({ produce: (d: { $type: string }) => (d.$type === 'HieraInterpolationProducerDescriptor' ? { value: 'interpolated' } : undefined) }) },
        values: { h: 'interpolated' }
    },
    {
        name: 'an unknown descriptor kind without an extension fails at lookup',
        model: () => site(bind('h', undefined, { producer: { $type: 'SomethingNew' } as unknown as ProducerDescriptor })),
        lookupErrors: { h: 'INJECT_UNSUPPORTED_PRODUCER' }
    },
    {
        name: 'binder: when blocks make producers request-specific (the winning constant differs per node)',
        model: () => site(bind('x', 'common'), when(cat('node', 'other.example.com'), bind('x', 'other'))),
        request: { node: 'other.example.com', facts: { fqdn: 'other.example.com' } },
        values: { x: 'other' }
    }
];

describe('producers (binder §5, ARM-8 Producer)', () => {
    it.each(cases)('$name', c => runCase(c));
});

export const COUNT = cases.length;
