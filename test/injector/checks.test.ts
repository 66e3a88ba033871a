import { describe, expect, it } from 'vitest';
import type { ProducerDescriptor } from '../../generated/model/bindings.js';
import type { InjectedValue, InjectorOverrides, ProducerObject } from '../../src/injector/index.js';
import { bind, constant, multibind, site } from './build.js';
import { runCase, type Case } from './harness.js';

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

export const COUNT = cases.length;
