import { describe, expect, test } from 'vitest';
import { formatFloat, PDefault, PRegexp, PSensitive, puppetEquals, strictEquals, type PuppetValue } from '../../src/values/index.js';
import { formatValue, parseTypeString } from '../../src/types/index.js';

describe('Float strings are Ruby\'s', () => {
    test.each<[number, string]>([[1000, '1000.0'], [3.5, '3.5'], [1e16, '1.0e+16'], [1e15, '1.0e+15'], [1.5e15, '1.5e+15'], [1234567890123456, '1.234567890123456e+15'], [123456789012345, '123456789012345.0'], [999999999999999.9, '999999999999999.9'], [1e14, '100000000000000.0'], [0.0001, '0.0001'], [0.00001, '1.0e-05'], [-2.25, '-2.25']])('%d -> %s', (f, s) => {
        expect(formatFloat(f)).toBe(s);
    });
});

describe('string conversion as notice prints it', () => {
    test.each<[string, PuppetValue, string]>([
        ['nested array', [1n, 'a', null, [2n]], '[1, a, , [2]]'],
        ['hash', new Map<PuppetValue, PuppetValue>([['a', 1n], [3n, 'x']]), '{a => 1, 3 => x}'],
        ['undef', null, ''],
        ['float', 1000, '1000.0'],
        ['regexp', new PRegexp('re.*x'), '/re.*x/'],
        ['sensitive', new PSensitive('x'), 'Sensitive [value redacted]'],
        ['default', PDefault.instance, 'default'],
        ['type', parseTypeString('Integer[1, 5]'), 'Integer[1, 5]'],
        ['reference', parseTypeString("File['/tmp']"), "File['/tmp']"]
    ])('%s', (_name, v, s) => {
        expect(formatValue(v)).toBe(s);
    });
});

describe('equality', () => {
    test.each<[PuppetValue, PuppetValue, boolean, boolean]>([
        ['abc', 'ABC', true, false],
        [1n, 1.0, true, false],
        [[1n, 'a'], [1n, 'A'], true, false],
        [new Map<PuppetValue, PuppetValue>([['a', 1n], ['b', 2n]]), new Map<PuppetValue, PuppetValue>([['b', 2n], ['a', 1n]]), true, true]
    ])('%o vs %o', (a, b, loose, strict) => {
        expect(puppetEquals(a, b)).toBe(loose);
        expect(strictEquals(a, b)).toBe(strict);
    });
});
