import { describe, expect, test } from 'vitest';
import { PDefault, PIterator, PRegexp, PSensitive, toData, type PuppetValue, type ToDataRules } from '../../src/values/index.js';

const RULES: ToDataRules = { integer: n => `int:${n}`, float: n => `float:${n}`, type: () => 'a type' };
const hash = (...e: Array<[PuppetValue, PuppetValue]>): PuppetValue => new Map(e);

describe('the one rich-data encoder', () => {
    test.each([
        ['JSON values stay', hash(['a', [true, null, 's']]), { a: [true, null, 's'] }],
        ['numbers follow the rules', [1n, 1.5], ['int:1', 'float:1.5']],
        ['a non-string key makes the pair form', hash([1n, 'x']), { __ptype: 'Hash', __pvalue: ['int:1', 'x'] }],
        ['so does a __ptype key of its own', hash(['__ptype', 'x']), { __ptype: 'Hash', __pvalue: ['__ptype', 'x'] }],
        ['runtime values are tagged', [PDefault.instance, new PRegexp('a/b'), new PSensitive(2n)],
            [{ __ptype: 'Default' }, { __ptype: 'Regexp', __pvalue: 'a/b' }, { __ptype: 'Sensitive', __pvalue: 'int:2' }]],
        ['an iterator without a rule is null', new PIterator(() => [1n]), null]
    ])('%s', (_what, value, expected) => {
        expect(toData(value, RULES)).toEqual(expected);
    });

    test('an iterator rule gets the elements', () => {
        expect(toData(new PIterator(() => [1n, 2n]), { ...RULES, iterator: e => e.length })).toBe(2);
    });
});
