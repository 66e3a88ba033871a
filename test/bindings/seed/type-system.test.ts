import { describe, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "Type System": the type names of its table as the types of bindings (`bind T, 'name' to
 * value`), each checked when the injector is made (a constant) or when the value is produced.
 * `Literal` is "Boolean, Integer, Float, or String", `Number` "Integer or Float", a bare `Array`
 * holds Data, `Hash[x]` has values of type x.
 */
const bound = (decl: string): Record<string, string> => ({ 'bindings/default.pp': b(`  ${decl}`) });

const CASES: readonly SeedCase[] = [
    ...["'text'", '42', '1.5', 'true'].map((v): SeedCase => ({
        section: 'Type System', rule: `Literal holds ${v}`, files: bound(`bind Literal, 'x' to ${v}`), key: 'x', expect: JSON.parse(v.replaceAll("'", '"'))
    })),
    {
        section: 'Type System', rule: 'an Array is not a Literal',
        files: bound(`bind Literal, 'x' to [1]`), key: 'x', error: { code: 'INJECT_CONSTANT_TYPE', at: 'bindings/default.pp:2:3', message: /expected a Literal/ }
    },
    {
        section: 'Type System', rule: 'Number holds an Integer and a Float',
        files: bound(`bind Array[Number], 'x' to [1, 2.5]`), key: 'x', expect: [1, 2.5]
    },
    {
        section: 'Type System', rule: 'a String is not a Number',
        files: bound(`bind Number, 'x' to '1'`), key: 'x', error: { code: 'INJECT_CONSTANT_TYPE', at: 'bindings/default.pp:2:3', message: /expected a Number/ }
    },
    {
        section: 'Type System', rule: 'Hash[x]: a hash with values of type x (Hash[Literal])',
        files: bound(`bind Hash[Literal], 'x' to { a => 1, b => 'two' }`), key: 'x', expect: { a: 1, b: 'two' }
    },
    {
        section: 'Type System', rule: 'Hash[x]: a value of another type is an error',
        files: bound(`bind Hash[Number], 'x' to { a => 'one' }`), key: 'x', error: { code: 'INJECT_CONSTANT_TYPE', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Type System', rule: 'a bare Array holds Data',
        files: bound(`bind Array, 'x' to [1, 'a', [true], { k => 2.5 }]`), key: 'x', expect: [1, 'a', [true], { k: 2.5 }]
    },
    {
        section: 'Type System', rule: 'Float: a whole Float stays a Float (2.0)',
        files: { ...bound(`bind Float, 'x' to 2.0`), 'manifests/site.pp': notifies({ v: "inject('x')", t: "String(type(inject('x'), 'generalized'))" }) },
        run: 'compile', expect: { v: 2.0, t: 'Float' }
    },
    {
        section: 'Type System', rule: 'Integer: a whole Float is no Integer',
        files: { ...bound(`bind Integer, 'x' to 2.0`), 'manifests/site.pp': notifies({ v: "inject('x')" }) },
        run: 'compile', error: { code: 'INJECT_PRODUCER_TYPE', at: 'bindings/default.pp:2:3', message: /expected: Integer, got: Float/ }
    },
    {
        section: 'Type System', rule: 'keys of different literal types are different keys ("1" and 1)',
        files: { 'bindings/default.pp': b(`  bind 'x' to { '1' => 'string', 1 => 'integer' }`), 'manifests/site.pp': notifies({ s: "inject('x')['1']", i: "inject('x')[1]" }) },
        run: 'compile', expect: { s: 'string', i: 'integer' }
    }
];

describe('ARM-8 Type System (seed statements through the CLI)', () => {
    test.each(named(CASES))('%s', async (_n, c) => check(c));
});
