import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { writeEnv } from '../bindings/hiera/fixture.js';

/**
 * The three-node exported-resources scenario (fixtures/three-node/manifests/site.pp) compiled by
 * modelc with its SQLite store, against what real Puppet 7.23 + PuppetDB 7.12 gave for it
 * (expected-puppetdb.json, recorded by fixtures/three-node/record-with-puppetdb.rb with
 * puppet-terminus-puppetdb and puppetdb-local). Same order: A, C, B, then A again. The
 * server-side catalogs (exports included, what PuppetDB stores) are compared without classes
 * and stages: type, title, exported, parameters, tags, file and line. No PuppetDB is needed to
 * run this.
 */
const FIXTURE = join(import.meta.dirname, 'fixtures', 'three-node');

interface Shaped { type: string; title: string; exported: boolean; parameters: Record<string, unknown>; tags: string[]; file: string | null; line: number | null }
interface Recorded { readonly b: Shaped[]; readonly a: Shaped[] }

const recorded = JSON.parse(readFileSync(join(FIXTURE, 'expected-puppetdb.json'), 'utf8')) as Recorded;

interface PuppetResource { type: string; title: string; exported?: boolean; parameters?: Record<string, unknown>; tags?: string[]; file?: string; line?: number }

function shape(out: string): Shaped[] {
    const resources = (JSON.parse(out) as { resources: PuppetResource[] }).resources;
    return resources.filter(r => r.type !== 'Class' && r.type !== 'Stage').map(r => ({
        type: r.type, title: r.title, exported: r.exported === true,
        parameters: Object.fromEntries(Object.entries(r.parameters ?? {}).sort(([x], [y]) => (x < y ? -1 : 1))),
        tags: [...(r.tags ?? [])].sort(),
        // The recording keeps the manifest's base name.
        file: r.file !== undefined ? r.file.split('/').pop() ?? null : null, line: r.line ?? null
    })).sort((x, y) => (x.type === y.type ? (x.title < y.title ? -1 : 1) : x.type < y.type ? -1 : 1));
}

describe('three nodes through the SQLite store equal real Puppet + PuppetDB', () => {
    const env = writeEnv({ 'manifests/site.pp': readFileSync(join(FIXTURE, 'manifests', 'site.pp'), 'utf8') });
    const store = `sqlite:${join(env, 'var', 'three.sqlite')}`;
    const compile = async (n: string): Promise<Shaped[]> => {
        const r = await runCli('compile', env, '--node', `${n}.example.com`, '--store', store, '--format', 'puppet');
        expect([r.code, r.err]).toEqual([0, '']);
        return shape(r.out);
    };
    const got: { a?: Shaped[]; b?: Shaped[] } = {};

    beforeAll(async () => {
        await compile('a');
        await compile('c');
        got.b = await compile('b');
        got.a = await compile('a');
    });

    test.each(['b', 'a'] as const)("%s's catalog", node => {
        expect(got[node]).toEqual(recorded[node]);
    });

    test("the Catalog model's provenance names the exporting node and its file:line", async () => {
        const r = await runCli('compile', env, '--node', 'b.example.com', '--store', store, '--format', 'json');
        expect([r.code, r.err]).toEqual([0, '']);
        type Res = { ref: string; provenance?: { exportedBy?: string; declaredAt?: { file: string; line?: number } } };
        const resources = (JSON.parse(r.out) as { resources: Res[] }).resources;
        const from = (ref: string): unknown => resources.find(x => x.ref === ref)?.provenance;
        expect(from('Tn_sql[one]')).toMatchObject({ exportedBy: 'a.example.com', declaredAt: { file: 'manifests/site.pp', line: 13 } });
        expect(from('Tn_sql[two]')).toMatchObject({ exportedBy: 'c.example.com', declaredAt: { file: 'manifests/site.pp', line: 20 } });
        expect(from('Notify[b]')).not.toHaveProperty('exportedBy');
    });
});
