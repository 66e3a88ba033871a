import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { writeEnv } from '../hiera/fixture.js';
import { b, FACTS, NODE, type Catalog } from './harness.js';

/**
 * ARM-8's effective bindings are a model the injector hands on: `modelc bindings`, then
 * `modelc effective --values`, then `modelc compile --effective` gives the catalog a direct
 * `modelc compile` gives (class replacement, variables, parameters, dependencies, classes).
 */
const ENV = {
    'facts.yaml': FACTS,
    'bindings/default.pp': b(`  bind class ntp to class ntp2
  bind variables to { motd => 'hello' }
  bind parameters Web to { port => 8080 }
  bind parameters Notify['b'] to { message => 'bound', require => Notify['a'] }
  bind dependency Notify['a'] -> Notify['b']
  bind Float, 'f' to 2.0
  include ssh`),
    'manifests/site.pp': `class ntp { notify { 'a': message => $::motd } }
class ntp2 inherits ntp { notify { 'b': } }
class ssh { web { 'w': } }
define web($port = 80) { notify { "web \${title}": message => $port } }
include ntp
notify { 'f': message => String(type(inject('f'), 'generalized')) }
`
};

const resources = (out: string): unknown => (JSON.parse(out) as Catalog).resources.map(r => ({ type: r.type, title: r.title, parameters: r.parameters }));

describe('ARM-8 effective bindings as a model (bindings | effective --values | compile --effective)', () => {
    test('the same catalog as a direct compile', async () => {
        const env = writeEnv(ENV);
        const direct = await runCli('compile', env, '--node', NODE, '--format', 'puppet');
        expect([direct.code, direct.err]).toEqual([0, '']);
        const composed = await runCli('bindings', env, '--node', NODE);
        writeFileSync(join(env, 'bindings.json'), composed.out);
        const effective = await runCli('effective', join(env, 'bindings.json'), '--node', NODE, '--facts', join(env, 'facts.yaml'), '--values');
        expect([effective.code, effective.err]).toEqual([0, '']);
        writeFileSync(join(env, 'effective.json'), effective.out);
        const viaModel = await runCli('compile', env, '--node', NODE, '--format', 'puppet', '--effective', join(env, 'effective.json'));
        expect([viaModel.code, viaModel.err]).toEqual([0, '']);
        expect(resources(viaModel.out)).toEqual(resources(direct.out));
        expect(JSON.stringify(resources(direct.out))).toContain('Ntp2');
        // A built-in type's bound parameters, one of them evaluated, come through the model too.
        expect((JSON.parse(direct.out) as Catalog).resources.find(r => r.title === 'b')?.parameters).toEqual({ message: 'bound', require: 'Notify[a]' });
        // A whole Float stays a Float through the model (rich data would make 2.0 an Integer).
        expect((JSON.parse(viaModel.out) as Catalog).resources.find(r => r.title === 'f')?.parameters).toEqual({ message: 'Float' });
    });
});
