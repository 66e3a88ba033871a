import { describe, expect, it } from 'vitest';
import { captureNames, parseRubyRegexLiteral, rubyRegexToJs } from '../../src/apply/index.js';

/** features.md §5.2a: Ruby (Onigmo) regex semantics in JavaScript. */
describe('Ruby regexes', () => {
    it.each([
        { id: '\\A…\\Z accepts a final newline', re: { source: '\\A(0x)?[0-9a-fA-F]{8}\\Z' }, yes: ['0x1234abcd', '1234ABCD', '1234abcd\n'], no: ['1234abcd\nx', 'x1234abcd', '123'] },
        { id: '\\z is the very end', re: { source: '\\Aab\\z' }, yes: ['ab'], no: ['ab\n'] },
        { id: '^ and $ are line anchors', re: { source: '^b$' }, yes: ['a\nb\nc'], no: ['abc'] },
        { id: '\\A with $ (the spec URL pattern)', re: { source: '\\A((hkp|http|https):\\/\\/)?([a-z\\d])([a-z\\d-]{0,61}\\.)+[a-z\\d]+(:\\d{2,5})?$' }, yes: ['http://keys.example.com', 'keys.example.com:8080'], no: ['ftp://x.com'] },
        { id: 'Ruby m is dotall', re: { source: '(.*)', flags: 'm' }, yes: ['a\nb'], no: [] },
        { id: 'x ignores whitespace and comments', re: { source: 'a b # comment\n c', flags: 'x' }, yes: ['abc'], no: ['a b c'] },
        { id: '\\h is a hex digit', re: { source: '\\A\\h+\\z' }, yes: ['cafe01'], no: ['cafg'] }
    ])('$id', c => {
        const js = rubyRegexToJs(c.re);
        for (const s of c.yes) expect(js.test(s), s).toBe(true);
        for (const s of c.no) expect(js.test(s), s).toBe(false);
    });

    it('the default title pattern captures a whole multi-line title', () => {
        expect(rubyRegexToJs({ source: '(.*)', flags: 'm' }).exec('a\nb')?.[1]).toBe('a\nb');
    });

    it('named captures are kept; names come out in order', () => {
        const re = { source: '^(?<package>.*[^-])-(?<manager>.*)$' };
        expect(rubyRegexToJs(re).exec('php-yum')?.groups).toEqual({ package: 'php', manager: 'yum' });
        expect(captureNames(re)).toEqual(['package', 'manager']);
    });

    it('reads /…/flags and %r{…} literals', () => {
        expect(parseRubyRegexLiteral('/^a$/m')).toEqual({ source: '^a$', flags: 'm' });
        expect(parseRubyRegexLiteral('%r{^(?<p>.*)$}')).toEqual({ source: '^(?<p>.*)$', flags: '' });
        expect(parseRubyRegexLiteral('^x')).toEqual({ source: '^x' });
    });
});
