import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { createCatalogServices, type CatalogServices } from '../src/catalog/index.js';
import { readFactsFile } from '../src/node/index.js';
import type { PuppetValue } from '../src/values/index.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root, from both bench/ (tsx) and dist/bench/ (compiled). */
const root = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
const shared = join(root, '..', 'shared');
const corpus = join(shared, 'conformance', 'catalog');
const oracle = join(shared, 'oracle', 'compile');

/** The larger conformance cases: the sites and the ordering cases. */
const CASES = [
    '140-site-webfarm', '141-site-database', '142-site-monitoring', '143-site-nodes-classification', '144-site-accounts',
    '145-site-envconf-layout', '146-site-ordering', '147-site-firewall-rules', '148-site-logging-stack', '149-site-bootstrap-stages'
];

interface BenchCase {
    readonly label: string;
    readonly dir: string;
    readonly node: string;
    readonly facts?: string;
    readonly classes: readonly string[];
}

function caseFromCorpus(name: string): BenchCase | undefined {
    const dir = join(corpus, name);
    if (!existsSync(join(dir, 'case.yaml'))) return undefined;
    const y = parseYaml(readFileSync(join(dir, 'case.yaml'), 'utf8')) as Record<string, unknown>;
    return {
        label: name, dir, node: String(y.node ?? 'testnode.example.com'),
        facts: typeof y.facts === 'string' ? join(dir, y.facts) : undefined, classes: (y.classes as string[] | undefined) ?? []
    };
}

/**
 * A generated site of `classes` x `perClass` resources: each class declares files, notifies with
 * relationships and define instances (each define adds two more resources), all included from
 * a default node.
 */
export function generateSite(classes: number, perClass: number): BenchCase {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-catalog-bench-'));
    mkdirSync(join(dir, 'manifests'));
    const lines: string[] = [
        'define app::vhost(String $docroot, Integer $port = 80) {',
        '  file { "/etc/vhosts/${title}.conf": ensure => file, content => "${docroot}:${port}\\n" }',
        '  notify { "vhost ${title}": message => "port ${port}", require => File["/etc/vhosts/${title}.conf"] }',
        '}'
    ];
    for (let c = 0; c < classes; c++) {
        lines.push(`class role${c}($base = '/srv/r${c}') {`);
        lines.push(`  $items = range(0, ${perClass - 1})`.replace(/range\((\d+), (\d+)\)/, (_m, a: string, b: string) => `Integer[${a}, ${b}]`));
        lines.push(`  $items.each |$i| {`);
        lines.push(`    if $i % 3 == 0 { app::vhost { "r${c}-\${i}": docroot => "\${base}/\${i}", port => 8000 + $i } }`);
        lines.push(`    else { file { "\${base}/f\${i}": ensure => file, mode => '0644', tag => ['bench', "r${c}"] } -> notify { "r${c} n\${i}": } }`);
        lines.push('  }');
        lines.push('}');
    }
    lines.push('node default {');
    for (let c = 0; c < classes; c++) lines.push(`  include role${c}`);
    lines.push('}');
    writeFileSync(join(dir, 'manifests', 'site.pp'), lines.join('\n') + '\n');
    return { label: `generated site (${classes} classes)`, dir, node: 'bench.example.com', classes: [] };
}

function compileOnce(services: CatalogServices, c: BenchCase): { ms: number; resources: number; error?: string } {
    const facts = c.facts ? readFactsFile(c.facts).values : new Map<string, PuppetValue>();
    const t = performance.now();
    const r = services.compile(c.dir, 'production', { node: c.node, facts, classes: c.classes });
    const ms = performance.now() - t;
    return { ms, resources: r.catalog.resources.size, error: r.error?.message };
}

/** Real Puppet's in-process compile step (`compile --timing`), in milliseconds, if installed. */
function puppetMs(c: BenchCase): number | undefined {
    if (!existsSync(oracle)) return undefined;
    const args = [c.dir, '--node', c.node, '--timing', ...(c.facts ? ['--facts', c.facts] : []), ...c.classes.flatMap(x => ['--class', x])];
    const out = spawnSync(oracle, args, { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 30 });
    const m = /compile_step=([\d.]+)s/.exec(out.stderr ?? '');
    return m ? Number(m[1]) * 1000 : undefined;
}

function median(xs: number[]): number {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
}

/** Compiles the larger conformance cases and a generated ≥5,000-resource site; prints times beside Puppet's. */
export function runCatalogBench(): void {
    const services = createCatalogServices();
    const cases = [...CASES.map(caseFromCorpus).filter((c): c is BenchCase => c !== undefined), generateSite(60, 120)];
    console.log('catalog compile (warm median of 5 in-process runs; Puppet: compile step of oracle/compile --timing):');
    console.log(`  ${'case'.padEnd(34)} ${'resources'.padStart(9)} ${'ours ms'.padStart(9)} ${'puppet ms'.padStart(10)} ${'ratio'.padStart(8)}`);
    let ourTotal = 0;
    let puppetTotal = 0;
    for (const c of cases) {
        compileOnce(services, c);
        const runs = Array.from({ length: 5 }, () => compileOnce(services, c));
        const ours = median(runs.map(r => r.ms));
        const theirs = puppetMs(c);
        ourTotal += ours;
        if (theirs !== undefined) puppetTotal += theirs;
        const ratio = theirs !== undefined ? `${(theirs / ours).toFixed(1)}x` : 'n/a';
        const status = runs[0].error ? ' (error)' : '';
        console.log(`  ${c.label.padEnd(34)} ${String(runs[0].resources).padStart(9)} ${ours.toFixed(1).padStart(9)} ${theirs === undefined ? 'n/a'.padStart(10) : theirs.toFixed(1).padStart(10)} ${ratio.padStart(8)}${status}`);
    }
    if (puppetTotal > 0) console.log(`  total: ours ${ourTotal.toFixed(1)} ms, Puppet ${puppetTotal.toFixed(1)} ms, ${(puppetTotal / ourTotal).toFixed(1)}x faster`);
}
