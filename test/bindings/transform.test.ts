import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BindingsTransformer } from '../../src/bindings/index.js';
import { decodeJson, encodeJson, modelRegistry, type Model, type ModelObject } from '../../src/model/index.js';
import { parsePuppet } from '../../src/parse/index.js';

const PARSE_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'parse', 'arm8');
const GOLDEN = join(import.meta.dirname, '..', 'fixtures', 'bindings', 'arm8');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function transform(text: string, file = 'test.pp'): ReturnType<BindingsTransformer['transform']> {
    const parsed = parsePuppet(text, file);
    expect(parsed.diagnostics.filter(d => d.severity === 'error'), 'parses').toEqual([]);
    return new BindingsTransformer(file).transform(parsed.ast.arm8);
}

/** A transform result as one Bindings model document (bindings in a contribution, the site's layers beside them). */
function asModel(r: ReturnType<typeof transform>, name: string): Model {
    const root = {
        $type: 'LayeredBindings',
        ...(r.site?.categorization ? { categorization: r.site.categorization } : {}),
        layers: [...(r.site?.layers ?? []), { $type: 'NamedLayer', name: `file:${name}`, bindings: r.bindings }]
    };
    return { index: modelRegistry().byPackageName('bindings') as Model['index'], root: root as unknown as ModelObject };
}

describe('ARM-8 .pp → Bindings model (golden, every parser fixture)', () => {
    const files = readdirSync(PARSE_FIXTURES).filter(f => f.endsWith('.pp')).sort();
    test.each(files)('%s', file => {
        const r = transform(readFileSync(join(PARSE_FIXTURES, file), 'utf8'), file);
        const text = encodeJson(asModel(r, file));
        // What the transformer makes must be a valid Bindings model (schema, ids, references).
        expect(() => decodeJson(text, file, { kind: 'bindings' })).not.toThrow();
        const golden = join(GOLDEN, file.replace(/\.pp$/, '.json'));
        const actual = `${JSON.stringify({ model: JSON.parse(text) as unknown, diagnostics: r.diagnostics }, null, 2)}\n`;
        // A new parser fixture gets its golden written once locally (to be reviewed and committed);
        // under CI a missing golden is a failure, so nothing passes unpinned.
        if (UPDATE || (!existsSync(golden) && !process.env.CI)) writeFileSync(golden, actual);
        expect(existsSync(golden), `${golden} is missing: run the test locally, review and commit it`).toBe(true);
        expect(actual).toBe(readFileSync(golden, 'utf8'));
    });
});

type Shape = Record<string, unknown>;

/** One bind statement, its expected model object (a subset: only the features named are compared). */
const BINDS: readonly [string, string, Shape][] = [
    ['constant', `bind 'x' to 42`, { $type: 'Binding', name: 'x', producer: { $type: 'ConstantProducerDescriptor', value: 42 } }],
    ['typed', `bind Array[String], 'x' to ['a']`, { $type: 'Binding', type: 'Array[String]', name: 'x', producer: { value: ['a'] } }],
    ['class type key', `bind Array[class ntp], 'x' to []`, { type: 'Array[Class[ntp]]' }],
    ['abstract', `bind abstract 'x'`, { $type: 'Binding', name: 'x', abstract: true }],
    ['override', `bind override 'x' to 1`, { override: true }],
    ['abstract override', `bind abstract override 'x'`, { abstract: true, override: true }],
    ['final', `bind final 'x' to 1`, { final: true }],
    ['hash literal', `bind 'x' to { a => 1, 'b' => [true, undef] }`, { producer: { value: { a: 1, b: [true, null] } } }],
    ['negative and float', `bind 'x' to [-3, 2.5]`, { producer: { value: [-3, 2.5] } }],
    ['evaluated', `bind 'x' to "v-\${::fqdn}"`, { producer: { $type: 'EvaluatingProducerDescriptor', expression: { source: '"v-${::fqdn}"' } } }],
    ['instance Type[X]', `bind 'x' to Type[MyClass]`, { producer: { $type: 'InstanceProducerDescriptor', className: 'MyClass' } }],
    ['a class is a type', `bind 'x' to class ntp2`, { producer: { $type: 'EvaluatingProducerDescriptor', expression: { source: "Class['ntp2']" } } }],
    ['a resource type is a type', `bind Mytype to Mybettertype`, { type: 'Mytype', producer: { $type: 'EvaluatingProducerDescriptor', expression: { source: 'Mybettertype' } } }],
    ['a runtime class is instantiated', `bind Type[Logger] to Type[SpecialLogger]`, { producer: { $type: 'InstanceProducerDescriptor', className: 'SpecialLogger' } }],
    ['instance reference', `bind 'x' to Sql[one]`, { producer: { $type: 'InstanceReferenceProducerDescriptor', reference: 'Sql[one]' } }],
    ['query', `bind Array[Sql], 'x' to Sql[?? tag == db]`, { producer: { $type: 'QueryProducerDescriptor', resourceType: 'Sql', query: { source: 'tag == db' } } }],
    ['optional', `bind 'x' to optional Sql[one]`, { producer: { $type: 'OptionalProducerDescriptor', producer: { $type: 'InstanceReferenceProducerDescriptor' } } }],
    ['producer of a type', `bind 'x' to producer Type[P]`, { producer: { $type: 'ProducerProducerDescriptor', producer: { $type: 'InstanceProducerDescriptor', className: 'P' } } }],
    ['producer by name', `bind 'x' to producer 'p'`, { producer: { $type: 'ProducerProducerDescriptor', producer: { $type: 'LookupProducerDescriptor', name: 'p' } } }],
    ['producer_args and singleton', `bind 'x' to producer Type[P] { producer_args => { a => 1 }, singleton => false }`, { producerArgs: [{ name: 'a', value: 1 }, { name: 'singleton', value: false }] }],
    ['select_result', `bind 'x' to Sql[?? a == b] { select_result => |$all| { $all[0] } }`, { producer: { selectResult: { parameters: ['all'] } } }],
    ['fragment', `bind to 'a' in 'id'`, { $type: 'Binding', multibindId: 'id', producer: { value: 'a' } }],
    ['named fragment', `bind 'k' to 'a' in 'id'`, { name: 'k', multibindId: 'id' }],
    ['multibind', `multibind Array[String], 'm' as 'mid'`, { $type: 'Multibinding', type: 'Array[String]', name: 'm', id: 'mid' }],
    ['array combinator', `multibind Array[Data], 'm' as 'mid' { combinator => |$memo, $x| { $memo + $x } }`,
        { producer: { $type: 'ArrayMultibindProducerDescriptor', combinator: { parameters: ['memo', 'x'] } } }],
    ['hash combinator', `multibind Hash[String, Data], 'm' as 'mid' { combinator => |$k, $c, $v| { $v } }`,
        { producer: { $type: 'HashMultibindProducerDescriptor', combinator: { parameters: ['k', 'c', 'v'] } } }],
    ['multibind override', `multibind override Hash[String, Data], 'm'`, { $type: 'Multibinding', override: true }],
    ['rebind', `rebind 'x'`, { $type: 'Rebinding', name: 'x' }],
    ['alias', `bind alias 'a' as 'b'`, { $type: 'AliasBinding', name: 'b', originalName: 'a' }],
    ['typed alias', `bind alias String, 'a' as String, 'b'`, { $type: 'AliasBinding', type: 'String', name: 'b', originalType: 'String', originalName: 'a' }],
    ['renamed as abstract', `bind renamed 'a' as abstract 'b'`, { $type: 'RenamedBinding', name: 'b', originalName: 'a', abstract: true }],
    ['parameters of a class', `bind parameters ntp to { servers => ['a'] }`, { $type: 'ParametersBinding', target: 'Class[ntp]', producer: { value: { servers: ['a'] } } }],
    ['parameters with map', `bind parameters Web[one] to Sql[one] { map => { dbuser => user } }`,
        { $type: 'ParametersBinding', target: 'Web[one]', map: [{ targetParameter: 'dbuser', sourceParameter: 'user' }], producer: { reference: 'Sql[one]' } }],
    ['bind map', `bind map Web to Sql { a => b }`, { $type: 'ParameterMapBinding', fromType: 'Web', toType: 'Sql', mappings: [{ targetParameter: 'a', sourceParameter: 'b' }] }],
    ['variables', `bind variables to { a => 1 }`, { $type: 'VariablesBinding', producer: { value: { a: 1 } } }],
    ['typed variables', `bind variables Integer to { a => 1 }`, { $type: 'VariablesBinding', type: 'Integer' }],
    ['abstract variables', `bind abstract variables to ['a', '$b']`, { $type: 'VariablesBinding', abstract: true, variableNames: ['a', 'b'] }],
    ['abstract typed variable', `bind abstract variable Array[String] to ['admins']`, { abstract: true, type: 'Array[String]', variableNames: ['admins'] }],
    ['include', 'include [apache, mysql::server]', { $type: 'IncludeClassesBinding', classNames: ['apache', 'mysql::server'] }],
    ['exclude', 'exclude apache::mod::php', { $type: 'ExcludeClassesBinding', classNames: ['apache::mod::php'] }],
    ['dependency', `bind dependency File['/a'] ~> Service['s']`, { $type: 'DependencyBinding', sources: ["File['/a']"], targets: ["Service['s']"], arrow: 'notify' }],
    ['dependency chain with arrays', `bind dependency [Package['a'], Package['b']] -> Service['c']`, { $type: 'DependencyBinding', sources: ["Package['a']", "Package['b']"], targets: ["Service['c']"], arrow: 'before' }],
    ['when', `when node 'k' { bind 'x' to 1 }`, { $type: 'CategorizedBindings', predicates: [{ $type: 'Category', categorization: 'node', value: 'k' }] }],
    ['when and', `when virtual true and node 'k' { }`, { predicates: [{ $type: 'AndPredicate', operands: [{ categorization: 'virtual', value: 'true' }, { categorization: 'node' }] }] }],
    ['when or (flattened)', `when a 'x' or b 'y' or c 'z' { }`, { predicates: [{ $type: 'OrPredicate', operands: [{ categorization: 'a' }, { categorization: 'b' }, { categorization: 'c' }] }] }]
];

describe('each bind operation becomes its model object', () => {
    test.each(BINDS)('%s', (_name, stmt, expected) => {
        const r = transform(`bindings t {\n  ${stmt}\n}\n`);
        expect(r.diagnostics).toEqual([]);
        const first = r.bindings[0].bindings?.[0];
        expect(first).toMatchObject(expected);
        expect(first?.location).toMatchObject({ file: 'test.pp', line: 2, column: 3 });
    });
});

/** Statements the transformer refuses, with the code and the place (line:column). */
const ERRORS: readonly [string, string, string, string][] = [
    ['interpolated name', 'bindings t {\n  bind "a${x}" to 1\n}\n', 'BIND_NAME', '2:8'],
    ['category value not literal', 'bindings t {\n  when node $x { }\n}\n', 'BIND_CATEGORY_VALUE', '2:13'],
    ['map not a hash', "bindings t {\n  bind parameters Web[one] to Sql[one] { map => 1 }\n}\n", 'BIND_OPTION_VALUE', '2:42'],
    ['select_result without a query', "bindings t {\n  bind 'x' to 1 { select_result => |$a| { $a } }\n}\n", 'BIND_OPTION_VALUE', '2:3'],
    ['bad layer name', "site {\n  bindings => [ layer { 1: include => 'x:' } ]\n}\n", 'BIND_LAYER', '2:25'],
];

describe('transform errors', () => {
    test.each(ERRORS)('%s', (_name, text, code, at) => {
        // Only what the parser accepts reaches the transformer; its own checks are about values.
        const r = transform(text);
        expect(r.diagnostics.map(d => d.code)).toEqual([code]);
        expect(`${r.diagnostics[0].at?.line ?? 0}:${r.diagnostics[0].at?.column ?? 0}`).toBe(at);
    });
});

describe('site', () => {
    test('categories keep their value expressions; layers their URIs', () => {
        const r = transform("site {\n  categories { node => \"$::fqdn\", environment => true }\n  bindings => [ layer { 'site': include => 'confdir:/default' }, layer { 'm': include => ['module:/*::default'], exclude => 'module:/x::default' } ]\n}\n");
        expect(r.diagnostics).toEqual([]);
        expect(r.site?.categorization?.categories?.map(c => [c.categorization, c.valueExpression?.source])).toEqual([['node', '"$::fqdn"'], ['environment', 'true']]);
        expect(r.site?.layers?.map(l => [l.name, l.include, l.exclude])).toEqual([['site', ['confdir:/default'], []], ['m', ['module:/*::default'], ['module:/x::default']]]);
    });
});
