import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleEnvironment, environmentFromBundle } from '../../src/bundle/index.js';
import { createCatalogServices } from '../../src/catalog/index.js';
import { decodeJson, decodeMsgpack, encodeJson, encodeMsgpack } from '../../src/model/index.js';
import { compileCase, conformanceCases } from '../catalog/conformance-cases.js';
import { runCli } from '../cli/run-cli.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const SITE = join(EXAMPLES, 'site');
const NODES = ['web01', 'web02', 'db01', 'util01'];
const scratch = mkdtempSync(join(tmpdir(), 'modelc-bundle-'));

/**
 * Every catalog conformance case compiled from its bundle (written as msgpack and read back, so
 * the ASTs come from the model file) gives the normalized result of compiling its directory,
 * errors with their file:line:pos included.
 */
describe('a conformance case compiled from its bundle = compiled from its directory', () => {
    const cases = conformanceCases();
    it.skipIf(cases.length === 0)(`all ${cases.length} cases`, () => {
        const differ: string[] = [];
        for (const c of cases) {
            const bytes = encodeMsgpack(bundleEnvironment(c.dir));
            const env = environmentFromBundle(decodeMsgpack(bytes, `${c.name}.msgpack`), `${c.name}.msgpack`);
            const fromBundle = compileCase(c, createCatalogServices({ Boot: () => () => env }));
            if (fromBundle !== compileCase(c)) differ.push(c.name);
        }
        expect(differ).toEqual([]);
    }, 300_000);
});

/**
 * Real-world modules (Debian's packages, with their Ruby functions and types, reached through
 * symlinks as the catalog's real-world test materializes them): the bundle carries what the
 * compile reads of each module, and the result is the directory's.
 */
const REALWORLD = '/work/shared/conformance/realworld';
const REAL_CASES = ['concat-1-motd', 'apt-1-source', 'mysql-1-server'];

function materialized(name: string): string | undefined {
    const src = join(REALWORLD, name);
    if (!existsSync(join(src, 'case.yaml'))) return undefined;
    const out = mkdtempSync(join(scratch, `${name}-`));
    mkdirSync(join(out, 'modules'));
    for (const entry of readdirSync(src)) if (entry !== 'modules') cpSync(join(src, entry), join(out, entry), { recursive: true });
    for (const m of readdirSync(join(src, 'modules'))) {
        const target = readFileSync(join(src, 'modules', m), 'utf8').trim();
        if (!existsSync(target)) return undefined;
        symlinkSync(target, join(out, 'modules', m));
    }
    return out;
}

describe.each(REAL_CASES)('real-world case %s compiled from its bundle', name => {
    const dir = materialized(name);
    it.skipIf(dir === undefined)('= compiled from its directory (skipped when the case or its Debian modules are absent)', () => {
        const c = { name, dir: dir ?? '', node: 'web01.example.com', facts: join(dir ?? '', 'facts.yaml'), settings: [], classes: [] };
        const file = `${name}.msgpack`;
        const env = environmentFromBundle(decodeMsgpack(encodeMsgpack(bundleEnvironment(c.dir)), file), file);
        expect(compileCase(c, createCatalogServices({ Boot: () => () => env }))).toBe(compileCase(c));
    }, 120_000);
});

describe('modelc compile BUNDLE = modelc compile CODEDIR (examples/site)', () => {
    const bundles = { json: join(scratch, 'site.bundle.json'), msgpack: join(scratch, 'site.bundle.msgpack') };
    it.each(Object.entries(bundles))('parse --bundle writes %s', async (format, file) => {
        const r = await runCli('parse', SITE, '--bundle', file);
        expect(r.code, r.err).toBe(0);
        // JSON starts with '{'; msgpack with a map header.
        expect(readFileSync(file)[0] === 0x7b).toBe(format === 'json');
    });
    for (const node of NODES) {
        it.each(['json'])(`${node}: --format %s`, async format => {
            const request = ['--node', `${node}.example.com`, '--facts', join(EXAMPLES, `facts/${node}.example.com.yaml`), '--format', format];
            const expected = await runCli('compile', SITE, ...request);
            expect(expected.code, expected.err).toBe(0);
            for (const file of Object.values(bundles)) {
                const r = await runCli('compile', file, ...request);
                expect(r.code, r.err).toBe(0);
                expect(r.out).toBe(expected.out);
            }
        }, 60_000);
    }
});

describe('lookup and bindings accept a bundle wherever they accept a code directory', () => {
    const bundle = join(scratch, 'lookup.bundle.msgpack');
    const cases: Array<[string, string[]]> = [
        ['lookup through the injector', ['lookup', '@', 'profile::nginx::worker_processes']],
        ['lookup with a merge', ['lookup', '@', 'profile::base::packages', '--merge', 'unique']],
        ['lookup --explain', ['lookup', '@', 'profile::base::admins', '--explain']],
        ['lookup of a missing key', ['lookup', '@', 'no::such::key']],
        ['bindings', ['bindings', '@']]
    ];
    it.each(cases)('%s', async (_name, args) => {
        if ((await runCli('parse', SITE, '--bundle', bundle)).code !== 0) throw new Error('parse --bundle failed');
        for (const node of ['web01', 'db01']) {
            const request = ['--node', `${node}.example.com`, '--facts', join(EXAMPLES, `facts/${node}.example.com.yaml`)];
            const expected = await runCli(...args.map(a => a === '@' ? SITE : a), ...request);
            const actual = await runCli(...args.map(a => a === '@' ? bundle : a), ...request);
            expect(actual).toEqual(expected);
        }
    }, 60_000);
});

describe('the bundle is what is compiled', () => {
    const request = ['--node', 'web01.example.com', '--facts', join(EXAMPLES, 'facts/web01.example.com.yaml'), '--format', 'normalized'];

    it('a literal changed in a manifest\'s AST (and not in its text) changes the catalog', async () => {
        const model = JSON.parse(encodeJson(bundleEnvironment(SITE))) as { files: Array<{ path: string; ast?: unknown }> };
        const site = model.files.find(f => f.path === 'manifests/site.pp');
        expect(site?.ast).toBeDefined();
        const text = JSON.stringify(site?.ast);
        const literal = /"value":"(web\d+|[a-z_]+)"/.exec(text);
        expect(literal).not.toBeNull();
        const file = join(scratch, 'edited.json');
        writeFileSync(file, JSON.stringify(model).replace(JSON.stringify(site?.ast), text.replace(literal?.[0] ?? '', `"value":"${literal?.[1]}_edited"`)));
        const before = await runCli('compile', SITE, ...request);
        const after = await runCli('compile', file, ...request);
        expect(after.out).not.toBe(before.out);
    });

    it('an error inside a bundled manifest is located as from source', async () => {
        const dir = mkdtempSync(join(scratch, 'env-'));
        mkdirSync(join(dir, 'manifests'));
        writeFileSync(join(dir, 'manifests/site.pp'), "node default {\n  $x = 1\n  notify { 'n': message => $x + 'a' }\n}\n");
        const bundle = join(dir, 'env.json');
        expect((await runCli('parse', dir, '--bundle', bundle)).code).toBe(0);
        const args = ['--node', 'n1', '--format', 'normalized'];
        const fromDir = await runCli('compile', dir, ...args);
        const fromBundle = await runCli('compile', bundle, ...args);
        expect(fromDir.code).toBe(1);
        expect(fromDir.err).toMatch(/^manifests\/site\.pp:3:\d+: error /);
        expect(fromBundle.err).toBe(fromDir.err);
        expect(fromBundle.out).toBe(fromDir.out);
    });

    it.each([
        ['a model of another package', async (): Promise<string> => {
            const f = join(scratch, 'catalog.json');
            writeFileSync(f, (await runCli('compile', SITE, '--node', 'web01.example.com', '--facts', join(EXAMPLES, 'facts/web01.example.com.yaml'), '--format', 'json')).out);
            return f;
        }, /catalog\.json: error MODEL_KIND_MISMATCH: expected a Puppet model, got Catalog \(at \/\$type\)/],
        ['a Puppet AST that is not an environment', async (): Promise<string> => {
            const f = join(scratch, 'ast.json');
            const pp = join(scratch, 'one.pp');
            writeFileSync(pp, "notify { 'x': }\n");
            writeFileSync(f, (await runCli('parse', pp, '--format', 'json')).out);
            return f;
        }, /ast\.json: error BUNDLE_NOT_AN_ENVIRONMENT: expected an Environment bundle .* got a Puppet Program \(at \/\$type\)/]
    ])('%s: one located error', async (_name, make, expected) => {
        const r = await runCli('compile', await make(), '--node', 'n1');
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(expected);
        expect(r.err.trim().split('\n')).toHaveLength(1);
    });
});

describe('positions recorded in the AST model', () => {
    it('every node of a parsed manifest says where it was written', async () => {
        const pp = join(scratch, 'pos.pp');
        writeFileSync(pp, "class a {\n  $x = 1 + 2\n}\n");
        const r = await runCli('parse', pp, '--format', 'json');
        const root = decodeJson(r.out).root as unknown as { statements: Array<{ line: number; column: number; body: Array<{ line: number; column: number; operatorOffset: number; right: { operatorOffset: number } }> }> };
        const cls = root.statements[0];
        expect([cls?.line, cls?.column]).toEqual([1, 1]);
        const assign = cls?.body[0];
        expect([assign?.line, assign?.column, assign?.operatorOffset, assign?.right.operatorOffset]).toEqual([2, 3, 15, 19]);
    });
});
