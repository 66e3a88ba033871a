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

describe('modelc compile --bindings', () => {
    test('without --bindings Hiera answers: web01 node data gives 8 workers', async () => {
        const r = await runCli(...web01);
        expect(r.code).toBe(0);
        expect(workerProcesses(r.out)).toBe(8);
    });

    test("with --bindings the site's ARM-8 node binding shadows Hiera: 12 workers", async () => {
        const r = await runCli(...web01, '--bindings');
        expect(r.code, r.err).toBe(0);
        expect(workerProcesses(r.out)).toBe(12);
    });
});
