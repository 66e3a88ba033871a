import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createCatalogServices } from '../../src/catalog/index.js';
import { compileCase, knownFailures, parseTyped } from './conformance-cases.js';

/**
 * The shared real-world cases: third-party Forge modules as Debian packages them, with their
 * Ruby functions and types. The shared copy holds each `modules/<name>` as a file naming the
 * module's directory; a case is materialized in a temporary directory with real symlinks.
 */
const REALWORLD_DIR = '/work/shared/conformance/realworld';
/** Our own cases of more Debian modules, in the same layout, recorded from the same oracle. */
const OWN_DIR = join(import.meta.dirname, '..', 'fixtures', 'realworld');
const known = knownFailures(join(import.meta.dirname, 'realworld-known-failures.txt'));

interface RealCase { readonly name: string; readonly dir: string; readonly modules: string[] }

function cases(): RealCase[] {
    return [...casesIn(REALWORLD_DIR), ...casesIn(OWN_DIR)];
}

function casesIn(root: string): RealCase[] {
    if (!existsSync(root)) return [];
    return readdirSync(root).filter(n => existsSync(join(root, n, 'case.yaml'))).sort().map(name => {
        const dir = join(root, name);
        const y = parseYaml(readFileSync(join(dir, 'case.yaml'), 'utf8')) as { modules?: string[] };
        return { name, dir, modules: y.modules ?? [] };
    });
}

/** Where a case's module pointer leads (a symlink in a checkout, a pointer file in the shared copy). */
function moduleTarget(c: RealCase, module: string): string {
    const p = join(c.dir, 'modules', module);
    try { return readFileSync(p, 'utf8').trim(); } catch { return p; }
}

const all = cases();
const missing = [...new Set(all.flatMap(c => c.modules.map(m => moduleTarget(c, m))))].filter(t => !existsSync(t));
const work = all.length && missing.length === 0 ? mkdtempSync(join(tmpdir(), 'modelc-realworld-')) : '';

function materialize(c: RealCase): string {
    const out = join(work, c.name);
    mkdirSync(join(out, 'modules'), { recursive: true });
    for (const entry of readdirSync(c.dir)) if (entry !== 'modules') cpSync(join(c.dir, entry), join(out, entry), { recursive: true });
    for (const m of c.modules) symlinkSync(moduleTarget(c, m), join(out, 'modules', m));
    return out;
}

const services = createCatalogServices();
let passed = 0;

if (all.length && missing.length) {
    describe.skip(`real-world cases: the Debian module packages are not installed (missing ${missing[0]}; run ${REALWORLD_DIR}/install.sh)`, () => { test('skipped', () => undefined); });
}

describe.skipIf(all.length === 0 || missing.length > 0)('real-world module cases against Puppet 7.23', () => {
    afterAll(() => {
        console.log(`real-world cases: ${passed}/${all.length} pass (${known.size} known failures listed)`);
        if (work) rmSync(work, { recursive: true, force: true });
    });
    for (const c of all) {
        const run = known.has(c.name) ? test.fails : test;
        run(c.name, () => {
            const dir = materialize(c);
            const expected = parseTyped(readFileSync(join(dir, 'expected.json'), 'utf8'));
            const actual = parseTyped(compileCase({ name: c.name, dir, node: 'web01.example.com', facts: join(dir, 'facts.yaml'), settings: [], classes: [] }, services));
            expect(actual).toEqual(expected);
            passed++;
        });
    }
});
