import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { environmentFor, HttpFailure } from '../../src/serve/index.js';

/** Which environment a request is served in (ARM-8 Request Sequence), for each kind of root. */
describe('the environment of a request', () => {
    let tmp = '';
    const site = (dir: string): void => {
        mkdirSync(join(dir, 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'manifests', 'site.pp'), 'notify { x: }\n');
    };
    beforeAll(() => {
        tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-env-'));
        site(join(tmp, 'conf', 'main'));
        site(join(tmp, 'conf', 'canary'));
        writeFileSync(join(tmp, 'conf', 'environments.pp'), [
            'site {', "  environment { 'production': envdir => 'main' }", "  environment { 'canary': envdir => 'canary' }", '}',
            "$environment = $agent_environment ? { 'canary' => $facts_canary ? { 'yes' => 'canary', default => 'production' }, 'production' => 'production', default => $agent_environment }", ''
        ].join('\n'));
        site(join(tmp, 'codedir', 'environments', 'production'));
        site(join(tmp, 'codedir', 'environments', 'dev'));
        site(join(tmp, 'single'));
        // An ENC (configured among the bindings providers) that puts every node in dev.
        site(join(tmp, 'encdir', 'environments', 'production'));
        site(join(tmp, 'encdir', 'environments', 'dev'));
        mkdirSync(join(tmp, 'encdir', 'bindings'));
        writeFileSync(join(tmp, 'encdir', 'bindings', 'providers.yaml'), 'enc: [sh, enc.sh]\n');
        writeFileSync(join(tmp, 'encdir', 'bindings', 'enc.sh'), 'printf -- "---\\nclasses: {}\\nenvironment: dev\\n"\n');
    });
    afterAll(() => { if (tmp) rmSync(tmp, { recursive: true, force: true }); });

    test.each([
        ['environments.pp maps the agent\'s production to its envdir', 'conf', 'production', {}, 'production', 'conf/main'],
        ['environments.pp may refuse the agent\'s wish (facts decide)', 'conf', 'canary', {}, 'production', 'conf/main'],
        ['environments.pp may follow the agent\'s wish', 'conf', 'canary', { facts_canary: 'yes' }, 'canary', 'conf/canary'],
        ['a codedir with environments/ serves the agent\'s environment', 'codedir', 'dev', {}, 'dev', 'codedir/environments/dev'],
        ['a codedir with environments/ defaults to production', 'codedir', undefined, {}, 'production', 'codedir/environments/production'],
        ['an environment directory is production', 'single', undefined, {}, 'production', 'single'],
        ['an environment directory serves the agent\'s production', 'single', 'production', {}, 'production', 'single'],
        ['the ENC\'s environment wins over the agent\'s (Puppet 7)', 'encdir', 'production', {}, 'dev', 'encdir/environments/dev']
    ] as const)('%s', (_name, root, agent, facts, name, dir) => {
        const env = environmentFor(join(tmp, root), { certname: 'web01.example.com', ...(agent !== undefined ? { agentEnvironment: agent } : {}), facts: new Map(Object.entries(facts)) });
        expect([env.name, env.dir]).toEqual([name, join(tmp, dir)]);
        expect(env.manifests).toEqual([join(tmp, dir, 'manifests', 'site.pp')]);
    });

    test.each([
        ['environments.pp naming an unknown environment', 'conf', 'nosuch'],
        ['a codedir without the environment asked', 'codedir', 'nosuch'],
        ['an environment name with a path in it', 'codedir', '../codedir'],
        ['an environment directory asked for another environment', 'single', 'dev']
    ])('%s is a 404 as Puppet Server answers it', (_name, root, agent) => {
        let error: unknown;
        try {
            environmentFor(join(tmp, root), { certname: 'web01.example.com', agentEnvironment: agent });
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(HttpFailure);
        expect((error as HttpFailure).status).toBe(404);
        expect((error as HttpFailure).message).toMatch(/^Could not find environment '/);
    });

    test('environments.pp is evaluated again on each request, so a change takes effect without a restart (ARM-8)', () => {
        const root = join(tmp, 'changing');
        site(join(root, 'a'));
        site(join(root, 'b'));
        const choose = (env: string): void => writeFileSync(join(root, 'environments.pp'), `site {\n  environment { 'production': envdir => '${env}' }\n}\n`);
        const served = (): string => environmentFor(root, { certname: 'web01.example.com', facts: new Map() }).dir;
        choose('a');
        expect(served()).toBe(join(root, 'a'));
        choose('b');
        expect(served()).toBe(join(root, 'b'));
    });
});
