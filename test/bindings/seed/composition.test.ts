import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "How and Where are Bindings Defined", "Composition of Bindings" (layers, include and
 * exclude), "Bindings Provider" (confdir, module, enc, custom) and "Resolution of
 * Inconsistencies", each statement through the CLI.
 */
const MODULE = (name: string, body: string, file = 'default'): Record<string, string> => ({ [`modules/${name}/bindings/${file}.pp`]: `bindings ${name}::${file} {\n${body}\n}\n` });
const LAYERS = (...layers: string[]): string => `site {\n  bindings => [\n${layers.map(l => `    ${l}`).join(',\n')}\n  ]\n}\n`;

/** An ENC (Puppet's exec terminus contract: `COMMAND NODE` prints YAML) configured in bindings/providers.yaml. */
const ENC = (yaml: string): Record<string, string> => ({
    'bindings/providers.yaml': 'enc: sh enc.sh\n',
    'bindings/enc.sh': `cat <<'EOF'\n${yaml}EOF\n`
});
const ENC_ANSWER = `classes:\n  ntp:\n    servers: [enc.pool.ntp.org]\n  ssh:\nparameters:\n  rack: r1\n`;
const ENC_MANIFEST = `class ntp($servers = []) { notify { 'ntp': message => $servers } }\nclass ssh { notify { 'ssh': } }\nnotify { 'rack': message => "rack \${rack}" }\n`;

const CASES: readonly SeedCase[] = [
    {
        section: 'How and Where are Bindings Defined', rule: '$confdir/bindings/default.pp holds bindings default',
        files: { 'bindings/default.pp': b(`  bind 'x' to 1`) },
        key: 'x', expect: 1
    },
    {
        section: 'How and Where are Bindings Defined', rule: 'a module\'s bindings mymodule::default are in its bindings/default.pp',
        files: MODULE('mymodule', `  bind 'x' to 1`),
        key: 'x', expect: 1
    },
    {
        section: 'How and Where are Bindings Defined', rule: 'a file must define the bindings named after it',
        files: { 'modules/mymodule/bindings/default.pp': `bindings default {\n  bind 'x' to 1\n}\n` },
        key: 'x', error: { code: 'BIND_WRONG_NAME', at: 'modules/mymodule/bindings/default.pp:1:1' }
    },
    {
        section: 'How and Where are Bindings Defined', rule: 'a bindings file that does not parse is a located error',
        files: { 'bindings/default.pp': `bindings default {\n  bind 'x' to\n}\n` },
        key: 'x', error: { code: 'BIND_PARSE', at: 'bindings/default.pp:3:1' }
    },
    {
        section: 'Composition of Bindings', rule: 'by default the site layer (confdir:/default) shadows the modules layer',
        files: { 'bindings/default.pp': b(`  bind 'color' to 'green'`), ...MODULE('a', `  bind 'color' to 'blue'`) },
        key: 'color', expect: 'green'
    },
    {
        section: 'Composition of Bindings', rule: 'two modules binding one key in the same layer and category conflict',
        files: { ...MODULE('a', `  bind 'color' to 'blue'`), ...MODULE('b', `  bind 'color' to 'red'`) },
        key: 'color', error: { code: 'INJECT_CONFLICT', at: 'modules/a/bindings/default.pp:2:3', message: /layer: 'modules', from: 'a::default', and 'b::default'/ }
    },
    {
        section: 'Composition of Bindings', rule: 'a binding in a higher layer masks the conflict of a lower one',
        files: { 'bindings/default.pp': b(`  bind 'color' to 'green'`), ...MODULE('a', `  bind 'color' to 'blue'`), ...MODULE('b', `  bind 'color' to 'red'`) },
        key: 'color', expect: 'green'
    },
    {
        section: 'Composition of Bindings', rule: 'the default layers spelled out in site { bindings => [...] } (in the environment manifest)',
        files: {
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'modules': include => "module:/*::default" }`),
            'bindings/default.pp': b(`  bind 'color' to 'green'`), ...MODULE('a', `  bind 'color' to 'blue'`)
        },
        key: 'color', expect: 'green'
    },
    {
        section: 'Composition of Bindings', rule: 'layers are listed from highest to lowest precedence',
        files: {
            'manifests/site.pp': LAYERS(`layer { 'modules': include => "module:/*::default" }`, `layer { 'site': include => "confdir:/default" }`),
            'bindings/default.pp': b(`  bind 'color' to 'green'`), ...MODULE('a', `  bind 'color' to 'blue'`)
        },
        key: 'color', expect: 'blue'
    },
    {
        section: 'Composition of Bindings', rule: 'a higher layer wins whatever the categories of a lower one',
        files: { 'bindings/default.pp': b(`  bind 'color' to 'green'`), ...MODULE('a', `  when node 'n1.example.com' { bind 'color' to 'blue' }`) },
        key: 'color', expect: 'green'
    },
    {
        section: 'Composition of Bindings', rule: 'layer names are labels in messages',
        files: { 'manifests/site.pp': LAYERS(`layer { 'everything': include => ["confdir:/default", "module:/*::default"] }`), 'bindings/default.pp': b(`  bind 'color' to 'green'`), ...MODULE('a', `  bind 'color' to 'blue'`) },
        key: 'color', error: { code: 'INJECT_CONFLICT', message: /in layer: 'everything'/ }
    },
    {
        section: 'Composition of Bindings', rule: 'two layers with one name are an error',
        files: { 'manifests/site.pp': LAYERS(`layer { 'a': include => "confdir:/default" }`, `layer { 'a': include => "module:/*::default" }`), 'bindings/default.pp': b(`  bind 'x' to 1`) },
        key: 'x', error: { code: 'BIND_PARSE', at: 'manifests/site.pp:4', message: /VALIDATE_LAYER_DUPLICATE/ }
    },
    {
        section: 'Selecting Bindings with include and exclude', rule: 'the excluded bindings are not used, the included are',
        files: {
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'modules':\n      include => ["module:/*::default", "module:/MySpecial::load_balanced"],\n      exclude => ["module:/myspecial::default"]\n    }`) + notifies({ m: "inject('mode')", o: "inject('other')" }),
            'bindings/default.pp': b(`  bind 'unrelated' to 1`),
            ...MODULE('myspecial', `  bind 'mode' to 'single'`), ...MODULE('myspecial', `  bind 'mode' to 'load balanced'`, 'load_balanced'), ...MODULE('other', `  bind 'other' to 'kept'`)
        },
        run: 'compile', expect: { m: 'load balanced', o: 'kept' }
    },
    {
        section: 'Resolution of Inconsistencies', rule: 'a resolutions layer between the site and the modules resolves their conflict',
        files: {
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'resolutions': include => "module:/x::resolutions" }`, `layer { 'modules': include => "module:/*::default" }`),
            'bindings/default.pp': b(`  bind 'unrelated' to 1`),
            ...MODULE('a', `  bind 'color' to 'blue'`), ...MODULE('b', `  bind 'color' to 'red'`), ...MODULE('x', `  bind 'color' to 'purple'`, 'resolutions')
        },
        key: 'color', expect: 'purple'
    },
    {
        section: 'Confdir Bindings Provider', rule: 'confdir:/windows::default is bindings/windows/default.pp',
        files: { 'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/windows::default" }`), 'bindings/windows/default.pp': `bindings windows::default {\n  bind 'x' to 'windows'\n}\n` },
        key: 'x', expect: 'windows'
    },
    {
        section: 'Confdir Bindings Provider', rule: 'an asterisk matches a single missing segment',
        files: {
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/*::default" }`),
            'bindings/windows/default.pp': `bindings windows::default {\n  bind 'w' to 1\n}\n`, 'bindings/linux/default.pp': `bindings linux::default {\n  bind 'l' to 2\n}\n`,
            'bindings/linux/deep/default.pp': `bindings linux::deep::default {\n  bind 'd' to 3\n}\n`, 'manifests/x.pp': notifies({ a: "[inject('w'), inject('l'), optionally_inject('d')]" })
        },
        run: 'compile', expect: { a: [1, 2, null] }
    },
    {
        section: 'Confdir Bindings Provider', rule: 'two asterisks expand recursively',
        files: {
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/**::default" }`),
            'bindings/linux/default.pp': `bindings linux::default {\n  bind 'l' to 2\n}\n`, 'bindings/linux/deep/default.pp': `bindings linux::deep::default {\n  bind 'd' to 3\n}\n`,
            'manifests/x.pp': notifies({ a: "[inject('l'), inject('d')]" })
        },
        run: 'compile', expect: { a: [2, 3] }
    },
    {
        section: 'Confdir Bindings Provider', rule: 'an included bindings that does not exist is an error at its layer',
        files: { 'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/nope" }`) },
        key: 'x', error: { code: 'BIND_NOT_FOUND', at: 'manifests/site.pp:3' }
    },
    {
        section: 'Bindings Provider', rule: 'an unknown scheme is an error',
        files: { 'manifests/site.pp': LAYERS(`layer { 'site': include => "my_ldap:" }`), 'bindings/default.pp': b(`  bind 'x' to 1`) },
        key: 'x', error: { code: 'BIND_UNKNOWN_SCHEME', at: 'manifests/site.pp:3' }
    },
    {
        section: 'Module Bindings Provider', rule: 'module: searches every module on the module path',
        files: { 'environment.conf': 'modulepath = site:modules\n', ...MODULE('a', `  bind 'a' to 1`), 'site/b/bindings/default.pp': `bindings b::default {\n  bind 'b' to 2\n}\n`, 'manifests/site.pp': notifies({ x: "[inject('a'), inject('b')]" }) },
        run: 'compile', expect: { x: [1, 2] }
    },
    {
        section: 'Enc Bindings Provider', rule: 'enc: binds the ENC\'s classes, their parameters and its top-scope variables',
        files: { ...ENC(ENC_ANSWER), 'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'enc': include => "enc:" }`) + ENC_MANIFEST, 'bindings/default.pp': b(`  bind 'x' to 1`) },
        run: 'compile', expect: { ntp: ['enc.pool.ntp.org'], ssh: 'ssh', rack: 'rack r1' }
    },
    ...['enc:/', 'enc:/*'].map((uri): SeedCase => ({
        section: 'Enc Bindings Provider', rule: `${uri} is everything the ENC produces`,
        files: { ...ENC(ENC_ANSWER), 'manifests/site.pp': LAYERS(`layer { 'enc': include => "${uri}" }`) + ENC_MANIFEST },
        run: 'compile', expect: { ntp: ['enc.pool.ntp.org'], ssh: 'ssh', rack: 'rack r1' }
    })),
    {
        section: 'Enc Bindings Provider', rule: 'enc:/classes is only the classes',
        files: { ...ENC(ENC_ANSWER), 'manifests/site.pp': LAYERS(`layer { 'enc': include => "enc:/classes" }`) + ENC_MANIFEST.replace('$servers = []', "$servers = ['default']").replace(/notify \{ 'rack'.*\n/, '') },
        run: 'compile', expect: { ntp: ['default'], ssh: 'ssh' }
    },
    {
        section: 'Enc Bindings Provider', rule: 'enc:/parameters binds the class parameters in the node category',
        files: { ...ENC(ENC_ANSWER), 'manifests/site.pp': LAYERS(`layer { 'enc': include => "enc:/parameters" }`) },
        key: '/param/Class[ntp]/servers', expect: ['enc.pool.ntp.org']
    },
    {
        section: 'Enc Bindings Provider', rule: 'enc:/variables binds the top-scope variables',
        files: { ...ENC(ENC_ANSWER), 'manifests/site.pp': LAYERS(`layer { 'enc': include => "enc:/variables" }`) },
        key: '/var/rack', expect: 'r1'
    },
    {
        section: 'Enc Bindings Provider', rule: 'the site layer above the ENC overrides it',
        files: { ...ENC(ENC_ANSWER), 'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'enc': include => "enc:" }`), 'bindings/default.pp': b(`  bind variables to { rack => 'r9' }`) },
        key: '/var/rack', expect: 'r9'
    },
    {
        section: 'Enc Bindings Provider', rule: 'an ENC that fails is a located error',
        files: { 'bindings/providers.yaml': 'enc: sh enc.sh\n', 'bindings/enc.sh': 'echo broken >&2\nexit 3\n', 'manifests/site.pp': LAYERS(`layer { 'enc': include => "enc:" }`) },
        key: 'x', error: { code: 'BIND_ENC_FAILED', at: 'bindings/providers.yaml:1:1', message: /exited with status 3: broken/ }
    },
    {
        section: 'Custom Bindings Provider', rule: 'a scheme of providers.yaml contributes the bindings its program prints',
        files: {
            'bindings/providers.yaml': 'schemes:\n  my_ldap: sh ldap.sh\n',
            'bindings/ldap.sh': `cat <<'EOF'\n{"$type": "http://modelc.dev/bindings/1.0#//NamedBindings", "name": "ldap", "bindings": [{"$type": "http://modelc.dev/bindings/1.0#//Binding", "name": "owner", "producer": {"$type": "http://modelc.dev/bindings/1.0#//ConstantProducerDescriptor", "value": "ldap-team"}}]}\nEOF\n`,
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'external': include => "my_ldap:" }`, `layer { 'modules': include => "module:/*::default" }`),
            'bindings/default.pp': b(`  bind 'x' to 1`)
        },
        key: 'owner', expect: 'ldap-team'
    },
    {
        section: 'Custom Bindings Provider', rule: 'the provider is given the URIs and the include/exclude information of its layer',
        files: {
            'bindings/providers.yaml': 'schemes:\n  my_ldap: python3 ldap.py\n',
            'bindings/ldap.py': `import json, sys
NS = 'http://modelc.dev/bindings/1.0#//'
req = json.load(sys.stdin)
value = {'uri': req['uri'], 'argv': sys.argv[1], 'layer': req['layer']}
print(json.dumps({'$type': NS + 'NamedBindings', 'name': 'ldap', 'bindings': [
    {'$type': NS + 'Binding', 'name': 'seen ' + req['uri'], 'producer': {'$type': NS + 'ConstantProducerDescriptor', 'value': value}}]}))
`,
            'manifests/site.pp': LAYERS(`layer { 'site': include => "confdir:/default" }`, `layer { 'external': include => ["my_ldap:/people", "my_ldap:/hosts"], exclude => "my_ldap:/hosts" }`),
            'bindings/default.pp': b(`  bind 'x' to 1`)
        },
        key: 'seen my_ldap:/people',
        expect: { uri: 'my_ldap:/people', argv: 'my_ldap:/people', layer: { name: 'external', include: ['my_ldap:/people', 'my_ldap:/hosts'], exclude: ['my_ldap:/hosts'] } }
    }
];

describe('ARM-8 Composition of Bindings and Bindings Providers (seed statements through the CLI)', () => {
    test.each(named(CASES))('%s', async (_n, c) => check(c));
});
