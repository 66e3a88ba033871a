import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCatalogServices, EnvironmentCache } from '../src/catalog/index.js';
import { modelcCommand, puppetOracle, puppetWarmTiming, reports, warmModelc, type BenchCase } from './compare.js';
import { medianTiming, ratio, timeProcess, type Timing } from './process-time.js';

/**
 * Generated sites from 1k to 100k resources, with and without collectors, compiled by modelc and
 * by real Puppet: CPU (user+sys) and wall, cold (a whole process per run) and warm (in one
 * process), peak RSS of a cold run, and the growth exponent fitted over the sizes (issue 16).
 *
 * Every site has classes with parameters from Hiera (automatic parameter lookup) and `lookup()`,
 * a define per class, virtual users realized with `realize`, and `require` relationships. With
 * collectors, the files are virtual too and realized by collectors (by tag with an override, by
 * title, by tag and parameter, and a relationship between two collectors); without, the same
 * files are declared real, so both give catalogs of the same size.
 *
 * `npm run bench` measures 1k and 5k; BENCH_SIZES=1000,5000,20000,50000,100000 (or BENCH_FULL=1)
 * the whole range. BENCH_RUNS sets the runs per measurement (sizes of 20k and up run once);
 * BENCH_PUPPET_MAX=20000 leaves real Puppet out above that size (it takes minutes per compile there).
 */
export function generateSizedSite(resources: number, withCollectors: boolean): string {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-size-bench-'));
    mkdirSync(join(dir, 'manifests'));
    mkdirSync(join(dir, 'data'));
    const at = withCollectors ? '@' : '';
    const per = 100;
    const classes = Math.max(1, Math.round(resources / (per + 2)));
    const lines: string[] = [
        'define bench::later($cls, $count) {',
        `  Integer[0, $count - 1].each |$i| { ${at}file { "/srv/\${cls}/late\${i}": ensure => file, tag => [$cls, 'late'] } }`,
        '}'
    ];
    const data = ['---', "bench::mode: '0640'"];
    for (let c = 0; c < classes; c++) {
        const cls = `c${c}`;
        data.push(`${cls}::owner: u${c}`);
        lines.push(`class ${cls}(String $owner) {`);
        lines.push("  $mode = lookup('bench::mode')");
        lines.push(`  @user { ['u${c}', 'v${c}']: ensure => present }`);
        lines.push(`  realize(User['u${c}'], User['v${c}'])`);
        lines.push(`  Integer[0, ${per / 2 - 3}].each |$i| { ${at}file { "/srv/${cls}/f\${i}": ensure => file, owner => $owner, mode => $mode, tag => ['${cls}'], require => User[$owner] } }`);
        lines.push(`  bench::later { '${cls}': cls => '${cls}', count => ${per / 2} }`);
        if (withCollectors) {
            lines.push(`  File <| tag == '${cls}' |> { group => 'bench' }`);
            lines.push(`  File <| title == '/srv/${cls}/late0' |>`);
            lines.push(`  User <| title == 'v${c}' |> -> File <| tag == '${cls}' and owner == 'u${c}' |>`);
        }
        lines.push('}');
    }
    lines.push('node default {');
    for (let c = 0; c < classes; c++) lines.push(`  include c${c}`);
    lines.push('}');
    writeFileSync(join(dir, 'manifests', 'site.pp'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'data', 'common.yaml'), data.join('\n') + '\n');
    writeFileSync(join(dir, 'hiera.yaml'), '---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n');
    return dir;
}

/** Peak resident set of a whole process, in KB, from GNU time (undefined where it is missing). */
function peakRssKb(command: string, args: readonly string[]): number | undefined {
    if (!existsSync('/usr/bin/time')) return undefined;
    const r = spawnSync('/usr/bin/time', ['-f', 'peak_rss_kb=%M', command, ...args], { encoding: 'utf8', timeout: 1_800_000, maxBuffer: 1 << 30 });
    const m = /peak_rss_kb=(\d+)/.exec(r.stderr ?? '');
    return m ? Number(m[1]) : undefined;
}

export interface SizeRow {
    readonly size: number;
    readonly collectors: boolean;
    readonly resources: number;
    readonly error?: string;
    /**
     * warm: as `modelc serve` compiles with its default --environment-timeout 0, an EnvironmentCache
     * refreshed before every compile (files checked against the disk, changed ones parsed again);
     * warmUncached: `services.compile` with no cache (every file parsed at every compile).
     */
    readonly modelc: { readonly cold: Timing; readonly warm: Timing; readonly warmUncached: Timing; readonly peakRssKb?: number };
    readonly puppet?: { readonly cold: Timing; readonly warm?: Timing; readonly peakRssKb?: number; readonly sameOutput: boolean };
}

/** The least-squares slope of log(y) over log(x): time ~ resources^exponent. */
export function growthExponent(points: ReadonlyArray<readonly [number, number]>): number | undefined {
    const ps = points.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => [Math.log(x), Math.log(y)] as const);
    if (ps.length < 2) return undefined;
    const mx = ps.reduce((a, [x]) => a + x, 0) / ps.length;
    const my = ps.reduce((a, [, y]) => a + y, 0) / ps.length;
    const sxx = ps.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    return sxx === 0 ? undefined : ps.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx;
}

function sameJson(a: string, b: string): boolean {
    try {
        return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
    } catch {
        return false;
    }
}

function sizes(): number[] {
    const given = process.env.BENCH_SIZES?.split(',').map(Number).filter(n => n > 0);
    if (given?.length) return given;
    return process.env.BENCH_FULL ? [1000, 5000, 20000, 50000, 100000] : [1000, 5000];
}

const f = (ms: number | undefined): string => (ms === undefined ? 'n/a' : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const mb = (kb: number | undefined): string => (kb === undefined ? 'n/a' : (kb / 1024).toFixed(0));

export function runSizesBench(): void {
    const oracle = puppetOracle();
    // Real Puppet takes minutes per compile at the largest sizes: BENCH_PUPPET_MAX leaves it out above a size.
    const puppetMax = Number(process.env.BENCH_PUPPET_MAX ?? Infinity);
    printHeader(oracle !== undefined);
    const baseRuns = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
    const rows: SizeRow[] = [];
    // The process's first warm measurement would otherwise also warm up code every later one
    // shares (V8 optimizes the compiler as it runs); a server is past that.
    for (const collectors of [false, true]) {
        const dir = generateSizedSite(1000, collectors);
        try {
            warmModelc(createCatalogServices(), { label: 'warm-up', dir, node: 'bench.example.com', classes: [] }, { runs: 1 });
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }
    for (const size of sizes()) {
        const runs = size >= 20000 ? 1 : baseRuns;
        for (const collectors of [false, true]) {
            const dir = generateSizedSite(size, collectors);
            try {
                const c: BenchCase = { label: `${size}${collectors ? ' coll' : ''}`, dir, node: 'bench.example.com', classes: [] };
                const args = ['compile', dir, '--node', c.node, '--format', 'normalized'];
                const uncached = warmModelc(createCatalogServices(), c, { runs: Math.max(runs, 5) });
                const warm = warmModelc(createCatalogServices(), c, { runs: Math.max(runs, 5), cache: new EnvironmentCache(), refresh: true });
                const cold = Array.from({ length: runs }, () => timeProcess(modelcCommand, args));
                let puppet: SizeRow['puppet'];
                if (oracle && size <= puppetMax) {
                    const pCold = Array.from({ length: runs }, () => timeProcess(oracle, [dir, '--node', c.node]));
                    puppet = {
                        cold: medianTiming(pCold), warm: puppetWarmTiming(c, '0', size >= 20000 ? 2 : Math.max(3, runs)),
                        peakRssKb: peakRssKb(oracle, [dir, '--node', c.node]), sameOutput: sameJson(cold[0].stdout, pCold[0].stdout)
                    };
                }
                const row: SizeRow = {
                    size, collectors, resources: warm.resources, ...(warm.error ? { error: warm.error } : {}),
                    modelc: { cold: medianTiming(cold), warm: warm.timing, warmUncached: uncached.timing, peakRssKb: peakRssKb(modelcCommand, args) },
                    ...(puppet ? { puppet } : {})
                };
                rows.push(row);
                printRow(row);
            } finally {
                rmSync(dir, { recursive: true, force: true });
            }
        }
    }
    printSummary(rows);
}

const head = ['size', 'coll', 'res', 'cold CPU', 'P cold CPU', 'ratio', 'cold wall', 'P cold wall', 'warm CPU', 'P warm CPU', 'ratio', 'no cache', 'ratio', 'RSS MB', 'KB/res', 'P RSS MB', 'same'];
const widths = [7, 4, 7, 9, 10, 7, 9, 11, 9, 10, 7, 9, 7, 7, 6, 8, 4];
const line = (cells: string[]): string => '  ' + cells.map((s, i) => s.padStart(widths[i])).join(' ');

function printHeader(withPuppet: boolean): void {
    console.log('generated sites by size (medians; CPU = user+sys ms; cold = `modelc compile` (bin/modelc) vs `oracle/compile`, one process per run;');
    console.log('  warm = in one process after warming up (both sides: at least BENCH_WARMUP_RUNS compiles and BENCH_WARMUP_MS): modelc as `modelc serve`');
    console.log('  compiles with its default --environment-timeout 0 (an EnvironmentCache refreshed before every compile: every file checked against the');
    console.log('  disk, a changed one parsed again), Puppet bench/puppet-warm.rb with its default environment_timeout=0 (every manifest parsed again);');
    console.log('  no cache = modelc `services.compile` parsing every file at every compile (no modelc command works that way); RSS = peak of a cold run;');
    console.log('  ratio = Puppet / modelc)');
    if (!withPuppet) console.log('  Puppet columns skipped: real Puppet (ruby + the puppet library, ../shared/oracle/compile) is not installed');
    console.log(line(head));
}

/** One row, printed as soon as it is measured (the largest sizes take minutes). */
function printRow(r: SizeRow): void {
    const p = r.puppet;
    const rss = r.modelc.peakRssKb;
    console.log(line([
        String(r.size), r.collectors ? 'yes' : 'no', String(r.resources),
        f(r.modelc.cold.cpuMs), f(p?.cold.cpuMs), ratio(p?.cold.cpuMs, r.modelc.cold.cpuMs), f(r.modelc.cold.wallMs), f(p?.cold.wallMs),
        f(r.modelc.warm.cpuMs), f(p?.warm?.cpuMs), ratio(p?.warm?.cpuMs, r.modelc.warm.cpuMs), f(r.modelc.warmUncached.cpuMs), ratio(p?.warm?.cpuMs, r.modelc.warmUncached.cpuMs),
        mb(rss), rss === undefined || r.resources === 0 ? 'n/a' : (rss / r.resources).toFixed(1), mb(p?.peakRssKb), p ? (p.sameOutput ? 'yes' : 'NO') : 'n/a'
    ]) + (r.error ? `  (modelc error: ${r.error.slice(0, 60)})` : ''));
}

function printSummary(rows: readonly SizeRow[]): void {
    const exponents: Record<string, number | undefined> = {};
    for (const collectors of [false, true]) {
        const rs = rows.filter(r => r.collectors === collectors && !r.error);
        const fit = (pick: (r: SizeRow) => number | undefined): number | undefined =>
            growthExponent(rs.map(r => [r.resources, pick(r) ?? 0] as const));
        const tag = collectors ? 'with collectors' : 'without collectors';
        exponents[`modelc cold ${tag}`] = fit(r => r.modelc.cold.cpuMs);
        exponents[`modelc warm ${tag}`] = fit(r => r.modelc.warm.cpuMs);
        exponents[`puppet cold ${tag}`] = fit(r => r.puppet?.cold.cpuMs);
        exponents[`puppet warm ${tag}`] = fit(r => r.puppet?.warm?.cpuMs);
    }
    // Issue 16: a site with collectors should cost little more than the same site without.
    const pairs = [...new Set(rows.map(r => r.size))].map(size => [rows.find(r => r.size === size && !r.collectors), rows.find(r => r.size === size && r.collectors)] as const)
        .filter((p): p is readonly [SizeRow, SizeRow] => p[0] !== undefined && p[1] !== undefined && !p[0].error && !p[1].error);
    if (pairs.length) {
        console.log(`  with collectors / without, modelc CPU: ${pairs.map(([w, c]) => `${w.size}: cold ${(c.modelc.cold.cpuMs / w.modelc.cold.cpuMs).toFixed(2)}x, warm ${(c.modelc.warm.cpuMs / w.modelc.warm.cpuMs).toFixed(2)}x`).join('; ')}`);
    }
    console.log(`  growth exponents (CPU ~ resources^k over the sizes): ${Object.entries(exponents).map(([k, v]) => `${k} ${v === undefined ? 'n/a' : v.toFixed(2)}`).join('; ')}`);
    console.log(`  load average at the end: ${loadavg().map(x => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores (wall times are inflated by other processes; compare CPU)`);
    reports.sizes = { rows, exponents };
}

// `node dist/bench/sizes.js`: this table alone (BENCH_SIZES, BENCH_FULL, BENCH_RUNS as for npm run bench).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    if (process.argv.includes('--json')) console.log = console.error;
    runSizesBench();
    if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(reports.sizes, null, 2) + '\n');
}
