import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { compareCases, shared, type BenchCase } from './compare.js';

const corpus = join(shared, 'conformance', 'catalog');

/** The larger conformance cases: the sites and the ordering cases. */
const CASES = [
    '140-site-webfarm', '141-site-database', '142-site-monitoring', '143-site-nodes-classification', '144-site-accounts',
    '145-site-envconf-layout', '146-site-ordering', '147-site-firewall-rules', '148-site-logging-stack', '149-site-bootstrap-stages'
];

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

/** Compiles the larger conformance cases and a generated ≥5,000-resource site, cold and warm, beside real Puppet. */
export function runCatalogBench(): void {
    const cases = [...CASES.map(caseFromCorpus).filter((c): c is BenchCase => c !== undefined), generateSite(60, 120)];
    compareCases('catalog', 'catalog compile', cases);
}
