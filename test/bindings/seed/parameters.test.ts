import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type Catalog, type SeedCase } from './harness.js';

/**
 * ARM-8 "Binding Parameters" (hash, instance, map per type, advanced), "Binding Variables"
 * (typed, abstract) and "Binding Dependencies", each statement through the CLI.
 */
const NTP = `class ntp($servers = [], $enable = true, $autoupdate = true) {\n  notify { 'ntp': message => "\${servers} \${enable} \${autoupdate}" }\n}\ninclude ntp\n`;
const WEB = `define web($dbuser = 'none', $dbpassword = 'none', $port = 80) {\n  notify { "web \${title}": message => "\${dbuser} \${dbpassword} \${port}" }\n}\n`;
const SQL = `define sql($user, $password = 'secret', $port = 5432) { }\n`;

const PARAMETERS: readonly SeedCase[] = [
    {
        section: 'Binding Parameters using a Literal Hash', rule: 'bind parameters CLASS to { hash } sets the class parameters',
        files: { 'bindings/default.pp': b(`  bind parameters ntp to {\n    autoupdate => false,\n    enable => true,\n    servers => ['0.us.pool.ntp.org iburst', '1.us.pool.ntp.org iburst']\n  }`), 'manifests/site.pp': NTP },
        run: 'compile', expect: { ntp: '[0.us.pool.ntp.org iburst, 1.us.pool.ntp.org iburst] true false' }
    },
    {
        section: 'Binding Parameters using a Literal Hash', rule: 'each parameter is bound separately and individually overridden',
        files: { 'bindings/default.pp': b(`  bind parameters ntp to { servers => ['a'], enable => true }\n  when node 'n1.example.com' { bind parameters ntp to { enable => false } }`), 'manifests/site.pp': NTP },
        run: 'compile', expect: { ntp: '[a] false true' }
    },
    {
        section: 'Binding Parameters using a Literal Hash', rule: 'class ntp and Class[ntp] name the same class',
        files: { 'bindings/default.pp': b(`  bind parameters class ntp to { servers => ['a'] }\n  bind parameters Class[ntp] to { enable => false }`), 'manifests/site.pp': NTP },
        run: 'compile', expect: { ntp: '[a] false true' }
    },
    {
        section: 'Binding Parameters using a Literal Hash', rule: 'a value given in the manifest wins over the bound one',
        files: { 'bindings/default.pp': b(`  bind parameters ntp to { servers => ['bound'], enable => false }`), 'manifests/site.pp': NTP.replace('include ntp', "class { 'ntp': servers => ['given'] }") },
        run: 'compile', expect: { ntp: '[given] false true' }
    },
    {
        section: 'Binding Parameters', rule: 'a resource type: every instance gets the parameter',
        files: { 'bindings/default.pp': b(`  bind parameters Web to { port => 8080 }`), 'manifests/site.pp': `${WEB}web { 'one': }\nweb { 'two': port => 81 }\n` },
        run: 'compile', expect: { 'web one': 'none none 8080', 'web two': 'none none 81' }
    },
    {
        section: 'Binding Parameters', rule: 'a resource instance: only that instance, and before the type',
        files: { 'bindings/default.pp': b(`  bind parameters Web to { port => 8080 }\n  bind parameters Web[one] to { port => 1 }`), 'manifests/site.pp': `${WEB}web { 'one': }\nweb { 'two': }\n` },
        run: 'compile', expect: { 'web one': 'none none 1', 'web two': 'none none 8080' }
    },
    {
        section: 'Binding Parameters using Instance Reference', rule: 'bind parameters Web[one] to Sql[one] { map => ... } takes them from Sql[one] in the catalog',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to Sql[one] {\n    map => { dbuser => user, dbpassword => password }\n  }`), 'manifests/site.pp': `${WEB}${SQL}web { 'one': }\nsql { 'one': user => 'bob', password => 'pw' }\n` },
        run: 'compile', expect: { 'web one': 'bob pw 80' }
    },
    {
        section: 'Binding Parameter with Map per Type', rule: 'bind map Web to Sql {...} is used when the instance binding has no map',
        files: { 'bindings/default.pp': b(`  bind map Web to Sql { dbuser => user }\n  bind parameters Web[one] to Sql[one]`), 'manifests/site.pp': `${WEB}${SQL}sql { 'one': user => 'bob', port => 99 }\nweb { 'one': }\n` },
        run: 'compile', expect: { 'web one': 'bob none 80' }
    },
    {
        section: 'Advanced Parameter Bindings', rule: 'without a map, the parameter names both types share are bound',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to Sql[one]`), 'manifests/site.pp': `${WEB}${SQL}sql { 'one': user => 'bob', port => 99 }\nweb { 'one': }\n` },
        run: 'compile', expect: { 'web one': 'none none 99' }
    },
    {
        section: 'Advanced Parameter Bindings', rule: 'no map and no common names: "map required"',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to Dbinfo[main]`), 'manifests/site.pp': `${WEB}define dbinfo($login) {}\ndbinfo { 'main': login => 'x' }\nweb { 'one': }\n` },
        run: 'compile', error: { code: 'INJECT_MAP_REQUIRED', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Advanced Parameter Bindings', rule: 'a map option overrides the bind map of the types',
        files: { 'bindings/default.pp': b(`  bind map Web to Sql { dbuser => user }\n  bind parameters Web[one] to Sql[one] { map => { dbpassword => password } }`), 'manifests/site.pp': `${WEB}${SQL}sql { 'one': user => 'bob', password => 'pw' }\nweb { 'one': }\n` },
        run: 'compile', expect: { 'web one': 'none pw 80' }
    },
    {
        section: 'Advanced Parameter Bindings', rule: 'a type may not be bound twice as a parameters producer',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to Sql[one]\n  bind parameters Web[one] to Sql[two]`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:3', message: /VALIDATE_BIND_PARAMETERS_PRODUCER_TWICE/ }
    },
    {
        section: 'Advanced Parameter Bindings', rule: 'a type bound twice across files is the injector\'s error',
        files: {
            'bindings/site.pp': "site {\n  bindings => [layer { 'site': include => ['confdir:/default', 'confdir:/more'] }]\n}\n",
            'bindings/default.pp': b(`  bind parameters Web[one] to Sql[one]`), 'bindings/more.pp': `bindings more {\n  bind parameters Web[one] to Sql[two]\n}\n`
        },
        key: '/param/Web[one]/port', error: { code: 'INJECT_PARAMETERS_TYPE_TWICE', at: 'bindings/default.pp:2:3' }
    },
    {
        section: 'Advanced Parameter Bindings', rule: 'different types may be bound (X from Y and Z through maps)',
        files: {
            'bindings/default.pp': b(`  bind map X to Y { a => a }\n  bind map X to Z { b => b, c => c }\n  bind parameters X to Y[some_y]\n  bind parameters X to Z[some_z]`),
            'manifests/site.pp': `define x($a = 0, $b = 0, $c = 0) { notify { "x \${title}": message => "\${a} \${b} \${c}" } }\ndefine y($a, $b, $c) {}\ndefine z($a, $b, $c) {}\ny { 'some_y': a => 1, b => 2, c => 3 }\nz { 'some_z': a => 4, b => 5, c => 6 }\nx { 'one': }\n`
        },
        run: 'compile', expect: { 'x one': '1 5 6' }
    },
    {
        section: 'Optional Producer', rule: 'bind parameters Web[one] to optional LimitedServices[web]: ignored when it is not in the catalog',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to optional Limitedservices[web]`), 'manifests/site.pp': `${WEB}define limitedservices($port) {}\nweb { 'one': }\n` },
        run: 'compile', expect: { 'web one': 'none none 80' }
    },
    {
        section: 'Optional Producer', rule: 'and used when it is',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to optional Limitedservices[web]`), 'manifests/site.pp': `${WEB}define limitedservices($port) {}\nlimitedservices { 'web': port => 8000 }\nweb { 'one': }\n` },
        run: 'compile', expect: { 'web one': 'none none 8000' }
    },
    {
        section: 'Binding Parameters using Instance Reference', rule: 'an instance that is not in the catalog is an error (without optional)',
        files: { 'bindings/default.pp': b(`  bind parameters Web[one] to Sql[one]`), 'manifests/site.pp': `${WEB}${SQL}web { 'one': }\n` },
        run: 'compile', error: { code: 'INJECT_INSTANCE_NOT_FOUND', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Naming Scheme', rule: '/param/Class[name]/pname, /param/ResourceType/pname, /param/ResourceType[instancename]/pname',
        files: {
            'bindings/default.pp': b(`  bind parameters ntp to { servers => ['a'] }\n  bind parameters Web to { port => 1 }\n  bind parameters Web[one] to { port => 2 }`),
            'manifests/site.pp': notifies({ a: "inject('/param/Class[ntp]/servers')", b: "inject('/param/Web/port')", c: "inject('/param/Web[one]/port')" })
        },
        run: 'compile', expect: { a: ['a'], b: 1, c: 2 }
    },
    {
        section: 'Instance names', rule: 'instance names are URL-encoded for / [ ] %',
        files: { 'bindings/default.pp': b(`  bind parameters File['foo/bar[x]'] to { mode => '0644' }`) },
        key: '/param/File[foo%2Fbar%5Bx%5D]/mode', expect: '0644'
    },
    {
        section: 'Parameter Maps', rule: '/map/LHSType/RHSType',
        files: { 'bindings/default.pp': b(`  bind map Web to Sql { dbuser => user }`) },
        key: '/map/Web/Sql', expect: { dbuser: 'user' }
    }
];

const VARIABLES: readonly SeedCase[] = [
    {
        section: 'Binding Variables', rule: 'bind variables to {...} sets top-scope variables',
        files: { 'bindings/default.pp': b(`  bind variables to {\n    myvar => 42,\n    my_other_var => 44\n  }`), 'manifests/site.pp': `class c { notify { 'v': message => "\${::myvar} \${my_other_var}" } }\ninclude c\n` },
        run: 'compile', expect: { v: '42 44' }
    },
    {
        section: 'Binding Variables', rule: 'each variable is /var/NAME',
        files: { 'bindings/default.pp': b(`  bind variables to { myvar => 42 }`) },
        key: '/var/myvar', expect: 42
    },
    {
        section: 'Binding Variables', rule: 'each variable may be shadowed by a binding of higher precedence',
        files: { 'bindings/default.pp': b(`  bind variables to { a => 1, b => 2 }\n  when node 'n1.example.com' { bind variables to { b => 3 } }`), 'manifests/site.pp': notifies({ v: '"${a} ${b}"' }) },
        run: 'compile', expect: { v: '1 3' }
    },
    {
        section: 'Binding Variables', rule: 'variable names are unique across types',
        files: { 'bindings/default.pp': b(`  bind variables Integer to { a => 1 }\n  bind variables String to { a => 'x' }`) },
        key: '/var/a', error: { code: 'INJECT_CONFLICT_SAME_BINDINGS', at: 'bindings/default.pp:2' }
    },
    {
        section: 'Typing Variables', rule: 'bound literals must comply with the declared type',
        files: { 'bindings/default.pp': b(`  bind variables Integer to {\n    a => 10,\n    b => 'bananas'\n  }`) },
        key: '/var/a', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:4', message: /VALIDATE_BIND_VARIABLE_TYPE_MISMATCH/ }
    },
    {
        section: 'Typing Variables', rule: 'a typed variable binding',
        files: { 'bindings/default.pp': b(`  bind variables Integer to { a => 10 }`), 'manifests/site.pp': notifies({ v: '$a + 1' }) },
        run: 'compile', expect: { v: 11 }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'bind variables abstract to \'mainurl\': an error when nobody sets it',
        files: { 'bindings/default.pp': b(`  bind variables abstract to 'mainurl'`), 'manifests/site.pp': '' },
        run: 'compile', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3', message: /mainurl/ }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'bind abstract variables to [names]: each must be set',
        files: { 'bindings/default.pp': b(`  bind abstract variables to ['must_be_set', 'this_too']\n  when node 'n1.example.com' { bind variables to { must_be_set => 1 } }`) },
        key: '/var/must_be_set', error: { code: 'INJECT_ABSTRACT_NOT_OVERRIDDEN', at: 'bindings/default.pp:2:3', message: /this_too/ }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'abstract variables set by a higher precedence binding',
        files: { 'bindings/default.pp': b(`  bind abstract variables to ['must_be_set', 'this_too']\n  when node 'n1.example.com' { bind variables to { must_be_set => 1, this_too => 2 } }`), 'manifests/site.pp': notifies({ v: '"${must_be_set} ${this_too}"' }) },
        run: 'compile', expect: { v: '1 2' }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'a module\'s abstract variable set by the site',
        files: { 'bindings/default.pp': b(`  bind variables to { mainurl => 'http://x' }`), 'modules/m/bindings/default.pp': `bindings m::default {\n  bind variables abstract to 'mainurl'\n}\n`, 'manifests/site.pp': notifies({ v: '$::mainurl' }) },
        run: 'compile', expect: { v: 'http://x' }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'a top-scope variable the node\'s facts set satisfies an abstract variable',
        files: { 'facts.yaml': 'fqdn: n1.example.com\nmainurl: http://fact\n', 'bindings/default.pp': b(`  bind variables abstract to 'mainurl'`), 'manifests/site.pp': notifies({ v: '$::mainurl' }) },
        run: 'compile', expect: { v: 'http://fact' }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'a typed abstract variable constrains the value that sets it',
        files: { 'bindings/default.pp': b(`  bind abstract variable Array[String] to ['blog_administrators']\n  when node 'n1.example.com' { bind variables to { blog_administrators => 'alice' } }`) },
        key: '/var/blog_administrators', error: { code: 'INJECT_VARIABLE_TYPE', at: 'bindings/default.pp:3' }
    },
    {
        section: 'Abstract Binding of Variables', rule: 'a typed abstract variable accepts a value of its type',
        files: { 'bindings/default.pp': b(`  bind abstract variable Array[String] to ['blog_administrators']\n  when node 'n1.example.com' { bind variables to { blog_administrators => ['alice'] } }`) },
        key: '/var/blog_administrators', expect: ['alice']
    },
    {
        section: 'Abstract Binding of Variables', rule: 'a fact of the wrong type does not satisfy a typed abstract variable',
        files: { 'facts.yaml': 'fqdn: n1.example.com\nadmins: alice\n', 'bindings/default.pp': b(`  bind abstract variable Array[String] to ['admins']`), 'manifests/site.pp': '' },
        run: 'compile', error: { code: 'INJECT_VARIABLE_TYPE', at: 'bindings/default.pp:2' }
    }
];

const DEPENDENCIES: readonly SeedCase[] = [
    {
        section: 'Binding Dependencies', rule: '~> notifies, -> is before, when both sides are in the catalog',
        files: { 'bindings/default.pp': b(`  bind dependency File['/etc/ssh/sshd_config'] ~> Service['sshd']\n  bind dependency Package['ssh'] -> File['/etc/ssh/sshd_config']`), 'manifests/site.pp': `package { 'ssh': }\nfile { '/etc/ssh/sshd_config': }\nservice { 'sshd': }\n` },
        run: 'compile',
        check: (_r, cat) => {
            const p = (t: string, title: string): Record<string, unknown> | undefined => cat?.resources.find(x => x.type === t && x.title === title)?.parameters;
            expect(p('File', '/etc/ssh/sshd_config')?.notify).toEqual(['Service[sshd]']);
            expect(p('Package', 'ssh')?.before).toEqual(['File[/etc/ssh/sshd_config]']);
        }
    },
    {
        section: 'Binding Dependencies', rule: 'arrays of references, and chains',
        files: { 'bindings/default.pp': b(`  bind dependency [File['/a'], File['/b']] -> File['/c'] -> File['/d']`), 'manifests/site.pp': `file { ['/a', '/b', '/c', '/d']: }\n` },
        run: 'compile',
        check: (_r, cat) => {
            const before = (title: string): unknown => cat?.resources.find(x => x.type === 'File' && x.title === title)?.parameters?.before;
            expect([before('/a'), before('/b'), before('/c')]).toEqual([['File[/c]'], ['File[/c]'], ['File[/d]']]);
        }
    },
    {
        section: 'Binding Dependencies', rule: 'nothing when one side is not in the catalog',
        files: { 'bindings/default.pp': b(`  bind dependency File['/a'] -> File['/missing']`), 'manifests/site.pp': `file { '/a': }\n` },
        run: 'compile',
        check: (_r, cat) => expect(cat?.resources.find(x => x.type === 'File' && x.title === '/a')?.parameters?.before).toBeUndefined()
    },
    {
        section: 'Binding Dependencies', rule: 'right-to-left arrows are not supported',
        files: { 'bindings/default.pp': b(`  bind dependency Service['sshd'] <~ File['/etc/ssh/sshd_config']`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:2', message: /VALIDATE_BIND_DEPENDENCY_ARROW/ }
    }
];

describe('ARM-8 Binding Parameters, Variables and Dependencies (seed statements through the CLI)', () => {
    test.each(named([...PARAMETERS, ...VARIABLES, ...DEPENDENCIES]))('%s', async (_n, c) => check(c));
});

describe('ARM-8 Binding Parameters: a class is its own instance', () => {
    test.each(named([
        {
            section: 'Binding Parameters', rule: 'bind parameters to class X takes the parameters of Class[X] in the catalog',
            files: {
                'bindings/default.pp': b(`  bind parameters Web[one] to class dbconfig { map => { dbuser => user } }\n  bind parameters Web[two] to Class[dbconfig] { map => { dbuser => user } }`),
                'manifests/site.pp': `${WEB}class dbconfig($user = 'dbadmin') { }\ninclude dbconfig\nweb { ['one', 'two']: }\n`
            },
            run: 'compile', expect: { 'web one': 'dbadmin none 80', 'web two': 'dbadmin none 80' }
        }
    ] as SeedCase[]))('%s', async (_n, c) => check(c));
});

/**
 * "<instantiateable-type> is a reference to a classname, a type, a resource instance": the type may
 * be any resource type, built-in (File) or a module's (Resource API), not only a define. The
 * binding gives what the manifest leaves out, and "it is possible to bind to the meta-parameters
 * before, require, notify and subscribe" (Binding Dependencies) this way too.
 */
const WIDGET = `require 'puppet/resource_api'
Puppet::ResourceApi.register_type(
  name: 'widget',
  desc: 'A widget.',
  attributes: {
    ensure: { type: 'Enum[present, absent]', desc: 'e', default: 'present' },
    name:   { type: 'String', desc: 'n', behaviour: :namevar },
    colour: { type: 'Optional[String]', desc: 'c' },
    size:   { type: 'Optional[Integer]', desc: 's', behaviour: :parameter },
  },
)
`;
const paramsOf = (cat: Catalog | undefined, type: string, title: string): Record<string, unknown> | undefined =>
    cat?.resources.find(x => x.type === type && x.title === title)?.parameters;

describe('ARM-8 Binding Parameters of built-in and module resource types', () => {
    test.each(named([
        {
            section: 'Binding Parameters', rule: 'a built-in type: every File gets what its declaration leaves out, an instance binding first',
            files: {
                'bindings/default.pp': b(`  bind parameters File to { mode => '0644', owner => 'root' }\n  bind parameters File['/b'] to { mode => '0600' }`),
                'manifests/site.pp': `file { '/a': }\nfile { '/b': }\nfile { '/c': mode => '0755' }\n`
            },
            run: 'compile',
            check: (_r, cat) => expect(['/a', '/b', '/c'].map(t => paramsOf(cat, 'File', t))).toEqual([
                { mode: '0644', owner: 'root' }, { mode: '0600', owner: 'root' }, { mode: '0755', owner: 'root' }
            ])
        },
        {
            section: 'Advanced Parameter Bindings', rule: 'a join without a map knows module types\' attributes (the names both share, never the namevar)',
            files: {
                'modules/m/lib/puppet/type/widget.rb': WIDGET,
                'modules/m/lib/puppet/type/gadget.rb': WIDGET.replace("name: 'widget'", "name: 'gadget'").replace('size:   {', 'weight: {'),
                'bindings/default.pp': b(`  bind parameters Widget['w'] to Gadget['src']`),
                'manifests/site.pp': `gadget { 'src': ensure => absent, colour => 'green', weight => 4 }\nwidget { 'w': }\n`
            },
            run: 'compile',
            check: (_r, cat) => expect(paramsOf(cat, 'Widget', 'w')).toEqual({ ensure: 'absent', colour: 'green' })
        },
        {
            section: 'Instance names', rule: 'a built-in type instance whose title has / and [ ] (its key is URL-encoded)',
            files: {
                'bindings/default.pp': b(`  bind parameters File['/etc/motd'] to { mode => '0600' }\n  bind parameters File['/a[1]'] to { owner => 'x' }`),
                'manifests/site.pp': `file { '/etc/motd': }\nfile { '/a[1]': }\nfile { '/other': }\n`
            },
            run: 'compile',
            check: (_r, cat) => expect(['/etc/motd', '/a[1]', '/other'].map(t => paramsOf(cat, 'File', t))).toEqual([{ mode: '0600' }, { owner: 'x' }, undefined])
        },
        {
            section: 'Binding Parameters', rule: 'what the manifest gives, a resource default too, wins over the binding',
            files: { 'bindings/default.pp': b(`  bind parameters File to { mode => '0644' }`), 'manifests/site.pp': `File { mode => '0700' }\nfile { '/a': }\n` },
            run: 'compile',
            check: (_r, cat) => expect(paramsOf(cat, 'File', '/a')).toEqual({ mode: '0700' })
        },
        {
            section: 'Binding Parameters', rule: 'a module\'s Resource API type; never its namevar, nor a name the type does not have',
            files: {
                'modules/m/lib/puppet/type/widget.rb': WIDGET,
                'bindings/default.pp': b(`  bind parameters Widget to { colour => 'blue', size => 3, name => 'other', nosuch => 1 }\n  when node 'n1.example.com' { bind parameters Widget['w2'] to { colour => 'red' } }`),
                'manifests/site.pp': `widget { 'w1': }\nwidget { 'w2': size => 4 }\n`
            },
            run: 'compile',
            check: (_r, cat) => expect([paramsOf(cat, 'Widget', 'w1'), paramsOf(cat, 'Widget', 'w2')]).toEqual([{ colour: 'blue', size: 3 }, { colour: 'red', size: 4 }])
        },
        {
            section: 'Binding Dependencies', rule: 'relationship metaparameters bound as parameters (a resource and a define instance)',
            files: {
                'bindings/default.pp': b(`  bind parameters Notify['b'] to { require => Notify['a'] }\n  bind parameters Web['one'] to { before => Notify['a'] }`),
                'manifests/site.pp': `${WEB}notify { 'a': }\nnotify { 'b': }\nweb { 'one': }\n`
            },
            run: 'compile',
            check: (_r, cat) => expect([paramsOf(cat, 'Notify', 'b')?.require, paramsOf(cat, 'Web', 'one')?.before]).toEqual(['Notify[a]', 'Notify[a]'])
        }
    ] as SeedCase[]))('%s', async (_n, c) => check(c));
});
