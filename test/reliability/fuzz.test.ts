import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LookupError, parseJsonData, parseYamlData } from '../../src/bindings/index.js';
import { createCatalogServices } from '../../src/catalog/index.js';
import { isUserError } from '../../src/common/index.js';
import { decodeJson, decodeMsgpack, decodeRgenJson, decodeXmi, encodeMsgpack, toRgenJson, toXmi, type Model } from '../../src/model/index.js';
import { readNodeInputFile } from '../../src/node/index.js';
import { fuzzSettings, mulberry32, scratch } from './harness.js';
import { mutateBytes, mutateText as mutate } from './mutations.js';

// Properties over mutated real inputs: every loader either returns or fails with its own
// located error (never another exception), within a per-input time limit (a hang guard).
// FUZZ_SEED, FUZZ_N (inputs per loader property) and FUZZ_N_COMPILE (mutated manifests compiled) make
// long runs: FUZZ_N=24000 FUZZ_N_COMPILE=4000 npx vitest run test/reliability/fuzz.test.ts

const ROOT = join(import.meta.dirname, '..', '..');
const PER_INPUT_MS = 5000;
/** Long runs (FUZZ_N) need more than the suite's per-test timeout. */
const TIMEOUT = (countVariable: string, defaultN: number, msPerInput: number): number =>
    Math.max(60_000, fuzzSettings(defaultN, countVariable).n * msPerInput);

function filesUnder(dir: string, pattern: RegExp): string[] {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(f => pattern.test(f)).sort().map(f => join(dir, f));
}

/**
 * Runs `property` on N mutations of the seeds; `allowed` says which failures are the loader's
 * own. Returns the counts so a run that never exercised the success path is noticed.
 */
function fuzz<T>(seeds: readonly T[], defaultN: number, make: (seed: T, rnd: () => number) => unknown, property: (input: unknown) => void,
    allowed: (e: unknown) => boolean, countVariable = 'FUZZ_N'): { ok: number; refused: number } {
    const { seed, n } = fuzzSettings(defaultN, countVariable);
    const rnd = mulberry32(seed);
    let ok = 0;
    let refused = 0;
    for (let i = 0; i < n; i++) {
        const input = make(seeds[i % seeds.length] as T, rnd);
        const started = performance.now();
        try {
            property(input);
            ok++;
        } catch (e) {
            if (!allowed(e)) throw new Error(`input ${i} (FUZZ_SEED=${seed}) crashed: ${e instanceof Error ? e.stack : String(e)}\n--- input ---\n${String(input).slice(0, 2000)}`);
            refused++;
        }
        const elapsed = performance.now() - started;
        if (elapsed > PER_INPUT_MS) throw new Error(`input ${i} (FUZZ_SEED=${seed}) took ${Math.round(elapsed)} ms\n--- input ---\n${String(input).slice(0, 2000)}`);
    }
    return { ok, refused };
}

describe('model loaders', () => {
    const seeds = filesUnder(join(ROOT, 'test', 'fixtures', 'model', 'valid'), /\.json$/).map(f => readFileSync(f, 'utf8'));

    test('JSON: a model or a UserError', () => {
        const r = fuzz(seeds, 150, (s, rnd) => mutate(s, rnd), input => decodeJson(input as string, 'fuzz.json'), isUserError);
        expect(r.ok + r.refused).toBeGreaterThan(0);
        expect(r.refused).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N', 150, 20));

    test('msgpack: a model or a UserError', () => {
        const packed = seeds.map(s => encodeMsgpack(decodeJson(s, 'seed.json')));
        const r = fuzz(packed, 150, (s, rnd) => mutateBytes(s, rnd), input => decodeMsgpack(input as Uint8Array, 'fuzz.msgpack'), isUserError);
        expect(r.refused).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N', 150, 20));

    const encodable = (write: (m: Model) => string): string[] => seeds.flatMap(s => {
        try {
            return [write(decodeJson(s, 'seed.json'))];
        } catch {
            return []; // a model this format cannot express (RGen: some escapes)
        }
    });

    test('XMI: a model or a UserError', () => {
        const r = fuzz(encodable(toXmi), 150, (s, rnd) => mutate(s, rnd), input => decodeXmi(input as string, 'fuzz.xmi'), isUserError);
        expect(r.refused).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N', 150, 20));

    test('RGen JSON: a model or a UserError', () => {
        const r = fuzz(encodable(toRgenJson), 150, (s, rnd) => mutate(s, rnd), input => decodeRgenJson(input as string, 'fuzz.rgen.json'), isUserError);
        expect(r.refused).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N', 150, 20));
});

describe('facts and Hiera data', () => {
    const facts = filesUnder(join(ROOT, 'examples', 'facts'), /\.ya?ml$/).map(f => readFileSync(f, 'utf8'));
    const data = filesUnder(join(ROOT, 'examples', 'site'), /data\/.*\.ya?ml$/).map(f => readFileSync(f, 'utf8'));
    const dir = scratch();

    test('facts files (YAML and JSON): facts or a UserError', () => {
        const jsonSeeds = facts.slice(0, 2).map(() => JSON.stringify({ os: { family: 'Debian', release: { major: '12' } }, networking: { fqdn: 'a.example.com' }, list: [1, 2.5, null, true] }));
        const r = fuzz([...facts.map(t => ['yaml', t] as const), ...jsonSeeds.map(t => ['json', t] as const)], 150, ([ext, s], rnd) => [ext, mutate(s, rnd)],
            input => {
                const [ext, text] = input as [string, string];
                const file = join(dir, `facts.${ext}`);
                writeFileSync(file, text);
                readNodeInputFile(file, 'facts');
            }, isUserError);
        expect(r.ok).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N', 150, 30));

    test('Hiera data (YAML and JSON): data or a LookupError', () => {
        const r = fuzz([...data.map(t => ['yaml', t] as const), ['json', '{"a": {"b": [1, 2.5, "x", null]}, "c": "%{facts.os}"}'] as const], 200,
            ([kind, s], rnd) => [kind, mutate(s, rnd)],
            input => {
                const [kind, text] = input as [string, string];
                if (kind === 'yaml') parseYamlData(text, 'data/fuzz.yaml');
                else parseJsonData(text, 'data/fuzz.json');
            }, e => e instanceof LookupError);
        expect(r.ok).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N', 200, 20));
});

describe('the compiler on mutated manifests', () => {
    test('a catalog or a Puppet error, never an internal one', () => {
        const site = join(ROOT, 'examples', 'site');
        const env = scratch();
        cpSync(site, env, { recursive: true });
        const manifests = filesUnder(env, /\.pp$/);
        const originals = new Map(manifests.map(f => [f, readFileSync(f, 'utf8')]));
        const factsFile = join(ROOT, 'examples', 'facts', 'web01.example.com.yaml');
        const facts = readNodeInputFile(factsFile, 'facts');
        const services = createCatalogServices();
        let compiled = 0;
        let failed = 0;
        fuzz(manifests, 30, (file, rnd) => [file, mutate(originals.get(file) as string, rnd)], input => {
            const [file, text] = input as [string, string];
            for (const [f, t] of originals) writeFileSync(f, t);
            writeFileSync(file, text);
            const result = services.compile(env, 'production', { node: 'web01.example.com', facts, classes: [], settings: new Map() });
            if (result.error) {
                expect(result.error.code, `${relative(env, file)}: ${result.error.report.message}`).not.toBe('EVAL_INTERNAL');
                failed++;
            } else compiled++;
        }, () => false, 'FUZZ_N_COMPILE');
        expect(compiled + failed).toBeGreaterThan(0);
        expect(failed).toBeGreaterThan(0);
    }, TIMEOUT('FUZZ_N_COMPILE', 30, 1000));
});
