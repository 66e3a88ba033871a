import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { HAS_OPENSSL } from '../../bench/pki.js';
import { fuzzSettings } from './harness.js';
import { fuzzServe, serveSummary } from './serve-fuzz.js';

// `modelc serve` (through bin/modelc.js) under mutated requests of every endpoint: each is
// answered without a stack trace or an internal error, the server survives them all and stops
// cleanly on SIGTERM. Long runs: FUZZ_N_SERVE=3000 FUZZ_REPORT=/tmp/serve.txt npx vitest run test/reliability/serve-fuzz.test.ts

const { seed, n } = fuzzSettings(60, 'FUZZ_N_SERVE');

test.skipIf(!HAS_OPENSSL)(`${n} requests of FUZZ_SEED=${seed}: bad requests never break modelc serve`, async () => {
    const env = process.env;
    const result = await fuzzServe({
        seed, n, timeoutMs: Number(env['FUZZ_TIMEOUT_MS'] ?? 60_000), work: join(env['FUZZ_WORK'] ?? tmpdir(), `modelc-serve-fuzz-${seed}-${process.pid}`)
    }, line => { if (env['FUZZ_VERBOSE']) console.log(line); });
    const text = serveSummary(result);
    if (env['FUZZ_REPORT']) writeFileSync(env['FUZZ_REPORT'], `${text}\n`);
    expect(result.requests).toBe(n);
    expect([...result.violations.keys()], text).toEqual([]);
}, Math.max(180_000, n * 4000));
