import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** What one whole process cost: CPU (user + sys, from the kernel's rusage of the child) and wall. */
export interface ProcessTime {
    readonly cpuMs: number;
    readonly userMs: number;
    readonly sysMs: number;
    readonly wallMs: number;
    readonly status: number;
    readonly stdout: string;
    readonly stderr: string;
}

/**
 * Node cannot read the rusage of a child it waited for, so the child runs under bash, whose
 * `times` prints the user and system time of the children it waited for (a process and every
 * descendant it waited for), and whose EPOCHREALTIME brackets the child alone for the wall time.
 */
const RUNNER = [
    'out=$1; err=$2; shift 2',
    's=$EPOCHREALTIME',
    '"$@" >"$out" 2>"$err"',
    'rc=$?',
    'e=$EPOCHREALTIME',
    'echo "rc=$rc start=$s end=$e"',
    'times'
].join('\n');

function seconds(m: string, s: string): number {
    return Number(m) * 60 + Number(s.replace(',', '.'));
}

/** Runs `command args` once as its own process and measures it (`input`: its stdin; `env`: added to the environment). */
export function timeProcess(command: string, args: readonly string[], cwd?: string, options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): ProcessTime {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-bench-proc-'));
    try {
        const out = join(dir, 'out');
        const err = join(dir, 'err');
        const r = spawnSync('bash', ['-c', RUNNER, 'bench', out, err, command, ...args], {
            encoding: 'utf8', cwd, timeout: options.timeoutMs ?? 600_000, input: options.input ?? '', ...(options.env ? { env: { ...process.env, ...options.env } } : {})
        });
        const head = /rc=(\d+) start=([\d.,]+) end=([\d.,]+)/.exec(r.stdout ?? '');
        const times = [...(r.stdout ?? '').matchAll(/(\d+)m([\d.,]+)s\s+(\d+)m([\d.,]+)s/g)];
        if (!head || times.length < 2) throw new Error(`cannot time ${command}: ${r.stderr ?? r.error?.message ?? ''}`);
        const children = times[1];
        const userMs = seconds(children[1], children[2]) * 1000;
        const sysMs = seconds(children[3], children[4]) * 1000;
        return {
            cpuMs: userMs + sysMs, userMs, sysMs,
            wallMs: (Number(head[3].replace(',', '.')) - Number(head[2].replace(',', '.'))) * 1000,
            status: Number(head[1]), stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8')
        };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

export function median(xs: readonly number[]): number {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** A CPU/wall pair of medians, in milliseconds. */
export interface Timing { readonly cpuMs: number; readonly wallMs: number }

export function medianTiming(runs: readonly Timing[]): Timing {
    return { cpuMs: median(runs.map(r => r.cpuMs)), wallMs: median(runs.map(r => r.wallMs)) };
}

/** Puppet time over modelc time, as "12.3x", or "n/a". */
export function ratio(puppet: number | undefined, ours: number | undefined): string {
    return puppet === undefined || ours === undefined || ours <= 0 ? 'n/a' : `${(puppet / ours).toFixed(1)}x`;
}

/** Whether real Puppet (the `puppet` library the oracle and bench/puppet-warm.rb load) is installed. */
export function puppetInstalled(): boolean {
    return spawnSync('ruby', ['-e', 'require "puppet"'], { encoding: 'utf8', timeout: 120_000 }).status === 0;
}

/**
 * How long "warm" runs warm up before they are timed: until both bounds are passed (a compile of
 * a few ms needs dozens of runs before V8 has optimized its code: a server compiles thousands).
 * BENCH_WARMUP_RUNS and BENCH_WARMUP_MS change them; Puppet's warm runs (bench/puppet-warm.rb)
 * get the same.
 */
export const WARMUP = {
    runs: Math.max(1, Number(process.env.BENCH_WARMUP_RUNS ?? 10)),
    ms: Math.max(0, Number(process.env.BENCH_WARMUP_MS ?? 2000)),
    /** Warming up stops after this long whatever the bounds (compiles of the largest sites take minutes each). */
    capMs: Math.max(0, Number(process.env.BENCH_WARMUP_CAP_MS ?? 30000))
};

/** Runs `once` until WARMUP is passed (at most 200 times), then `runs` timed runs; returns the first run's result and the timed ones. */
export function warmedUp<T>(once: () => T, runs: number): { first: T; timed: T[] } {
    const started = performance.now();
    const first = once();
    for (let n = 1; n < 200; n++) {
        const elapsed = performance.now() - started;
        if (elapsed >= WARMUP.capMs || (n >= WARMUP.runs && elapsed >= WARMUP.ms)) break;
        once();
    }
    return { first, timed: Array.from({ length: runs }, once) };
}
