import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const examples = join(import.meta.dirname, '..', '..', 'examples');
const site = join(examples, 'site');
const web01 = ['--node', 'web01.example.com', '--facts', join(examples, 'facts', 'web01.example.com.yaml')];
const db01 = ['--node', 'db01.example.com', '--facts', join(examples, 'facts', 'db01.example.com.yaml')];
const hasDot = spawnSync('dot', ['-V']).status === 0;

const made: string[] = [];

function tmp(): string {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-graph-'));
    made.push(dir);
    return dir;
}

afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('modelc compile --explain CLASS::PARAM', () => {
    test.each([
        {
            query: 'profile::nginx::worker_processes', args: [...web01, '--no-bindings'],
            lines: ['Class[Profile::Nginx] worker_processes = 8', '  key: profile::nginx::worker_processes', '  layer: environment', '  hiera level: Per-node exceptions', '  value from: data/nodes/web01.example.com.yaml:4:1']
        },
        {
            query: 'profile::postgres::settings', args: db01,
            lines: ['  hiera level: Per-node exceptions', '  merge: deep of data/nodes/db01.example.com.yaml:4, data/roles/db.yaml:12']
        },
        { query: 'profile::ntp::package_name', args: web01, lines: ['  layer: module profile', '  value from: modules/profile/data/'] },
        {
            // With the ARM-8 bindings (the default here) the site layer's `when node` binding shadows Hiera's node data.
            query: 'profile::nginx::worker_processes', args: web01,
            lines: ['Class[Profile::Nginx] worker_processes = 12', '  layer: site', '  category: node web01.example.com', '  named bindings: default', '  value from: bindings/default.pp:13:5']
        },
        { query: 'File[/etc/motd]::ensure', args: web01, lines: ['File[/etc/motd] ensure = "file"', '  written at: modules/profile/manifests/base.pp:33:5'] },
        { query: 'profile::nginx::nothing', args: web01, lines: ['Class[Profile::Nginx] nothing: not set (undef, or no such parameter)'] }
    ])('$query', async ({ query, args, lines }) => {
        const r = await runCli('compile', site, ...args, '--explain', query);
        expect(r.code).toBe(0);
        for (const l of lines) expect(r.out).toContain(l);
    });

    test.each([['nosuch::param', /class 'nosuch' is not in the catalog/], ['Not a query', /--explain expects CLASS::PARAM/]])('%s is an error', async (query, message) => {
        const r = await runCli('compile', site, ...web01, '--explain', query);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(message);
    });
});

describe('--graph', () => {
    test('compile writes the resource graph as DOT', async () => {
        const file = join(tmp(), 'g.dot');
        const r = await runCli('compile', site, ...web01, '--graph', file);
        expect(r.code).toBe(0);
        const dot = readFileSync(file, 'utf8');
        expect(dot).toMatch(/^digraph "resources" \{/);
        expect(dot).toContain('"Package[nginx]" -> "File[/etc/nginx/nginx.conf]"');
        expect(dot).not.toContain('#d62728');
    });

    test.skipIf(!hasDot)('compile writes SVG through Graphviz', async () => {
        const file = join(tmp(), 'g.svg');
        expect((await runCli('compile', site, ...web01, '--graph', file)).code).toBe(0);
        expect(readFileSync(file, 'utf8')).toContain('<svg');
    });

    test('SVG without Graphviz: a clear error, nothing written', async () => {
        const file = join(tmp(), 'g.svg');
        const path = process.env.PATH;
        process.env.PATH = '/nonexistent';
        try {
            // --no-bindings: the site's bindings providers are programs that need PATH too.
            const r = await runCli('compile', site, ...web01, '--no-bindings', '--graph', file, '--format', 'json');
            expect(r.code).toBe(1);
            expect(r.err).toMatch(/error GRAPH_NO_GRAPHVIZ: writing SVG needs Graphviz's 'dot' command/);
            expect(r.out).toBe('');
        } finally {
            process.env.PATH = path;
        }
        expect(existsSync(file)).toBe(false);
    });

    test('an unknown picture format is refused before compiling', async () => {
        const r = await runCli('compile', site, ...web01, '--graph', 'x.png');
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/x\.png: error GRAPH_FORMAT/);
    });

    test('apply --graph draws the dependency cycle its error message points to', async () => {
        const dir = tmp();
        mkdirSync(join(dir, 'env', 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'env', 'manifests', 'site.pp'), "file { '/a': ensure => file, require => File['/b'] }\nfile { '/b': ensure => file, require => File['/a'] }\n");
        const compiled = await runCli('compile', join(dir, 'env'), '--node', 'n1', '--format', 'puppet');
        expect(compiled.code).toBe(0);
        writeFileSync(join(dir, 'catalog.json'), compiled.out);
        mkdirSync(join(dir, 'root'));
        const r = await runCli('apply', join(dir, 'catalog.json'), '--noop', '--root', join(dir, 'root'), '--graph', join(dir, 'cycle.dot'));
        expect(r.out).toContain("Try the '--graph' option");
        const dot = readFileSync(join(dir, 'cycle.dot'), 'utf8');
        expect(dot).toContain('1 dependency cycle');
        expect(dot).toMatch(/"File\[\/a\]" \[\s*color = "#d62728";/);
    });

    test('bindings --graph draws layers × categories', async () => {
        const file = join(tmp(), 'b.dot');
        const r = await runCli('bindings', site, ...web01, '--graph', file);
        expect(r.code).toBe(0);
        const dot = readFileSync(file, 'utf8');
        for (const layer of ['site', 'modules', 'data']) expect(dot).toContain(`label = "layer ${layer}"`);
        expect(dot).toContain('hiera: Per-node exceptions');
    });
});

describe('modelc diff --ignore / --filters', () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'model', 'diff', 'catalog-changes');
    test.each([
        { args: [], code: 2, resources: true },
        // Ignore rules name resources: the catalog's version and edges still differ.
        { args: ['--ignore', '*[*]'], code: 2, resources: false },
        { args: ['--ignore', 'File[/etc/*]::content', '--filters', 'none'], code: 2, resources: true },
        { args: ['--filters', 'nope'], code: 1, resources: false }
    ])('$args', async ({ args, code, resources }) => {
        const r = await runCli('diff', join(dir, 'old.json'), join(dir, 'new.json'), ...args);
        expect(r.code).toBe(code);
        expect(r.out.includes('/resources[')).toBe(resources);
        if (args.includes('File[/etc/*]::content')) expect(r.out).not.toContain('parameters[content]');
    });
});
