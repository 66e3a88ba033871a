import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCampaign, summary } from './campaign.js';
import { fuzzSettings } from './harness.js';

// Every command on mutated inputs of every kind it reads (test/reliability/scenarios.ts), through
// the built CLI: each run ends with exit 0/1 (diff: 2), errors as one located line each, no stack
// trace, no internal error, no partial output file, within a timeout. A sample runs through
// bin/modelc.js, from the snapshot and on the worker, and must end as the in-process run did.
//
// The default is a fast seeded subset; long runs:
//   FUZZ_N_CLI=20000 FUZZ_JOBS=2 FUZZ_REPORT=/tmp/fuzz.txt npx vitest run test/reliability/cli-fuzz.test.ts
// FUZZ_CASE=I[,J...] replays those cases of FUZZ_SEED; FUZZ_SCENARIOS=a,b keeps to those scenarios;
// FUZZ_LAUNCHER_EVERY=N sends every Nth case through the launcher too (default 10); FUZZ_BUDGET=K
// gives each case 1 to K mutations (default: one, two in a fifth of the cases).

const { seed, n } = fuzzSettings(40, 'FUZZ_N_CLI');
const env = process.env;
const caseNumbers = env['FUZZ_CASE'] !== undefined ? env['FUZZ_CASE'].split(',').map(Number) : undefined;

test(`${caseNumbers !== undefined ? `cases ${caseNumbers.join(',')}` : `${n} cases`} of FUZZ_SEED=${seed}: bad input never crashes`, async () => {
    const result = await runCampaign({
        seed, n,
        launcherEvery: Number(env['FUZZ_LAUNCHER_EVERY'] ?? 10),
        timeoutMs: Number(env['FUZZ_TIMEOUT_MS'] ?? 60_000),
        jobs: Number(env['FUZZ_JOBS'] ?? 1),
        work: join(env['FUZZ_WORK'] ?? tmpdir(), `modelc-fuzz-${seed}-${process.pid}`),
        ...(env['FUZZ_SCENARIOS'] ? { only: env['FUZZ_SCENARIOS'].split(',') } : {}),
        ...(caseNumbers !== undefined ? { caseNumbers } : {}),
        ...(env['FUZZ_BUDGET'] ? { budget: Number(env['FUZZ_BUDGET']) } : {})
    }, line => { if (env['FUZZ_VERBOSE']) console.log(line); });
    const text = summary(result);
    if (env['FUZZ_REPORT']) writeFileSync(env['FUZZ_REPORT'], `${text}\n`);
    expect(result.cases).toBe(caseNumbers !== undefined ? caseNumbers.length : n);
    expect([...result.failures.keys()], text).toEqual([]);
}, Math.max(120_000, n * 3000));
