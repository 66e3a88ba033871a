import { describe, expect, it } from 'vitest';
import type { ArrayMultibindProducerDescriptor, HashMultibindProducerDescriptor } from '../../generated/model/bindings.js';
import { bind, cat, lambda, layer, layered, multibind, named, site, when } from './build.js';
import { fakeEvaluator, pv, runCase, type Case } from './harness.js';
import type { InjectedValue } from '../../src/injector/index.js';
import type { PuppetValue } from '../../src/values/index.js';

const arrayOpts = (o: Omit<ArrayMultibindProducerDescriptor, '$type'>): ArrayMultibindProducerDescriptor => ({ $type: 'ArrayMultibindProducerDescriptor', ...o });
const hashOpts = (o: Omit<HashMultibindProducerDescriptor, '$type'>): HashMultibindProducerDescriptor => ({ $type: 'HashMultibindProducerDescriptor', ...o });

const flattenLambda = lambda('|$memo, $x| { $memo + flatten($x) }', 'memo', 'x');
const mergeLambda = lambda('|$key, $current, $value| { unless !$current { $value } else { $current + $value } }', 'key', 'current', 'value');
const deepFlat = (v: InjectedValue): InjectedValue[] => (Array.isArray(v) ? v.flatMap(deepFlat) : [v]);
const combinators = fakeEvaluator({
    [flattenLambda.source]: ([memo, x]) => [...(memo as PuppetValue[]), ...(deepFlat(x) as PuppetValue[])],
    [mergeLambda.source]: ([, current, value]) => (current === null ? value : [...(current as PuppetValue[]), ...(value as PuppetValue[])])
});

const cases: Case[] = [
    {
        name: 'ARM-8 Array Multibind Example: contributions concatenated, a non-array appended (users)',
        model: () => site(multibind('users', 'Array[String]', 'included_users'), bind(undefined, 'anna', { in: 'included_users' }), bind(undefined, ['akuna', 'ries'], { in: 'included_users' })),
        values: { users: ['anna', 'akuna', 'ries'] }
    },
    {
        name: 'binder §6: fragments come from all layers (not shadowed), in layer order then document order',
        model: () => layered([
            layer('site', named('s', bind(undefined, 'site1', { in: 'ids' }))),
            layer('modules', named('m', multibind('names', 'Array[String]', 'ids'), bind(undefined, 'mod1', { in: 'ids' }), when(cat('environment', 'test'), bind(undefined, 'no', { in: 'ids' })), bind(undefined, 'mod2', { in: 'ids' })))]),
        values: { names: ['site1', 'mod1', 'mod2'] },
        check: inj => {
            expect(inj.explain('names').candidates.map(c => c.status)).toEqual(['winner', 'contribution', 'contribution', 'contribution', 'unused']);
            const entry = (inj.effectiveBindings().root.entries as { key: string; contributions: { included: boolean }[] }[]).find(e => e.key === 'Data/names');
            expect(entry?.contributions.map(c => c.included)).toEqual([true, true, true, false]);
        }
    },
    {
        name: 'ARM-8 Multibinding Rules: Array multibinds ignore the names of contributed fragments',
        model: () => site(multibind('names', 'Array[String]', 'ids'), bind('same', 'a', { in: 'ids' }), bind('same', 'b', { in: 'ids' })),
        values: { names: ['a', 'b'] }
    },
    {
        name: 'binder ArrayMultibindProducer priority_on_named: the higher precedence named fragment is kept (inverted comparison fixed)',
        model: () => site(multibind('names', 'Array[String]', 'ids', { producer: arrayOpts({ priorityOnNamed: true }) }), bind('k', 'low', { in: 'ids' }), when(cat('node', 'kermit.example.com'), bind('k', 'high', { in: 'ids' }))),
        values: { names: ['high'] }
    },
    {
        name: 'binder: "Duplicate key (same priority) contributed to Array Multibinding"',
        model: () => site(multibind('names', 'Array[String]', 'ids', { producer: arrayOpts({ priorityOnNamed: true }) }), bind('k', 'a', { in: 'ids' }), bind('k', 'b', { in: 'ids' })),
        lookupErrors: { names: ['INJECT_DUPLICATE_ARRAY_KEY', "Duplicate key (same priority) contributed to Array Multibinding 'names', key: 'k'."] }
    },
    {
        name: 'binder ArrayMultibindProducer: flatten (levels) then uniq',
        model: () => site(multibind('names', 'Array[Data]', 'ids', { producer: arrayOpts({ flatten: -1, uniq: true }) }), bind(undefined, [1, [2, [3]]], { in: 'ids' }), bind(undefined, [[3, 1]], { in: 'ids' })),
        values: { names: [1, 2, 3] }
    },
    {
        name: 'binder: "Type Error: contribution to <name> does not match type of multibind, expected: E, or Array[E]"',
        model: () => site(multibind('names', 'Array[String]', 'ids'), bind(undefined, 42, { in: 'ids' })),
        lookupErrors: { names: ['INJECT_ARRAY_CONTRIBUTION_TYPE', "Type Error: contribution to 'names' does not match type of multibind, expected: String, or Array[String], got: Integer"] }
    },
    {
        name: 'ARM-8 Multibind Array Combinator Option: |$memo, $x| gets the combined result and each value (flattened-data)',
        model: () => site(multibind('flattened-data', 'Array[Data]', 'example', { producer: arrayOpts({ combinator: flattenLambda }) }), bind(undefined, [1, 2, [3]], { in: 'example' }), bind(undefined, [4, [[5, 6]]], { in: 'example' })),
        services: combinators.services,
        values: { 'flattened-data': [1, 2, 3, 4, 5, 6] }
    },
    {
        name: 'combinator arity: an Array combinator takes $memo and $x',
        model: () => site(multibind('a', 'Array[Data]', 'x', { producer: arrayOpts({ combinator: lambda('|$x| { $x }', 'x') }) }), bind(undefined, 1, { in: 'x' })),
        lookupErrors: { a: 'INJECT_COMBINATOR_ARITY' }
    },
    {
        name: 'ARM-8 Multibinding Rules: a Hash multibinding requires fragments to have a name ("A Hash Multibind contribution to <name> must have a name.")',
        model: () => site(multibind('h', 'Hash[String, Data]', 'hid'), bind(undefined, 1, { in: 'hid' })),
        lookupErrors: { h: ['INJECT_HASH_CONTRIBUTION_UNNAMED', "A Hash Multibind contribution to 'h' must have a name."] }
    },
    {
        name: 'ARM-8 Multibinding Rules: hash fragment names must be unique or an error is raised',
        model: () => layered([layer('site', named('s', bind('Mary', 'x', { in: 'hid' }))), layer('modules', named('m', multibind('names-with-data', 'Hash[String, Data]', 'hid'), bind('Mary', 'engineering', { in: 'hid' }), bind('John', 'support', { in: 'hid' })))]),
        lookupErrors: { 'names-with-data': ['INJECT_DUPLICATE_HASH_KEY', "Duplicate key contributed to Hash Multibinding 'names-with-data', key: 'Mary'."] }
    },
    {
        name: 'ARM-8 Multi-binding: the Hash example collects names to values (Fred gets an Array)',
        model: () => site(multibind('names-with-data', 'Hash[String, Data]', 'mymodule::names-with-data'), bind('Mary', 'engineering', { in: 'mymodule::names-with-data' }), bind('John', 'support', { in: 'mymodule::names-with-data' }), bind('Fred', ['support', 'sales'], { in: 'mymodule::names-with-data' })),
        values: { 'names-with-data': { Mary: 'engineering', John: 'support', Fred: ['support', 'sales'] } }
    },
    {
        name: 'binder conflict_resolution priority: the higher precedence fragment wins',
        model: () => layered([layer('site', named('s', bind('k', 'site', { in: 'hid' }))), layer('modules', named('m', multibind('h', 'Hash[String, Data]', 'hid', { producer: hashOpts({ conflictResolution: 'priority' }) }), bind('k', 'module', { in: 'hid' })))]),
        values: { h: { k: 'site' } }
    },
    {
        name: 'binder: "Duplicate key (same priority) contributed to Hash Multibinding"',
        model: () => site(multibind('h', 'Hash[String, Data]', 'hid', { producer: hashOpts({ conflictResolution: 'priority' }) }), bind('k', 1, { in: 'hid' }), bind('k', 2, { in: 'hid' })),
        lookupErrors: { h: ['INJECT_DUPLICATE_HASH_KEY_PRIORITY', "Duplicate key (same priority) contributed to Hash Multibinding 'h', key: 'k'."] }
    },
    {
        name: 'binder conflict_resolution ignore: the first wins, the rest are ignored',
        model: () => site(multibind('h', 'Hash[String, Data]', 'hid', { producer: hashOpts({ conflictResolution: 'ignore' }) }), bind('k', 1, { in: 'hid' }), bind('k', 2, { in: 'hid' })),
        values: { h: { k: 1 } }
    },
    {
        name: 'binder conflict_resolution merge: shallow merge, the earlier (higher) fragment wins per key',
        model: () => site(multibind('h', 'Hash[String, Data]', 'hid', { producer: hashOpts({ conflictResolution: 'merge' }) }), bind('k', { a: 1, b: 1 }, { in: 'hid' }), bind('k', { b: 2, c: 2 }, { in: 'hid' })),
        values: { h: { k: { b: 1, c: 2, a: 1 } } }
    },
    {
        name: 'binder conflict_resolution append with flatten and uniq (Huey, Huey, Dewey, [Huey, [Louie], Dewey])',
        model: () => site(multibind('h', 'Hash[String, Data]', 'hid', { producer: hashOpts({ conflictResolution: 'append', flatten: -1, uniq: true }) }),
            bind('ducks', 'Huey', { in: 'hid' }), bind('ducks', 'Huey', { in: 'hid' }), bind('ducks', 'Dewey', { in: 'hid' }), bind('ducks', ['Huey', ['Louie'], 'Dewey'], { in: 'hid' })),
        values: { h: { ducks: ['Huey', 'Dewey', 'Louie'] } }
    },
    {
        name: 'binder: "Options :uniq, and :flatten, and :conflict_resolution => :append cannot be used with a Multibind of type Hash[String, Integer]"',
        model: () => site(multibind('h', 'Hash[String, Integer]', 'hid', { producer: hashOpts({ conflictResolution: 'append', flatten: 1, uniq: true }) })),
        lookupErrors: { h: ['INJECT_HASH_OPTIONS', 'Options :uniq, and :flatten, and :conflict_resolution => :append cannot be used with a Multibind of type Hash[String, Integer]'] }
    },
    {
        name: 'binder: "Type Error: value contribution to <name>[<k>] is incompatible"',
        model: () => site(multibind('h', 'Hash[String, Integer]', 'hid'), bind('k', 'x', { in: 'hid' })),
        lookupErrors: { h: ['INJECT_HASH_VALUE_TYPE', "Type Error: value contribution to h['k'] is incompatible, expected: Integer, got: String"] }
    },
    {
        name: 'binder: "Type Error: key contribution to <name>[<k>] is incompatible with key type"',
        model: () => site(multibind('h', "Hash[Enum['a'], Data]", 'hid'), bind('k', 1, { in: 'hid' })),
        lookupErrors: { h: ['INJECT_HASH_KEY_TYPE', "Type Error: key contribution to h['k'] is incompatible with key type: Enum['a']"] }
    },
    {
        name: 'ARM-8 Multibind Hash Combinator Option: |$key, $current, $value| concatenates fruits',
        model: () => site(multibind('merged-hash', 'Hash[String, Data]', 'example', { producer: hashOpts({ combinator: mergeLambda }) }),
            bind('fruits', ['apple', 'orange'], { in: 'example' }), bind('fruits', ['pear', 'mango'], { in: 'example' }), bind('berries', ['strawberry', 'blueberry'], { in: 'example' })),
        services: combinators.services,
        values: { 'merged-hash': { fruits: ['apple', 'orange', 'pear', 'mango'], berries: ['strawberry', 'blueberry'] } }
    },
    {
        name: 'ARM-8 Overriding Multibindings: an overriding multibind without an id gets no fragments (empty Hash)',
        model: () => layered([layer('site', named('s', multibind('syntax', 'Hash[String, Data]', undefined, { override: true }))), layer('modules', named('m', multibind('syntax', 'Hash[String, Data]', 'syntax-validators'), bind('xml', 'MyXmlValidator', { in: 'syntax-validators' })))]),
        values: { syntax: {} }
    },
    {
        name: 'ARM-8 Overriding Multibindings: with the same key and identity it still gets the same fragments',
        model: () => layered([layer('site', named('s', multibind('syntax', 'Hash[String, Data]', 'syntax-validators', { override: true }))), layer('modules', named('m', multibind('syntax', 'Hash[String, Data]', 'syntax-validators'), bind('xml', 'MyXmlValidator', { in: 'syntax-validators' })))]),
        values: { syntax: { xml: 'MyXmlValidator' } }
    },
    {
        name: 'binder multibind spec: a multibinding contributed to another appears as one entry',
        model: () => site(multibind('data1', 'Hash[String, Data]', 'data1'), bind('a', 10, { in: 'data1' }), bind('b', 20, { in: 'data1' }),
            multibind('detail', 'Hash[String, Data]', 'data2', { in: 'data1' }), bind('a', 30, { in: 'data2' }), bind('b', 40, { in: 'data2' })),
        values: { data1: { a: 10, b: 20, detail: { a: 30, b: 40 } } }
    },
    {
        name: 'binder §6: no contributions give an empty collection',
        model: () => site(multibind('a', 'Array[String]', 'aid'), multibind('h', 'Hash[String, String]', 'hid')),
        values: { a: [], h: {} }
    },
    {
        name: 'ARM-8: the multibind id must be unique across all effective bindings',
        model: () => site(multibind('a', 'Array[String]', 'same'), multibind('b', 'Array[String]', 'same')),
        errors: [['INJECT_DUPLICATE_MULTIBIND_ID', "The multibind id 'same' is used by both 'Data/a' and 'Data/b'"]]
    },
    {
        name: 'a contribution to an id no multibinding has is reported as unused',
        model: () => site(bind(undefined, 'x', { in: 'nobody' })),
        warnings: ['INJECT_ORPHAN_CONTRIBUTION']
    },
    {
        name: 'binder checker MULTIBIND_TYPE_ERROR: a multibinding binds a collection type',
        model: () => site(multibind('m', 'String', 'mid')),
        errors: [['INJECT_MULTIBIND_TYPE', "A Multibinding is expected to bind a collection type, but got: 'String'"]]
    },
    {
        name: 'binder: "Makes multibind default producers singletons": the collected result is computed once',
        model: () => site(multibind('a', 'Array[String]', 'aid'), bind(undefined, 'x', { in: 'aid' })),
        check: inj => expect(inj.lookup('a')).toBe(inj.lookup('a'))
    }
];

describe('multibinds (ARM-8 Multi-binding, binder §6)', () => {
    it.each(cases)('$name', c => runCase(c));

    it('the array combinator is called once per fragment with the memo first', () => {
        const e = fakeEvaluator({ '|$memo, $x| { $memo << $x }': ([memo, x]) => [...(memo as PuppetValue[]), x as PuppetValue] });
        runCase({
            name: 'calls',
            model: () => site(multibind('a', 'Array[Data]', 'i', { producer: arrayOpts({ combinator: lambda('|$memo, $x| { $memo << $x }', 'memo', 'x') }) }), bind(undefined, 1, { in: 'i' }), bind(undefined, [2], { in: 'i' })),
            services: e.services,
            check: inj => {
                expect(inj.lookup('a')).toEqual(pv([1, [2]]));
                expect(e.calls).toHaveLength(2);
            }
        });
    });
});

export const COUNT = cases.length + 1;
