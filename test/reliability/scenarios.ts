import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { pick, type Rnd } from './mutations.js';

// Valid inputs of every command and input kind, each laid out fresh in a scratch directory for
// one fuzz case: the command line to run, the files it reads (what a mutation may change), and the
// files it writes (which must not be left behind when it fails).

const ROOT = join(import.meta.dirname, '..', '..');
const SITE = join(ROOT, 'examples', 'site');
const FACTS = join(ROOT, 'examples', 'facts');
const RESOURCE = join(ROOT, 'test', 'fixtures', 'apply', 'resource');
const RUBY_PLUGINS = join(ROOT, 'test', 'fixtures', 'catalog', 'ruby-plugins');
const MODULES = '/usr/share/puppet/modules.available';
export const NODES = ['web01', 'web02', 'db01', 'util01'] as const;

export interface CaseSpec {
    readonly args: string[];
    /** Files the command reads: one or two of them are mutated. */
    readonly targets: string[];
    /** Files the command writes: none may exist after a failed run. */
    readonly outputs?: string[];
    /** A directory of per-node outputs: every file in it must be complete (parse as JSON or be non-empty msgpack). */
    readonly outDir?: string;
    /** Exit codes that are not failures of the rule besides 0 and 1 (diff's 2). */
    readonly exits?: readonly number[];
    /** The command prints a result object on stdout even when it fails (compile's normalized form). */
    readonly stdoutOnError?: boolean;
    /** stderr carries Puppet's log lines (Warning:, Notice:, Error:) as well as modelc's. */
    readonly puppetLog?: boolean;
    /** Mutations that test something else than modelc here (a program the user configured reading a FIFO waits for its 60 s timeout). */
    readonly exclude?: readonly string[];
}

export interface Scenario {
    readonly name: string;
    readonly weight: number;
    readonly make: (dir: string, rnd: Rnd, seeds: Seeds) => CaseSpec;
}

/** Valid models and files made once per run by the real CLI, mutated by the cases. */
export interface Seeds {
    readonly dir: string;
    readonly manifests: readonly string[];
    readonly templates: readonly string[];
    readonly models: readonly string[];
    readonly catalogs: readonly string[];
    readonly bundles: readonly string[];
    readonly bindings: string;
    readonly effective: string;
    readonly rubyFunctions: readonly string[];
    readonly rubyTypes: readonly string[];
    readonly store: string;
}

function files(dir: string, pattern: RegExp, maxBytes = 40_000): string[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map(f => join(dir, f))
        .filter(f => pattern.test(f) && statSync(f).isFile() && statSync(f).size <= maxBytes).sort();
}

/** Runs the CLI for a seed and returns its stdout (a seed that fails is a broken test setup). */
export type SeedCli = (args: string[]) => Promise<Buffer>;

const nodeArgs = (n: string): string[] => ['--node', `${n}.example.com`, '--facts', join(FACTS, `${n}.example.com.yaml`)];

/** Makes the seed models with the real CLI (a few seconds, once per run). */
export async function makeSeeds(dir: string, run: SeedCli): Promise<Seeds> {
    const at = (f: string): string => join(dir, f);
    const cli = async (args: string[], out?: string): Promise<void> => {
        const bytes = await run(args);
        if (out !== undefined) writeFileSync(out, bytes);
    };
    await cli(['compile', SITE, ...nodeArgs('web01'), '--format', 'json'], at('catalog.json'));
    await cli(['compile', SITE, ...nodeArgs('db01'), '--format', 'puppet'], at('catalog-puppet.json'));
    await cli(['compile', SITE, ...nodeArgs('util01'), '--format', 'msgpack'], at('catalog.msgpack'));
    await cli(['convert', at('catalog.json'), '--to', 'xmi', '-o', at('catalog.xmi')]);
    await cli(['convert', at('catalog.json'), '--to', 'rgen', '-o', at('catalog.rgen.json')]);
    await cli(['bindings', SITE, ...nodeArgs('web01')], at('bindings.json'));
    await cli(['effective', at('bindings.json'), ...nodeArgs('web01'), '--values'], at('effective.json'));
    await cli(['convert', at('bindings.json'), '--to', 'xmi', '-o', at('bindings.xmi')]);
    await cli(['parse', join(SITE, 'manifests', 'site.pp'), '--format', 'json'], at('ast.json'));
    await cli(['parse', SITE, '--bundle', at('bundle.json')]);
    await cli(['parse', SITE, '--bundle', at('bundle.msgpack'), '--format', 'msgpack']);
    await cli(['compile', SITE, ...nodeArgs('db01'), '--no-bindings', '--store', `sqlite:${at('catalogs.sqlite')}`, '--format', 'json']);
    const fixtures = files(join(ROOT, 'test', 'fixtures', 'model', 'valid'), /\.json$/);
    const catalogFixtures = files(join(ROOT, 'test', 'fixtures', 'model', 'valid', 'catalog'), /\.json$/);
    const rubyLib = (m: string, sub: string): string[] => files(join(MODULES, m, 'lib', 'puppet', sub), /\.rb$/, 30_000);
    return {
        dir,
        manifests: [...files(join(ROOT, 'test', 'fixtures', 'catalog'), /\.pp$/, 8000).filter((_, i) => i % 7 === 0), ...files(SITE, /\.pp$/)],
        templates: files(SITE, /\.epp$/),
        models: [at('catalog.json'), at('catalog-puppet.json'), at('catalog.msgpack'), at('catalog.xmi'), at('catalog.rgen.json'), at('bindings.json'),
            at('effective.json'), at('bindings.xmi'), at('ast.json'), ...fixtures],
        catalogs: [at('catalog.json'), at('catalog-puppet.json'), at('catalog.msgpack'), at('catalog.xmi'), at('catalog.rgen.json'), ...catalogFixtures],
        bundles: [at('bundle.json'), at('bundle.msgpack')],
        bindings: at('bindings.json'),
        store: at('catalogs.sqlite'),
        effective: at('effective.json'),
        rubyFunctions: [...rubyLib('puppetlabs-stdlib', 'functions'), ...rubyLib('puppetlabs-stdlib', 'parser/functions').filter((_, i) => i % 3 === 0)],
        rubyTypes: [...rubyLib('puppetlabs-concat', 'type'), ...rubyLib('puppetlabs-inifile', 'type'), ...rubyLib('puppetlabs-firewall', 'type'), ...rubyLib('puppetlabs-host-core', 'type')]
    };
}

/**
 * Copies SRC to DIR/NAME; returns the copy. Symbolic links are copied as what they point to:
 * fixtures share module directories through links, and a mutation written through a copied
 * link would change the fixture itself.
 */
function copy(src: string, dir: string, name = basename(src)): string {
    const to = join(dir, name);
    copyResolved(src, to);
    return to;
}

/**
 * Copies SRC to TO with every symbolic link inside replaced by what it points to. Node's cpSync
 * keeps links below the top even with `dereference` (a mutation of the copy of a fixture whose
 * modules/ is a link changed the fixture): `cp -rL` resolves them all.
 */
export function copyResolved(src: string, to: string): void {
    const r = spawnSync('cp', ['-rL', src, to], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cp -rL ${src} ${to}: ${r.stderr}`);
}

/** The example site and facts copied into DIR, with what a compile of it reads. */
function site(dir: string): { env: string; facts: string; targets: string[] } {
    const env = copy(SITE, dir, 'site');
    const facts = copy(join(FACTS), dir, 'facts');
    return { env, facts, targets: [...files(env, /./), ...files(facts, /./)] };
}

const node = (rnd: Rnd): string => pick(rnd, NODES);
const factsArgs = (facts: string, n: string): string[] => ['--node', `${n}.example.com`, '--facts', join(facts, `${n}.example.com.yaml`)];
const LOOKUP_KEYS = ['profile::nginx::worker_processes', 'profile::base::ntp_servers', 'profile::base::motd', 'lookup_options', 'nope', 'profile::nginx::vhosts'];

/** ENC and bindings-scheme programs that print a (mutable) file, so their output is what is fuzzed. */
function siteWithCannedPrograms(dir: string, n: string): { env: string; facts: string; targets: string[] } {
    const s = site(dir);
    const enc = spawnSync('python3', ['enc.py', `${n}.example.com`], { cwd: join(s.env, 'bindings'), encoding: 'utf8' });
    writeFileSync(join(s.env, 'bindings', 'enc.out'), enc.stdout ?? '');
    const inv = spawnSync('python3', ['inventory.py', 'inventory:/racks'], { cwd: join(s.env, 'bindings'), encoding: 'utf8', input: JSON.stringify({ node: `${n}.example.com` }) });
    writeFileSync(join(s.env, 'bindings', 'inventory.out'), inv.stdout ?? '');
    writeFileSync(join(s.env, 'bindings', 'providers.yaml'), "enc: [sh, -c, 'cat enc.out']\nschemes:\n  inventory: [sh, -c, 'cat inventory.out']\n");
    return { ...s, targets: [join(s.env, 'bindings', 'enc.out'), join(s.env, 'bindings', 'inventory.out'), join(s.env, 'bindings', 'providers.yaml')] };
}

const HOCON = `# common settings
common_str { x: "from hocon" }
settings = {
  port: 8080
  hosts: [a.example.com, "b.example.com"]
  nested { deep { deeper: \${settings.port} } }
  path: \${?HOME}"/x"
}
message: hello
message: \${message}" world"
include "other.conf"
list += 1
`;

const ENVIRONMENTS_PP = `site {
  dynamic_environments { "$confdir/environments": }
  environment { 'production': envdir => "$confdir/main" }
}
case $facts['role'] {
  /^db/:   { $environment = 'db' }
  default: { if $agent_environment =~ String[1] { $environment = $agent_environment } }
}
`;

const DEVICE_CONF = (dir: string): string => readFileSync(join(RESOURCE, 'device.conf.in'), 'utf8').replaceAll('@DIR@', dir);

export const SCENARIOS: readonly Scenario[] = [
    {
        name: 'parse-manifest', weight: 10, make: (dir, rnd, seeds) => {
            const f = copy(pick(rnd, seeds.manifests), dir, 'in.pp');
            const format = pick(rnd, ['pn', 'json', 'msgpack']);
            if (rnd() < 0.3) return { args: ['parse', f, '--format', format, '--out-dir', join(dir, 'out')], targets: [f], outputs: [join(dir, 'out', `in.pp.${format}`)] };
            return { args: ['parse', f, '--format', format], targets: [f] };
        }
    },
    { name: 'parse-template', weight: 3, make: (dir, rnd, seeds) => { const f = copy(pick(rnd, seeds.templates), dir, 'in.epp'); return { args: ['parse', f], targets: [f] }; } },
    {
        name: 'parse-bundle', weight: 6, make: (dir, rnd) => {
            const { env, targets } = site(dir);
            const out = join(dir, rnd() < 0.5 ? 'bundle.json' : 'bundle.msgpack');
            return { args: ['parse', env, '--bundle', out, ...(out.endsWith('msgpack') ? ['--format', 'msgpack'] : [])], targets: [...targets, env], outputs: [out] };
        }
    },
    {
        name: 'compile-bundle', weight: 6, make: (dir, rnd, seeds) => {
            const b = copy(pick(rnd, seeds.bundles), dir);
            const facts = copy(FACTS, dir, 'facts');
            return { args: ['compile', b, ...factsArgs(facts, node(rnd)), '--format', pick(rnd, ['normalized', 'puppet', 'json'])], targets: [b, b, b], stdoutOnError: true };
        }
    },
    {
        name: 'compile-site', weight: 14, make: (dir, rnd) => {
            const { env, facts, targets } = site(dir);
            const format = pick(rnd, ['normalized', 'puppet', 'json', 'msgpack']);
            const graph = rnd() < 0.2 ? [join(dir, 'graph.dot')] : [];
            const bindings = rnd() < 0.3 ? ['--no-bindings'] : [];
            return {
                args: ['compile', env, ...factsArgs(facts, node(rnd)), '--format', format, ...bindings, ...graph.flatMap(g => ['--graph', g])],
                targets, outputs: graph, stdoutOnError: format === 'normalized'
            };
        }
    },
    {
        name: 'compile-explain', weight: 2, make: (dir, rnd) => {
            const { env, facts, targets } = site(dir);
            return { args: ['compile', env, ...factsArgs(facts, node(rnd)), '--explain', pick(rnd, LOOKUP_KEYS)], targets };
        }
    },
    {
        name: 'compile-nodes-dir', weight: 5, make: (dir, rnd) => {
            const { env, facts, targets } = site(dir);
            const out = join(dir, 'out');
            return { args: ['compile', env, '--nodes-dir', facts, '--out-dir', out, '--jobs', pick(rnd, ['1', '2']), ...(rnd() < 0.3 ? ['--format', 'msgpack'] : [])], targets, outDir: out, stdoutOnError: true };
        }
    },
    {
        name: 'compile-enc-output', weight: 4, make: (dir, rnd) => {
            const n = node(rnd);
            const { env, facts, targets } = siteWithCannedPrograms(dir, n);
            return { args: [pick(rnd, ['compile', 'bindings']), env, ...factsArgs(facts, n)], targets, stdoutOnError: true, exclude: ['fifo'] };
        }
    },
    {
        name: 'compile-effective-model', weight: 3, make: (dir, rnd, seeds) => {
            const { env, facts } = site(dir);
            const model = copy(rnd() < 0.5 ? seeds.effective : seeds.bindings, dir, 'model.json');
            const flag = basename(model) && rnd() < 0.5 ? '--effective' : '--bindings-model';
            return { args: ['compile', env, ...factsArgs(facts, 'web01'), flag, model], targets: [model], stdoutOnError: true };
        }
    },
    {
        name: 'lookup', weight: 8, make: (dir, rnd) => {
            const { env, facts, targets } = site(dir);
            const extra = pick(rnd, [[], ['--merge', 'deep'], ['--explain'], ['--compile'], ['--type', 'Integer'], ['--default', '{"a":1}'], ['--merge', 'unique']]);
            return { args: ['lookup', env, pick(rnd, LOOKUP_KEYS), ...factsArgs(facts, node(rnd)), ...extra], targets: targets.filter(t => !t.endsWith('.py')), stdoutOnError: extra.includes('--explain') };
        }
    },
    {
        name: 'lookup-hocon', weight: 4, make: (dir, rnd) => {
            const env = join(dir, 'env');
            mkdirSync(join(env, 'data'), { recursive: true });
            writeFileSync(join(env, 'hiera.yaml'), 'version: 5\nhierarchy:\n  - name: hocon\n    data_hash: hocon_data\n    paths: [common.conf, other.conf]\n  - name: yaml\n    path: common.yaml\n');
            writeFileSync(join(env, 'data', 'common.conf'), HOCON);
            writeFileSync(join(env, 'data', 'other.conf'), 'list = [0]\nother { a = 1, b = ${common_str.x} }\n');
            writeFileSync(join(env, 'data', 'common.yaml'), 'message: from yaml\nlist: [9]\n');
            const key = pick(rnd, ['common_str.x', 'settings', 'message', 'list', 'other', 'settings.nested.deep.deeper']);
            return { args: ['lookup', env, key, '--node', 'n1.example.com', ...(rnd() < 0.3 ? ['--merge', 'deep'] : [])], targets: [join(env, 'data', 'common.conf'), join(env, 'data', 'other.conf'), join(env, 'hiera.yaml')] };
        }
    },
    {
        name: 'environments-pp', weight: 3, make: (dir, rnd) => {
            const conf = join(dir, 'conf');
            mkdirSync(join(conf, 'main', 'manifests'), { recursive: true });
            mkdirSync(join(conf, 'environments', 'db', 'manifests'), { recursive: true });
            mkdirSync(join(conf, 'environments', 'db', 'data'), { recursive: true });
            writeFileSync(join(conf, 'environments.pp'), ENVIRONMENTS_PP);
            writeFileSync(join(conf, 'main', 'manifests', 'site.pp'), "notify { \"main ${environment}\": message => lookup('where', undef, undef, 'x') }\n");
            writeFileSync(join(conf, 'environments', 'db', 'manifests', 'site.pp'), "notify { 'db': }\n");
            writeFileSync(join(conf, 'environments', 'db', 'data', 'common.yaml'), 'where: db\n');
            writeFileSync(join(conf, 'facts.yaml'), `role: ${pick(rnd, ['db', 'web'])}\n`);
            const cmd = pick(rnd, [['compile', conf], ['bindings', conf], ['lookup', conf, 'where']]);
            return { args: [...cmd, '--node', 'n1.example.com', '--facts', join(conf, 'facts.yaml'), ...(rnd() < 0.5 ? ['--environment', pick(rnd, ['db', 'production', 'nowhere'])] : [])], targets: [join(conf, 'environments.pp'), join(conf, 'facts.yaml'), join(conf, 'main', 'manifests', 'site.pp')], stdoutOnError: true };
        }
    },
    {
        name: 'bindings', weight: 4, make: (dir, rnd) => {
            const { env, facts, targets } = site(dir);
            const graph = rnd() < 0.2 ? [join(dir, 'layers.dot')] : [];
            return { args: ['bindings', env, ...factsArgs(facts, node(rnd)), ...graph.flatMap(g => ['--graph', g])], targets: targets.filter(t => !t.endsWith('.py')), outputs: graph };
        }
    },
    {
        name: 'effective', weight: 4, make: (dir, rnd, seeds) => {
            const b = copy(seeds.bindings, dir);
            const facts = copy(FACTS, dir, 'facts');
            return { args: ['effective', b, ...factsArgs(facts, node(rnd)), ...(rnd() < 0.5 ? ['--values'] : []), ...(rnd() < 0.2 ? ['--format', 'msgpack'] : [])], targets: [b, b, join(facts, 'web01.example.com.yaml')] };
        }
    },
    { name: 'validate', weight: 6, make: (dir, rnd, seeds) => { const m = copy(pick(rnd, seeds.models), dir); return { args: ['validate', m], targets: [m] }; } },
    {
        name: 'convert', weight: 5, make: (dir, rnd, seeds) => {
            const m = copy(pick(rnd, seeds.models), dir);
            const to = pick(rnd, ['json', 'msgpack', 'xmi', 'rgen']);
            const out = join(dir, `out.${to}`);
            return rnd() < 0.6 ? { args: ['convert', m, '--to', to, '-o', out], targets: [m], outputs: [out] } : { args: ['convert', m, '--to', to], targets: [m] };
        }
    },
    {
        name: 'diff', weight: 5, make: (dir, rnd, seeds) => {
            const a = copy(pick(rnd, seeds.catalogs), dir, 'a');
            const b = copy(pick(rnd, seeds.catalogs), dir, 'b');
            return { args: ['diff', a, b, '--format', pick(rnd, ['text', 'json', 'markdown'])], targets: [a, b], exits: [2] };
        }
    },
    {
        name: 'apply', weight: 6, make: (dir, rnd, seeds) => {
            const c = copy(pick(rnd, seeds.catalogs), dir);
            const root = join(dir, 'root');
            mkdirSync(root);
            const report = join(dir, 'report.json');
            // Only --noop: a mutated catalog must not run commands.
            return { args: ['apply', c, '--noop', '--root', root, ...(rnd() < 0.5 ? ['--report', report] : [])], targets: [c], puppetLog: true };
        }
    },
    {
        name: 'ruby-function', weight: 7, make: (dir, rnd, seeds) => {
            const src = pick(rnd, seeds.rubyFunctions);
            const rel = src.slice(src.indexOf('/lib/puppet/') + 1);
            const env = join(dir, 'env');
            const target = join(env, 'modules', 'stdlib', rel);
            mkdirSync(join(target, '..'), { recursive: true });
            cpSync(src, target);
            const legacy = rel.includes('/parser/functions/');
            const name = (legacy ? '' : rel.replace(/^lib\/puppet\/functions\//, '').replace(/\.rb$/, '').replaceAll('/', '::').replace(/^(?!stdlib::)/, '')) || basename(rel, '.rb');
            const fn = legacy ? basename(rel, '.rb') : name;
            const args = pick(rnd, ["'a'", '[1, 2]', "{'a' => 1}", '1', "'a', 'b'", '']);
            mkdirSync(join(env, 'manifests'), { recursive: true });
            writeFileSync(join(env, 'manifests', 'site.pp'), `$x = ${fn}(${args})\nnotice($x)\n`);
            return { args: ['compile', env, '--node', 'n1.example.com', '--format', 'puppet'], targets: [target, target, target] };
        }
    },
    {
        name: 'ruby-type', weight: 4, make: (dir, rnd, seeds) => {
            const src = pick(rnd, seeds.rubyTypes);
            const env = join(dir, 'env');
            const target = join(env, 'modules', 'm', 'lib', 'puppet', 'type', basename(src));
            mkdirSync(join(target, '..'), { recursive: true });
            cpSync(src, target);
            mkdirSync(join(env, 'manifests'), { recursive: true });
            writeFileSync(join(env, 'manifests', 'site.pp'), `${basename(src, '.rb')} { '/tmp/x': ${pick(rnd, ['', "ensure => present", "name => 'y'"])} }\n`);
            return { args: ['compile', env, '--node', 'n1.example.com', '--format', 'puppet'], targets: [target, target, target] };
        }
    },
    {
        name: 'ruby-plugins', weight: 4, make: (dir, rnd) => {
            const env = copy(join(RUBY_PLUGINS, pick(rnd, readdirSync(RUBY_PLUGINS).filter(d => existsSync(join(RUBY_PLUGINS, d, 'manifests'))))), dir, 'env');
            return { args: ['compile', env, '--node', 'n1.example.com', '--format', 'puppet'], targets: files(env, /\.(rb|pp)$/) };
        }
    },
    {
        name: 'resource', weight: 6, make: (dir, rnd) => {
            const modules = copy(join(RESOURCE, 'modules'), dir, 'modules');
            const root = copy(join(RESOURCE, 'root'), dir, 'root');
            const cmd = pick(rnd, [['demo_key'], ['demo_key', 'alpha'], ['demo_key', 'alpha', 'value=uno'], ['demo_pkg'], ['demo_gadget'], ['demo_bad'], ['user'], ['user', 'root'], ['group'], ['demo_thing'], ['notify', 'hi', 'message=x']]);
            return {
                args: ['resource', ...cmd, '--root', root, '--modulepath', modules, '--noop', ...(rnd() < 0.3 ? [pick(rnd, ['--to_yaml', '--to_json'])] : [])],
                targets: [...files(modules, /\.rb$/), ...files(root, /etc\/(passwd|group)$/)], puppetLog: true
            };
        }
    },
    {
        name: 'resource-device', weight: 5, make: (dir, rnd) => {
            const fixtures = copy(RESOURCE, dir, 'fx');
            const conf = join(dir, 'device.conf');
            writeFileSync(conf, DEVICE_CONF(fixtures));
            const target = pick(rnd, ['switch1.example.com', 'bad', 'missing', 'http', 'nouser', 'noshim']);
            return {
                args: ['resource', '--modulepath', join(fixtures, 'modules'), '--deviceconfig', conf, '--target', target, 'demo_vlan', ...(rnd() < 0.4 ? ['10'] : []), '--noop'],
                targets: [conf, conf, conf, ...files(join(fixtures, 'devices'), /\.conf$/), ...files(join(fixtures, 'modules'), /(transport|util)\/.*\.rb$/)], puppetLog: true
            };
        }
    },
    {
        name: 'store', weight: 4, make: (dir, rnd, seeds) => {
            const { env, facts } = site(dir);
            // A store made by a real compile, then fuzzed: bytes of the database, or its place.
            const db = copy(seeds.store, dir);
            const cmd = rnd() < 0.7 ? ['compile', env, ...factsArgs(facts, node(rnd)), '--no-bindings', '--format', 'json'] : ['lookup', env, 'profile::nginx::worker_processes', ...factsArgs(facts, 'web01')];
            const url = pick(rnd, [`sqlite:${db}`, `sqlite:${db}`, `sqlite:${db}`, 'sqlite:', `sqlite:${dir}`, `sqlite:${join(dir, 'no', 'such', 'x.sqlite')}`, 'puppetdb:', 'puppetdb:http://127.0.0.1:9', 'puppetdb:ftp://127.0.0.1/', 'puppetdb:http://127.0.0.1:notaport/', 'mysql:x', 'sqlite:/dev/null']);
            return { args: [...cmd, '--store', url], targets: [db] };
        }
    },
    {
        name: 'facts', weight: 5, make: (dir, rnd) => {
            const { env, facts } = site(dir);
            const n = node(rnd);
            const json = join(facts, `${n}.example.com.json`);
            if (rnd() < 0.3) {
                writeFileSync(json, JSON.stringify(parseYaml(readFileSync(join(facts, `${n}.example.com.yaml`), 'utf8'))));
                return { args: ['compile', env, '--node', `${n}.example.com`, '--facts', json, '--no-bindings', '--format', 'puppet'], targets: [json] };
            }
            const trusted = join(dir, 'trusted.yaml');
            writeFileSync(trusted, 'authenticated: remote\nextensions:\n  pp_role: web\n');
            return { args: ['compile', env, ...factsArgs(facts, n), '--trusted', trusted, '--no-bindings', '--format', 'puppet'], targets: [join(facts, `${n}.example.com.yaml`), trusted] };
        }
    }
];
