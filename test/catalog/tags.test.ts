import { describe, expect, test } from 'vitest';
import { isValidTag } from '../../src/catalog/tags.js';

// Puppet's tag rule: a letter or digit of any script or `_`, then those or `:`, `.`, `-`.
// isValidTag answers ASCII text without the Unicode pattern; both must agree everywhere.
const PUPPET_TAG = /^[\p{L}\p{N}_][\p{L}\p{N}_:.-]*$/u;

describe('isValidTag', () => {
    test.each([
        ['a', true], ['A', true], ['_x', true], ['x::y', true], ['1a', true], ['a-b.c:d', true],
        ['-a', false], [':a', false], ['.a', false], ['a b', false], ['', false], ['a!', false], ['a\n', false],
        ['é', true], ['éa-1', true], ['a\u00e9', true], ['\u0661\u0662', true], ['日本', true], ['a\u200b', false], ['a\u00a0', false]
    ] as const)('%j -> %s', (name, valid) => {
        expect(isValidTag(name)).toBe(valid);
        expect(PUPPET_TAG.test(name)).toBe(valid);
    });

    test('agrees with the Unicode pattern for every character of the Basic Multilingual Plane, alone and beside a letter', () => {
        const differing: number[] = [];
        for (let c = 0; c <= 0xffff; c++) {
            const ch = String.fromCharCode(c);
            for (const s of [ch, `a${ch}`, `${ch}a`]) if (isValidTag(s) !== PUPPET_TAG.test(s)) differing.push(c);
        }
        expect(differing).toEqual([]);
    });
});
