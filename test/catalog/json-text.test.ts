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

/** Floats as the oracle's JSON (Ruby's generator, Float#to_s) writes them. */
const floats: Array<[number, string]> = [
    [1.5, '1.5'], [2, '2.0'], [1e20, '1.0e+20'], [4.2e21, '4.2e+21'], [1e-5, '1.0e-05'], [-2.5e-10, '-2.5e-10'], [9223372036854775807, '9.223372036854776e+18']
];

describe('jsonText writes a Float as Ruby does', () => {
    test.each(floats)('%s', (f, text) => {
        expect(jsonText(f)).toBe(text);
    });
});
