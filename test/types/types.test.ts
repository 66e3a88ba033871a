import { describe, expect, test } from 'vitest';
import { describeMismatch, formatMismatches, inferType, isAssignable, isInstance, parseTypeString, typeToString } from '../../src/types/index.js';
import type { PuppetValue } from '../../src/values/index.js';

const h = (...pairs: Array<[PuppetValue, PuppetValue]>): Map<PuppetValue, PuppetValue> => new Map(pairs);

describe('type string forms are Puppet\'s', () => {
    test.each([
        ['Integer[1, 5]', 'Integer[1, 5]'],
        ['Integer[1]', 'Integer[1]'],
        ['Integer[default, 0]', 'Integer[default, 0]'],
        // Puppet keeps Enum values unique and sorted (PEnumType#initialize).
        ['Enum[present, absent]', "Enum['absent', 'present']"],
        ['Array[String, 1]', 'Array[String, 1]'],
        ['Array[Any]', 'Array'],
        ['Hash[String, Integer]', 'Hash[String, Integer]'],
        ['Optional[String]', 'Optional[String]'],
        ['Struct[{a => Integer, Optional[b] => String}]', "Struct[{'a' => Integer, Optional['b'] => String}]"],
        ['Pattern[/^x/]', 'Pattern[/^x/]'],
        ["File['/tmp']", "File['/tmp']"],
        ['Tuple[Integer, String, 1, 3]', 'Tuple[Integer, String, 1, 3]'],
        ['Float[0.5]', 'Float[0.5]']
    ])('%s prints as %s', (text, printed) => {
        expect(typeToString(parseTypeString(text))).toBe(printed);
    });
});

describe('instance checks', () => {
    test.each<[string, PuppetValue, boolean]>([
        ['Integer[1, 5]', 3n, true],
        ['Integer[1, 5]', 7n, false],
        ['Integer', 3.0, false],
        ['Numeric', '3', false],
        ['String[1, 3]', 'abcd', false],
        ["Enum['a', 'b']", 'B', false],
        ['Pattern[/^x/, /c$/]', 'abc', true],
        ['Optional[String]', null, true],
        ['Data', 'x', true],
        ['Array[Integer, 1]', [], false],
        ['Hash[String, Integer]', h([1n, 1n]), false],
        ['Struct[{a => Integer, Optional[b] => String, c => Optional[Integer]}]', h(['a', 1n]), true],
        ['Struct[{a => Integer, c => Optional[Integer]}]', h(['a', 1n], ['z', 0n]), false],
        ['Tuple[Integer, String, 1, 3]', [1n], true],
        ['Tuple[Integer, String]', [1n, 'x', 'y'], false]
    ])('%s accepts %o: %s', (type, value, expected) => {
        expect(isInstance(parseTypeString(type), value)).toBe(expected);
    });
});

describe('assignability', () => {
    test.each<[string, string, boolean]>([
        ['Numeric', 'Integer', true],
        ['Integer', 'Numeric', false],
        ['Integer[1, 10]', 'Integer[2, 3]', true],
        ['Optional[String]', 'Undef', true],
        ['Data', 'Array[String]', true],
        ['Scalar', 'Hash', false]
    ])('%s := %s is %s', (a, b, expected) => {
        expect(isAssignable(parseTypeString(a), parseTypeString(b))).toBe(expected);
    });
});

describe('inference', () => {
    test.each<[PuppetValue, string]>([
        [3n, 'Integer[3, 3]'],
        ['abc', 'String'],
        [[1n, 'a'], 'Tuple[Integer[1, 1], String]'],
        [h(['a', 1n]), "Struct[{'a' => Integer[1, 1]}]"]
    ])('type(%o) is %s', (value, printed) => {
        expect(typeToString(inferType(value))).toBe(printed);
    });
});

describe('mismatch messages are Puppet\'s', () => {
    test.each<[string, PuppetValue, string[]]>([
        ['Integer', 'x', ["parameter 'n' expects an Integer value, got String"]],
        ['Array[Integer]', [1n, 'x'], ["parameter 'n' index 1 expects an Integer value, got String"]],
        ['Struct[{name => String}]', h(['gid', 1n]), ["parameter 'n' expects a value for key 'name'", "parameter 'n' unrecognized key 'gid'"]],
        ['Pattern[/^\\d+$/]', 'ten', ["parameter 'n' expects a match for Pattern[/^\\d+$/], got 'ten'"]],
        ['Optional[String]', 1n, ["parameter 'n' expects a value of type Undef or String, got Integer"]],
        ['Array[String, 1]', [], ["parameter 'n' expects size to be at least 1, got 0"]]
    ])('%s against %o', (type, value, messages) => {
        expect(formatMismatches("parameter 'n'", describeMismatch(parseTypeString(type), value))).toEqual(messages);
    });
});
