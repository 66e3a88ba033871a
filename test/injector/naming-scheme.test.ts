import { describe, expect, it } from 'vitest';
import type { AbstractBinding, ProducerDescriptor } from '../../generated/model/bindings.js';
import { escapeInstanceName, parseTarget } from '../../src/injector/index.js';
import { at, bind, cat, constant, layer, layered, named, site, when } from './build.js';
import { pv, runCase, type Case } from './harness.js';
import type { RichData } from '../../src/model/index.js';
import type { InjectorOverrides } from '../../src/injector/index.js';

const alias = (name: string, original: string, o: { abstract?: boolean; producer?: ProducerDescriptor } = {}): AbstractBinding =>
    ({ $type: 'AliasBinding', location: at(), name, originalName: original, ...(o.abstract ? { abstract: true } : {}), ...(o.producer ? { producer: o.producer } : {}) });
const renamed = (name: string, original: string): AbstractBinding => ({ $type: 'RenamedBinding', location: at(), name, originalName: original });
const rebind = (name: string, o: { abstract?: boolean } = {}): AbstractBinding => ({ $type: 'Rebinding', location: at(), name, ...(o.abstract ? { abstract: true } : {}) });
const include = (...classNames: string[]): AbstractBinding => ({ $type: 'IncludeClassesBinding', location: at(), classNames });
const exclude = (...classNames: string[]): AbstractBinding => ({ $type: 'ExcludeClassesBinding', location: at(), classNames });
const parameters = (target: string, producer: ProducerDescriptor, o: { map?: Record<string, string>; abstract?: boolean; line?: number } = {}): AbstractBinding => ({
    $type: 'ParametersBinding', location: at(o.line), target, producer, ...(o.abstract ? { abstract: true } : {}),
    ...(o.map ? { map: Object.entries(o.map).map(([t, s]) => ({ $type: 'ParameterMapping', targetParameter: t, sourceParameter: s })) } : {})
});
const paramMap = (fromType: string, toType: string, map: Record<string, string>): AbstractBinding =>
    ({ $type: 'ParameterMapBinding', location: at(), fromType, toType, mappings: Object.entries(map).map(([t, s]) => ({ $type: 'ParameterMapping', targetParameter: t, sourceParameter: s })) });
const variables = (value: RichData | undefined, o: { type?: string; abstract?: boolean; names?: string[] } = {}): AbstractBinding => ({
    $type: 'VariablesBinding', location: at(), ...(value !== undefined ? { producer: constant(value) } : {}), ...(o.type ? { type: o.type } : {}),
    ...(o.abstract ? { abstract: true } : {}), ...(o.names ? { variableNames: o.names } : {})
});
const ref = (reference: string): ProducerDescriptor => ({ $type: 'InstanceReferenceProducerDescriptor', reference });
const optional = (producer: ProducerDescriptor): ProducerDescriptor => ({ $type: 'OptionalProducerDescriptor', producer });

/** A catalog with two Sql instances and a DbUserInfo, as the InstanceResolver answers. */
const catalog: InjectorOverrides = {
    resolver: () => ({
        resolve: (r: string) => ({
            'Sql[one]': pv({ user: 'admin', host: 'db1', port: 5432 }),
            'Sql[two]': pv({ user: 'other', host: 'db2', port: 5433 }),
            'DbUserInfo[general]': pv({ password: 'secret' })
        } as Record<string, ReturnType<typeof pv>>)[r]
    }),
    typeInfo: () => ({ parameterNames: (t: string) => ({ Web: ['user', 'host', 'docroot'], Sql: ['user', 'host', 'port'], Other: ['x'] } as Record<string, string[]>)[t] })
};

const rebinding: Case[] = [
    {
        name: 'ARM-8 Rebinding: bind alias creates a new key bound to the original producer; the original remains',
        model: () => site(bind('the meaning of life', 42), alias('the meaning of love', 'the meaning of life')),
        values: { 'the meaning of love': 42, 'the meaning of life': 42 }
    },
    {
        name: 'ARM-8 Rebinding: bind renamed is an alias that erases the original key',
        model: () => site(bind('the meaning of life', 42), renamed('the meaning of love', 'the meaning of life')),
        values: { 'the meaning of love': 42 },
        lookupErrors: { 'the meaning of life': 'INJECT_NOT_FOUND' },
        check: inj => expect(inj.explain('the meaning of life').candidates[0].reason).toBe('renamed')
    },
    {
        name: 'ARM-8 Rebinding: rebind re-binds an existing key\'s producer at a higher precedence',
        model: () => layered([layer('site', named('s', when(cat('environment', 'production'), bind('x', 'site-env')), when(cat('node', 'kermit.example.com'), rebind('x')))), layer('modules', named('m', bind('x', 'module')))]),
        values: { x: 'site-env' },
        check: inj => expect(inj.explain('x').candidates[0].bindingKind).toBe('Rebinding')
    },
    {
        name: 'ARM-8 Rebinding: a rebind in a higher layer reuses the lower layer\'s producer',
        model: () => layered([layer('site', named('s', rebind('x'))), layer('modules', named('m', bind('x', 'module')))]),
        values: { x: 'module' }
    },
    {
        name: 'ARM-8 Rebinding: the rebound key must exist or an error is raised',
        model: () => site(rebind('ghost')),
        errors: [['INJECT_REBIND_MISSING', "The rebound key 'Data/ghost' is not bound"]]
    },
    {
        name: 'ARM-8 Rebinding: an alias of an unbound key is an error',
        model: () => site(alias('new', 'ghost')),
        errors: ['INJECT_REBIND_MISSING']
    },
    {
        name: 'ARM-8 Rebinding: if it is not higher, the operation is meaningless (warning)',
        model: () => site(when(cat('node', 'kermit.example.com'), bind('x', 1)), rebind('x')),
        warnings: ['INJECT_REBIND_NOT_HIGHER'],
        values: { x: 1 }
    },
    {
        name: 'ARM-8 Rebinding: an abstract makes the re-bound key abstract',
        model: () => site(bind('x', 1), alias('y', 'x', { abstract: true })),
        errors: [['INJECT_ABSTRACT_NOT_OVERRIDDEN', "The abstract binding 'Data/y'"]]
    },
    {
        name: 'ARM-8 Rebinding: none of the three rebind operations accepts a producer',
        model: () => site(bind('x', 1), alias('y', 'x', { producer: constant(2) })),
        errors: [['INJECT_REBIND_PRODUCER', 'A AliasBinding does not accept a producer']]
    }
];

const classes: Case[] = [
    {
        name: 'ARM-8 Binding Classes: include name / include [a, b]; inject(\'/classes\') lists them',
        model: () => site(include('ntp'), include('apache', 'mysql::server')),
        values: { '/classes': ['ntp', 'apache', 'mysql::server'], included_classes: ['ntp', 'apache', 'mysql::server'] }
    },
    {
        name: 'ARM-8 Binding Classes: an include wins over an exclude of lower precedence; equal or higher excludes erase',
        model: () => layered([layer('site', named('s', include('keep'), exclude('drop'))), layer('modules', named('m', exclude('keep'), include('drop')))]),
        values: { '/classes': ['keep'] }
    },
    {
        name: 'ARM-8 Binding Classes: exclude of a non-existing included class is a no-op',
        model: () => site(include('ntp'), exclude('nothere')),
        values: { '/classes': ['ntp'], excluded_classes: ['nothere'] }
    },
    {
        name: 'ARM-8 Binding Classes: handled as multibindings to included_classes, so plain contributions work too',
        model: () => site(bind(undefined, 'from_enc', { in: 'included_classes' }), include('ntp')),
        values: { '/classes': ['from_enc', 'ntp'] }
    },
    {
        name: 'ARM-8 Binding Classes: includes in a when block apply per request',
        model: () => site(when(cat('node', 'kermit.example.com'), include('kermit')), when(cat('node', 'other'), include('other'))),
        values: { '/classes': ['kermit'] }
    }
];

const params: Case[] = [
    {
        name: 'ARM-8 Binding Parameters using a Literal Hash: each parameter is bound separately (/param/Class[ntp]/...)',
        model: () => site(parameters('ntp', constant({ autoupdate: false, enable: true, servers: ['0.us.pool.ntp.org iburst'] }))),
        values: { '/param/Class[ntp]/autoupdate': false, '/param/Class[ntp]/enable': true, '/param/Class[ntp]/servers': ['0.us.pool.ntp.org iburst'] }
    },
    {
        name: 'ARM-8 Binding Parameters: individually overridden by a higher precedence hash with the same keys',
        model: () => site(parameters('ntp', constant({ autoupdate: false, enable: true })), when(cat('node', 'kermit.example.com'), parameters('Class[ntp]', constant({ enable: false })))),
        values: { '/param/Class[ntp]/autoupdate': false, '/param/Class[ntp]/enable': false }
    },
    {
        name: 'ARM-8 Binding Parameters using Instance Reference with a map option (Web[one] to Sql[one])',
        model: () => site(parameters('Web[one]', ref('Sql[one]'), { map: { dbuser: 'user', dbhost: 'host' } })),
        services: catalog,
        values: { '/param/Web[one]/dbuser': 'admin', '/param/Web[one]/dbhost': 'db1' }
    },
    {
        name: 'ARM-8 Binding Parameter with Map per Type: bind map Web to Sql is used when no map option is given (/map/Web/Sql)',
        model: () => site(paramMap('Web', 'Sql', { db_host: 'host', db_port: 'port' }), parameters('Web[one]', ref('Sql[one]'))),
        services: catalog,
        values: { '/param/Web[one]/db_host': 'db1', '/param/Web[one]/db_port': 5432, '/map/Web/Sql': { db_host: 'host', db_port: 'port' } }
    },
    {
        name: 'ARM-8: a map option overrides the type-level map',
        model: () => site(paramMap('Web', 'Sql', { db_host: 'host' }), parameters('Web[one]', ref('Sql[one]'), { map: { db_host: 'port' } })),
        services: catalog,
        values: { '/param/Web[one]/db_host': 5432 }
    },
    {
        name: 'ARM-8: without a map the join of the two types\' parameter names is bound',
        model: () => site(parameters('Web[one]', ref('Sql[two]'))),
        services: catalog,
        values: { '/param/Web[one]/user': 'other', '/param/Web[one]/host': 'db2' },
        lookupErrors: { '/param/Web[one]/port': 'INJECT_NOT_FOUND' }
    },
    {
        name: 'ARM-8: if the join of parameter names is empty an error is raised ("map required")',
        model: () => site(parameters('Other[x]', ref('Sql[one]'))),
        services: catalog,
        errors: [['INJECT_MAP_REQUIRED', "map required: the parameters of 'Other[x]' cannot be bound to 'Sql'"]]
    },
    {
        name: 'ARM-8 Binding Parameters: to a producer (any object with keyed access) with a map',
        model: () => site(bind('ntp_settings', { ntp_servers: ['a', 'b'], iburst: true }), parameters('ntp', { $type: 'LookupProducerDescriptor', name: 'ntp_settings' }, { map: { servers: 'ntp_servers', iburst: 'iburst' } })),
        values: { '/param/Class[ntp]/servers': ['a', 'b'], '/param/Class[ntp]/iburst': true }
    },
    {
        name: 'ARM-8 Binding Parameters: to a producer without a map ("map required": its names are unknown)',
        model: () => site(bind('ntp_settings', { servers: ['a'] }), parameters('ntp', { $type: 'LookupProducerDescriptor', name: 'ntp_settings' })),
        errors: ['INJECT_MAP_REQUIRED']
    },
    {
        name: 'ARM-8: it is not allowed to bind a type more than once as a parameters producer (Sql[one], Sql[two])',
        model: () => site(parameters('Web[one]', ref('Sql[one]'), { line: 70 }), parameters('Web[one]', ref('Sql[two]'), { line: 71 })),
        services: catalog,
        errors: [['INJECT_PARAMETERS_TYPE_TWICE', 'bindings/test.pp:70 and bindings/test.pp:71']]
    },
    {
        name: 'ARM-8: different types may be bound as parameter producers of one target (Sql[one], DbUserInfo[general])',
        model: () => site(parameters('Web[one]', ref('Sql[one]'), { map: { dbuser: 'user' } }), parameters('Web[one]', ref('DbUserInfo[general]'), { map: { dbpassword: 'password' } })),
        services: catalog,
        values: { '/param/Web[one]/dbuser': 'admin', '/param/Web[one]/dbpassword': 'secret' }
    },
    {
        name: 'ARM-8 Optional Producer: bind parameters Web[one] to optional LimitedServices[web] is ignored when absent',
        model: () => layered([layer('site', named('s', parameters('Web[one]', optional(ref('LimitedServices[web]')), { map: { docroot: 'root' } }))), layer('modules', named('m', parameters('Web[one]', constant({ docroot: '/var/www' }))))]),
        services: catalog,
        values: { '/param/Web[one]/docroot': '/var/www' }
    },
    {
        name: 'ARM-8 Instance names: URL-encoded in /param keys (File[\'foo/bar[x]\'] is File[foo%2Fbar%5Bx%5D])',
        model: () => site(parameters("File['foo/bar[x]']", constant({ mode: '0644' }))),
        values: { '/param/File[foo%2Fbar%5Bx%5D]/mode': '0644' }
    },
    {
        name: 'ARM-8 Invariants of Abstract Bindings: parameters cannot be bound abstract',
        model: () => site(parameters('ntp', constant({ a: 1 }), { abstract: true })),
        errors: ['INJECT_ABSTRACT_PARAMETERS']
    }
];

const vars: Case[] = [
    {
        name: 'ARM-8 Binding Variables: each variable is bound separately as /var/name',
        model: () => site(variables({ myvar: 42, my_other_var: 44 })),
        values: { '/var/myvar': 42, '/var/my_other_var': 44 }
    },
    {
        name: 'ARM-8 Binding Variables: individually shadowed by a binding of higher precedence',
        model: () => layered([layer('site', named('s', variables({ myvar: 1 }))), layer('modules', named('m', variables({ myvar: 42, other: 2 })))]),
        values: { '/var/myvar': 1, '/var/other': 2 }
    },
    {
        name: 'ARM-8 Typing Variables: bind variables Integer to { a => 10, b => bananas } is an error for b',
        model: () => site(variables({ a: 10, b: 'bananas' }, { type: 'Integer' })),
        errors: [['INJECT_VARIABLE_TYPE', "Type error: variable '$b' must be Integer, got: String"]]
    },
    {
        name: 'ARM-8 Abstract Binding of Variables: an abstract variable that nobody binds is an error',
        model: () => site(variables(undefined, { abstract: true, names: ['mainurl'] })),
        errors: [['INJECT_ABSTRACT_NOT_OVERRIDDEN', "The abstract binding '/var/mainurl'"]]
    },
    {
        name: 'ARM-8 Abstract Binding of Variables: declaring several at once (bind abstract variables to [a, b]), bound in a higher layer',
        model: () => layered([layer('site', named('s', variables({ must_be_set: 'x', this_too: 'y' }))), layer('modules', named('m', variables(['must_be_set', 'this_too'], { abstract: true })))]),
        values: { '/var/must_be_set': 'x', '/var/this_too': 'y' }
    },
    {
        name: 'ARM-8 Abstract Binding of Variables: bind abstract variable Array[String] constrains the concrete binding',
        model: () => layered([layer('site', named('s', variables({ blog_administrators: 'bob' }))), layer('modules', named('m', variables(undefined, { abstract: true, type: 'Array[String]', names: ['blog_administrators'] })))]),
        errors: [['INJECT_VARIABLE_TYPE', "variable '$blog_administrators' must be Array[String], got: String"]]
    },
    {
        name: 'ARM-8: variable binding keys are unique across all types',
        model: () => site(variables({ v: 1 }, { type: 'Integer' }), variables({ v: 'x' }, { type: 'String' })),
        errors: ['INJECT_CONFLICT_SAME_BINDINGS']
    },
    {
        name: 'ARM-8: variables are bound to a literal hash',
        model: () => site({ $type: 'VariablesBinding', location: at(), producer: { $type: 'LookupProducerDescriptor', name: 'x' } } as AbstractBinding),
        errors: ['INJECT_VARIABLES_NOT_HASH']
    }
];

const dependencies: Case[] = [
    {
        name: 'ARM-8 Binding Dependencies: bind dependency File[sshd_config] ~> Service[sshd] (collected under /dependencies)',
        model: () => site({ $type: 'DependencyBinding', location: at(), sources: ["File['/etc/ssh/sshd_config']"], targets: ['Service[sshd]'], arrow: 'notify' } as AbstractBinding),
        values: { '/dependencies': [{ sources: ["File['/etc/ssh/sshd_config']"], targets: ['Service[sshd]'], arrow: '~>' }] }
    }
];

describe('ARM-8 rebinding (alias, renamed, rebind)', () => {
    it.each(rebinding)('$name', c => runCase(c));
});
describe('ARM-8 Binding Classes', () => {
    it.each(classes)('$name', c => runCase(c));
});
describe('ARM-8 Binding Parameters and maps', () => {
    it.each(params)('$name', c => runCase(c));

    it('parses parameter targets as ARM-8 writes them', () => {
        expect(parseTarget('ntp').key).toBe('Class[ntp]');
        expect(parseTarget('class ntp').key).toBe('Class[ntp]');
        expect(parseTarget("Class['ntp']").key).toBe('Class[ntp]');
        expect(parseTarget('Web').key).toBe('Web');
        expect(parseTarget("Web['one']")).toEqual({ key: 'Web[one]', type: 'Web', title: 'one' });
        expect(escapeInstanceName('100%/[x]')).toBe('100%25%2F%5Bx%5D');
    });
});
describe('ARM-8 Binding Variables', () => {
    it.each(vars)('$name', c => runCase(c));
});
describe('ARM-8 Binding Dependencies', () => {
    it.each(dependencies)('$name', c => runCase(c));
});

export const COUNT = rebinding.length + classes.length + params.length + 1 + vars.length + dependencies.length;
