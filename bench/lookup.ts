import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHieraLookup, createHieraServices, type HieraLookup } from '../src/bindings/index.js';
import { trustedFor } from '../src/node/index.js';
import type { PuppetValue } from '../src/values/index.js';


const KEYS = 2000;
const NODE = 'bench01.example.com';

/** A generated environment: node/os/role/common levels, KEYS keys, some hashes with lookup_options deep merge. */
function generateEnv(): { dir: string; keys: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-lookup-bench-'));
    const write = (rel: string, text: string): void => {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), text);
    };
    write('hiera.yaml', '---\nversion: 5\nhierarchy:\n'
        + '  - name: node\n    path: "nodes/%{trusted.certname}.yaml"\n'
        + '  - name: os\n    path: "os/%{facts.os.family}.yaml"\n'
        + '  - name: role\n    path: "roles/%{facts.role}.yaml"\n'
        + '  - name: common\n    path: common.yaml\n');
    write('facts.yaml', 'os:\n  family: Debian\nrole: web\n');
    const keys: string[] = [];
    const levels: Record<string, string[]> = { [`data/nodes/${NODE}.yaml`]: [], 'data/os/Debian.yaml': [], 'data/roles/web.yaml': [], 'data/common.yaml': ['lookup_options:', '  "^bench::h":', '    merge: deep'] };
    const files = Object.keys(levels);
    for (let i = 0; i < KEYS; i++) {
        const key = i % 10 === 0 ? `bench::h${i}` : `bench::k${i}`;
        keys.push(key);
        files.forEach((f, li) => {
            if ((i + li) % (li + 1) !== 0) return; // lower levels hold more keys
            levels[f].push(key.includes('::h') ? `${key}:\n  l${li}: ${i}\n  shared: [${li}]` : `${key}: "value ${i} from level ${li}"`);
        });
    }
    for (const f of files) write(f, `---\n${levels[f].join('\n')}\n`);
    return { dir, keys };
}

function service(dir: string): HieraLookup {
    return createHieraLookup({
        environment: dir,
        context: { environment: 'production', facts: new Map<string, PuppetValue>([['os', new Map<PuppetValue, PuppetValue>([['family', 'Debian']])], ['role', 'web']]), trusted: trustedFor(NODE) },
        services: createHieraServices()
    });
}

/**
 * Real Puppet in one process, set up as oracle/lookup sets it up (empty global layer, the
 * environment as a symlink, the node's top scope from a compile of `undef`), looping
 * Puppet::Pops::Lookup.lookup over the same keys: warm lookups per second.
 */
const PUPPET_LOOP = String.raw`# Warm lookups per second in one Puppet process (the same setup as oracle/lookup).
require 'tmpdir'
require 'fileutils'
env_dir, node, seconds, *keys = ARGV
tmp = Dir.mktmpdir('modelc-lookup-bench-')
%w[conf code code/modules var run log environments].each { |d| FileUtils.mkdir_p(File.join(tmp, d)) }
File.symlink(File.realpath(env_dir), File.join(tmp, 'environments', 'production'))
File.write(File.join(tmp, 'conf', 'hiera.yaml'), "---\nversion: 5\nhierarchy: []\n")
require 'puppet'
require 'puppet/parser/compiler'
require 'yaml'
Puppet.initialize_settings(["--confdir=#{tmp}/conf", "--codedir=#{tmp}/code", "--vardir=#{tmp}/var", "--rundir=#{tmp}/run",
  "--logdir=#{tmp}/log", "--publicdir=#{tmp}/var/public", "--environmentpath=#{tmp}/environments", '--environment=production',
  "--basemodulepath=#{tmp}/code/modules", "--hiera_config=#{tmp}/conf/hiera.yaml", '--environment_timeout=0'])
env = Puppet.lookup(:environments).get!('production')
facts = YAML.safe_load(File.read(File.join(env_dir, 'facts.yaml')))
n = Puppet::Node.new(node, environment: env)
n.fact_merge(Puppet::Node::Facts.new(node, facts))
trusted = Puppet::Context::TrustedInformation.new('remote', node, {}, {})
Puppet.override({ current_environment: env, trusted_information: trusted }, 'bench') do
  Puppet[:code] = 'undef'
  compiler = Puppet::Parser::Compiler.new(n)
  compiler.compile do |catalog|
    scope = compiler.topscope
    keys.each { |k| Puppet::Pops::Lookup.lookup(k, nil, nil, false, nil, Puppet::Pops::Lookup::Invocation.new(scope, {}, {}, nil)) }
    count = 0
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    deadline = t0 + seconds.to_f
    while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
      keys.each { |k| Puppet::Pops::Lookup.lookup(k, nil, nil, false, nil, Puppet::Pops::Lookup::Invocation.new(scope, {}, {}, nil)) }
      count += keys.size
    end
    puts "lookups_per_second=#{(count / (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0)).round}"
    catalog
  end
end
FileUtils.remove_entry(tmp)
`;

function puppetLookupsPerSecond(dir: string, keys: readonly string[]): number | undefined {
    if (spawnSync('puppet', ['--version']).status !== 0) return undefined;
    const scriptDir = mkdtempSync(join(tmpdir(), 'modelc-lookup-bench-rb-'));
    const script = join(scriptDir, 'loop.rb');
    writeFileSync(script, PUPPET_LOOP);
    const out = spawnSync('ruby', [script, dir, NODE, '1', ...keys], { encoding: 'utf8', timeout: 300_000 });
    rmSync(scriptDir, { recursive: true, force: true });
    const m = /lookups_per_second=(\d+)/.exec(out.stdout);
    return m ? Number(m[1]) : undefined;
}

/** Prints Hiera lookups per second, cold (first lookup of a fresh service) and warm, beside real Puppet. */
export function runLookupBench(): void {
    const { dir, keys } = generateEnv();
    let t = performance.now();
    const cold = service(dir);
    cold.lookup(keys[1]);
    const coldSeconds = (performance.now() - t) / 1000;

    const warm = service(dir);
    for (const k of keys) warm.lookup(k); // warm every file, key and lookup_options
    let n = 0;
    t = performance.now();
    const deadline = t + 1000;
    while (performance.now() < deadline) {
        for (let i = 0; i < keys.length; i++) warm.lookup(keys[i]);
        n += keys.length;
    }
    const perSecond = n / ((performance.now() - t) / 1000);
    console.log(`lookup (generated Hiera data: 4 levels, ${KEYS} keys, 10% deep-merged hashes):`);
    console.log(`  modelc   cold first lookup ${(coldSeconds * 1000).toFixed(2)} ms; warm ${Math.round(perSecond).toLocaleString('en-US')} lookups/s`);
    const puppet = puppetLookupsPerSecond(dir, keys);
    rmSync(dir, { recursive: true, force: true });
    if (puppet === undefined) {
        console.log('  puppet   not installed (no ratio)');
        return;
    }
    console.log(`  puppet   warm ${puppet.toLocaleString('en-US')} lookups/s (Puppet::Pops::Lookup.lookup in one process, same data and keys)`);
    console.log(`  ratio    modelc / puppet (warm): ${(perSecond / puppet).toFixed(0)}x`);
}
