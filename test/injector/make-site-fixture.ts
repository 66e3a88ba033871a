/**
 * Writes test/fixtures/injector/site/bindings.json from code (run with `npx vitest run
 * test/injector/golden.test.ts` and MAKE_FIXTURE=1). The JSON is the reviewed fixture.
 */
import { writeFileSync } from 'node:fs';
import type { AbstractBinding } from '../../generated/model/bindings.js';
import { encodeJson } from '../../src/model/index.js';
import { at, bind, cat, constant, contributed, layer, layered, multibind, or, when } from './build.js';

export function writeSiteFixture(path: string): void {
    const site = 'confdir/bindings/default.pp';
    const ntp = 'modules/ntp/bindings/default.pp';
    const apache = 'modules/apache/bindings/default.pp';
    const f = (file: string) => (line: number) => ({ line, file });
    const s = f(site), n = f(ntp), a = f(apache);
    const include = (line: number, ...classNames: string[]): AbstractBinding => ({ $type: 'IncludeClassesBinding', location: at(line, site), classNames });
    const exclude = (line: number, file: string, ...classNames: string[]): AbstractBinding => ({ $type: 'ExcludeClassesBinding', location: at(line, file), classNames });
    const model = layered([
        layer('site', contributed('default', 'confdir:/default',
            bind('ntp::servers', ['0.de.pool.ntp.org', '1.de.pool.ntp.org'], { type: 'Array[String]', override: true, ...s(2) }),
            when(cat('node', 'kermit.example.com'), bind('ntp::servers', ['ntp1.kermit.example.com'], { type: 'Array[String]', ...s(4) })),
            when(cat('virtual', 'true'), bind('apache::max_clients', 50, { type: 'Integer', ...s(7) }), include(8, 'virtual_guest')),
            when(or(cat('environment', 'staging'), cat('environment', 'test')), bind('apache::debug', true, { type: 'Boolean', ...s(11) })),
            bind(undefined, 'ops', { in: 'site::admins', ...s(13) }),
            include(14, 'ntp', 'apache'),
            { $type: 'VariablesBinding', location: at(15, site), producer: constant({ datacenter: 'fra1' }) } as AbstractBinding
        )),
        layer('modules',
            contributed('ntp::default', 'module:/ntp::default',
                bind('ntp::servers', undefined, { type: 'Array[String]', abstract: true, ...n(2) }),
                bind('ntp::iburst', false, { type: 'Boolean', ...n(3) }),
                { $type: 'ParametersBinding', location: at(4, ntp), target: 'ntp', producer: constant({ autoupdate: false, enable: true }) } as AbstractBinding),
            contributed('apache::default', 'module:/apache::default',
                bind('apache::max_clients', 150, { type: 'Integer', ...a(2) }),
                bind('apache::debug', false, { type: 'Boolean', ...a(3) }),
                multibind('site::admins', 'Array[String]', 'site::admins', a(4)),
                bind(undefined, 'www', { in: 'site::admins', ...a(5) }),
                exclude(6, apache, 'virtual_guest')))
    ], [{ name: 'node', expr: '"${::fqdn}"' }, { name: 'virtual', expr: '$::is_virtual' }, { name: 'environment', expr: 'true' }]);
    writeFileSync(path, encodeJson(model));
}

