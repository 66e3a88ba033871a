import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { stableApplyLines, stableReport } from './stable-output.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const NODES = ['web01', 'web02', 'db01', 'util01'];
const scratch = mkdtempSync(join(tmpdir(), 'modelc-catalog-apply-'));

async function compileTo(node: string, format: 'json' | 'msgpack' | 'puppet', file: string): Promise<void> {
    const r = await runCli('compile', join(EXAMPLES, 'site'), '--node', `${node}.example.com`, '--facts', join(EXAMPLES, `facts/${node}.example.com.yaml`), '--format', format);
    expect(r.code, r.err).toBe(0);
    writeFileSync(file, format === 'msgpack' ? Buffer.from(r.out, 'latin1') : r.out);
}

async function applyNoop(file: string): Promise<{ lines: string[]; report: unknown }> {
    const report = `${file}.report.json`;
    const root = mkdtempSync(join(scratch, 'root-'));
    const r = await runCli('apply', file, '--noop', '--root', root, '--report', report);
    expect(r.code, r.err).toBe(0);
    return { lines: stableApplyLines(r.out), report: stableReport(JSON.parse(readFileSync(report, 'utf8'))) };
}

/**
 * The Catalog model that `modelc compile` writes (JSON and msgpack, named without a telling
 * extension) is applied exactly as Puppet's catalog JSON of the same compilation.
 */
describe('modelc compile --format json|msgpack → modelc apply', () => {
    it.each(NODES)('%s', async node => {
        const puppet = join(scratch, `${node}.puppet`);
        await compileTo(node, 'puppet', puppet);
        // Puppet's JSON carries a version and uuid, which the model leaves unset (and the report
        // would show): without them the runs must be the same.
        const { version, catalog_uuid, ...unversioned } = JSON.parse(readFileSync(puppet, 'utf8')) as Record<string, unknown>;
        expect([typeof version, typeof catalog_uuid]).toEqual(['number', 'string']);
        writeFileSync(`${puppet}.unversioned`, JSON.stringify(unversioned));
        const expected = await applyNoop(`${puppet}.unversioned`);
        expect(expected.lines.some(l => l.startsWith('Notice: /Stage[main]/'))).toBe(true);
        for (const format of ['json', 'msgpack'] as const) {
            const model = join(scratch, `${node}.${format}.catalog`);
            await compileTo(node, format, model);
            expect(await applyNoop(model), format).toEqual(expected);
            // The model and Puppet's JSON describe the same catalog: only the version and uuid
            // (which Puppet's JSON has and the model leaves unset) differ.
            const diff = await runCli('diff', model, puppet, '--format', 'json');
            const changed = [...diff.out.matchAll(/"path": "([^"]*)"/g)].map(m => m[1]);
            expect(changed.sort(), diff.err).toEqual(['/catalogUuid', '/version']);
        }
    }, 60_000);
});

const NS = 'http://modelc.dev/catalog/1.0#//';
const resource = (type: string, title: string, params: Record<string, unknown>): Record<string, unknown> => ({
    $type: `${NS}Resource`, $id: `${type}[${title}]`, ref: `${type}[${title}]`, type, title,
    parameters: Object.entries(params).map(([name, value]) => ({ $type: `${NS}Parameter`, name, value }))
});

describe('modelc apply reads references in any form', () => {
    it.each([
        ['a rich-data Type reference', { __ptype: 'Type', __pvalue: "Notify['first']" }],
        ['a lower-case reference string', 'notify[first]'],
        ['a class reference by its name', { __ptype: 'Type', __pvalue: 'Class[profile::first]' }]
    ])('%s', async (_name, ref) => {
        const first = typeof ref === 'object' && String(ref.__pvalue).startsWith('Class') ? resource('Class', 'Profile::First', {}) : resource('Notify', 'first', {});
        const file = join(scratch, `refs-${_name.replace(/\W/g, '_')}`);
        writeFileSync(file, JSON.stringify({
            $type: `${NS}Catalog`, name: 'n', environment: 'production',
            resources: [resource('Notify', 'second', { require: [ref] }), first]
        }));
        const r = await runCli('apply', file, '--noop', '--root', mkdtempSync(join(scratch, 'root-')));
        expect(r.code, r.err + r.out).toBe(0);
        expect(r.out).not.toMatch(/Could not find/);
    });
});

describe('modelc apply: bad catalogs', () => {
    it.each([
        ['garbage', 'not a catalog', /garbage: error MODEL_UNKNOWN_FORMAT: /],
        ['no-resources.json', '{"name": "x"}', /error MODEL_NOT_A_MODEL/],
        ['bad-resource.json', '{"resources": [{"type": "File"}]}', /bad-resource\.json: error APPLY_CATALOG_FORMAT: a resource needs a string "type" and "title" \(at \/resources\/0\)/],
        ['bad-kind.json', '{"resources": [{"type": "File", "title": "/x", "kind": "odd"}]}', /error APPLY_CATALOG_FORMAT: unknown resource kind "odd" \(at \/resources\/0\/kind\)/],
        ['bad-msgpack', '\x81\xa4name', /bad-msgpack: error MODEL_INVALID_MSGPACK/]
    ])('%s: one located error, exit 1', async (name, content, expected) => {
        const file = join(scratch, name);
        writeFileSync(file, Buffer.from(content, 'latin1'));
        const r = await runCli('apply', file, '--noop', '--root', scratch);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(expected);
        expect(r.err.trim().split('\n')).toHaveLength(1);
    });
});
