import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDiagnostic, parsePuppet, toPN } from '../../src/parse/index.js';
import { ParseIssues, type ParseIssueCode } from '../../src/parse/issues.js';

// ARM-8 has no reference implementation: each fixture's PN was written by hand (the PN extension
// is documented in src/parse/pn/arm8-pn.ts) and every fixture must also pass validation.
const dir = join(import.meta.dirname, '..', 'fixtures', 'parse', 'arm8');
const cases = readdirSync(dir)
    .filter(f => f.endsWith('.pp'))
    .sort()
    .map(f => [f, join(dir, f), join(dir, f.replace(/\.pp$/, '.pn'))] as const);

describe('ARM-8 golden PN fixtures', () => {
    test('fixtures exist', () => {
        expect(cases.length).toBeGreaterThanOrEqual(15);
    });

    test.each(cases)('%s', (name, source, expectedFile) => {
        const result = parsePuppet(readFileSync(source, 'utf8'), name);
        expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
        expect(toPN(result.ast)).toBe(readFileSync(expectedFile, 'utf8').replace(/\n$/, ''));
    });
});

// Source, then the first finding's severity, code, line and column.
const errors: ReadonlyArray<readonly [string, 'error' | 'warning', ParseIssueCode, number, number]> = [
    ['site {\n  categories { common => \'x\' }\n}', 'error', 'VALIDATE_CATEGORY_COMMON', 2, 16],
    ['site {\n  categories { environment => \'x\' }\n}', 'error', 'VALIDATE_CATEGORY_ENVIRONMENT_VALUE', 2, 31],
    ['site {\n  categories { environment => true, node => $f }\n}', 'error', 'VALIDATE_CATEGORY_NODE_BELOW_ENVIRONMENT', 2, 37],
    ['site {\n  categories { a => 1, a => 2 }\n}', 'error', 'VALIDATE_CATEGORY_DUPLICATE', 2, 24],
    ['site {\n  categories { a => 1 }\n}\nsite {\n  categories { b => 1 }\n}', 'error', 'VALIDATE_SITE_DUPLICATE_CATEGORIES', 5, 3],
    ['site {\n  bindings => [layer { \'x\': foo => \'a\' }]\n}', 'error', 'VALIDATE_LAYER_ILLEGAL_ATTRIBUTE', 2, 29],
    ['site {\n  bindings => [layer { \'x\': include => \'a\' }, layer { \'x\': include => \'b\' }]\n}', 'error', 'VALIDATE_LAYER_DUPLICATE', 2, 55],
    ['site {\n  bindings => [layer { \'x\': include => \'a\' }]\n  bindings => []\n}', 'error', 'VALIDATE_SITE_DUPLICATE_LAYERS', 3, 3],
    ['site {\n  dynamic_environments { \'relative/dir\': }\n}', 'error', 'VALIDATE_DYNAMIC_ENVIRONMENTS_NOT_ABSOLUTE', 2, 26],
    ['site {\n  dynamic_environments { \'/etc/envs\': envdir => \'/x\' }\n}', 'error', 'VALIDATE_DYNAMIC_ENVIRONMENTS_ENVDIR', 2, 39],
    ['bindings b {\n  bind abstract \'x\' to 1\n}', 'error', 'VALIDATE_BIND_ABSTRACT_PRODUCER', 2, 21],
    ['bindings b {\n  bind abstract parameters ntp\n}', 'error', 'VALIDATE_BIND_ABSTRACT_PARAMETERS', 2, 8],
    ['bindings b {\n  bind abstract variables to $x\n}', 'error', 'VALIDATE_BIND_ABSTRACT_VARIABLES_LITERAL', 2, 30],
    ['bindings b {\n  bind abstract \'x\' { singleton => true }\n}', 'error', 'VALIDATE_BIND_ABSTRACT_OPTIONS', 2, 21],
    ['bindings b {\n  bind abstract final \'x\'\n}', 'error', 'VALIDATE_BIND_ABSTRACT_FINAL', 2, 17],
    ['bindings b {\n  bind abstract abstract \'x\'\n}', 'error', 'VALIDATE_BIND_DUPLICATE_MODIFIER', 2, 8],
    ['bindings b {\n  bind map parameters Web to Sql\n}', 'error', 'VALIDATE_BIND_CONFLICTING_FORMS', 2, 12],
    ['bindings b {\n  multibind map Array[String], \'x\'\n}', 'error', 'VALIDATE_BIND_MODIFIER_NOT_ALLOWED', 2, 13],
    ['bindings b {\n  multibind Array[String]\n}', 'error', 'VALIDATE_MULTIBIND_WITHOUT_ID', 2, 3],
    ['bindings b {\n  multibind String, \'x\' as \'y\'\n}', 'error', 'VALIDATE_MULTIBIND_TYPE', 2, 13],
    ['bindings b {\n  multibind Array[String], \'x\' as Integer\n}', 'error', 'VALIDATE_MULTIBIND_ID', 2, 35],
    ['bindings b {\n  multibind Array[String], \'x\' as \'y\' in \'z\'\n}', 'error', 'VALIDATE_BIND_IN_NOT_ALLOWED', 2, 42],
    ['bindings b {\n  multibind Hash[Data], \'h\' as \'hid\'\n  bind to 1 in \'hid\'\n}', 'error', 'VALIDATE_HASH_MULTIBIND_UNNAMED_FRAGMENT', 3, 3],
    ['bindings b {\n  rebind \'x\' to 1\n}', 'error', 'VALIDATE_BIND_PRODUCER_NOT_ALLOWED', 2, 14],
    ['bindings b {\n  bind alias \'x\'\n}', 'error', 'VALIDATE_BIND_AS_REQUIRED', 2, 3],
    ['bindings b {\n  bind \'x\' as \'y\'\n}', 'error', 'VALIDATE_BIND_AS_NOT_ALLOWED', 2, 12],
    ['bindings b {\n  bind to 1\n}', 'error', 'VALIDATE_BIND_NO_KEY', 2, 3],
    ['bindings b {\n  bind map Web to \'x\'\n}', 'error', 'VALIDATE_BIND_MAP_SHAPE', 2, 19],
    ['bindings b {\n  bind ntp to 1\n}', 'error', 'VALIDATE_BIND_CLASS_NAME_KEY', 2, 8],
    ['bindings b {\n  bind parameters \'x\' to {}\n}', 'error', 'VALIDATE_BIND_PARAMETERS_KEY', 2, 19],
    ['bindings b {\n  bind File[\'foo\'] to Betterfile[\'foo\']\n}', 'error', 'VALIDATE_BIND_INSTANCE_KEY', 2, 8],
    ['bindings b {\n  bind \'x\' to 1 { foo => 1 }\n}', 'error', 'VALIDATE_BIND_UNKNOWN_OPTION', 2, 19],
    ['bindings b {\n  bind \'x\' to 1 { combinator => |$a| { $a } }\n}', 'error', 'VALIDATE_BIND_OPTION_NOT_APPLICABLE', 2, 19],
    ['bindings b {\n  multibind Array[X], \'x\' { combinator => 1 }\n}', 'error', 'VALIDATE_BIND_OPTION_LAMBDA', 2, 29],
    ['bindings b {\n  bind \'x\' to producer \'p\' { producer_args => |$a| { $a } }\n}', 'error', 'VALIDATE_BIND_OPTION_NOT_LAMBDA', 2, 30],
    ['bindings b {\n  bind \'x\' to producer \'p\' { singleton => true, singleton => false }\n}', 'error', 'VALIDATE_BIND_DUPLICATE_OPTION', 2, 49],
    ['bindings b {\n  bind variables Integer to { a => \'x\' }\n}', 'error', 'VALIDATE_BIND_VARIABLE_TYPE_MISMATCH', 2, 36],
    ['bindings b {\n  bind dependency Foo[\'a\']\n}', 'error', 'VALIDATE_BIND_DEPENDENCY_SHAPE', 2, 19],
    ['bindings b {\n  bind dependency Foo[\'a\'] <- Bar[\'b\']\n}', 'error', 'VALIDATE_BIND_DEPENDENCY_ARROW', 2, 31],
    ['bindings b {\n  rebind override \'x\'\n}', 'warning', 'VALIDATE_BIND_OVERRIDE_NO_EFFECT', 2, 10],
    ['bindings b {\n  bind parameters Web[one] to Sql[one]\n  bind parameters Web[one] to Sql[two]\n  bind parameters Web[one] to DbUserInfo[general]\n}', 'error', 'VALIDATE_BIND_PARAMETERS_PRODUCER_TWICE', 3, 31],
    ['$x = $y[?? a == 1]', 'error', 'VALIDATE_QUERY_NOT_ON_TYPE', 1, 9],
    // The query's `~=`, `~!` exist only inside `[?? ...]`; elsewhere `~` is illegal as before.
    ['$x = 1 ~= 2', 'error', 'PARSE_ILLEGAL_CHARACTER', 1, 8],
    ['$x = $a ~! $b', 'error', 'PARSE_ILLEGAL_CHARACTER', 1, 9],
    ['$x = Sql[?? a ~= 1] ~= 2', 'error', 'PARSE_ILLEGAL_CHARACTER', 1, 21],
    ['$x = Sql[?? a ~ = 1]', 'error', 'PARSE_ILLEGAL_CHARACTER', 1, 15],
    ['$x = Sql[?? a ~!= 1]', 'error', 'PARSE_ILLEGAL_CHARACTER', 1, 15],
    ['$x = Sql[?? a ~= ]', 'error', 'PARSE_SYNTAX_ERROR', 1, 18],
    ['bindings b {\n  bind \'x\' to\n}', 'error', 'PARSE_SYNTAX_ERROR', 3, 1],
    ['bindings b {\n  when node {\n  }\n}', 'error', 'PARSE_SYNTAX_ERROR', 4, 1],
    ['bindings b {\n  foo\n}', 'error', 'PARSE_SYNTAX_ERROR', 2, 3],
    ['site {\n  categories { node }\n}', 'error', 'PARSE_SYNTAX_ERROR', 2, 21],
    ['site {\n  bindings => [{ \'x\': include => \'a\' }]\n}', 'error', 'PARSE_SYNTAX_ERROR', 2, 16],
    ['class a {\n  bindings b { }\n}', 'error', 'PARSE_SYNTAX_ERROR', 2, 3],
    ['bindings b {\n  bind \'x\' to 1 in\n}', 'error', 'PARSE_SYNTAX_ERROR', 3, 1],
    ['bindings b {\n  include [a,\n}', 'error', 'PARSE_SYNTAX_ERROR', 3, 1],
];

describe('ARM-8 errors', () => {
    test.each(errors)('%j -> %s %s at %i:%i', (source, severity, code, line, column) => {
        const result = parsePuppet(source, 'arm8.pp');
        const first = result.diagnostics[0];
        expect({ severity: first?.severity, code: first?.code, line: first?.at?.line, column: first?.at?.column })
            .toEqual({ severity, code, line, column });
        expect(ParseIssues[code]).toBeDefined();
    });

    test('every ARM-8 issue code has a case', () => {
        const covered = new Set(errors.map(e => e[2]));
        const arm8Codes = (Object.keys(ParseIssues) as ParseIssueCode[]).filter(c =>
            /^VALIDATE_(SITE|CATEGORY|LAYER|DYNAMIC|BIND|MULTIBIND|HASH_MULTIBIND|QUERY)_/.test(c));
        expect(arm8Codes.filter(c => !covered.has(c))).toEqual([]);
    });
});

describe('ARM-8 words outside ARM-8 forms', () => {
    test.each([
        ['a resource typed site', "site { 'x': a => 1 }", 'resource'],
        ['bindings as an attribute', "foo { 'x': bindings => 1 }", 'resource'],
        ['bind as a function name', 'bind(1)', 'invoke'],
        ['when and to as hash keys', '$x = { when => 1, to => 2 }', '='],
        ['site as a method name', '$y = $x.site', 'call-method'],
        ['a bindings call with a hash', "bindings({ a => 1 })", 'invoke'],
        ['layer and categories as resource types', "layer { 'l': }\ncategories { 'c': }", 'resource']
    ])('%s', (_name, source, head) => {
        const result = parsePuppet(source, 'n.pp', { validate: false });
        expect(result.diagnostics.filter(d => d.severity === 'error')).toEqual([]);
        expect(toPN(result.ast)).toContain(`(${head}`);
    });
});
