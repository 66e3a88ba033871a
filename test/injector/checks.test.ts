import { describe, expect, it } from 'vitest';
import type { ProducerDescriptor } from '../../generated/model/bindings.js';
import type { InjectedValue, InjectorOverrides, ProducerObject } from '../../src/injector/index.js';
import { bind, constant, multibind, named, site } from './build.js';
import { createInjector } from '../../src/injector/index.js';
import { modelRegistry, type Model, type ModelObject } from '../../src/model/index.js';
import { REQUEST, runCase, type Case } from './harness.js';

const made: string[] = [];
const factory: InjectorOverrides = {
    instances: () => ({
        instantiate: (name: string) => {
            made.push(name);
            if (name === 'MyUUIDProducer') {
                let n = 0;
                const p: ProducerObject = { runtimeType: name, produce: (): InjectedValue => `uuid-${++n}` };
                return p;
            }
            return name.startsWith('Missing') ? undefined : { runtimeType: name };
        }
    })
};

const cases: Case[] = [
    {
        name: 'binder checker INCOMPATIBLE_TYPE: "A Binding with a Producer[v] has an incompatible type" at creation',
        model: () => site(bind('n', 'forty-two', { type: 'Integer' })),
        errors: [['INJECT_CONSTANT_TYPE', "A Binding with a Producer['forty-two'] has an incompatible type: expected a Integer, but got a String."]]
    },
    {
        name: 'binder checker MULTIBIND_NOT_COLLECTION_PRODUCER: a multibinding with a constant producer',
        model: () => site(multibind('m', 'Array[String]', 'mid', { producer: constant(['x']) })),
        errors: ['INJECT_MULTIBIND_NOT_COLLECTION_PRODUCER']
    },
    {
        name: 'binder checker MULTIBIND_INCOMPATIBLE_TYPE: an Array multibind producer cannot bind a Hash',
        model: () => site(multibind('m', 'Hash[String, String]', 'mid', { producer: { $type: 'ArrayMultibindProducerDescriptor' } })),
        errors: [['INJECT_MULTIBIND_INCOMPATIBLE_TYPE', 'Array Multibind Producer cannot bind a Hash[String, String] value']]
    },
    {
        name: 'binder checker MISSING_CLASS_NAME and MISSING_KEY',
        model: () => site(bind('a', undefined, { producer: { $type: 'InstanceProducerDescriptor' } }), bind('b', undefined, { producer: { $type: 'HashLookupProducerDescriptor', name: 'x' } })),
        errors: ['INJECT_MISSING_CLASS_NAME', 'INJECT_MISSING_KEY']
    },
    {
        name: 'binder: "Duplicate key (same priority) contributed to Array Multibinding <name> with unnamed entry." (priority_on_unnamed)',
        model: () => site(multibind('a', 'Array[String]', 'aid', { producer: { $type: 'ArrayMultibindProducerDescriptor', priorityOnUnnamed: true } }), bind(undefined, 'x', { in: 'aid' }), bind(undefined, 'y', { in: 'aid' })),
        lookupErrors: { a: ['INJECT_DUPLICATE_ARRAY_UNNAMED', "Duplicate key (same priority) contributed to Array Multibinding 'a' with unnamed entry."] }
    },
    {
        name: 'ARM-8 Typed, Anonymous Binding note / binder assisted inject: inject(SomeType) without a binding creates one instance',
        model: () => site(bind('x', 1)),
        services: factory,
        check: inj => {
            const first = inj.lookup('', 'Type[Logger]');
            expect(first).toEqual({ runtimeType: 'Logger' });
            expect(inj.lookup('', 'Type[Logger]')).toBe(first);
            expect(inj.optionallyLookup('', 'Type[MissingThing]')).toBeNull();
            expect(inj.optionallyLookup('', 'String')).toBeNull();
        }
    },
    {
        name: 'ARM-8 Producer: bind String, request-id to producer "mymodule::uuid" (a producer bound by name)',
        model: () => site(
            bind('mymodule::uuid', undefined, { type: 'Type[Producer]', producer: { $type: 'InstanceProducerDescriptor', className: 'MyUUIDProducer' } }),
            bind('request-id', undefined, { type: 'String', producer: { $type: 'ProducerProducerDescriptor', producer: { $type: 'LookupProducerDescriptor', type: 'Type[Producer]', name: 'mymodule::uuid' } as ProducerDescriptor } })),
        services: factory,
        check: inj => {
            expect(inj.lookup('request-id')).toBe('uuid-1');
            expect(inj.lookup('request-id')).toBe('uuid-2');
        }
    }
];

describe('creation-time checks (binder BindingsChecker) and runtime classes', () => {
    it.each(cases)('$name', c => runCase(c));
});

describe('the input model', () => {
    const index = modelRegistry().byPackageName('bindings') as Model['index'];
    const as = (root: object): Model => ({ index, root: root as ModelObject });

    it('a provider\'s ContributedBindings is one layer named after it, stamped with its source', () => {
        const inj = createInjector(as({
            $type: 'ContributedBindings', name: 'hiera:/', source: { $type: 'ContributionSource', scheme: 'hiera', uri: 'hiera:/' },
            bindings: [named('environment::common', bind('x', 1))]
        }), REQUEST);
        expect(inj.lookup('x')).toBe(1n);
        expect(inj.explain('x').candidates[0].layer).toBe('hiera:/');
        expect((inj.effectiveBindings().root.entries as { winner: { contributedBy: string } }[])[0].winner.contributedBy).toBe('hiera:/');
    });

    it('a NamedBindings (one bindings file) is one layer', () => {
        expect(createInjector(as(named('mymodule::default', bind('y', 'v'))), REQUEST).lookup('y')).toBe('v');
    });

    it('anything else is refused', () => {
        expect(() => createInjector(as({ $type: 'Category', categorization: 'node', value: 'x' }), REQUEST)).toThrow(/An injector is made from LayeredBindings, ContributedBindings or NamedBindings, got: Category/);
    });
});

export const COUNT = cases.length;
