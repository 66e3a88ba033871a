import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { main } from '../../src/cli/main.js';
import { startServe, type RunningServe } from '../../src/serve/index.js';
import { HAS_OPENSSL, makePki } from '../../bench/pki.js';

/**
 * Real Puppet agents (Debian's puppet-agent 7.23) against `modelc serve`: web01, db01 and util01
 * run `puppet agent -t --noop` with the example's facts, and util01 runs once more with
 * `--environment staging`. Everything lives in a temp dir (confdir, vardir, ssl dirs): the
 * machine's Puppet configuration is never read or written.
 *
 * The agent's facts: puppet.conf sets `facts_terminus = yaml`, so the agent reads its facts from
 * VARDIR/client_yaml/facts/CERTNAME.yaml (written here from examples/facts/) instead of running
 * Facter, and sends exactly those (Facter's terminus would add clientcert, clientversion...).
 *
 * The applied catalog: an agent caches its catalog only in non-noop runs, so a small Ruby file
 * loaded into the agent (RUBYOPT=-r) writes the catalog it converts for applying to where the
 * cache would be (VARDIR/client_data/catalog/CERTNAME.json), in the cache's format.
 */
const HAS_PUPPET = existsSync('/usr/bin/puppet');
const ROOT = resolve(__dirname, '../..');
const NODES = ['web01.example.com', 'db01.example.com', 'util01.example.com'];

const CATALOG_HOOK = `require 'puppet'
require 'puppet/configurer'
require 'json'
class Puppet::Configurer
  alias_method :modelc_test_convert_catalog, :convert_catalog
  def convert_catalog(result, duration, facts, options = {})
    path = File.join(Puppet[:client_datadir], 'catalog', "#{result.name}.json")
    FileUtils.mkdir_p(File.dirname(path))
    File.write(path, JSON.generate(result.to_data_hash))
    modelc_test_convert_catalog(result, duration, facts, options)
  end
end
`;

const ENVIRONMENTS_PP = `site {
  environment { 'production': envdir => 'production' }
  environment { 'staging': envdir => 'staging' }
}
$environment = $agent_environment
`;

interface AgentRun {
    readonly code: number | null;
    readonly output: string;
    readonly vardir: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** A node's agent setup: puppet.conf and the facts the yaml terminus reads. */
function agentConfdir(dir: string, certname: string, sslDir: string, port: number, facts: JsonObject): string {
    const confdir = join(dir, 'confdir');
    const vardir = join(dir, 'var');
    mkdirSync(join(vardir, 'client_yaml', 'facts'), { recursive: true });
    mkdirSync(confdir, { recursive: true });
    writeFileSync(join(confdir, 'puppet.conf'), [
        '[main]', `certname = ${certname}`, 'server = localhost', `masterport = ${port}`, `ssldir = ${sslDir}`,
        `vardir = ${vardir}`, `logdir = ${join(dir, 'log')}`, `rundir = ${join(dir, 'run')}`, `publicdir = ${join(dir, 'public')}`,
        `codedir = ${join(dir, 'code')}`, '[agent]', 'facts_terminus = yaml', ''
    ].join('\n'));
    // Psych reads JSON as YAML; the tag makes it the Puppet::Node::Facts the terminus expects.
    writeFileSync(join(vardir, 'client_yaml', 'facts', `${certname}.yaml`), `--- !ruby/object:Puppet::Node::Facts ${JSON.stringify({ name: certname, values: facts })}\n`);
    return confdir;
}

function runAgent(confdir: string, hook: string, extra: string[]): Promise<AgentRun> {
    return new Promise(done => {
        const child = spawn('/usr/bin/puppet', ['agent', '-t', '--noop', '--color', 'false', '--confdir', confdir, ...extra], {
            env: { ...process.env, RUBYOPT: `-r${hook}`, HOME: resolve(confdir, '..') }
        });
        let output = '';
        child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
        child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
        child.on('close', code => done({ code, output, vardir: resolve(confdir, '..', 'var') }));
    });
}

const capitalized = (ref: string): string => ref.replace(/^Class\[(.*)\]$/, (_m, t: string) => `Class[${t.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('::')}]`);

/** `modelc compile`'s catalog with resource files absolute in the environment, as a server sends them. */
function served(catalog: JsonObject, envDir: string): JsonObject {
    return { ...catalog, resources: (catalog.resources as JsonObject[]).map(r => (typeof r.file === 'string' ? { ...r, file: join(envDir, r.file) } : r)) };
}

/**
 * The catalog with what the agent's own re-serialization changes undone on both sides: class
 * titles capitalized (Class[main] becomes Class[Main]), a `name` equal to the title dropped,
 * tags as sets; the version, uuid and code_id differ per request.
 */
function comparable(catalog: JsonObject): JsonObject {
    const resources = (catalog.resources as JsonObject[]).map(r => {
        const title = r.type === 'Class' ? capitalized(`Class[${String(r.title)}]`).slice(6, -1) : r.title;
        const params = Object.entries((r.parameters ?? {}) as JsonObject).filter(([k, v]) => !(k === 'name' && typeof v === 'string' && v.toLowerCase() === String(title).toLowerCase()));
        return { ...r, title, tags: [...(r.tags as string[])].sort(), parameters: Object.fromEntries(params.sort(([a], [b]) => (a < b ? -1 : 1))) };
    }).sort((a, b) => (`${String(a.type)}[${String(a.title)}]` < `${String(b.type)}[${String(b.title)}]` ? -1 : 1));
    const edges = (catalog.edges as JsonObject[]).map(e => `${capitalized(String(e.source))} -> ${capitalized(String(e.target))}`).sort();
    return { name: catalog.name, environment: catalog.environment, tags: [...(catalog.tags as string[])].sort(), classes: [...(catalog.classes as string[])].sort(), resources, edges };
}

if (!HAS_PUPPET || !HAS_OPENSSL) {
    describe.skip(`modelc serve with real agents: ${!HAS_PUPPET ? "Debian's puppet-agent is not installed (apt-get install puppet-agent)" : 'openssl is not installed'}`, () => {
        test('skipped', () => undefined);
    });
} else {
    describe('modelc serve with real Puppet agents (puppet agent -t --noop)', () => {
        let tmp = '';
        let server: RunningServe | undefined;
        let confdirRoot = '';
        const runs = new Map<string, AgentRun>();
        const factsOf = (n: string): JsonObject => parseYaml(readFileSync(join(ROOT, 'examples', 'facts', `${n}.yaml`), 'utf8')) as JsonObject;

        beforeAll(async () => {
            tmp = mkdtempSync(join(tmpdir(), 'modelc-serve-agent-'));
            const pki = makePki(join(tmp, 'pki'), NODES);
            confdirRoot = join(tmp, 'puppet');
            cpSync(join(ROOT, 'examples', 'site'), join(confdirRoot, 'production'), { recursive: true });
            // A module with a plugin and an external fact: what pluginsync copies to the agent.
            const probe = join(confdirRoot, 'production', 'modules', 'probe');
            mkdirSync(join(probe, 'lib', 'facter'), { recursive: true });
            mkdirSync(join(probe, 'facts.d'), { recursive: true });
            writeFileSync(join(probe, 'lib', 'facter', 'modelc_probe.rb'), "Facter.add(:modelc_probe) { setcode { 'synced' } }\n");
            writeFileSync(join(probe, 'facts.d', 'modelc_probe.txt'), 'modelc_probe_external=synced\n');
            mkdirSync(join(confdirRoot, 'staging', 'manifests'), { recursive: true });
            writeFileSync(join(confdirRoot, 'staging', 'manifests', 'site.pp'), 'notify { "staging for ${trusted[\'certname\']} as ${trusted[\'extensions\'][\'pp_role\']}": }\n');
            writeFileSync(join(confdirRoot, 'environments.pp'), ENVIRONMENTS_PP);
            const hook = join(tmp, 'catalog-hook.rb');
            writeFileSync(hook, CATALOG_HOOK);
            server = await startServe({ root: confdirRoot, sslDir: pki.serverSslDir, port: 0, bind: '127.0.0.1', workers: 2, reportDir: join(tmp, 'reports') });
            const port = server.port;
            const jobs = [
                ...NODES.map(n => ({ key: n, certname: n, extra: [] as string[] })),
                { key: 'staging', certname: 'util01.example.com', extra: ['--environment', 'staging'] }
            ].map(async j => {
                // Each run gets its own copy of the node's ssl dir: two agents of one certname
                // running at once would both create its missing subdirectories (EEXIST).
                const sslDir = join(tmp, `agent-${j.key}`, 'ssl');
                cpSync(pki.agentSslDir(j.certname), sslDir, { recursive: true });
                const confdir = agentConfdir(join(tmp, `agent-${j.key}`), j.certname, sslDir, port, factsOf(j.certname));
                runs.set(j.key, await runAgent(confdir, hook, j.extra));
            });
            await Promise.all(jobs);
        }, 180_000);

        afterAll(async () => {
            await server?.close();
            if (tmp) rmSync(tmp, { recursive: true, force: true });
        });

        test.each(NODES)('%s: the agent run succeeds (exit 0 or 2, no error)', n => {
            const run = runs.get(n);
            expect(run?.output).not.toMatch(/^Error:/m);
            expect([0, 2]).toContain(run?.code);
        });

        test.each(NODES)('%s: the catalog the agent applied is modelc compile\'s', async n => {
            const run = runs.get(n);
            const applied = JSON.parse(readFileSync(join(run?.vardir ?? '', 'client_data', 'catalog', `${n}.json`), 'utf8')) as JsonObject;
            let out = '';
            const code = await main(['node', 'modelc', 'compile', join(confdirRoot, 'production'), '--node', n, '--facts', join(ROOT, 'examples', 'facts', `${n}.yaml`), '--format', 'puppet'],
                { out: t => { out += String(t); }, err: () => undefined });
            expect(code).toBe(0);
            expect(comparable(applied)).toEqual(comparable(served(JSON.parse(out) as JsonObject, join(confdirRoot, 'production'))));
        });

        test.each(NODES)('%s: the report arrives', n => {
            const dir = join(tmp, 'reports', n);
            const files = existsSync(dir) ? readdirSync(dir) : [];
            expect(files.length).toBeGreaterThanOrEqual(1);
            const report = JSON.parse(readFileSync(join(dir, files[0]), 'utf8')) as JsonObject;
            expect(report.host).toBe(n);
            expect(report.noop).toBe(true);
        });

        test('pluginsync copies the modules\' lib/ and facts.d/ to the agent', () => {
            const vardir = runs.get('web01.example.com')?.vardir ?? '';
            expect(readFileSync(join(vardir, 'lib', 'facter', 'modelc_probe.rb'), 'utf8')).toContain('modelc_probe');
            expect(readFileSync(join(vardir, 'facts.d', 'modelc_probe.txt'), 'utf8')).toBe('modelc_probe_external=synced\n');
        });

        test('--environment on the agent reaches environments.pp as $agent_environment; $trusted comes from the certificate', () => {
            const run = runs.get('staging');
            expect(run?.output).not.toMatch(/^Error:/m);
            expect([0, 2]).toContain(run?.code);
            const applied = JSON.parse(readFileSync(join(run?.vardir ?? '', 'client_data', 'catalog', 'util01.example.com.json'), 'utf8')) as JsonObject;
            expect(applied.environment).toBe('staging');
            expect((applied.resources as JsonObject[]).map(r => `${String(r.type)}[${String(r.title)}]`)).toContain('Notify[staging for util01.example.com as util01]');
        });
    });
}
