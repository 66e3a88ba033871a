import { describe, expect, test } from 'vitest';
import { compareUtf8 } from '../../src/common/index.js';

// compareUtf8 must order as comparing the UTF-8 bytes does (Ruby's String#<=>, Puppet's sorts).
const byBytes = (a: string, b: string): number => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

const STRINGS = [
    '', 'a', 'A', 'ab', 'a\u0000', 'Zebra', 'zebra', 'é', 'e\u0301', '\u00ff', '\u0100', '\u07ff', '\u0800',
    '\ud7ff', '\ue000', '\uffff', '\ufffd', '😀', '😀a', '\ud83d', '\ude00', 'x\ud83dy', 'x\uffffy', '/srv/c0/f1', '/srv/c0/f10', '/srv/c0/f2'
];

describe('compareUtf8 orders as UTF-8 bytes', () => {
    test.each(STRINGS)('%j against every other', a => {
        expect(STRINGS.map(b => Math.sign(compareUtf8(a, b)))).toEqual(STRINGS.map(b => byBytes(a, b)));
    });
});
