import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BIN } from './harness.js';
import type { CaseSpec } from './scenarios.js';

// Runs fuzz cases against the built CLI (dist/, what `node bin/modelc.js` loads) and judges each
// run by the README's rule for bad input. Most cases run in-process on a worker thread with the
// launcher's 1 GB stack (a warm CLI: thousands of cases a minute); a hang is caught by a timeout
// that ends the thread. A sample also runs through the real launcher, on both of its paths.

const MAIN = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'src', 'cli', 'main.js')).href;

export interface RunResult {
    readonly code: number | null;
    /** stdout, cut to its first 64 KB (seeds ask for all of it). */
    readonly out: Buffer;
    readonly outBytes: number;
    readonly err: string;
    readonly timedOut: boolean;
    /** An exception that escaped main(), or the worker's death. */
    readonly uncaught?: string;
}

const WORKER = `
const { parentPort } = require('node:worker_threads');
(async () => {
    const { main } = await import(${JSON.stringify(MAIN)});
    parentPort.on('message', async ({ args, full }) => {
        const chunks = [];
        let outBytes = 0;
        let err = '';
        const io = {
            out: t => { const b = typeof t === 'string' ? Buffer.from(t) : Buffer.from(t); outBytes += b.length; if (full || outBytes < 65536) chunks.push(b); },
            err: t => { err += t; }
        };
        let code = null;
        let uncaught;
        try {
            code = await main(['node', 'modelc', ...args], io);
        } catch (e) {
            uncaught = e && e.stack ? e.stack : String(e);
        }
        parentPort.postMessage({ code, out: Buffer.concat(chunks), outBytes, err, uncaught });
    });
    parentPort.postMessage('ready');
})();
`;

/** One warm CLI on a worker thread; a run that outlives its timeout ends the thread. */
export class InProcess {
    private worker: Worker | undefined;
    private ready: Promise<void> | undefined;
    private runs = 0;

    private start(): Promise<void> {
        const worker = new Worker(WORKER, { eval: true, resourceLimits: { stackSizeMb: 1024, maxOldGenerationSizeMb: 4096 }, stdout: true, stderr: true });
        // What the CLI writes around its io (none should be) is read and dropped, not mixed into the test's output.
        worker.stdout.resume();
        worker.stderr.resume();
        this.worker = worker;
        this.ready = new Promise((resolve, reject) => {
            worker.once('message', () => resolve());
            worker.once('error', reject);
        });
        return this.ready;
    }

    async run(args: readonly string[], timeoutMs: number, full = false): Promise<RunResult> {
        // A fresh thread now and then: module caches keyed by path grow with every scratch directory.
        if (this.worker === undefined || this.runs++ % 400 === 399) {
            await this.close();
            await this.start();
        }
        await this.ready;
        const worker = this.worker as Worker;
        return new Promise(resolve => {
            const done = (r: RunResult): void => {
                clearTimeout(timer);
                worker.removeAllListeners('message');
                worker.removeAllListeners('error');
                worker.removeAllListeners('exit');
                resolve(r);
            };
            const fail = (why: string, timedOut = false): void => {
                this.worker = undefined;
                void worker.terminate();
                done({ code: null, out: Buffer.alloc(0), outBytes: 0, err: '', timedOut, uncaught: timedOut ? undefined : why });
            };
            const timer = setTimeout(() => fail('timeout', true), timeoutMs);
            worker.on('message', (m: { code: number | null; out: Uint8Array; outBytes: number; err: string; uncaught?: string }) =>
                done({ code: m.code, out: Buffer.from(m.out), outBytes: m.outBytes, err: m.err, timedOut: false, ...(m.uncaught ? { uncaught: m.uncaught } : {}) }));
            worker.on('error', e => fail(`worker error: ${e instanceof Error ? e.stack : String(e)}`));
            worker.on('exit', c => fail(`worker exited with ${c}`));
            worker.postMessage({ args: [...args], full });
        });
    }

    async close(): Promise<void> {
        const w = this.worker;
        this.worker = undefined;
        if (w) await w.terminate();
    }
}

/** `node bin/modelc.js ARGS` (or the `modelc` COMMAND) as a user runs it; the process group is killed at the timeout. */
export function runLauncher(args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv = {}, command?: string, bin = BIN): Promise<RunResult> {
    return new Promise(resolve => {
        // COMMAND: the `modelc` command itself (bin/modelc, a shell script), else node BIN (bin/modelc.js).
        const [file, argv] = command !== undefined ? [command, [...args]] : [process.execPath, [bin, ...args]];
        const child = spawn(file, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
        const out: Buffer[] = [];
        let outBytes = 0;
        let err = '';
        let timedOut = false;
        child.stdout.on('data', (b: Buffer) => { outBytes += b.length; if (outBytes < 65536) out.push(b); });
        child.stderr.on('data', (b: Buffer) => { err += b.toString(); });
        const timer = setTimeout(() => {
            timedOut = true;
            try { process.kill(-(child.pid as number), 'SIGKILL'); } catch { /* already gone */ }
        }, timeoutMs);
        child.on('close', code => {
            clearTimeout(timer);
            resolve({ code, out: Buffer.concat(out), outBytes, err, timedOut });
        });
    });
}

export interface Violation {
    readonly kind: string;
    readonly detail: string;
}

/** A line as the README promises: `where: error CODE: message`, or a warning of the same shape. */
const DIAGNOSTIC = /^(.+?): (error|warning|info) ([A-Z][A-Z0-9]*_[A-Z0-9_]+): \S/;
/** Puppet's log lines (apply, resource), with their continuation lines. */
const PUPPET_LOG = /^(Warning|Notice|Info|Debug|Error)(: |\/)|^\s/;
const JS_ERROR = /\n\s+at .*(\(|:\d+:\d+)|TypeError|ReferenceError|SyntaxError: (?!.*line)|Cannot read propert|is not a function|is not iterable|Maximum call stack|undefined \(reading|\[object Object\]/;

/** A diagnostic relaying what a program the user configured printed when it failed. */
const RELAYED = /^[^ ]+: error [A-Z0-9_]+: '[^']*' exited with status \d+: /;

/** What is wrong with a run of SPEC by the rule for bad input (none: it is fine). */
export function judge(spec: CaseSpec, r: RunResult): Violation[] {
    const v: Violation[] = [];
    const add = (kind: string, detail: string): void => { v.push({ kind, detail: detail.slice(0, 400) }); };
    if (r.timedOut) return [{ kind: 'hang', detail: 'no exit before the timeout' }];
    if (r.uncaught !== undefined) return [{ kind: 'uncaught', detail: r.uncaught.split('\n').slice(0, 6).join(' | ') }];
    const allowed = [0, 1, ...(spec.exits ?? [])];
    if (r.code === null || !allowed.includes(r.code)) add('exit-code', `exit ${r.code}: ${r.err.split('\n')[0] ?? ''}`);
    const lines = r.err.split('\n').filter(l => l.trim() !== '');
    // A failed program's own stderr relayed in a diagnostic (an ENC's Python traceback) is the user's, not modelc's.
    const ours = lines.filter(l => !RELAYED.test(l)).join('\n');
    const js = JS_ERROR.exec(ours);
    if (js) add('stack-trace', lines.find(l => !RELAYED.test(l) && (JS_ERROR.test(`\n${l}`) || JS_ERROR.test(l))) ?? js[0]);
    const internal = /\b(CLI_INTERNAL|EVAL_INTERNAL|CLI_TOO_DEEP)\b/.exec(r.err + (spec.stdoutOnError ? r.out.toString('utf8', 0, 4000) : ''));
    if (internal) add(internal[1] === 'CLI_TOO_DEEP' ? 'too-deep' : 'internal', lines.find(l => l.includes(internal[1] as string)) ?? internal[0]);
    const errors = lines.filter(l => DIAGNOSTIC.exec(l)?.[2] === 'error');
    if (r.code === 1 && !spec.puppetLog) {
        if (errors.length === 0) add('no-error-line', lines[0] ?? '(nothing on stderr)');
        const stray = lines.find(l => !DIAGNOSTIC.test(l));
        if (stray !== undefined) add('multi-line', stray);
    }
    if (r.code === 1 && spec.puppetLog) {
        const stray = lines.find(l => !DIAGNOSTIC.test(l) && !PUPPET_LOG.test(l));
        if (stray !== undefined) add('multi-line', stray);
    }
    for (const l of errors) {
        const where = DIAGNOSTIC.exec(l)?.[1] ?? '';
        if (where === '<input>' || where === 'modelc' || where === '' || where === 'undefined') add('missing-location', l);
    }
    if (r.code === 0 && errors.length > 0) add('error-but-exit-0', errors[0] as string);
    if (r.code !== 0 && r.code !== 2) {
        for (const o of spec.outputs ?? []) if (existsSync(o)) add('partial-output', `${o} left after exit ${r.code}`);
        if (r.outBytes > 0 && !spec.stdoutOnError && !spec.puppetLog) add('stdout-on-error', r.out.toString('utf8', 0, 200));
    }
    if (spec.outDir !== undefined && existsSync(spec.outDir)) {
        for (const f of readdirSync(spec.outDir)) {
            const p = join(spec.outDir, f);
            if (!statSync(p).isFile()) continue;
            if (f.endsWith('.json')) {
                try { JSON.parse(readFileSync(p, 'utf8')); } catch { add('partial-output', `${f}: not complete JSON`); }
            } else if (statSync(p).size === 0) add('partial-output', `${f}: empty`);
        }
    }
    return v;
}

/** A failure's signature: its kind and message with the varying parts (paths, numbers, quotes) taken out. */
export function signature(scenario: string, violation: Violation): string {
    const text = violation.detail
        .replace(/\/tmp\/[^\s:'"]+/g, 'PATH').replace(/\/work\/[^\s:'"]+/g, 'PATH')
        .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, 'Q').replace(/\d+/g, 'N').replace(/\(at [^)]*\)/g, '(at P)').slice(0, 160);
    return `${violation.kind} ${scenario}: ${text}`;
}
