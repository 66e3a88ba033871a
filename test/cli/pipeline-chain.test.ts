import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModelBytes, encodeJson } from '../../src/model/index.js';
import { runCli, type CliResult } from './run-cli.js';
import { stableApplyLines, stableReport } from './stable-output.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const SITE = join(EXAMPLES, 'site');
const NODES = ['web01', 'web02', 'db01', 'util01'];
const FORMATS = ['json', 'msgpack'] as const;
const scratch = mkdtempSync(join(tmpdir(), 'modelc-pipeline-'));

/** Runs a stage and writes what it printed to FILE (msgpack as bytes), as a shell redirection would. */
async function stage(file: string, ...args: string[]): Promise<string> {
    const r: CliResult = await runCli(...args);
    expect(r.code, `${args.join(' ')}\n${r.err}`).toBe(0);
    writeFileSync(file, Buffer.from(r.out, 'latin1'));
    return file;
}

/**
 * A model file as canonical JSON text, whatever its format: what two stages' outputs are compared by.
 * A bound parameter's provenance names the binding that won (layer, category, data file:line) when
 * the compile composed the bindings itself; answered from a model file it only knows the key, so
 * the binding details are left out of the comparison (the key stays).
 */
function canonical(file: string): string {
    const text = encodeJson(decodeModelBytes(readFileSync(file), file));
    return JSON.stringify(JSON.parse(text, (k, v: unknown) => {
        if (k !== 'binding' || typeof v !== 'object' || v === null) return v;
        const b = v as Record<string, unknown>;
        return { $type: b.$type, key: b.key };
    }), null, 2);
}

async function applyNoop(catalog: string, report: string, format: string): Promise<{ lines: string[]; report: unknown }> {
    const r = await runCli('apply', catalog, '--noop', '--root', mkdtempSync(join(scratch, 'root-')), '--report', report, '--report-format', format);
    expect(r.code, r.err).toBe(0);
    return { lines: stableApplyLines(r.out), report: stableReport(JSON.parse(encodeJson(decodeModelBytes(readFileSync(report), report)))) };
}

/**
 * The stages run one by one with a file between each (parse --bundle → bindings → effective →
 * compile → apply --noop → report; no stage after parse reads the code directory), in JSON and in msgpack, give the catalog and the report of the one-shot
 * `modelc compile` (which composes and injects in process) and `modelc apply`.
 */
describe('file-chained pipeline = one-shot commands', () => {
    for (const node of NODES) {
        it.each(FORMATS)(`${node}: %s`, async format => {
            const certname = `${node}.example.com`;
            const facts = join(EXAMPLES, `facts/${certname}.yaml`);
            const dir = mkdtempSync(join(scratch, `${node}-${format}-`));
            const request = ['--node', certname, '--facts', facts];

            const oneShot = await stage(join(dir, 'oneshot.catalog'), 'compile', SITE, ...request, '--format', format);
            const expected = await applyNoop(oneShot, join(dir, 'oneshot.report'), format);

            const bundle = join(dir, `env.bundle.${format}`);
            const parsed = await runCli('parse', SITE, '--bundle', bundle);
            expect(parsed.code, parsed.err).toBe(0);
            const bindings = await stage(join(dir, 'bindings'), 'bindings', bundle, ...request, '--format', format);
            const effective = await stage(join(dir, 'effective'), 'effective', bindings, ...request, '--values', '--format', format);
            const catalog = await stage(join(dir, 'catalog'), 'compile', bundle, ...request, '--effective', effective, '--format', format);
            expect(canonical(catalog)).toBe(canonical(oneShot));
            const fromBindings = await stage(join(dir, 'catalog-from-bindings'), 'compile', bundle, ...request, '--bindings-model', bindings, '--format', format);
            expect(canonical(fromBindings)).toBe(canonical(oneShot));

            expect(await applyNoop(catalog, join(dir, 'report'), format)).toEqual(expected);
        }, 120_000);
    }
});

describe('the models between the stages are what decides', () => {
    const certname = 'web01.example.com';
    const request = ['--node', certname, '--facts', join(EXAMPLES, `facts/${certname}.yaml`)];
    const workers = (out: string): unknown => (JSON.parse(out) as { resources: Array<{ title: string; parameters: Record<string, unknown> }> })
        .resources.find(r => r.title === 'Profile::Nginx')?.parameters.worker_processes;

    it('a value changed in the EffectiveBindings model changes the catalog', async () => {
        const bindings = await stage(join(scratch, 'w.bindings.json'), 'bindings', SITE, ...request);
        const effective = await stage(join(scratch, 'w.effective.json'), 'effective', bindings, ...request, '--values');
        const text = readFileSync(effective, 'utf8');
        const model = JSON.parse(text) as { entries: Array<{ name?: string; value?: unknown }> };
        const entry = model.entries.find(e => e.name === 'profile::nginx::worker_processes');
        expect(entry?.value).toBe(12);
        if (entry) entry.value = 16;
        writeFileSync(effective, JSON.stringify(model));
        const r = await runCli('compile', SITE, ...request, '--effective', effective);
        expect(r.code, r.err).toBe(0);
        expect(workers(r.out)).toBe(16);
    });

    it('a binding changed in the Bindings model changes the catalog', async () => {
        const bindings = await stage(join(scratch, 'b.bindings.json'), 'bindings', SITE, ...request);
        const text = readFileSync(bindings, 'utf8');
        expect(text.match(/"value": 12\b/g)).toHaveLength(1);
        writeFileSync(bindings, text.replace(/"value": 12\b/, '"value": 20'));
        const r = await runCli('compile', SITE, ...request, '--bindings-model', bindings);
        expect(r.code, r.err).toBe(0);
        expect(workers(r.out)).toBe(20);
    });

    it.each([
        ['effective bindings of another node', async (): Promise<string[]> => {
            const b = await stage(join(scratch, 'o.bindings.json'), 'bindings', SITE, '--node', 'db01.example.com', '--facts', join(EXAMPLES, 'facts/db01.example.com.yaml'));
            const e = await stage(join(scratch, 'o.effective.json'), 'effective', b, '--node', 'db01.example.com', '--values');
            return ['--effective', e];
        }, /o\.effective\.json: error BIND_EFFECTIVE_NODE: these effective bindings were made for node 'db01\.example\.com', not for 'web01\.example\.com' \(at \/request\/node\)/],
        ['effective bindings without values', async (): Promise<string[]> => {
            const b = await stage(join(scratch, 'v.bindings.json'), 'bindings', SITE, ...request);
            return ['--effective', await stage(join(scratch, 'v.effective.json'), 'effective', b, ...request)];
        }, /v\.effective\.json: error BIND_EFFECTIVE_NO_VALUE: these effective bindings carry no value for '[^']+' \(make them with --values\) \(at \/entries\/\d+\)/],
        ['a catalog given as bindings', async (): Promise<string[]> => ['--bindings-model', await stage(join(scratch, 'c.json'), 'compile', SITE, ...request, '--format', 'json')],
            /c\.json: error MODEL_KIND_MISMATCH: expected a bindings model, got Catalog \(at \/\$type\)/],
        ['both model options', async (): Promise<string[]> => ['--bindings-model', 'x', '--effective', 'y'], /error EVAL_USAGE: --bindings-model and --effective exclude each other/]
    ])('%s: one located error', async (_name, extra, expected) => {
        const r = await runCli('compile', SITE, ...request, ...await extra());
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(expected);
    });
});
