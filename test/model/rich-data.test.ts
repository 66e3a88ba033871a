import { describe, expect, test } from 'vitest';
import {
    fromRichData, packValue, parseJson, PBinary, PDefault, PRegexp, PSensitive, PTimestamp, stringifyJson, toRichData, unpackValue,
    type PuppetValue, type RichData
} from '../../src/model/index.js';
import { isUserError } from '../../src/common/index.js';
import { parseTypeString } from '../../src/types/index.js';

const cases: Array<[string, PuppetValue, RichData]> = [
    ['undef', null, null],
    ['string', 'text', 'text'],
    ['integer', 42n, 42],
    ['float', 0.5, 0.5],
    ['integer beyond 53 bits', 2n ** 60n, 2n ** 60n as unknown as RichData],
    ['boolean', true, true],
    ['array', [1n, 'a', null], [1, 'a', null]],
    ['hash with string keys', new Map<PuppetValue, PuppetValue>([['a', 1n], ['b', [true]]]), { a: 1, b: [true] }],
    ['hash with a non-string key', new Map<PuppetValue, PuppetValue>([[1n, 'one'], ['two', 2n]]), { __ptype: 'Hash', __pvalue: [1, 'one', 'two', 2] }],
    ['hash with its own __ptype key', new Map<PuppetValue, PuppetValue>([['__ptype', 'x']]), { __ptype: 'Hash', __pvalue: ['__ptype', 'x'] }],
    ['default', PDefault.instance, { __ptype: 'Default' }],
    ['sensitive', new PSensitive('secret'), { __ptype: 'Sensitive', __pvalue: 'secret' }],
    ['regexp', new PRegexp('^a+$'), { __ptype: 'Regexp', __pvalue: '^a+$' }],
    ['binary', new PBinary(new Uint8Array([0, 1, 254, 255])), { __ptype: 'Binary', __pvalue: 'AAH+/w==' }],
    ['timestamp', new PTimestamp(1795320000000000000n), { __ptype: 'Timestamp', __pvalue: '2026-11-22T04:00:00.000000000 UTC' }],
    // Enum values are kept sorted, as Puppet 7.23 encodes them (Pcore::EnumType values ['absent', 'present']).
    ['type', parseTypeString('Enum[present, absent]'), { __ptype: 'Type', __pvalue: "Enum['absent', 'present']" }],
    ['nested sensitive in a hash', new Map<PuppetValue, PuppetValue>([['pw', new PSensitive(new Map<PuppetValue, PuppetValue>([['k', 'v']]))]]), { pw: { __ptype: 'Sensitive', __pvalue: { k: 'v' } } }]
];

describe('Puppet rich data', () => {
    test.each(cases)('%s encodes as Puppet does', (_name, value, data) => {
        expect(toRichData(value)).toEqual(data);
    });

    test.each(cases)('%s decodes back to the same value', (_name, value, data) => {
        expect(fromRichData(data)).toEqual(value);
    });

    test('a sensitive value never prints its content', () => {
        expect(String(new PSensitive('hunter2'))).toBe('Sensitive [value redacted]');
    });

    test.each<[string, RichData, string]>([
        ['Hash pairs of odd length', { __ptype: 'Hash', __pvalue: ['a'] }, 'key, value pairs'],
        ['Regexp without a string', { __ptype: 'Regexp', __pvalue: 1 }, 'must be a string'],
        ['unknown type', { __ptype: 'Frobnicator', __pvalue: 'x' }, 'unsupported type']
    ])('malformed rich data is a user error: %s', (_name, data, message) => {
        try {
            fromRichData(data, '/value');
            expect.unreachable();
        } catch (e) {
            expect(isUserError(e) && e.diagnostics[0].code).toBe('MODEL_WRONG_DATATYPE');
            expect(isUserError(e) && e.diagnostics[0].message).toContain(message);
        }
    });
});

describe('64-bit integers stay exact', () => {
    test.each(['9007199254740993', '-9223372036854775808', '9223372036854775807'])('%s through JSON and msgpack', digits => {
        const value = parseJson(`{"n": ${digits}}`, 'x.json') as { n: bigint };
        expect(value.n).toBe(BigInt(digits));
        expect(stringifyJson(value)).toBe(`{\n  "n": ${digits}\n}\n`);
        expect((unpackValue(packValue(value), 'x.msgpack') as { n: bigint }).n).toBe(BigInt(digits));
    });

    test('integers beyond 32 bits are int64 on the msgpack wire, not float64', () => {
        const bytes = packValue(2 ** 40);
        expect(bytes[0]).toBe(0xd3);
        expect(unpackValue(bytes, 'x')).toBe(2 ** 40);
    });
});
