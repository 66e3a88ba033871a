import { describe, expect, test } from 'vitest';
import { rubyRegexpToJs, rubyToJs } from '../../src/values/index.js';

/** Matches recorded from Ruby 3's Regexp (Onigmo): source, literal options, input, match array or null. */
const RUBY: ReadonlyArray<readonly [string, string, string, string[] | null]> = [
    ['\\Afoo\\z', '', 'foo', ['foo']],
    ['\\Afoo\\z', '', 'foo\n', null],
    ['foo\\Z', '', 'foo\n', ['foo']],
    ['^b', '', 'a\nb', ['b']],
    ['a$', '', 'a\nb', ['a']],
    ['[\\h]+', '', 'zz09afzz', ['09af']],
    ['\\h\\h', '', 'x1f', ['1f']],
    ['[]a]+', '', 'x]a]x', [']a]']],
    ['[^]a]+', '', ']]xyz', ['xyz']],
    ['(?i)abc', '', 'ABC', ['ABC']],
    ['(?m)a.b', '', 'a\nb', ['a\nb']],
    ['a.b', 'm', 'a\nb', ['a\nb']],
    ['ABC', 'i', 'abc', ['abc']],
    ['a b # c', 'x', 'ab', ['ab']],
    ['[ ]x', 'x', ' x', [' x']],
    ['(?<n>a)(b)', '', 'ab', ['ab', 'a']],
    ['a\\#b', 'x', 'a#b', ['a#b']]
];

describe('the one Ruby regexp translation', () => {
    test.each(RUBY)('/%s/%s on %j', (source, options, input, expected) => {
        const { pattern, flags } = rubyRegexpToJs(source, { options, lineAnchors: true });
        const m = new RegExp(pattern, flags).exec(input);
        expect(m ? [...m] : null).toEqual(expected);
    });

    // Subexpression calls (SemanticPuppet's qualifier pattern): what Ruby 3.1 matches, whole match only
    // (Ruby's capture then holds the last call's text; the inlined call leaves the group's first).
    test.each([
        ['\\A(?<p>[a-z])(?:\\.\\g<p>)*\\z', 'a.b.c', 'a.b.c'],
        ['\\A(?<p>[a-z])(?:\\.\\g<p>)*\\z', 'a.bb', null],
        ['(?<w>\\d+)-\\g<w>', 'x12-345y', '12-345'],
        ['\\A(?<part>[0-9A-Za-z-]+)(?:\\.\\g<part>)*\\Z', 'rc.1', 'rc.1']
    ] as const)('/%s/ on %j: the call matches the group\'s pattern again', (source, input, whole) => {
        const { pattern, flags } = rubyRegexpToJs(source, { lineAnchors: true });
        expect(new RegExp(pattern, flags).exec(input)?.[0] ?? null).toBe(whole);
    });

    // Real Puppet 7.23: "a\nb" =~ /^b/ is true (test/fixtures/catalog/builtin-functions.json has the recorded cases).
    test("Puppet's regexp values are Ruby's: ^ and $ are line anchors (the m flag)", () => {
        expect(rubyToJs('^a$').flags).toBe('m');
        expect(new RegExp(rubyToJs('^b').pattern, rubyToJs('^b').flags).test('a\nb')).toBe(true);
        expect(rubyRegexpToJs('^a$', { lineAnchors: true }).flags).toBe('m');
        expect(rubyRegexpToJs('[$^]', { lineAnchors: true }).flags).toBe('');
    });
});
