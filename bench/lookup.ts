import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createHieraLookup, createHieraServices, trustedFor, type HieraLookup } from '../src/bindings/index.js';
import type { PuppetValue } from '../src/values/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
const oracle = join(root, '..', 'shared', 'oracle', 'lookup');

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

/** Real Puppet's lookup step (Puppet::Pops::Lookup.lookup inside one `oracle/lookup` process), median of a few keys. */
function puppetStepSeconds(dir: string, keys: readonly string[]): number | undefined {
    if (!existsSync(oracle) || spawnSync('puppet', ['--version']).status !== 0) return undefined;
    const steps: number[] = [];
    for (const key of keys) {
        const out = spawnSync(oracle, [dir, key, '--node', NODE, '--timing'], { encoding: 'utf8', timeout: 120_000 });
        const m = /lookup_step=([\d.]+)s/.exec(out.stderr);
        if (m) steps.push(Number(m[1]));
    }
    steps.sort((a, b) => a - b);
    return steps.length > 0 ? steps[Math.floor(steps.length / 2)] : undefined;
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
    const sample = [keys[1], keys[10], keys[KEYS - 1]];
    const step = puppetStepSeconds(dir, sample);
    if (step === undefined) {
        console.log('  puppet   not installed (no ratio)');
        return;
    }
    console.log(`  puppet   lookup step ${(step * 1000).toFixed(2)} ms (one lookup per process, median of ${sample.length}) = ${Math.round(1 / step).toLocaleString('en-US')} lookups/s`);
    console.log(`  ratio    warm modelc / puppet: ${(perSecond * step).toFixed(0)}x; cold first lookup: ${(step / coldSeconds).toFixed(1)}x`);
}
