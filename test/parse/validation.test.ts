import { describe, expect, test } from 'vitest';
import { parsePuppet } from '../../src/parse/index.js';
import type { ParseIssueCode } from '../../src/parse/issues.js';

// Source, then the first finding's severity, code, line and column; messages and positions
// were checked against `puppet parser validate` 7.23 on the same sources.
const cases: ReadonlyArray<readonly [string, 'error' | 'warning', ParseIssueCode, number, number, string]> = [
    ['foo bar', 'error', 'VALIDATE_IDEM_EXPRESSION_NOT_LAST', 1, 1, 'This Name has no effect.'],
    ['\'a\' notice(1)', 'error', 'VALIDATE_IDEM_EXPRESSION_NOT_LAST', 1, 1, 'This String has no effect.'],
    ['1+2 notice(1)', 'error', 'VALIDATE_IDEM_EXPRESSION_NOT_LAST', 1, 2, 'This \'+\' expression has no effect.'],
    ['1 = 2', 'error', 'VALIDATE_ILLEGAL_ASSIGNMENT', 1, 1, '\'a Literal Integer\''],
    ['$a::b = 1', 'error', 'VALIDATE_CROSS_SCOPE_ASSIGNMENT', 1, 1, '\'a::b\''],
    ['$1 = 2', 'error', 'VALIDATE_ILLEGAL_NUMERIC_ASSIGNMENT', 1, 1, '\'$1\''],
    ['$a[1] = 2', 'error', 'VALIDATE_ILLEGAL_INDEXED_ASSIGNMENT', 1, 1, 'via [index/key]'],
    ['if $x { class foo {} }', 'error', 'VALIDATE_NOT_TOP_LEVEL', 1, 9, 'toplevel'],
    ['class a { function f() {} }', 'error', 'VALIDATE_NOT_ABSOLUTE_TOP_LEVEL', 1, 11, 'A Function Definition'],
    ['define a($name) {}', 'error', 'VALIDATE_RESERVED_PARAMETER', 1, 10, 'the \'define\' expression'],
    ['class a($title) {}', 'error', 'VALIDATE_RESERVED_PARAMETER', 1, 9, 'the Host Class Definition'],
    ['define a($x, $x) {}', 'error', 'VALIDATE_DUPLICATE_PARAMETER', 1, 14, '\'x\''],
    ['$a = {a => 1, a => 2}', 'warning', 'VALIDATE_DUPLICATE_KEY', 1, 17, '\'a\''],
    ['$a = $x ? { default => 1, default => 2}', 'error', 'VALIDATE_DUPLICATE_DEFAULT', 1, 27, 'Selector Expression'],
    ['case $x { default: {} default: {} }', 'error', 'VALIDATE_DUPLICATE_DEFAULT', 1, 23, '\'case\' statement'],
    ['$a = private', 'error', 'VALIDATE_RESERVED_WORD', 1, 6, 'private'],
    ['@Foo { a => 1 }', 'error', 'VALIDATE_NOT_VIRTUALIZEABLE', 1, 1, 'not virtualizable'],
    ['@class { x: }', 'error', 'VALIDATE_CLASS_NOT_VIRTUALIZABLE', 1, 1, 'Classes'],
    ['Foo { a +> 1 }', 'error', 'VALIDATE_ILLEGAL_ATTRIBUTE_APPEND', 1, 7, 'a Resource Defaults Expression'],
    ['file { \'x\': mode +> \'1\' }', 'error', 'VALIDATE_ILLEGAL_ATTRIBUTE_APPEND', 1, 13, 'a Resource Instance Definition'],
    ['class { \'x\': mode +> \'1\' }', 'error', 'VALIDATE_ILLEGAL_ATTRIBUTE_APPEND', 1, 14, 'a Resource Instance Definition'],
    ['@file { \'x\': a => 1; \'y\': b +> 2 }', 'error', 'VALIDATE_ILLEGAL_ATTRIBUTE_APPEND', 1, 27, 'attribute b. This operator can not be used in a Resource Instance Definition'],
    ['define a(*$x) {}', 'error', 'VALIDATE_CAPTURES_REST_NOT_SUPPORTED', 1, 11, '\'captures rest\''],
    ['$a += 1', 'error', 'VALIDATE_APPENDS_DELETES_NO_LONGER_SUPPORTED', 1, 4, '\'+=\''],
    ['define a($Bad) {}', 'error', 'VALIDATE_ILLEGAL_PARAM_NAME', 1, 10, '\'Bad\''],
    ['$a = $Bad', 'error', 'VALIDATE_ILLEGAL_VAR_NAME', 1, 6, '\'Bad\''],
    ['notice("value is ${3.5}")', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 20, 'Illegal numeric variable name, The given name \'3.5\' must be a decimal value if it starts with a digit 0-9'],
    ['notice("value is ${3.5[1]}")', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 20, '\'3.5\''],
    ['notice("value is ${0x10}")', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 20, '\'0x10\''],
    ['notice("value is ${3e2}")', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 20, '\'3e2\''],
    ['notice("${00}")', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 11, '\'00\''],
    ['notice($010)', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 8, '\'010\''],
    ['$01 = 2', 'error', 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', 1, 1, '\'01\''],
    ['notice(-9223372036854775809)', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 1, 9, 'A Literal Integer resulted in a value outside of Puppet Integer max range, got \'+0x8000000000000001\''],
    ['notice(9223372036854775808)', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 1, 8, 'got \'+0x8000000000000000\''],
    ['notice(-9223372036854775808)', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 1, 9, 'got \'+0x8000000000000000\''],
    ['notice(-(9223372036854775808))', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 1, 10, 'max range'],
    ['notice(0x8000000000000000)', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 1, 8, 'got \'+0x8000000000000000\''],
    ['notice(01000000000000000000000)', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 1, 8, 'got \'+0x8000000000000000\''],
    ['$a = [1,\n  99999999999999999999]', 'error', 'VALIDATE_NUMERIC_OVERFLOW', 2, 3, 'got \'+0x56bc75e2d630fffff\''],
    ['class a { 1 }', 'error', 'VALIDATE_IDEM_NOT_ALLOWED_LAST', 1, 11, 'A Host Class Definition'],
    ['node x { 1 }', 'error', 'VALIDATE_IDEM_NOT_ALLOWED_LAST', 1, 10, 'A Node Definition'],
    ['foo { a => 1 }', 'error', 'VALIDATE_RESOURCE_WITHOUT_TITLE', 1, 1, '\'foo\' resource without a title']
];

// `+>` is allowed in overrides: `puppet parser validate` accepts all of these.
const validSources: readonly string[] = [
    'File[\'x\'] { mode +> \'1\' }',
    'Resource[\'file\', \'x\'] { mode +> \'1\' }',
    'File <| |> { mode +> \'1\' }',
    'Service[\'svc\'] { ensure => stopped, require +> Package[\'b\'] }',
    'notice("value is ${12}")',
    'notice("${0}")',
    'notice("value is ${Bad}")',
    'notice(9223372036854775807)',
    'notice("${9223372036854775808}")'
];

describe('validation', () => {
    test.each(validSources)('%j is valid', source => {
        expect(parsePuppet(source, 'v.pp').diagnostics).toEqual([]);
    });

    test.each(cases)('%j -> %s %s at %i:%i', (source, severity, code, line, column, fragment) => {
        const result = parsePuppet(source, 'v.pp');
        const first = result.diagnostics[0];
        expect({ severity: first?.severity, code: first?.code, line: first?.at?.line, column: first?.at?.column })
            .toEqual({ severity, code, line, column });
        expect(first?.message).toContain(fragment);
    });

    test('statement calls in a branch are not values without effect', () => {
        const result = parsePuppet('if $x { contain a::b }\nnotice(1)\n', 'v.pp');
        expect(result.diagnostics).toEqual([]);
    });

    test('validation can be turned off', () => {
        expect(parsePuppet('foo bar', 'v.pp', { validate: false }).diagnostics).toEqual([]);
    });
});
