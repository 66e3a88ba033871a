import { describe, expect, test } from 'vitest';
import { parsePuppet } from '../../src/parse/index.js';
import { ParseIssues, type ParseIssueCode } from '../../src/parse/issues.js';

// Each row: source, the code of the first error, and its 1-based line and column. Positions
// agree with `puppet parser validate` 7.23 except where Puppet prints none (end of input:
// we point at the end of the text).
const cases: ReadonlyArray<readonly [string, ParseIssueCode, number, number]> = [
    ['notice(1);', 'PARSE_SYNTAX_ERROR', 1, 11],
    ['$a = ', 'PARSE_SYNTAX_ERROR', 1, 6],
    ['foo { \'x\': ensure => present mode => \'0644\' }', 'PARSE_SYNTAX_ERROR', 1, 30],
    ['$a = [1, 2', 'PARSE_SYNTAX_ERROR', 1, 11],
    ['$a = { a => 1', 'PARSE_SYNTAX_ERROR', 1, 14],
    ['if $x { ', 'PARSE_SYNTAX_ERROR', 1, 9],
    ['class foo { ', 'PARSE_SYNTAX_ERROR', 1, 13],
    ['$a = \'unclosed', 'PARSE_UNCLOSED_QUOTE', 1, 7],
    ['$a = "unclosed', 'PARSE_UNCLOSED_QUOTE', 1, 7],
    ['$a = "${x"', 'PARSE_UNCLOSED_QUOTE', 1, 11],
    ['/* unclosed comment', 'PARSE_UNCLOSED_MLCOMMENT', 1, 1],
    ['$a = 08', 'PARSE_INVALID_OCTAL_NUMBER', 1, 6],
    ['$a = 0x', 'PARSE_INVALID_HEX_NUMBER', 1, 6],
    ['$a = 1a', 'PARSE_ILLEGAL_NUMBER', 1, 6],
    ['$a = ::Foo::bar', 'PARSE_ILLEGAL_FULLY_QUALIFIED_CLASS_REFERENCE', 1, 14],
    ['$a = @(END)\nno end', 'PARSE_HEREDOC_WITHOUT_END_TAGGED_LINE', 2, 1],
    ['$a = @(END', 'PARSE_HEREDOC_UNCLOSED_PARENTHESIS', 1, 6],
    ['$a = @()\nx\n)\n', 'PARSE_HEREDOC_INVALID_SYNTAX', 1, 9],
    ['foo a, b', 'PARSE_ARGS_TO_NON_CALL', 1, 6],
    ['$a = 1, 2', 'PARSE_ILLEGAL_COMMA_LIST', 1, 7],
    ['foo { \'x\': a +> 1, } -> bar {a +> 2}', 'PARSE_RESOURCE_WITHOUT_TITLE', 1, 29],
    ['$x = {}\n{a=>1}', 'PARSE_INVALID_RESOURCE_SHAPE', 1, 6],
    ['@notice(1)', 'PARSE_VIRTUAL_NOT_RESOURCE', 1, 1],
    ['@@$x', 'PARSE_EXPORTED_NOT_RESOURCE', 1, 1],
    ['class { }', 'PARSE_SYNTAX_ERROR', 1, 9],
    ['unless $a { } elsif $b { }', 'PARSE_SYNTAX_ERROR', 1, 15],
    ['case $x { }', 'PARSE_SYNTAX_ERROR', 1, 11],
    ['case $x { 1 => 2 }', 'PARSE_SYNTAX_ERROR', 1, 13],
    ['$a = $b ? { }', 'PARSE_SYNTAX_ERROR', 1, 13],
    ['node { }', 'PARSE_SYNTAX_ERROR', 1, 6],
    ['define foo($x, { }', 'PARSE_SYNTAX_ERROR', 1, 16],
    ['function f(', 'PARSE_SYNTAX_ERROR', 1, 12],
    ['$a = ~ 1', 'PARSE_ILLEGAL_CHARACTER', 1, 6],
    ['$a = 1 +', 'PARSE_SYNTAX_ERROR', 1, 9],
    ['$a = [1, 2,,]', 'PARSE_SYNTAX_ERROR', 1, 12],
    ['if { }', 'PARSE_SYNTAX_ERROR', 1, 7],
    ['$a = f(1,,2)', 'PARSE_SYNTAX_ERROR', 1, 10],
    ['foo { \'a\': b => }', 'PARSE_SYNTAX_ERROR', 1, 17],
    ['foo { \'a\' b => 1 }', 'PARSE_SYNTAX_ERROR', 1, 11],
    ['foo { \'a\': b => 1; c => 2 }', 'PARSE_SYNTAX_ERROR', 1, 22],
    ['$a = "${}"', 'PARSE_SYNTAX_ERROR', 1, 10],
    ['$x = <| |>', 'PARSE_SYNTAX_ERROR', 1, 6],
    ['$a = @(E:json/z)\nx\nE\n', 'PARSE_HEREDOC_INVALID_ESCAPE', 1, 17],
    ['$a = 1 2 3 +', 'PARSE_SYNTAX_ERROR', 1, 13],
    ['$a.each |$x { }', 'PARSE_SYNTAX_ERROR', 1, 13],
    ['$a = [1] [', 'PARSE_SYNTAX_ERROR', 1, 11],
    ['class a inherits { }', 'PARSE_SYNTAX_ERROR', 1, 18],
    ['$x = Foo::', 'PARSE_ILLEGAL_CLASS_REFERENCE', 1, 10],
    ['type = 1', 'PARSE_SYNTAX_ERROR', 1, 6],
    // The recursive-descent parser's lookahead fails at an attribute's or entry's start; Puppet's LR parser at the bad token.
    ["notify { 'x':\n  message => 'a',\n  subscribe => ...,\n}", 'PARSE_SYNTAX_ERROR', 3, 16],
    ["notify { 'x':\n  message => 'a',\n  b = 2\n}", 'PARSE_SYNTAX_ERROR', 3, 5],
    ["$x = { 'a' => { 'b' => '1' 'c' => '2' } }", 'PARSE_SYNTAX_ERROR', 1, 28],
    ["class { 'x':\n  a => {\n    <Content>\n  },\n}", 'PARSE_SYNTAX_ERROR', 3, 5],
    ['Provide some examples on how to use this type:', 'PARSE_SYNTAX_ERROR', 1, 46],
    ['class ruby::193 { }', 'PARSE_ILLEGAL_FULLY_QUALIFIED_NAME', 1, 13],
    // Puppet reduces `@name` before it meets the bad token: the virtual form's own error wins.
    ['root@master:~', 'PARSE_VIRTUAL_NOT_RESOURCE', 1, 5],
    ['notice(1) @master: 1', 'PARSE_VIRTUAL_NOT_RESOURCE', 1, 11],
    ['$x = a::b::9', 'PARSE_ILLEGAL_FULLY_QUALIFIED_NAME', 1, 12],
    ['<%= $x', 'PARSE_EPP_UNBALANCED_TAG', 1, 7],
    ['text <% $x = 1', 'PARSE_EPP_UNBALANCED_TAG', 1, 15],
    ['<%# unclosed', 'PARSE_EPP_UNBALANCED_COMMENT', 1, 3],
];

// Illegal characters: the first error's exact message and position, as `puppet parser validate`
// 7.23 prints them (Puppet names no token for a character it cannot lex, except '~').
const illegalCharacters: ReadonlyArray<readonly [string, string, number, number]> = [
    ['$a = 1\n$b = $a ^ 2\nnotice($b)\n', 'Syntax error at \'\'', 2, 9],
    ['notice(1 ^ 2)', 'Syntax error at \'\'', 1, 10],
    ['notice(`x`)', 'Syntax error at \'\'', 1, 8],
    ['notice(1 § 2)', 'Syntax error at \'\'', 1, 10],
    ['notice(1 & 2)', 'Syntax error at \'\'', 1, 10],
    ['notice(1 \u0001)', 'Syntax error at \'\'', 1, 10],
    ['$a = 1 ~ 2', 'Syntax error at \'~\'', 1, 8]
];

describe('syntax errors', () => {
    test.each(illegalCharacters)('%j -> %s at %i:%i', (source, message, line, column) => {
        const first = parsePuppet(source, 'case.pp').diagnostics.find(d => d.severity === 'error');
        expect({ message: first?.message, line: first?.at?.line, column: first?.at?.column }).toEqual({ message, line, column });
    });

    test('there are at least 40 cases', () => {
        expect(cases.length).toBeGreaterThanOrEqual(40);
    });

    test.each(cases)('%j -> %s at %i:%i', (source, code, line, column) => {
        const epp = source.includes('<%');
        const result = parsePuppet(source, 'case.pp', { epp });
        const errors = result.diagnostics.filter(d => d.severity === 'error');
        expect(errors.length).toBeGreaterThan(0);
        const first = errors[0];
        expect({ code: first?.code, line: first?.at?.line, column: first?.at?.column }).toEqual({ code, line, column });
        expect(first?.at?.file).toBe('case.pp');
        expect(ParseIssues[code]).toBeDefined();
    });

    test('one missing comma in a resource keeps the resource and the following statements', () => {
        const source = "file { '/a': ensure => present mode => '0644' }\npackage { 'p': }\nnotice('x')\n";
        const result = parsePuppet(source, 'r.pp');
        const errors = result.diagnostics.filter(d => d.severity === 'error');
        expect(errors.map(e => [e.at?.line, e.at?.column])[0]).toEqual([1, 32]);
        const types = result.ast.statements.map(s => s.$type);
        expect(types[0]).toBe('ResourceExpression');
        expect(types).toContain('CallFunctionExpression');
        expect(result.ast.statements.filter(s => s.$type === 'ResourceExpression')).toHaveLength(2);
    });
});
