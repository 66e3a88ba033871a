import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeJson } from '../../src/model/index.js';
import { runCli } from '../cli/run-cli.js';
import { writeEnv } from './hiera/fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SITE = join(ROOT, 'examples', 'site');
const FACTS = (node: string): string => join(ROOT, 'examples', 'facts', `${node}.yaml`);
const GOLDEN = join(ROOT, 'test', 'fixtures', 'bindings');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function golden(name: string, actual: string): void {
    const file = join(GOLDEN, name);
    if (UPDATE || !existsSync(file)) writeFileSync(file, actual);
    expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe('modelc bindings (the example site)', () => {
    test('prints the layered Bindings model of web01 (golden; site, inventory, enc, modules)', async () => {
        const r = await runCli('bindings', SITE, '--facts', FACTS('web01.example.com'), '--no-hiera');
        expect([r.code, r.err]).toEqual([0, '']);
        expect(() => decodeJson(r.out, 'out.json', { kind: 'bindings' })).not.toThrow();
        golden('example-site-web01.json', r.out);
    });

    test('with Hiera 5 data the data layer holds one HieraLevelBindings per level', async () => {
        const r = await runCli('bindings', SITE, '--facts', FACTS('db01.example.com'));
        expect(r.code).toBe(0);
        const layers = (JSON.parse(r.out) as { layers: { name: string; bindings?: { $type: string; name: string }[] }[] }).layers;
        expect(layers.map(l => l.name)).toEqual(['site', 'inventory', 'enc', 'modules', 'data']);
        expect(layers[4].bindings?.map(b => `${b.$type.split('#//')[1]} ${b.name}`)).toEqual([
            'HieraLevelBindings environment::Per-node exceptions', 'HieraLevelBindings environment::Per-role data', 'HieraLevelBindings environment::Site-wide defaults',
            'HieraLevelBindings profile::Per OS family', 'HieraLevelBindings profile::Module defaults (Debian)'
        ]);
    });

    test('msgpack output', async () => {
        const r = await runCli('bindings', SITE, '--facts', FACTS('web02.example.com'), '--format', 'msgpack', '--no-hiera');
        expect(r.code).toBe(0);
        expect(r.out.length).toBeGreaterThan(100);
    });

    test('a provider error is a diagnostic with its place, exit 1', async () => {
        const env = writeEnv({ 'bindings/site.pp': "site {\n  bindings => [ layer { 's': include => 'confdir:/nope' } ]\n}\n" });
        const r = await runCli('bindings', env);
        expect([r.code, r.out]).toEqual([1, '']);
        expect(r.err).toContain("error BIND_NOT_FOUND: Cannot load bindings 'confdir:/nope' - no bindings found.");
    });
});

describe('modelc lookup through the injector (the example site)', () => {
    test.each<[string, string, string]>([
        ['web01.example.com', 'profile::nginx::worker_processes', '12\n'],
        ['web02.example.com', 'profile::nginx::worker_processes', '4\n'],
        ['db01.example.com', 'profile::nginx::worker_processes', '2\n'],
        ['db01.example.com', 'site::admins', '[\n  "alice",\n  "oncall-team-data",\n  "bob"\n]\n'],
        ['util01.example.com', 'site::admins', '[\n  "alice",\n  "bob"\n]\n'],
        ['util01.example.com', 'site::owner', '"unassigned"\n'],
        ['web02.example.com', 'site::motd', '"Managed by Puppet on web02.example.com (ams1)"\n'],
        ['web01.example.com', '/var/enc_rack', '"ams1-r1"\n'],
        ['web01.example.com', '/var/site_name', '"example.com"\n'],
        ['web01.example.com', '/param/Class[profile::nginx]/worker_processes', '6\n'],
        ['web01.example.com', '/param/Class[profile::ntp]/iburst', 'true\n'],
        // bind parameters profile::ntp (modules layer) answers the class parameter's qualified name.
        ['web01.example.com', 'profile::ntp::iburst', 'true\n'],
        ['db01.example.com', '/classes', '[\n  "role::db"\n]\n'],
        // Keys only Hiera binds are Hiera's answers, merges and all.
        ['web01.example.com', 'profile::base::motd_contact', '"ops@example.com"\n']
    ])('%s %s', async (node, key, out) => {
        const r = await runCli('lookup', SITE, key, '--facts', FACTS(node));
        expect([r.code, r.out, r.err]).toEqual([0, out, '']);
    });

    test('--merge on a key Hiera decides is Hiera\'s merge', async () => {
        const via = await runCli('lookup', SITE, 'profile::base::packages', '--facts', FACTS('web01.example.com'), '--merge', 'unique');
        expect(via.code).toBe(0);
        expect(JSON.parse(via.out)).toEqual(expect.arrayContaining(['curl', 'rsync', 'htop']));
    });

    test('a key nobody binds: Hiera\'s not-found error', async () => {
        const r = await runCli('lookup', SITE, 'no::such::key', '--facts', FACTS('web01.example.com'));
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/error LOOKUP_NOT_FOUND: Function lookup\(\) did not find a value for the name 'no::such::key'/)]);
    });

    test('--explain: every candidate in precedence order with layer, category, file:line and why (golden)', async () => {
        const r = await runCli('lookup', SITE, 'profile::nginx::worker_processes', '--facts', FACTS('web01.example.com'), '--explain');
        expect(r.code).toBe(0);
        golden('example-site-explain-web01.txt', r.out);
        expect(r.out).toContain('winner       bindings/default.pp:13  layer site');
        expect(r.out).toContain('shadowed     data/nodes/web01.example.com.yaml:4  layer data');
    });

    test('--explain of a key a Hiera level wins: the candidates, then Hiera\'s own explanation', async () => {
        const r = await runCli('lookup', SITE, 'profile::base::motd_contact', '--facts', FACTS('web01.example.com'), '--explain');
        expect(r.code).toBe(0);
        expect(r.out).toContain('1. winner       data/common.yaml:');
        expect(r.out).toContain("Hiera 5 answers 'profile::base::motd_contact' (its level wins in layer 'data'):");
        expect(r.out).toContain('Searching for "profile::base::motd_contact"');
    });

    test('--type is checked by the injector for a bound key', async () => {
        const r = await runCli('lookup', SITE, 'site::owner', '--facts', FACTS('web01.example.com'), '--type', 'Integer');
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toContain('error INJECT_');
    });

    test('--explain of a multibind lists its contributions from every layer', async () => {
        const r = await runCli('lookup', SITE, 'site::admins', '--facts', FACTS('web02.example.com'), '--explain');
        expect(r.code).toBe(0);
        expect(r.out.match(/contribution/g)?.length).toBe(3);
        expect(r.out).toContain('layer inventory, inventory::owners, category node web02.example.com');
    });
});

describe('environments.pp selects the environment of modelc bindings', () => {
    test('--environment is $agent_environment; a dynamic environment supplies the bindings', async () => {
        const confdir = writeEnv({
            'environments.pp': 'site { dynamic_environments { "$confdir/environments": } }\n$environment = $agent_environment ? { undef => \'production\', default => $agent_environment }\n',
            'environments/feature1/bindings/default.pp': "bindings default {\n  bind 'where' to 'feature1'\n}\n"
        });
        const r = await runCli('bindings', confdir, '--environment', 'feature1', '--no-hiera');
        expect([r.code, r.err]).toEqual([0, '']);
        const model = JSON.parse(r.out) as { environment: string; layers: { name: string; bindings?: { name: string }[] }[] };
        expect(model.environment).toBe('feature1');
        expect(model.layers[0].bindings?.map(b => b.name)).toEqual(['default']);
        const bad = await runCli('bindings', confdir, '--environment', 'nope', '--no-hiera');
        expect(bad.code).toBe(1);
        expect(bad.err).toContain("error BIND_UNKNOWN_ENVIRONMENT: unknown environment 'nope'");
    });

    test('an environment\'s bindingsdir is where confdir: bindings and the site are read', async () => {
        const confdir = writeEnv({
            'environments.pp': "site { environment { 'production': bindingsdir => 'arm8' } }\n",
            'arm8/default.pp': "bindings default {\n  bind 'where' to 'arm8'\n}\n"
        });
        const r = await runCli('bindings', confdir, '--no-hiera');
        expect([r.code, r.err]).toEqual([0, '']);
        expect(r.out).toContain('"file": "arm8/default.pp"');
    });
});
