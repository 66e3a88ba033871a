import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

/**
 * The layering of src/ (.dependency-cruiser.cjs, explained in src/ARCHITECTURE.md) checked by
 * dependency-cruiser: the real tree must pass, and trees breaking each rule must fail with it.
 */

const root = resolve(import.meta.dirname, '../..');
const config = join(root, '.dependency-cruiser.cjs');
const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

interface Violation {
    readonly from: string;
    readonly to: string;
    readonly rule: { readonly name: string };
}
interface CruiseResult {
    readonly modules: ReadonlyArray<{ readonly source: string; readonly dependencies: ReadonlyArray<{ readonly resolved: string }> }>;
    readonly summary: { readonly violations: readonly Violation[] };
}

async function cruise(cwd: string): Promise<CruiseResult> {
    const run = promisify(execFile);
    // exit code = number of violations; the JSON report is complete either way
    const out = await run(process.execPath, [cli, 'src', '--config', config, '--output-type', 'json'], { cwd, maxBuffer: 64 << 20 })
        .catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    return JSON.parse(out.stdout) as CruiseResult;
}

function folderOf(path: string): string | undefined {
    return /^src\/([^/]+)\//.exec(path)?.[1];
}

/** Cycles in the graph of src/ folders (an edge for any import between two folders). */
function folderCycles(result: CruiseResult): string[] {
    const edges = new Map<string, Set<string>>();
    for (const m of result.modules) {
        const from = folderOf(m.source);
        if (!from) continue;
        for (const d of m.dependencies) {
            const to = folderOf(d.resolved);
            if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
        }
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]): void => {
        if (state.get(f) === 'open') cycles.push([...path.slice(path.indexOf(f)), f].join(' → '));
        if (state.has(f)) return;
        state.set(f, 'open');
        for (const to of edges.get(f) ?? []) visit(to, [...path, f]);
        state.set(f, 'done');
    };
    for (const f of edges.keys()) visit(f, []);
    return cycles;
}

const temps: string[] = [];
afterAll(() => { for (const t of temps) rmSync(t, { recursive: true, force: true }); });

function tree(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-layering-'));
    temps.push(dir);
    const all: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: '.' }, include: ['src/**/*.ts'] }),
        ...files
    };
    for (const [path, text] of Object.entries(all)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
    }
    return dir;
}

describe('src/ layering', () => {
    test('the real tree keeps the stage order, index-only imports and no folder cycles', async () => {
        const result = await cruise(root);
        const violations = result.summary.violations.map(v => `${v.rule.name}: ${v.from} → ${v.to}`);
        expect(violations).toEqual([]);
        expect(result.modules.length).toBeGreaterThan(200);
        expect(folderCycles(result)).toEqual([]);
    });

    const broken: ReadonlyArray<{ name: string; rule: string; files: Record<string, string> }> = [
        {
            name: 'an earlier stage importing a later one (catalog → apply)',
            rule: 'stage-order-catalog',
            files: {
                'src/apply/index.ts': 'export const coreTypes = 1;\n',
                'src/catalog/core-types.ts': "import { coreTypes } from '../apply/index.js';\nexport const x = coreTypes;\n"
            }
        },
        {
            name: "a deep import past another folder's index.ts",
            rule: 'index-only',
            files: {
                'src/model/metamodel.ts': 'export const m = 1;\n',
                'src/model/index.ts': "export * from './metamodel.js';\n",
                'src/modelc/generate.ts': "import { m } from '../model/metamodel.js';\nexport const x = m;\n"
            }
        },
        {
            name: 'values importing types (the ground floor reaching up)',
            rule: 'stage-order-values',
            files: {
                'src/types/index.ts': "import { v } from '../values/index.js';\nexport const t = v;\n",
                'src/values/index.ts': "import type { t } from '../types/index.js';\nexport const v = 1;\nexport type T = typeof t;\n"
            }
        },
        {
            name: 'an import cycle between two files of src/catalog',
            rule: 'no-circular-in-catalog',
            files: {
                'src/catalog/scope.ts': "import { r } from './resource.js';\nexport const s = () => r;\n",
                'src/catalog/resource.ts': "import { s } from './scope.js';\nexport const r = () => s;\n"
            }
        },
        {
            name: 'a folder missing from the layer list',
            rule: 'unknown-stage-folder',
            files: {
                'src/common/index.ts': 'export const c = 1;\n',
                'src/newstage/index.ts': "import { c } from '../common/index.js';\nexport const n = c;\n"
            }
        }
    ];

    test.each(broken)('fails on $name', async ({ rule, files }) => {
        const result = await cruise(tree(files));
        expect(result.summary.violations.map(v => v.rule.name)).toContain(rule);
    });

    // Type-only imports leave no trace in the emitted JavaScript, so a cycle needing one is no runtime cycle.
    test.each([
        {
            name: 'only type-only imports',
            files: {
                'src/catalog/scope.ts': "import type { R } from './resource.js';\nexport interface S { r?: R }\n",
                'src/catalog/resource.ts': "import type { S } from './scope.js';\nexport interface R { s?: S }\n"
            }
        },
        {
            name: 'a type-only import one way',
            files: {
                'src/catalog/scope.ts': "import type { R } from './resource.js';\nexport const s = 1;\nexport type T = R;\n",
                'src/catalog/resource.ts': "import { s } from './scope.js';\nexport const r = s;\nexport interface R { s: typeof s }\n"
            }
        }
    ])('allows a cycle in src/catalog through $name', async ({ files }) => {
        const result = await cruise(tree(files));
        expect(result.modules.map(m => m.source).sort()).toEqual(['src/catalog/resource.ts', 'src/catalog/scope.ts']);
        expect(result.summary.violations).toEqual([]);
    });

    test('reports a cycle between folders', async () => {
        const result = await cruise(tree({
            'src/values/index.ts': "import { t } from '../types/index.js';\nexport const v = t;\n",
            'src/types/index.ts': "import { v } from '../values/index.js';\nexport const t = () => v;\n"
        }));
        expect(result.summary.violations.map(v => v.rule.name)).toContain('no-circular-between-folders');
        expect(folderCycles(result)).toEqual([expect.stringMatching(/^(values → types → values|types → values → types)$/)]);
    });
});
