import { describe, expect, test } from 'vitest';
import { parseErb, renderErb, RubyError, type ErbHost } from '../../src/erb/index.js';
import type { PuppetValue } from '../../src/values/index.js';

/** A host with top-scope variables only; functions and setvar are not used by these cases. */
function host(vars: Record<string, PuppetValue> = {}): ErbHost {
    const variables = new Map(Object.entries(vars));
    return {
        variables, scopeName: 'Scope(Class[main])', file: null,
        lookupvar: n => variables.get(n.replace(/^::/, '')),
        callFunction: (name, args) => `${name}(${args.join(',')})`,
        callFunction3: () => undefined,
        setvar: () => undefined, classes: () => ['main'], tags: () => ['class']
    };
}
const render = (text: string, vars: Record<string, PuppetValue> = {}): string => renderErb(parseErb(text), host(vars));

// Expected outputs are what Ruby 3.1's ERB (trim mode '-') and Ruby print for the same code.
describe('ERB trim mode', () => {
    test.each<[string, string]>([
        ['a\n  <%- if true -%>\n  x\n  <%- end -%>\nb', 'a\n  x\nb'],
        ['a<%= 1 %>  <%- 2 -%>\n  <%- 3 %>x', 'a1x'],
        ['<%% %%> <%= "q %%> r" %>', '<% %%> q %> r'],
        ['x<%# comment %>y', 'xy'],
        ['x <%- # a comment -%>\ny', 'x y'],
        ['a\r\n<% if true -%>\r\nb<% end -%>\r\n', 'a\r\nb'],
        ['<% x = 1 # note %>swallowed\nkept', ''],
        ['<% x = 1 # note -%>\nkept', 'kept'],
        ['<% [1, 2].each do |i| -%>\n<%= i %>,\n<% end -%>', '1,\n2,\n']
    ])('%j', (text, out) => expect(render(text)).toBe(out));
});

describe('Ruby expressions', () => {
    test.each<[string, string]>([
        ["<%= [1, 2].map { |i| i * 3 }.join(',') %>", '3,6'],
        ['<%= -3.abs %> <%= -2 ** 2 %> <%= 7 / -2 %> <%= -7 % 3 %> <%= 2 ** -1 %>', '3 -4 -4 2 1/2'],
        ['<%= x = 4; case when x < 3 then "a" when x < 5 then "b" end %>', 'b'],
        ['<%= {"b" => 1, "a" => 2}.sort.map { |k, v| "#{k}=#{v}" }.join(" ") %>', 'a=2 b=1'],
        ['<%= %w[a b c].each_with_index.map { |v, i| "#{i}#{v}" }.join %>', '0a1b2c'],
        ['<%= "a-b_c".tr("-_", "  ").split.map(&:capitalize).join %>', 'ABC'],
        ['<%= "x1y22".gsub(/\\d+/) { |m| "<#{m}>" } %> <%= "ab".sub(/(a)/, \'\\1\\1\') %>', 'x<1>y<22> aab'],
        ['<% def twice(x) x * 2 end -%><%= twice(21) %>', '42'],
        ['<%= <<~EOS\n  one\n    two\nEOS\n%>', 'one\n  two\n'],
        ['<%= [nil, 1, "a", :s, 1.0e20, {"k" => [true]}].inspect %>', '[nil, 1, "a", :s, 1.0e+20, {"k"=>[true]}]'],
        ['<%= "a\\n" =~ /^$/ %>|<%= "a\\n".gsub(/^/, ">") %>', '|>a\n'],
        ['<% begin; raise ArgumentError, "bad"; rescue => e %><%= e.message %><% end %>', 'bad'],
        ['<%= @list.sort_by { |x| -x }.first(2).inspect %>', '[3, 2]']
    ])('%j', (text, out) => expect(render(text, { list: [1n, 3n, 2n] })).toBe(out));
});

describe('Ruby errors carry the template line', () => {
    test.each<[string, string, number]>([
        ['a\n<%= @nope.upcase %>', "undefined method `upcase' for nil:NilClass", 2],
        ['<%= 1 / 0 %>', 'divided by 0', 1],
        ['a\n\n<% if true %>', "syntax error, unexpected end-of-input, expecting `end'", 3],
        ['<%= [1, 2 %>', "syntax error, unexpected ')', expecting ']'", 1],
        ['<%= "a" + 1 %>', 'no implicit conversion of Integer into String', 1],
        ['<%= @s << "x" %>', 'can\'t modify frozen String: "str"', 1],
        ['<%= -1.digits %>', 'out of domain', 1]
    ])('%j', (text, message, line) => {
        let caught: unknown;
        try { render(text, { s: 'str' }); } catch (e) { caught = e; }
        expect(caught).toBeInstanceOf(RubyError);
        expect((caught as RubyError).message).toBe(message);
        expect((caught as RubyError).line).toBe(line);
    });
});
