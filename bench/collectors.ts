import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCatalogServices } from '../src/catalog/index.js';
import type { PuppetValue } from '../src/values/index.js';

/**
 * A generated site of about `resources` resources in classes of 100: each class declares
 * virtual files and users (half of them through a define instance, so they appear in a later
 * generator pass) and, `withCollectors`, realizes them with collectors (by tag, with an
 * override, by title, by tag and parameter) and a relationship to a collector. Without collectors the
 * same resources are declared real, so the two sites give catalogs of the same size.
 */
export function generateCollectorSite(resources: number, withCollectors: boolean): string {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-collector-bench-'));
    mkdirSync(join(dir, 'manifests'));
    const at = withCollectors ? '@' : '';
    const per = 100;
    const classes = Math.max(1, Math.round(resources / (per + 2)));
    const lines: string[] = [
        'define bench::later($cls, $count) {',
        `  Integer[0, $count - 1].each |$i| { ${at}file { "/srv/\${cls}/late\${i}": ensure => file, tag => [$cls, 'late'] } }`,
        '}'
    ];
    for (let c = 0; c < classes; c++) {
        const cls = `c${c}`;
        lines.push(`class ${cls} {`);
        lines.push(`  Integer[0, ${per / 2 - 3}].each |$i| { ${at}file { "/srv/${cls}/f\${i}": ensure => file, owner => "u${c}", tag => ['${cls}'] } }`);
        lines.push(`  ${at}user { ['u${c}', 'v${c}']: ensure => present }`);
        lines.push(`  bench::later { '${cls}': cls => '${cls}', count => ${per / 2} }`);
        if (withCollectors) {
            lines.push(`  File <| tag == '${cls}' |> { mode => '0640' }`);
            lines.push(`  User <| title == 'u${c}' |>`);
            lines.push(`  User <| ensure == present and title == 'v${c}' |> -> File <| tag == '${cls}' and owner == 'u${c}' |>`);
        }
        lines.push('}');
    }
    lines.push('node default {');
    for (let c = 0; c < classes; c++) lines.push(`  include c${c}`);
    lines.push('}');
    writeFileSync(join(dir, 'manifests', 'site.pp'), lines.join('\n') + '\n');
    return dir;
}

function compileMs(dir: string): { ms: number; resources: number; error?: string } {
    const services = createCatalogServices();
    // CPU time (user + system), not wall time: the machine is shared.
    const t = process.cpuUsage();
    const r = services.compile(dir, 'production', { node: 'bench.example.com', facts: new Map<string, PuppetValue>() });
    const used = process.cpuUsage(t);
    return { ms: (used.user + used.system) / 1000, resources: r.catalog.resources.size, error: r.error?.message };
}

function median(xs: number[]): number {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
}

/** Compiles the generated sites of each size with and without collectors; prints the times. */
export function runCollectorBench(sizes: readonly number[] = [5000], runs = 3): void {
    console.log(`catalog collectors (CPU ms, median of ${runs} in-process compiles of a generated site):`);
    console.log(`  ${'resources'.padStart(9)} ${'collectors ms'.padStart(14)} ${'without ms'.padStart(11)} ${'ratio'.padStart(6)}`);
    for (const size of sizes) {
        const row: number[] = [];
        const counts: number[] = [];
        for (const withCollectors of [true, false]) {
            const dir = generateCollectorSite(size, withCollectors);
            try {
                const results = Array.from({ length: runs }, () => compileMs(dir));
                if (results[0].error) throw new Error(results[0].error);
                counts.push(results[0].resources);
                row.push(median(results.map(r => r.ms)));
            } finally {
                rmSync(dir, { recursive: true, force: true });
            }
        }
        // Both sites give catalogs of the same size (every virtual resource is collected).
        if (counts[0] !== counts[1]) throw new Error(`the sites differ: ${counts[0]} vs ${counts[1]} resources`);
        console.log(`  ${String(counts[0]).padStart(9)} ${row[0].toFixed(0).padStart(14)} ${row[1].toFixed(0).padStart(11)} ${(row[0] / row[1]).toFixed(2).padStart(6)}`);
    }
}

// `node dist/bench/collectors.js 20000 50000`: larger sites than `npm run bench` compiles.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const sizes = process.argv.slice(2).map(Number).filter(n => n > 0);
    runCollectorBench(sizes.length ? sizes : [20000, 50000], 1);
}
