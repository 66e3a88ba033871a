import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The launcher users run (the startup snapshot, or a worker thread with the large stack; signal handling, Node re-exec). */
export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'modelc.js');

export interface BinResult {
    readonly code: number | null;
    readonly out: string;
    readonly err: string;
}

/**
 * Runs `node bin/modelc.js ARGS` as a user would. The timeout is a hang guard (a run that never
 * ends fails the case), not a timing assertion.
 */
export function runBin(args: readonly string[], options: { cwd?: string; node?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; bin?: string } = {}): BinResult {
    const r = spawnSync(options.node ?? process.execPath, [options.bin ?? BIN, ...args], {
        cwd: options.cwd, encoding: 'utf8', timeout: options.timeoutMs ?? 120_000, maxBuffer: 512 * 1024 * 1024,
        // SIGKILL: a run blocked in a system call (opening a FIFO) never handles SIGTERM.
        killSignal: 'SIGKILL',
        ...(options.env ? { env: { ...process.env, ...options.env } } : {})
    });
    if (r.error) throw r.error;
    return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Starts `node bin/modelc.js ARGS` without waiting (for signal cases). */
export function startBin(args: readonly string[]): ReturnType<typeof spawn> {
    return spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh temporary directory. */
export function scratch(prefix = 'modelc-rel-'): string {
    return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes FILES (relative path → content) under DIR. */
export function writeTree(dir: string, files: Record<string, string | Uint8Array>): string {
    for (const [rel, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), content);
    }
    return dir;
}

/** Every file below DIR (relative paths), to check that nothing was left behind. */
export function filesBelow(dir: string): string[] {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** The README's promise for bad input: exactly one line `where: error CODE: message` on stderr. */
export const ONE_LINE = (code: string): RegExp => new RegExp(`^[^\\n]+: error ${code}: [^\\n]+\\n$`);

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
export function mulberry32(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/**
 * The fuzz knobs: FUZZ_SEED (default fixed, so CI is reproducible) and FUZZ_N (inputs per
 * property; CI keeps the default small).
 */
export function fuzzSettings(defaultN: number, countVariable = 'FUZZ_N'): { seed: number; n: number } {
    const seed = Number(process.env['FUZZ_SEED'] ?? 20261125);
    const n = Number(process.env[countVariable] ?? defaultN);
    return { seed: Number.isFinite(seed) ? seed : 20261125, n: Number.isFinite(n) && n > 0 ? Math.floor(n) : defaultN };
}
