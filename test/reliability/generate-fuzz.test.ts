import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { fuzzSettings, mulberry32 } from './harness.js';
import { isMutable, pick, pickMutation } from './mutations.js';
import { judge, runLauncher, signature } from './runner.js';

// `modelc generate --check` on mutated sources and outputs: the metamodels (metamodel/*.emfatic),
// the JSON Schemas and the generated code it compares with. It reads the project it is part of,
// so each case runs the CLI of a copy of the project (its dist/ and bin/) through bin/modelc.js.
// Every run ends as 0 (up to date) or 1 with located one-line errors, never a stack trace.
//   FUZZ_N_GENERATE=200 npx vitest run test/reliability/generate-fuzz.test.ts

const ROOT = join(import.meta.dirname, '..', '..');
const { seed, n } = fuzzSettings(8, 'FUZZ_N_GENERATE');

test(`${n} cases of FUZZ_SEED=${seed}: generate --check on bad sources`, async () => {
    const env = process.env;
    const work = join(env['FUZZ_WORK'] ?? tmpdir(), `modelc-generate-fuzz-${seed}-${process.pid}`);
    const copy = join(work, 'project');
    mkdirSync(copy, { recursive: true });
    for (const part of ['package.json', 'metamodel', 'schemas', 'generated', 'dist', 'bin']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const sources = ['metamodel', 'schemas', join('generated', 'model'), join('generated', 'ecore')]
        .flatMap(d => readdirSync(join(copy, d)).map(f => join(d, f)));
    const outcomes = { ok: 0, error: 0, violation: 0 };
    const failures = new Map<string, string>();
    for (let i = 0; i < n; i++) {
        const rnd = mulberry32((seed ^ Math.imul(i + 1, 0x27d4eb2f)) >>> 0);
        const rel = pick(rnd, sources);
        const target = join(copy, rel);
        const m = pickMutation(rnd, new Set(['link-loop', 'dangling-link', 'dev-null']));
        if (isMutable(target)) m.apply(target, rnd);
        const args = ['generate', '--check'];
        const r = await runLauncher(args, 120_000, { MODELC_NO_SNAPSHOT: '1' }, undefined, join(copy, 'bin', 'modelc.js'));
        const found = judge({ args, targets: [target] }, r);
        if (found.length > 0) outcomes.violation++;
        else if (r.code === 0) outcomes.ok++;
        else outcomes.error++;
        for (const v of found) if (!failures.has(signature('generate', v))) failures.set(signature('generate', v), `case ${i}: ${m.name} ${rel}: ${v.detail}`);
        // The next case starts from the project's own file.
        rmSync(target, { recursive: true, force: true });
        cpSync(join(ROOT, rel), target, { recursive: true });
    }
    const text = [`generate --check: ${n} cases (ok ${outcomes.ok}, one-line error ${outcomes.error}, violation ${outcomes.violation})`, ...[...failures].map(([k, v]) => `${k}\n    ${v}`)].join('\n');
    if (env['FUZZ_REPORT']) writeFileSync(env['FUZZ_REPORT'], `${text}\n`);
    rmSync(work, { recursive: true, force: true });
    expect([...failures.keys()], text).toEqual([]);
}, Math.max(240_000, n * 20_000));
