import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BindingsCatalogModule, createCatalogServices, type CompileResult } from '../../src/catalog/index.js';
import { writeEnv } from './hiera/fixture.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bindings', 'providers');
const NODE = 'n1.example.com';

const ENV = {
    'manifests/site.pp': [
        "class ntp($servers = ['default'], $iburst = false) { notify { \"ntp ${servers} ${iburst}\": } }",
        'class apache($port = 80) { notify { "apache ${port}": } }',
        'include ntp',
        "notify { \"greeting ${inject('greeting')}\": }",
        "notify { \"typed ${inject(Integer, 'port')}\": }",
        "notify { \"optional <${optionally_inject('nothing')}>\": }",
        "notify { \"lookup ${lookup('from_hiera')} ${lookup('greeting')}\": }"
    ].join('\n') + '\n',
    'hiera.yaml': 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n',
    'data/common.yaml': 'ntp::iburst: true\nntp::servers: [hiera]\nfrom_hiera: data\n',
    'bindings/default.pp': "bindings default {\n  bind 'greeting' to 'hello'\n  bind Integer, 'port' to 8080\n  bind Array[String], 'ntp::servers' to ['bound']\n  bind parameters apache to { port => 81 }\n}\n",
    'bindings/providers.yaml': `enc: [sh, ${JSON.stringify(join(FIXTURES, 'enc.sh'))}]\n`,
    'bindings/site.pp': "site {\n  bindings => [\n    layer { 'site': include => 'confdir:/default' },\n    layer { 'enc': include => 'enc:/classes' },\n  ]\n}\n"
};

function compile(files: Record<string, string>, withBindings = true): CompileResult {
    const services = withBindings ? createCatalogServices(BindingsCatalogModule) : createCatalogServices();
    return services.compile(writeEnv(files), 'production', { node: NODE, facts: new Map([['fqdn', NODE]]) });
}

function notifies(r: CompileResult): string[] {
    return [...r.catalog.resources.values()].filter(x => x.type === 'Notify').map(x => x.title).sort();
}

describe('the catalog builder with ARM-8 bindings (BindingsCatalogModule)', () => {
    test('inject(), optionally_inject(), lookup() and class parameters go through the injector; Hiera answers the rest', () => {
        const r = compile(ENV);
        expect(r.error?.message).toBeUndefined();
        expect(notifies(r)).toEqual([
            'apache 81', 'greeting hello', 'lookup data hello', 'ntp [bound] true', 'optional <>', 'typed 8080'
        ]);
    });

    test('classes bound under /classes (the ENC) are declared', () => {
        const r = compile(ENV);
        expect(r.catalog.classes).toEqual(expect.arrayContaining(['ntp', 'apache']));
    });

    test('without the module the compile is Hiera 5 alone: inject() is an error', () => {
        const r = compile(ENV, false);
        expect(r.error?.message).toContain('inject() needs the ARM-8 injector');
    });

    test('an unbound inject() fails with the injector\'s message', () => {
        const r = compile({ ...ENV, 'manifests/site.pp': "notify { inject('missing'): }\n" });
        expect(r.error?.message).toMatch(/missing/);
    });
});
