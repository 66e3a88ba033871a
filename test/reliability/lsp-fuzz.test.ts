import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { fuzzSettings } from './harness.js';
import { fuzzLsp, lspSummary } from './lsp-fuzz.js';

// `modelc lsp --stdio` (through bin/modelc.js) under bad JSON-RPC and mutated documents: every
// request is answered without an internal error, nothing is logged with a stack trace, and the
// server ends on shutdown/exit (or when its input closes). Long runs:
//   FUZZ_N_LSP=40 FUZZ_LSP_MESSAGES=200 FUZZ_REPORT=/tmp/lsp.txt npx vitest run test/reliability/lsp-fuzz.test.ts

const { seed, n } = fuzzSettings(3, 'FUZZ_N_LSP');
const messages = Number(process.env['FUZZ_LSP_MESSAGES'] ?? 40);

test(`${n} sessions of ${messages} messages, FUZZ_SEED=${seed}: bad JSON-RPC never breaks modelc lsp`, async () => {
    const env = process.env;
    const result = await fuzzLsp({
        seed, sessions: n, messages, timeoutMs: Number(env['FUZZ_TIMEOUT_MS'] ?? 60_000),
        work: join(env['FUZZ_WORK'] ?? tmpdir(), `modelc-lsp-fuzz-${seed}-${process.pid}`)
    }, line => { if (env['FUZZ_VERBOSE']) console.log(line); });
    const text = lspSummary(result);
    if (env['FUZZ_REPORT']) writeFileSync(env['FUZZ_REPORT'], `${text}\n`);
    expect(result.sessions).toBe(n);
    expect([...result.violations.keys()], text).toEqual([]);
}, Math.max(180_000, n * messages * 2000));
