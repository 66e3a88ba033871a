import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { compileNodes, nodesOfFactsDir } from '../../src/batch/index.js';
import { runCli } from '../cli/run-cli.js';

const site = join(import.meta.dirname, '..', '..', 'examples', 'site');
const factsDir = join(import.meta.dirname, '..', '..', 'examples', 'facts');
const exampleNodes = readdirSync(factsDir).filter(f => f.endsWith('.yaml')).map(f => f.slice(0, -'.yaml'.length)).sort();
const temp: string[] = [];
afterAll(() => { for (const d of temp) rmSync(d, { recursive: true, force: true }); });
function tempDir(): string {
    const d = mkdtempSync(join(tmpdir(), 'modelc-batch-'));
    temp.push(d);
    return d;
}

/** A facts directory of the example's nodes, plus files named by `extra`. */
function factsCopy(extra: Record<string, string> = {}): string {
    const dir = tempDir();
    for (const n of exampleNodes) copyFileSync(join(factsDir, `${n}.yaml`), join(dir, `${n}.yaml`));
    for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
    return dir;
}

/** Puppet's catalog JSON carries the compile's time and a random id; the rest must be equal. */
function unstamped(text: string): string {
    return text.replace(/"version": \d+/, '"version": 0').replace(/"catalog_uuid": "[^"]*"/, '"catalog_uuid": ""');
}

describe('modelc compile --nodes-dir', () => {
    test.each([
        ['normalized', ['--no-bindings']],
        ['puppet', ['--no-bindings', '--format', 'puppet']],
        ['json', ['--no-bindings', '--format', 'json']],
        // The example's ENC and external inventory (Python programs) take part, as in one-node compiles.
        ['normalized, with bindings', []]
    ] as const)('every node\'s file is what a one-node compile prints (%s)', async (_name, format) => {
        const out = join(tempDir(), 'out');
        const r = await runCli('compile', site, '--nodes-dir', factsCopy(), '--out-dir', out, '--jobs', '1', ...format);
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(r.out).toMatch(new RegExp(`^compiled ${exampleNodes.length} of ${exampleNodes.length} nodes \\(0 failed\\)`));
        for (const node of exampleNodes) {
            const one = await runCli('compile', site, '--node', node, '--facts', join(factsDir, `${node}.yaml`), ...format);
            expect(unstamped(readFileSync(join(out, `${node}.json`), 'utf8'))).toBe(unstamped(one.out));
        }
    });

    test('a node that fails is one error line and no file; the others compile; exit 1', async () => {
        const out = join(tempDir(), 'out');
        mkdirSync(out);
        // A stale file from an earlier run must not pass for this run's output.
        writeFileSync(join(out, 'broken.example.com.json'), '{}');
        const r = await runCli('compile', site, '--nodes-dir', factsCopy({ 'broken.example.com.yaml': 'a: [1\n' }), '--out-dir', out, '--no-bindings', '--jobs', '1');
        expect(r.code).toBe(1);
        const lines = r.err.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^\S*broken\.example\.com\.yaml(:\d+:\d+)?: error \w+: .*\(on node broken\.example\.com\)$/);
        expect(existsSync(join(out, 'broken.example.com.json'))).toBe(false);
        for (const node of exampleNodes) expect(existsSync(join(out, `${node}.json`))).toBe(true);
        expect(r.out).toContain(`compiled ${exampleNodes.length} of ${exampleNodes.length + 1} nodes (1 failed)`);
    });

    test.each([
        [['--nodes-dir', factsDir], /--out-dir/],
        [['--nodes-dir', factsDir, '--out-dir', '/tmp/x', '--node', 'a'], /--node .*--nodes-dir/],
        [['--nodes-dir', factsDir, '--out-dir', '/tmp/x', '--jobs', '0'], /--jobs/],
        [['--nodes-dir', join(factsDir, 'missing'), '--out-dir', '/tmp/x'], /BATCH_NO_FACTS_DIR/]
    ])('refuses %j', async (args, message) => {
        const r = await runCli('compile', site, ...args);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(message);
        expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    });
});

describe('compileNodes', () => {
    test('worker threads write what this thread writes', async () => {
        // Enough nodes for two workers: copies of the example's nodes under other names.
        const facts = tempDir();
        for (let i = 0; i < 40; i++) {
            const node = exampleNodes[i % exampleNodes.length];
            const name = `n${String(i).padStart(2, '0')}.example.com`;
            writeFileSync(join(facts, `${name}.yaml`), readFileSync(join(factsDir, `${node}.yaml`), 'utf8').replaceAll(node, name));
        }
        const nodes = nodesOfFactsDir(facts);
        const settings = { codedir: site, format: 'normalized' as const, classes: [], settings: [], basemodulepath: [], bindings: false };
        const one = await compileNodes(nodes, { ...settings, outDir: join(facts, 'one'), jobs: 1 });
        const two = await compileNodes(nodes, { ...settings, outDir: join(facts, 'two'), jobs: 2 });
        expect(one.failed).toBe(0);
        expect(two.failed).toBe(0);
        expect(one.jobs).toBe(1);
        expect(two.jobs).toBe(2);
        for (const { node } of nodes) {
            expect(readFileSync(join(facts, 'two', `${node}.json`), 'utf8')).toBe(readFileSync(join(facts, 'one', `${node}.json`), 'utf8'));
        }
    });
});
