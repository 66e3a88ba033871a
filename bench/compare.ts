import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createCatalogServices, EnvironmentCache, type CatalogServices } from '../src/catalog/index.js';
import { readFactsFile } from '../src/node/index.js';
import type { PuppetValue } from '../src/values/index.js';
import { medianTiming, puppetInstalled, ratio, timeProcess, WARMUP, warmedUp, type Timing } from './process-time.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root, from both bench/ (tsx) and dist/bench/ (compiled). */
export const root = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
export const shared = join(root, '..', 'shared');
/**
 * The `modelc` command as users run it (package.json's bin, what `npx modelc` and an installed
 * modelc start): bin/modelc, which starts the snapshot's commands with one Node process.
 */
export const modelcCommand = join(root, 'bin', 'modelc');
const oracle = join(shared, 'oracle', 'compile');
const puppetWarm = join(root, 'bench', 'puppet-warm.rb');

export interface BenchCase {
    readonly label: string;
    readonly dir: string;
    readonly node: string;
    readonly facts?: string;
    readonly classes: readonly string[];
}

/** One case measured both ways, cold (a whole process each run) and warm (in one process, after a warm-up). */
export interface ComparisonRow {
    readonly case: string;
    readonly resources: number;
    readonly error?: string;
    /**
     * warm: in one process, as `modelc serve` compiles with its default `--environment-timeout 0`
     * (and review, the language server and `--nodes-dir` do): an EnvironmentCache refreshed before
     * every compile, so every file is checked against the disk and a changed one read and parsed
     * again; as fresh as Puppet's environment_timeout=0 (Puppet's warm), which parses every file
     * again instead. warmUncached: `services.compile` with no cache at all (every file parsed at
     * every compile; no command of modelc runs that way twice). warmCached: an EnvironmentCache
     * kept (parsed once), beside Puppet's environment_timeout=unlimited.
     */
    readonly modelc: { readonly cold: Timing; readonly warm: Timing; readonly warmUncached: Timing; readonly warmCached?: Timing };
    readonly puppet?: {
        readonly cold: Timing;
        /** `compile --timing`: the compile step of a fresh process, wall time, first use of every Ruby type included. */
        readonly firstCompileWallMs?: number;
        /** Repeated compiles in one Ruby process, `environment_timeout=0` (Puppet 7's default: manifests parsed per compile). */
        readonly warm?: Timing;
        /** The same with `environment_timeout=unlimited` (the parsed environment kept between compiles), when asked for. */
        readonly warmCachedEnvironment?: Timing;
        /** Whether modelc's normalized catalog equals the oracle's. */
        readonly sameOutput: boolean;
    };
}

/** Every comparison measured in this run, for `npm run bench -- --json`. */
export const comparisons: Record<string, ComparisonRow[]> = {};

/** Other machine-readable results of this run (by benchmark), printed beside the comparisons by `--json`. */
export const reports: Record<string, unknown> = {};

/** The oracle's compile script, when real Puppet is installed. */
export function puppetOracle(): string | undefined {
    return existsSync(oracle) && puppetInstalled() ? oracle : undefined;
}

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

function caseArgs(c: BenchCase): string[] {
    return ['--node', c.node, ...(c.facts ? ['--facts', c.facts] : []), ...c.classes.flatMap(x => ['--class', x])];
}

/**
 * modelc's warm compile of a case in this process: medians after a warm-up. With `cache`, compiles
 * share it; `refresh` starts a new generation before each one (every file checked against the disk,
 * a changed one parsed again), as `modelc serve` does by default.
 */
export function warmModelc(services: CatalogServices, c: BenchCase, options: { readonly cache?: EnvironmentCache; readonly refresh?: boolean; readonly runs?: number } = {}): { timing: Timing; resources: number; error?: string } {
    const { cache, refresh = false, runs = Math.max(5, RUNS) } = options;
    const facts = c.facts ? readFactsFile(c.facts).values : new Map<string, PuppetValue>();
    const once = () => {
        const cpu0 = process.cpuUsage();
        if (refresh) cache?.refresh();
        const w0 = performance.now();
        const r = services.compile(c.dir, 'production', { node: c.node, facts, classes: c.classes, ...(cache ? { cache } : {}) });
        const cpu = process.cpuUsage(cpu0);
        return { timing: { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - w0 }, resources: r.catalog.resources.size, error: r.error?.message };
    };
    const { first, timed } = warmedUp(once, runs);
    return { timing: medianTiming(timed.map(r => r.timing)), resources: first.resources, error: first.error };
}

function sameJson(a: string, b: string): boolean {
    try {
        return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
    } catch {
        return false;
    }
}

/** Real Puppet's warm compile (bench/puppet-warm.rb): medians of `runs` compiles in one Ruby process after a warm-up. */
export function puppetWarmTiming(c: BenchCase, environmentTimeout: string, runs = Math.max(5, RUNS)): Timing | undefined {
    const r = spawnSync('ruby', [puppetWarm, c.dir, c.node, c.facts ?? '', String(runs), environmentTimeout, String(WARMUP.runs), String(WARMUP.ms), String(WARMUP.capMs)],
        { encoding: 'utf8', timeout: 1_800_000, maxBuffer: 1 << 28 });
    try {
        const j = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { cpu_ms: number[]; wall_ms: number[] };
        return medianTiming(j.cpu_ms.map((cpuMs, i) => ({ cpuMs, wallMs: j.wall_ms[i] })));
    } catch {
        return undefined;
    }
}

/** Measures each case with modelc and, when installed, real Puppet; prints one table and keeps the rows under `name`. */
export function compareCases(name: string, title: string, cases: readonly BenchCase[], cachedEnvironment = false): ComparisonRow[] {
    const withPuppet = existsSync(oracle) && puppetInstalled();
    const services = createCatalogServices();
    const rows: ComparisonRow[] = [];
    for (const c of cases) {
        const uncached = warmModelc(services, c);
        const coldRuns = Array.from({ length: RUNS }, () => timeProcess(modelcCommand, ['compile', c.dir, ...caseArgs(c), '--format', 'normalized']));
        let puppet: ComparisonRow['puppet'];
        if (withPuppet) {
            const runs = Array.from({ length: RUNS }, () => timeProcess(oracle, [c.dir, ...caseArgs(c), '--timing']));
            const steps = runs.map(r => /compile_step=([\d.]+)s/.exec(r.stderr)).filter(m => m !== null).map(m => Number(m[1]) * 1000);
            puppet = {
                cold: medianTiming(runs), firstCompileWallMs: steps.length ? medianTiming(steps.map(s => ({ cpuMs: s, wallMs: s }))).wallMs : undefined,
                warm: puppetWarmTiming(c, '0'), warmCachedEnvironment: cachedEnvironment ? puppetWarmTiming(c, 'unlimited') : undefined, sameOutput: sameJson(coldRuns[0].stdout, runs[0].stdout)
            };
        }
        const warmCached = cachedEnvironment ? warmModelc(services, c, { cache: new EnvironmentCache() }).timing : undefined;
        const warm = warmModelc(services, c, { cache: new EnvironmentCache(), refresh: true });
        rows.push({
            case: c.label, resources: warm.resources, error: warm.error ?? uncached.error,
            modelc: { cold: medianTiming(coldRuns), warm: warm.timing, warmUncached: uncached.timing, ...(warmCached ? { warmCached } : {}) }, puppet
        });
    }
    comparisons[name] = rows;
    printTable(title, rows, withPuppet);
    return rows;
}

const f = (ms: number | undefined) => (ms === undefined ? 'n/a' : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

function printTable(title: string, rows: readonly ComparisonRow[], withPuppet: boolean): void {
    console.log(`${title} (medians; CPU = user+sys; cold = one whole process per run, \`modelc compile\` (bin/modelc) vs \`oracle/compile\`;`);
    console.log(`  warm = in one process after warming up (both sides: at least ${WARMUP.runs} compiles and ${WARMUP.ms} ms): modelc as \`modelc serve\` compiles`);
    console.log('  with its default --environment-timeout 0 (every file checked against the disk before each compile, a changed one parsed again)');
    console.log('  vs Puppet `bench/puppet-warm.rb` with its default environment_timeout=0 (every manifest parsed again); ratio = Puppet / modelc, CPU vs CPU)');
    if (!withPuppet) console.log('  Puppet columns skipped: real Puppet (ruby + the puppet library, ../shared/oracle/compile) is not installed');
    const head = ['case', 'res', 'cold CPU ms', 'P cold CPU', 'ratio', 'cold wall', 'P cold wall', 'warm CPU ms', 'P warm CPU', 'ratio', 'warm wall', 'P warm wall', 'P 1st compile wall', 'same'];
    const widths = [30, 5, 11, 10, 7, 9, 11, 11, 10, 7, 9, 11, 18, 4];
    const line = (cells: string[]) => '  ' + cells.map((s, i) => (i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join(' ');
    console.log(line(head));
    for (const r of rows) {
        const p = r.puppet;
        console.log(line([
            r.case.slice(0, 30), String(r.resources),
            f(r.modelc.cold.cpuMs), f(p?.cold.cpuMs), ratio(p?.cold.cpuMs, r.modelc.cold.cpuMs), f(r.modelc.cold.wallMs), f(p?.cold.wallMs),
            f(r.modelc.warm.cpuMs), f(p?.warm?.cpuMs), ratio(p?.warm?.cpuMs, r.modelc.warm.cpuMs), f(r.modelc.warm.wallMs), f(p?.warm?.wallMs),
            f(p?.firstCompileWallMs), p ? (p.sameOutput ? 'yes' : 'NO') : 'n/a'
        ]) + (r.error ? `  (modelc error: ${r.error.slice(0, 60)})` : ''));
    }
    for (const r of rows) {
        const none = r.modelc.warmUncached;
        console.log(`  ${r.case}: modelc warm with no cache at all (every file parsed at every compile; no modelc command works that way): `
            + `CPU ${f(none.cpuMs)} ms, wall ${f(none.wallMs)} ms; ratio to Puppet's warm ${ratio(r.puppet?.warm?.cpuMs, none.cpuMs)}`);
        const cached = r.puppet?.warmCachedEnvironment;
        const ours = r.modelc.warmCached;
        if (cached) console.log(`  ${r.case}: Puppet warm with environment_timeout=unlimited (parsed environment kept, as Puppet Server setups do): CPU ${f(cached.cpuMs)} ms, wall ${f(cached.wallMs)} ms; `
            + (ours ? `modelc with an EnvironmentCache kept (as \`serve --environment-timeout unlimited\`): CPU ${f(ours.cpuMs)} ms, ratio ${ratio(cached.cpuMs, ours.cpuMs)}` : `ratio ${ratio(cached.cpuMs, r.modelc.warm.cpuMs)}`));
    }
    console.log(`  load average at the end: ${loadavg().map(x => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores (wall times are inflated by other processes; compare CPU)`);
}
