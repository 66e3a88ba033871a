import { describe, expect, test } from 'vitest';
import { jsonText, writeJsonText, type Json } from '../../src/catalog/index.js';

const values: Array<[string, Json]> = [
    ['null', null],
    ['a string', 'x"y'],
    ['an empty object', {}],
    ['an empty array', []],
    ['a catalog shape', { name: 'n', resources: [{ type: 'File', title: '/a', parameters: { mode: '0644', n: 1n, f: 1.5 } }, { type: 'Notify', title: 'b', tags: [] }], edges: [], skip: undefined }],
    ['nested arrays', [[1n, [2n, [3n]]], { a: { b: { c: [] } } }]]
];

describe('writeJsonText writes exactly jsonText, in pieces', () => {
    test.each(values)('%s', (_name, v) => {
        const pieces: string[] = [];
        writeJsonText(v, p => { pieces.push(p); });
        expect(pieces.join('')).toBe(jsonText(v));
    });
});

describe('jsonText writes Integers exactly and Floats as Puppet does', () => {
    test.each([
        [1n, '1'], [-7n, '-7'], [123456789012345678901234567890n, '123456789012345678901234567890'],
        [2, '2.0'], [0.1, '0.1'], [1e-5, '1.0e-05'], [-0, '-0.0'], [1.5e300, '1.5e+300'], [1e20, '1.0e+20'], [9223372036854775807, '9.223372036854776e+18'], [Infinity, 'null']
    ] as Array<[Json, string]>)('%s', (v, text) => {
        expect(jsonText(v)).toBe(text);
        expect(jsonText({ v })).toBe(`{\n  "v": ${text}\n}`);
    });

    test('a nested value continues the indentation it is written at', () => {
        expect(jsonText({ a: [1n, 'x\ny'], b: {} }, '  ')).toBe('{\n    "a": [\n      1,\n      "x\\ny"\n    ],\n    "b": {}\n  }');
    });
});
