import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

interface NormalizedCatalog {
    readonly resources: ReadonlyArray<{ readonly type: string; readonly title: string; readonly parameters: Record<string, unknown> }>;
}

const web01 = ['compile', 'examples/site', '--node', 'web01.example.com', '--facts', 'examples/facts/web01.example.com.yaml'];

function workerProcesses(out: string): unknown {
    const catalog = JSON.parse(out) as NormalizedCatalog;
    return catalog.resources.find(r => r.type === 'Class' && r.title === 'Profile::Nginx')?.parameters.worker_processes;
}

describe('modelc compile: ARM-8 bindings take part by default', () => {
    test("the site's ARM-8 node binding shadows Hiera: 12 workers", async () => {
        const r = await runCli(...web01);
        expect(r.code, r.err).toBe(0);
        expect(workerProcesses(r.out)).toBe(12);
    });

    test('with --no-bindings Hiera answers alone: web01 node data gives 8 workers, exactly Puppet\'s catalog', async () => {
        const r = await runCli(...web01, '--no-bindings');
        expect(r.code).toBe(0);
        expect(workerProcesses(r.out)).toBe(8);
        const recorded = readFileSync(join(import.meta.dirname, '../fixtures/catalog/examples-site/web01.example.com.json'), 'utf8');
        expect(JSON.parse(r.out)).toEqual(JSON.parse(recorded));
    });

    test('an environment without bindings compiles as without them', async () => {
        const dir = join(import.meta.dirname, '../fixtures/catalog/t11');
        const plain = await runCli('compile', dir, '--node', 'testnode.example.com');
        expect(plain.code, plain.err).toBe(0);
        expect(plain).toEqual(await runCli('compile', dir, '--node', 'testnode.example.com', '--no-bindings'));
    });
});
