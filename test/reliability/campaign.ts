import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from './harness.js';
import { isMutable, pick, pickMutation, type Rnd } from './mutations.js';
import { InProcess, judge, runLauncher, signature, type RunResult, type Violation } from './runner.js';
import { makeSeeds, SCENARIOS, type CaseSpec, type Scenario, type Seeds } from './scenarios.js';
import { MORE_SCENARIOS } from './scenarios-more.js';

/** How the sampled cases are started: node bin/modelc.js from the snapshot or on the worker, or the `modelc` command (bin/modelc). */
const LAUNCH_PATHS = ['snapshot', 'worker', 'command'] as const;
const COMMAND = join(import.meta.dirname, '..', '..', 'bin', 'modelc');

/** Every scenario the campaign draws from. */
export const ALL_SCENARIOS: readonly Scenario[] = [...SCENARIOS, ...MORE_SCENARIOS];

// A fuzz campaign over every command: case I is scenario + mutations drawn from its own random
// stream (FUZZ_SEED, I), so any failing case replays alone (FUZZ_CASE=I).

export interface CampaignOptions {
    readonly seed: number;
    readonly n: number;
    /** Run every Nth case also through the launchers (in turn: bin/modelc.js from the snapshot, on the worker, bin/modelc); 0: never. */
    readonly launcherEvery: number;
    readonly timeoutMs: number;
    readonly jobs: number;
    readonly work: string;
    /** Only these scenarios (names), when given. */
    readonly only?: readonly string[];
    /** Only these case numbers (replays). */
    readonly caseNumbers?: readonly number[];
    /** The most mutations a case gets (1 to this many, evenly); unset: one, or two in a fifth of the cases. */
    readonly budget?: number;
}

export interface Failure {
    readonly case: number;
    readonly scenario: string;
    readonly mutations: readonly string[];
    readonly args: readonly string[];
    readonly via: string;
    readonly violation: Violation;
    readonly kept: string;
}

export interface CampaignResult {
    readonly cases: number;
    readonly launcherRuns: number;
    readonly exits: Record<string, number>;
    readonly perScenario: Record<string, number>;
    /** Per scenario: runs that succeeded, ended in located one-line errors, or broke the rule. */
    readonly outcomes: Record<string, { ok: number; error: number; violation: number }>;
    readonly failures: Map<string, { count: number; first: Failure }>;
}

function chooseScenario(rnd: Rnd, scenarios: readonly Scenario[]): Scenario {
    const total = scenarios.reduce((n, s) => n + s.weight, 0);
    let r = rnd() * total;
    for (const s of scenarios) {
        r -= s.weight;
        if (r < 0) return s;
    }
    return scenarios[scenarios.length - 1] as Scenario;
}

/** Mutations of a directory the command walks: entries that loop or lead nowhere. */
function mutateDirectory(dir: string, rnd: Rnd): string {
    switch (Math.floor(rnd() * 3)) {
        case 0: symlinkSync(dir, join(dir, 'modules', 'loop')); return 'dir-self-link';
        case 1: symlinkSync(join(dir, 'nowhere'), join(dir, 'manifests', 'dangling.pp')); return 'dir-dangling-link';
        default: mkdirSync(join(dir, 'manifests', 'dir.pp')); return 'dir-named-like-a-file';
    }
}

/** Lays case I out and mutates it; returns what to run. */
export function makeCase(i: number, options: CampaignOptions, seeds: Seeds): { scenario: Scenario; spec: CaseSpec; mutations: string[]; dir: string } {
    const rnd = mulberry32((options.seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
    const scenarios = options.only ? ALL_SCENARIOS.filter(s => options.only?.includes(s.name)) : ALL_SCENARIOS;
    const scenario = chooseScenario(rnd, scenarios);
    const dir = mkdtempSync(join(options.work, `c${i}-`));
    const spec = scenario.make(dir, rnd, seeds);
    const mutations: string[] = [];
    const count = options.budget !== undefined ? 1 + Math.floor(rnd() * options.budget) : rnd() < 0.8 ? 1 : 2;
    for (let k = 0; k < count; k++) {
        const target = pick(rnd, spec.targets);
        let isDir = false;
        try { isDir = statSync(target).isDirectory(); } catch { /* gone: nothing to mutate */ }
        if (isDir) {
            try { mutations.push(`${mutateDirectory(target, rnd)} ${target.slice(dir.length + 1)}`); } catch { /* already there */ }
            continue;
        }
        if (!isMutable(target)) continue;
        const m = pickMutation(rnd, new Set(spec.exclude ?? []));
        m.apply(target, rnd);
        mutations.push(`${m.name} ${target.slice(dir.length + 1)}`);
    }
    return { scenario, spec, mutations, dir };
}

/** Whether two runs of one case end alike (exit code and stderr; the snapshot and the worker must agree). */
function sameEnd(a: RunResult, b: RunResult): boolean {
    const norm = (s: string): string => s.replace(/in [\d.]+ seconds/g, 'in N seconds');
    return a.code === b.code && norm(a.err) === norm(b.err);
}

export async function runCampaign(options: CampaignOptions, log: (line: string) => void = () => undefined): Promise<CampaignResult> {
    mkdirSync(options.work, { recursive: true });
    const seedRunner = new InProcess();
    const seeds = await makeSeeds(mkdtempSync(join(options.work, 'seeds-')), async args => {
        const r = await seedRunner.run(args, 120_000, true);
        if (r.code !== 0) throw new Error(`seed: modelc ${args.join(' ')}: ${r.err}${r.uncaught ?? ''}`);
        return r.out;
    });
    await seedRunner.close();
    const result: CampaignResult = { cases: 0, launcherRuns: 0, exits: {}, perScenario: {}, outcomes: {}, failures: new Map() };
    const numbers = options.caseNumbers !== undefined ? options.caseNumbers : Array.from({ length: options.n }, (_, i) => i);
    let next = 0;
    const lane = async (): Promise<void> => {
        const pool = new InProcess();
        try {
            for (let at = next++; at < numbers.length; at = next++) {
                const i = numbers[at] as number;
                await runOne(i, pool);
            }
        } finally {
            await pool.close();
        }
    };
    const runOne = async (i: number, pool: InProcess): Promise<void> => {
        const { scenario, spec, mutations, dir } = makeCase(i, options, seeds);
        const found: Array<{ via: string; violation: Violation }> = [];
        const inProcess = await pool.run(spec.args, options.timeoutMs);
        for (const v of judge(spec, inProcess)) found.push({ via: 'in-process', violation: v });
        result.cases++;
        result.perScenario[scenario.name] = (result.perScenario[scenario.name] ?? 0) + 1;
        const key = `${scenario.name} exit ${inProcess.timedOut ? 'timeout' : String(inProcess.code)}`;
        result.exits[key] = (result.exits[key] ?? 0) + 1;
        if (options.launcherEvery > 0 && i % options.launcherEvery === 0 && !inProcess.timedOut) {
            const path = LAUNCH_PATHS[(i / options.launcherEvery) % LAUNCH_PATHS.length] as string;
            for (const o of spec.outputs ?? []) rmSync(o, { recursive: true, force: true });
            if (spec.outDir !== undefined) rmSync(spec.outDir, { recursive: true, force: true });
            const viaLauncher = await runLauncher(spec.args, options.timeoutMs * 2, path === 'worker' ? { MODELC_NO_SNAPSHOT: '1' } : {}, path === 'command' ? COMMAND : undefined);
            result.launcherRuns++;
            for (const v of judge(spec, viaLauncher)) found.push({ via: `launcher (${path})`, violation: v });
            if (!viaLauncher.timedOut && !sameEnd(inProcess, viaLauncher) && !spec.args.includes('--nodes-dir')) {
                found.push({ via: `launcher (${path})`, violation: { kind: 'paths-differ', detail: `in-process exit ${inProcess.code} ${inProcess.err.split('\n')[0]} | launcher exit ${viaLauncher.code} ${viaLauncher.err.split('\n')[0]}` } });
            }
        }
        const outcome = result.outcomes[scenario.name] ??= { ok: 0, error: 0, violation: 0 };
        if (found.length > 0) outcome.violation++;
        else if (inProcess.code !== 1) outcome.ok++;
        else outcome.error++;
        if (found.length === 0) {
            rmSync(dir, { recursive: true, force: true });
            return;
        }
        const kept = `${dir}-failed`;
        renameSync(dir, kept);
        writeFileSync(join(kept, 'CASE.json'), JSON.stringify({ case: i, seed: options.seed, scenario: scenario.name, mutations, args: spec.args, found }, null, 2));
        for (const f of found) {
            const sig = signature(scenario.name, f.violation);
            const entry = result.failures.get(sig);
            if (entry) entry.count++;
            else {
                result.failures.set(sig, { count: 1, first: { case: i, scenario: scenario.name, mutations, args: spec.args, via: f.via, violation: f.violation, kept } });
                log(`NEW ${sig}\n    case ${i} (${f.via}) ${mutations.join(', ')}\n    modelc ${spec.args.join(' ')}\n    ${f.violation.detail}`);
            }
        }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, () => lane()));
    return result;
}

/** The campaign's summary, for a long run's log. */
export function summary(r: CampaignResult): string {
    const lines = [`${r.cases} cases (${r.launcherRuns} also through bin/modelc.js), ${r.failures.size} distinct failures`];
    for (const [name, n] of Object.entries(r.perScenario).sort()) {
        const o = r.outcomes[name];
        lines.push(`  ${name}: ${n}${o ? ` (ok ${o.ok}, one-line error ${o.error}, violation ${o.violation})` : ''}`);
    }
    for (const [sig, { count, first }] of r.failures) lines.push(`${count}x ${sig}\n    case ${first.case} ${first.via}: ${first.mutations.join(', ')}\n    kept in ${first.kept}`);
    return lines.join('\n');
}
