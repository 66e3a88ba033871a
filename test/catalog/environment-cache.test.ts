import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BindingsCatalogModule, createCatalogServices, EnvironmentCache, jsonText, normalizedResult } from '../../src/catalog/index.js';
import { compileCase, conformanceCases, type ConformanceCase } from './conformance-cases.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'catalog');
const fixtureCases: ConformanceCase[] = readdirSync(fixtures).filter(n => existsSync(join(fixtures, n, 'expected.json'))).sort()
    .map(name => ({ name: `fixture ${name}`, dir: join(fixtures, name), node: 'testnode.example.com', settings: [], classes: [] }));
const cases = [...fixtureCases, ...conformanceCases()];
const services = createCatalogServices(BindingsCatalogModule);
/** One cache for every case, as a server keeps one: cases share nothing but what the cache holds. */
const shared = new EnvironmentCache();

/**
 * Parse once, compile many: a compile through a shared cache (whose ASTs earlier compiles have
 * already evaluated) prints exactly what a compile parsing its own files prints. A compile that
 * changed an AST it was given, or a cache answering for the wrong file, shows here.
 */
describe('compiles through a shared EnvironmentCache equal fresh compiles', () => {
    test.each(cases.map(c => [c.name, c] as const))('%s', (_name, c) => {
        const fresh = compileCase(c, services);
        expect(compileCase(c, services, shared)).toBe(fresh);
        expect(compileCase(c, services, shared)).toBe(fresh);
    });
});

describe('EnvironmentCache follows the files', () => {
    const dirs: string[] = [];
    afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

    function site(manifest: string): string {
        const dir = mkdtempSync(join(tmpdir(), 'modelc-envcache-'));
        dirs.push(dir);
        mkdirSync(join(dir, 'manifests'));
        writeFileSync(join(dir, 'manifests', 'site.pp'), manifest);
        return dir;
    }

    const compile = (dir: string, cache: EnvironmentCache): string =>
        jsonText(normalizedResult(services.compile(dir, 'production', { node: 'n1.example.com', facts: new Map(), cache })));

    test('a file is parsed once for many compiles, and again only after it changed and the cache was refreshed', () => {
        const dir = site("notify { 'one': }\n");
        const cache = new EnvironmentCache();
        const first = compile(dir, cache);
        const parses = cache.stats().parses;
        expect(compile(dir, cache)).toBe(first);
        expect(cache.stats().parses).toBe(parses);

        writeFileSync(join(dir, 'manifests', 'site.pp'), "notify { 'two': }\n");
        // Within a generation the cache answers from memory: one consistent snapshot per batch.
        expect(compile(dir, cache)).toBe(first);
        cache.refresh();
        const second = compile(dir, cache);
        expect(second).toContain('Notify[two]');
        expect(second).not.toContain('Notify[one]');
        expect(cache.stats().parses).toBe(parses + 1);
    });

    test('a file rewritten with the same text is not parsed again', () => {
        const dir = site("notify { 'same': }\n");
        const cache = new EnvironmentCache();
        compile(dir, cache);
        const { parses, reads } = cache.stats();
        writeFileSync(join(dir, 'manifests', 'site.pp'), "notify { 'same': }\n");
        cache.refresh();
        compile(dir, cache);
        expect(cache.stats().reads).toBe(reads + 1);
        expect(cache.stats().parses).toBe(parses);
    });

    test('invalidate(path) forgets one file at once; a new manifest is seen after refresh', () => {
        const dir = site("notify { 'a': }\n");
        const cache = new EnvironmentCache();
        compile(dir, cache);
        const file = join(dir, 'manifests', 'site.pp');
        writeFileSync(file, "notify { 'b': }\n");
        cache.invalidate(file);
        expect(compile(dir, cache)).toContain('Notify[b]');
        writeFileSync(join(dir, 'manifests', 'zz.pp'), "notify { 'c': }\n");
        cache.refresh();
        expect(compile(dir, cache)).toContain('Notify[c]');
    });

    test('a syntax error is reported from the cache as from the file, every time', () => {
        const dir = site('notify { ');
        const cache = new EnvironmentCache();
        const fresh = jsonText(normalizedResult(services.compile(dir, 'production', { node: 'n1.example.com', facts: new Map() })));
        expect(fresh).toContain('SYNTAX_ERROR');
        expect(compile(dir, cache)).toBe(fresh);
        expect(compile(dir, cache)).toBe(fresh);
    });
});
