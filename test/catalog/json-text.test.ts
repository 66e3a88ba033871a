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
