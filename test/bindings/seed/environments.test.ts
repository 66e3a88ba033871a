import { describe, expect, test } from 'vitest';
import { b, check, named, notifies, type SeedCase } from './harness.js';

/**
 * ARM-8 "Request Sequence", "environments.pp", "Environment from Agents" and "Integration with
 * existing ENC", each statement through the CLI on a confdir (the directory given to `modelc
 * compile` / `lookup` / `bindings`) holding environments.pp.
 */
/** A notify naming the environment whose manifest ran. */
const says = (name: string): string => `notify { 'env': message => "${name} \${environment}" }\n`;
const ENVS = (pp: string, extra: Record<string, string> = {}): Record<string, string> => ({
    'environments.pp': pp,
    'manifests/site.pp': says('confdir'),
    'master/manifests/site.pp': says('master'),
    'dev/manifests/site.pp': says('dev'),
    ...extra
});
const STATIC = `site {\n  environment { 'production': envdir => "$confdir/master" }\n  environment { 'dev': envdir => "$confdir/dev" }\n}\n`;
const ENC = (yaml: string): Record<string, string> => ({ 'bindings/providers.yaml': 'enc: sh enc.sh\n', 'bindings/enc.sh': `cat <<'EOF'\n${yaml}EOF\n` });

const CASES: readonly SeedCase[] = [
    {
        section: 'Request Sequence', rule: 'without environments.pp the environment is production in the confdir',
        files: { 'manifests/site.pp': says('confdir') },
        run: 'compile', expect: { env: 'confdir production' }
    },
    {
        section: 'environments.pp', rule: 'environments.pp sets $environment; that environment\'s manifest is compiled',
        files: ENVS(`${STATIC}$environment = 'dev'\n`),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'environments.pp', rule: 'if $environment is not set it is production',
        files: ENVS(STATIC),
        run: 'compile', expect: { env: 'master production' }
    },
    {
        section: 'environments.pp', rule: 'production is defined automatically (envdir $confdir)',
        files: ENVS(`site {\n  environment { 'dev': envdir => "$confdir/dev" }\n}\n`),
        run: 'compile', expect: { env: 'confdir production' }
    },
    {
        section: 'environments.pp', rule: 'an environment that is neither declared nor dynamic is an error, located',
        files: ENVS(`${STATIC}$environment = 'nowhere'\n`),
        run: 'compile', error: { code: 'BIND_UNKNOWN_ENVIRONMENT', at: 'environments.pp:5:14', message: /unknown environment 'nowhere'/ }
    },
    {
        section: 'environments.pp', rule: 'environment resources are not placed in the catalog',
        files: ENVS(STATIC),
        run: 'compile', check: (_r, cat) => expect(cat?.resources.filter(x => /environment/i.test(x.type)).length).toBe(0)
    },
    {
        section: 'environments.pp', rule: 'dynamic environments are the subdirectories of the dynamic_environments directory',
        files: ENVS(`site {\n  dynamic_environments { "$confdir/environments": }\n}\n$environment = 'test36'\n`, { 'environments/test36/manifests/site.pp': says('test36') }),
        run: 'compile', expect: { env: 'test36 test36' }
    },
    {
        section: 'environments.pp', rule: 'production may be a dynamic environment',
        files: ENVS(`site {\n  dynamic_environments { "$confdir/environments": }\n}\n`, { 'environments/production/manifests/site.pp': says('dynamic production') }),
        run: 'compile', expect: { env: 'dynamic production production' }
    },
    {
        section: 'environments.pp', rule: 'a static environment wins over a dynamic one of the same name',
        files: ENVS(`site {\n  dynamic_environments { "$confdir/environments": }\n  environment { 'dev': envdir => "$confdir/dev" }\n}\n$environment = 'dev'\n`, { 'environments/dev/manifests/site.pp': says('dynamic dev') }),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'environments.pp', rule: 'secure data ($trusted) is bound when it runs',
        files: ENVS(`${STATIC}if $trusted['certname'] =~ /^dev/ { $environment = 'dev' }\n`),
        node: 'dev1.example.com', run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'environments.pp', rule: 'the envdir of a dynamic environment cannot be changed',
        files: ENVS(`site {\n  dynamic_environments { "/etc/puppet/environments": envdir => '/x' }\n}\n`),
        run: 'compile', error: { code: 'BIND_PARSE', at: 'environments.pp:2', message: /VALIDATE_DYNAMIC_ENVIRONMENTS_ENVDIR/ }
    },
    {
        section: 'environments.pp', rule: 'Environment defaults apply (modulepath relative to envdir, mixed with absolute paths)',
        files: ENVS(`site {\n  Environment { modulepath => 'modules/dist:modules/site' }\n  environment { 'production': envdir => "$confdir/master" }\n}\n`, {
            'master/modules/site/m/bindings/default.pp': `bindings m::default {\n  bind 'from' to 'site modules'\n}\n`,
            'master/manifests/site.pp': notifies({ m: "inject('from')" })
        }),
        run: 'compile', expect: { m: 'site modules' }
    },
    {
        section: 'environments.pp', rule: 'a relative manifest is resolved against manifestdir',
        files: ENVS(`site {\n  environment { 'production': envdir => "$confdir/master", manifestdir => 'code', manifest => 'main.pp' }\n}\n`, { 'master/code/main.pp': says('main.pp') }),
        run: 'compile', expect: { env: 'main.pp production' }
    },
    {
        section: 'environments.pp', rule: 'bindingsdir chooses where the environment\'s bindings are',
        files: ENVS(`site {\n  environment { 'production': envdir => "$confdir/master", bindingsdir => 'injection' }\n}\n`, {
            'master/injection/default.pp': b(`  bind 'x' to 'from injection/'`), 'master/manifests/site.pp': notifies({ x: "inject('x')" })
        }),
        run: 'compile', expect: { x: 'from injection/' }
    },
    {
        section: 'environments.pp', rule: 'templatedir (relative to envdir) is where template() and epp() look, before the modules',
        files: ENVS(`site {\n  environment { 'production': envdir => "$confdir/master", templatedir => 'tpl' }\n}\n`, {
            'master/manifests/site.pp': notifies({ erb: "template('hello.erb')", epp: "epp('hi.epp', { n => 1 })", first: "template('m/t.erb')", module: "template('m/only.erb')" }),
            'master/tpl/hello.erb': 'erb <%= @environment %>', 'master/tpl/hi.epp': '<%- | $n | -%>epp <%= $n %>', 'master/tpl/m/t.erb': 'templatedir',
            'master/modules/m/templates/t.erb': 'module', 'master/modules/m/templates/only.erb': 'module only'
        }),
        run: 'compile', expect: { erb: 'erb production', epp: 'epp 1', first: 'templatedir', module: 'module only' }
    },
    {
        section: 'environments.pp', rule: 'templatedir defaults to templates/ under envdir',
        files: ENVS(`site {\n  environment { 'production': envdir => "$confdir/master" }\n}\n`, {
            'master/manifests/site.pp': notifies({ erb: "template('hello.erb')" }), 'master/templates/hello.erb': 'default templatedir'
        }),
        run: 'compile', expect: { erb: 'default templatedir' }
    },
    {
        section: 'environments.pp', rule: 'a template in neither templatedir nor a module is a located error',
        files: ENVS(`site {\n  environment { 'production': envdir => "$confdir/master" }\n}\n`, { 'master/manifests/site.pp': notifies({ erb: "template('nosuch.erb')" }) }),
        run: 'compile', error: { code: 'EVAL_RUNTIME', at: 'manifests/site.pp:1', message: /Could not find template 'nosuch\.erb'/ }
    },
    {
        section: 'environments.pp', rule: 'parameter values may be any expression',
        files: ENVS(`site {\n  environment { 'production': envdir => ['master', 'dev'].map |$d| { "$confdir/\${d}" }[0] }\n}\n`),
        run: 'compile', expect: { env: 'master production' }
    },
    {
        section: 'environments.pp', rule: 'facts are variables when it runs ($facts and top scope)',
        files: ENVS(`${STATIC}if $facts['role'] == 'developer' and $::role == 'developer' { $environment = 'dev' }\n`, { 'facts.yaml': 'fqdn: n1.example.com\nrole: developer\n' }),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'environments.pp', rule: 'variables other than $environment stay local to environments.pp',
        files: ENVS(`${STATIC}$secret = 'hidden'\n`, { 'master/manifests/site.pp': notifies({ s: '"[${secret}]"' }) }),
        run: 'compile', expect: { s: '[]' }, warns: /Unknown variable: 'secret'/
    },
    {
        section: 'environments.pp', rule: 'only core functions can be used (no module path yet)',
        files: ENVS(`${STATIC}$environment = stdlib::pick('dev')\n`),
        run: 'compile', error: { code: 'BIND_ENVIRONMENTS_EVAL', at: 'environments.pp:5' }
    },
    {
        section: 'Categorization', rule: 'categories in environments.pp are refused (they belong to the chosen environment\'s manifest)',
        files: ENVS(`${STATIC}site {\n  categories { virtual => "$::is_virtual" }\n}\n`),
        run: 'compile', error: { code: 'BIND_ENVIRONMENTS_EVAL', at: 'environments.pp:6:3', message: /categories configure the injector/ }
    },
    {
        section: 'environments.pp', rule: 'core functions work',
        files: ENVS(`${STATIC}$environment = downcase(split('DEV-x', '-')[0])\n`),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'environments.pp', rule: 'no injection in environments.pp',
        files: ENVS(`${STATIC}$environment = inject('env')\n`),
        run: 'compile', error: { code: 'BIND_ENVIRONMENTS_INJECT', at: 'environments.pp:5' }
    },
    {
        section: 'environments.pp', rule: 'lookup and bindings use the environment environments.pp selects',
        files: ENVS(`${STATIC}$environment = 'dev'\n`, { 'dev/bindings/default.pp': b(`  bind 'x' to 'dev binding'`) }),
        key: 'x', expect: 'dev binding'
    },
    {
        section: 'Environment from Agents', rule: 'the agent\'s --environment is $agent_environment',
        files: ENVS(`${STATIC}$environment = $agent_environment\n`),
        run: 'compile', args: ['--environment', 'dev'], expect: { env: 'dev dev' }
    },
    {
        section: 'Environment from Agents', rule: '$agent_environment is undef when --environment is not given',
        files: ENVS(`${STATIC}$environment = $agent_environment ? { undef => 'dev', default => 'production' }\n`),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'Environment from Agents', rule: 'the agent\'s environment is ignored unless environments.pp uses it',
        files: ENVS(STATIC),
        run: 'compile', args: ['--environment', 'dev'], expect: { env: 'master production' }
    },
    {
        section: 'Environment from Agents', rule: 'an environment fact is not $environment (unsafe)',
        files: ENVS(STATIC, { 'facts.yaml': 'fqdn: n1.example.com\nenvironment: dev\n' }),
        run: 'compile', expect: { env: 'master production' }, warns: /The node parameter 'environment' .* could not be set to 'dev'/
    },
    {
        section: 'Environment from Agents', rule: 'environments.pp may refuse a different agent environment',
        files: ENVS(`${STATIC}if $agent_environment != undef and $agent_environment != 'production' { fail("agent asked for \${agent_environment}") }\n`),
        run: 'compile', args: ['--environment', 'dev'], error: { code: 'BIND_ENVIRONMENTS_EVAL', at: 'environments.pp:5', message: /agent asked for dev/ }
    },
    {
        section: 'Integration with existing ENC', rule: 'the ENC\'s environment is $environment in environments.pp and stands unless changed',
        files: ENVS(STATIC, ENC('environment: dev\n')),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'Integration with existing ENC', rule: 'environments.pp may set another environment than the ENC\'s',
        files: ENVS(`${STATIC}if $environment == 'dev' { $environment = 'production' }\n`, ENC('environment: dev\n')),
        run: 'compile', expect: { env: 'master production' }
    },
    {
        section: 'Integration with existing ENC', rule: 'the ENC\'s top-scope variables and $classes are visible',
        files: ENVS(`${STATIC}if 'web' in $classes and $tier == 'test' { $environment = 'dev' }\n`, { ...ENC('classes: [web]\nparameters:\n  tier: test\n'), 'dev/manifests/site.pp': `${says('dev')}class web { }\n` }),
        run: 'compile', expect: { env: 'dev dev' }
    },
    {
        section: 'Integration with existing ENC', rule: 'the ENC\'s classes and parameters apply as with Puppet (an enc layer between site and modules)',
        files: { ...ENC('classes:\n  ntp:\n    servers: [a]\nparameters:\n  rack: r1\n'), 'manifests/site.pp': `class ntp($servers = []) { notify { 'ntp': message => $servers } }\n${notifies({ rack: '"rack ${rack}"' })}` },
        run: 'compile', expect: { ntp: ['a'], rack: 'rack r1' }
    },
    {
        section: 'Integration with existing ENC', rule: 'an ENC configured in puppet.conf (node_terminus = exec, external_nodes)',
        files: {
            'puppet.conf': '[server]\nnode_terminus = exec\nexternal_nodes = sh enc.sh\n', 'enc.sh': `cat <<'EOF'\nclasses: [ntp]\nparameters:\n  rack: r2\nEOF\n`,
            'manifests/site.pp': `class ntp { notify { 'ntp': } }\n${notifies({ rack: '"rack ${rack}"' })}`
        },
        run: 'compile', expect: { ntp: 'ntp', rack: 'rack r2' }
    },
    {
        section: 'Integration with existing ENC', rule: 'a class the ENC names that does not exist is located at the ENC\'s configuration',
        files: { ...ENC('classes: [nothere]\n'), 'manifests/site.pp': '' },
        run: 'compile', error: { code: 'EVAL_CLASS_NOT_FOUND', at: 'bindings/providers.yaml:1:1' }
    },
    {
        section: 'Integration with existing ENC', rule: 'an unknown environment from the ENC is an error',
        files: ENVS(STATIC, ENC('environment: nowhere\n')),
        run: 'compile', error: { code: 'BIND_UNKNOWN_ENVIRONMENT', at: 'bindings/providers.yaml:1:1', message: /unknown environment 'nowhere' \(from the ENC\)/ }
    },
    {
        section: 'Integration with existing ENC', rule: 'without environments.pp the ENC\'s environment wins over the agent\'s',
        files: { 'environments/dev/manifests/site.pp': says('dev'), 'environments/production/manifests/site.pp': says('production'), ...ENC('environment: dev\n') },
        run: 'compile', args: ['--environment', 'production'], expect: { env: 'dev dev' }
    }
];

describe('ARM-8 Request Sequence and environments.pp (seed statements through the CLI)', () => {
    test.each(named(CASES))('%s', async (_n, c) => check(c));
});
