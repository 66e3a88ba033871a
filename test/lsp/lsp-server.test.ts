import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../cli/run-cli.js';
import { LspClient, positionAt, positionOf, type PublishedDiagnostic } from './lsp-client.js';

/**
 * `modelc lsp --stdio` driven by a real LSP client (vscode-jsonrpc over the child's stdio), one
 * server per environment for all checks. Expected answers come from the CLI itself (`modelc
 * parse`, `modelc compile --explain`) and from the sources, so the editor is checked against
 * what the command line says.
 */
const REPO = join(import.meta.dirname, '..', '..');
const SITE = join(REPO, 'examples', 'site');
const WEB01 = join(REPO, 'examples', 'facts', 'web01.example.com.yaml');
const work = mkdtempSync(join(tmpdir(), 'modelc-lsp-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface LocationLike { uri?: string; targetUri?: string; range?: Range; targetSelectionRange?: Range }
interface Range { start: { line: number; character: number }; end: { line: number; character: number } }
interface Hover { contents: { value: string } }
interface Completion { items: { label: string }[] }

const uriOf = (file: string): string => pathToFileURL(file).toString();

/** What `modelc parse` prints on stderr for a file: line, column and code of its first diagnostic. */
async function cliDiagnostic(file: string): Promise<{ line: number; column: number; code: string }> {
    const r = await runCli('parse', file);
    const m = /:(\d+):(\d+): error (\w+):/.exec(r.err);
    if (!m) throw new Error(`modelc parse reported nothing for ${file}: ${r.err}`);
    return { line: Number(m[1]), column: Number(m[2]), code: m[3] };
}

/** Checks a published diagnostic against the CLI's for the same text. */
async function expectCliDiagnostic(published: PublishedDiagnostic[], text: string, name: string): Promise<void> {
    const file = join(work, name);
    writeFileSync(file, text);
    const cli = await cliDiagnostic(file);
    expect(published.map(d => d.code)).toContain(cli.code);
    const d = published.find(x => x.code === cli.code);
    expect(d?.range.start).toEqual({ line: cli.line - 1, character: cli.column - 1 });
    // The range spans the offending token, not just a point.
    expect((d?.range.end.character ?? 0)).toBeGreaterThan(cli.column - 1);
}

const BROKEN = "class broken {\n  file { '/x': ensure => file  mode => '0644' }\n}\n\nclass after_error(Integer $p = 1) { }\n";

/** The shared checks, on an environment and one of its modules. */
interface EnvChecks {
    readonly env: string;
    readonly node: { certname: string; facts: string };
    /** A manifest with `include NAME` of a class defined in the environment. */
    readonly includer: string;
    /** A define and a manifest that declares it. */
    readonly define: string;
    /** A class parameter whose value the node gets, and the file defining it. */
    readonly param: { file: string; cls: string; name: string };
    /** A qualified variable (`class::var`) used in the parameter's file. */
    readonly variable?: string;
    /** A Hiera key the node looks up, a manifest calling epp(), a type alias in use. */
    readonly extras?: { readonly lookupKey: string; readonly eppUser: string; readonly alias: string; readonly absentClass: { file: string; cls: string } };
    /** Ruby plugins: a manifest using a module's Ruby function and one declaring a module's Ruby type. */
    readonly ruby?: { readonly functionUser: string; readonly fn: string; readonly typeUser: string; readonly type: string };
}

function environmentSuite(title: string, checks: () => EnvChecks): void {
    describe(title, () => {
        let client: LspClient;
        let c: EnvChecks;
        let tokenTypes: string[] = [];
        beforeAll(async () => {
            c = checks();
            client = new LspClient(REPO);
            const init = await client.initialize(c.env, { node: c.node });
            expect(init.capabilities).toHaveProperty('hoverProvider');
            tokenTypes = (init.capabilities.semanticTokensProvider as { legend: { tokenTypes: string[] } }).legend.tokenTypes;
        });
        afterAll(async () => {
            expect(await client.close()).toBe(0);
        });

        test('a broken file gets the CLI\'s diagnostic (code, range) and the rest of it is still analysed', async () => {
            const file = join(c.env, 'manifests', 'lsp_broken.pp');
            const published = await client.open(file, BROKEN);
            await expectCliDiagnostic(published, BROKEN, 'broken.pp');
            const symbols = await client.connection.sendRequest<{ name: string; children: { name: string }[] }[]>('textDocument/documentSymbol', { textDocument: { uri: uriOf(file) } });
            expect(symbols.map(s => s.name)).toEqual(['broken', 'after_error']);
            expect(symbols[1].children.map(s => s.name)).toEqual(['$p']);
        });

        test('a clean file gets no diagnostics', async () => {
            const text = readFileSync(c.includer, 'utf8');
            expect(await client.open(c.includer, text)).toEqual([]);
        });

        test('definition of an included class', async () => {
            const text = readFileSync(c.includer, 'utf8');
            const m = /\binclude\s+([a-z][\w:]*)/.exec(text);
            if (!m) throw new Error('no include');
            const defs = await client.request<LocationLike[]>('textDocument/definition', c.includer, positionOf(text, m[0], m[0].length - 1));
            expect(defs).toHaveLength(1);
            const target = defs[0];
            const defined = readFileSync(new URL(target.targetUri ?? ''), 'utf8').split('\n')[target.targetSelectionRange?.start.line ?? -1];
            expect(defined).toMatch(new RegExp(`^\\s*class\\s+${m[1]}\\b`));
        });

        test('references of a define across the environment', async () => {
            const defineFile = definitionFile(c.env, 'define', c.define);
            const text = readFileSync(defineFile, 'utf8');
            await client.open(defineFile, text);
            const refs = await client.request<LocationLike[]>('textDocument/references', defineFile, positionOf(text, `define ${c.define}`, 8), { context: { includeDeclaration: false } });
            const expected = declarationsOf(c.env, c.define);
            expect(expected.length).toBeGreaterThan(0);
            expect(refs.map(r => `${r.uri ?? ''}:${r.range?.start.line ?? -1}`).sort()).toEqual(expected.sort());
        });

        test('hover of a class parameter shows its doc and the value the node gets, with where it came from', async () => {
            const text = readFileSync(c.param.file, 'utf8');
            await client.open(c.param.file, text);
            const hover = await client.request<Hover>('textDocument/hover', c.param.file, positionOf(text, `$${c.param.name} `, 1));
            const explained = await runCli('compile', c.env, '--node', c.node.certname, '--facts', c.node.facts, '--explain', `${c.param.cls}::${c.param.name}`);
            expect(explained.code).toBe(0);
            const lines = explained.out.trim().split('\n');
            // The value line and the provenance (value from / written at: file:line:col) as `compile --explain` prints them.
            expect(hover.contents.value).toContain(lines[0]);
            const from = lines.find(l => /^\s*value from: \S+:\d+/.test(l)) ?? lines.find(l => /^\s*written at: \S+:\d+/.test(l));
            expect(from).toBeDefined();
            expect(hover.contents.value).toContain(from?.trim());
            // Puppet Strings: the parameter's `@param` text is shown too.
            const doc = new RegExp(`#\\s*@param\\s+${c.param.name}\\s*\\n?#?\\s*(\\S[^\\n]{0,30})`).exec(text);
            if (doc) expect(hover.contents.value).toContain(doc[1].trim());
            const lens = await client.connection.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: uriOf(c.param.file) } });
            // The lens: the value (cut when long) and where it came from, on the parameter's line.
            const value = lines[0].split(' = ')[1];
            const paramLine = positionOf(text, `$${c.param.name} `).line;
            const title = lens.find(l => (l as { range?: Range }).range?.start.line === paramLine)?.command?.title ?? '';
            expect(title.startsWith(`= ${value.slice(0, 20)}`)).toBe(true);
            expect(title.endsWith(`(${/: (\S+)$/.exec(from ?? '')?.[1] ?? ''})`)).toBe(true);
        });

        test.skipIf(checks().variable === undefined)('definition of a qualified variable ($class::var)', async () => {
            const v = c.variable ?? '';
            const text = readFileSync(c.param.file, 'utf8');
            const use = new RegExp(`\\$${v}\\b(?!::)`).exec(text);
            if (!use) throw new Error(`$${v} not used in ${c.param.file}`);
            const defs = await client.request<LocationLike[]>('textDocument/definition', c.param.file, positionAt(text, use.index + 1));
            expect(defs).toHaveLength(1);
            const line = readFileSync(new URL(defs[0].targetUri ?? ''), 'utf8').split('\n')[defs[0].targetSelectionRange?.start.line ?? -1];
            expect(line).toMatch(new RegExp(`\\$${v.split('::').pop() ?? ''}\\b`));
        });

        test.skipIf(checks().extras === undefined)('a lookup() key: hover shows `modelc lookup --explain`, definition leads to the data files', async () => {
            const key = c.extras?.lookupKey ?? '';
            const file = join(c.env, 'manifests', 'lsp_lookup.pp');
            const text = `$value = lookup('${key}')\n`;
            await client.open(file, text);
            const at = positionOf(text, key, 2);
            const hover = await client.request<Hover>('textDocument/hover', file, at);
            const explained = await runCli('lookup', c.env, key, '--node', c.node.certname, '--facts', c.node.facts, '--explain');
            expect(explained.code).toBe(0);
            for (const line of explained.out.trim().split('\n').slice(0, 3)) expect(hover.contents.value).toContain(line);
            const defs = await client.request<LocationLike[]>('textDocument/definition', file, at);
            expect(defs.length).toBeGreaterThan(0);
            for (const d of defs) {
                expect(readFileSync(new URL(d.targetUri ?? ''), 'utf8').split('\n')[d.targetSelectionRange?.start.line ?? -1]).toMatch(new RegExp(`^['"]?${key}['"]?:`));
            }
        });

        test.skipIf(checks().extras === undefined)('an epp() path leads to the template; a type alias hovers resolved', async () => {
            const file = c.extras?.eppUser ?? '';
            const text = readFileSync(file, 'utf8');
            await client.open(file, text);
            const path = /epp\('([^']+)'/.exec(text)?.[1] ?? '';
            const defs = await client.request<LocationLike[]>('textDocument/definition', file, positionOf(text, path, 1));
            const [mod, ...rest] = path.split('/');
            expect(defs.map(d => d.targetUri)).toEqual([uriOf(join(c.env, 'modules', mod, 'templates', ...rest))]);
            const alias = c.extras?.alias ?? '';
            const hover = await client.request<Hover>('textDocument/hover', file, positionOf(text, alias, 1));
            const source = readFileSync(join(c.env, 'modules', mod, 'types', `${alias.split('::')[1].toLowerCase()}.pp`), 'utf8');
            const body = /=\s*([\s\S]*)$/.exec(source.replace(/^\s*#.*$/gm, ''))?.[1].replace(/\s+/g, ' ').trim() ?? '';
            expect(hover.contents.value).toContain(`type ${alias} = ${body}`);
        });

        test.skipIf(checks().ruby === undefined)('a module\'s Ruby function and resource type lead to their Ruby files; the type\'s attributes complete', async () => {
            const r = c.ruby;
            if (!r) return;
            const fnText = readFileSync(r.functionUser, 'utf8');
            await client.open(r.functionUser, fnText);
            const fnDefs = await client.request<LocationLike[]>('textDocument/definition', r.functionUser, positionOf(fnText, `${r.fn}(`, 1));
            expect(fnDefs.map(d => d.targetUri)).toEqual([expect.stringMatching(new RegExp(`/lib/puppet/(?:parser/)?functions/${r.fn}\\.rb$`))]);
            const typeText = readFileSync(r.typeUser, 'utf8');
            await client.open(r.typeUser, typeText);
            const typeDefs = await client.request<LocationLike[]>('textDocument/definition', r.typeUser, positionOf(typeText, `${r.type} {`, 1));
            expect(typeDefs.map(d => d.targetUri)).toEqual([expect.stringMatching(new RegExp(`/lib/puppet/type/${r.type}\\.rb$`))]);
            const file = join(c.env, 'manifests', 'lsp_rubytype.pp');
            const text = `${r.type} { 'x': `;
            await client.open(file, text);
            const list = await client.request<Completion>('textDocument/completion', file, { line: 0, character: text.length });
            const declared = [...readFileSync(new URL(typeDefs[0].targetUri ?? ''), 'utf8').matchAll(/new(?:param|property)\(:(\w+)/g)].map(m => m[1]);
            expect(declared.length).toBeGreaterThan(0);
            expect(list.items.map(i => i.label)).toEqual(expect.arrayContaining(declared));
        });

        test('the node follows workspace/didChangeConfiguration (modelc.node)', async () => {
            const text = readFileSync(c.param.file, 'utf8');
            const at = positionOf(text, `$${c.param.name} `, 1);
            await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { modelc: { node: {} } } });
            expect((await client.request<Hover>('textDocument/hover', c.param.file, at)).contents.value).not.toContain('for node');
            await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { modelc: { node: c.node } } });
            expect((await client.request<Hover>('textDocument/hover', c.param.file, at)).contents.value).toContain(`for node ${c.node.certname}`);
        });

        test.skipIf(checks().extras === undefined)('a class the node does not get: one code lens on the class says so', async () => {
            const absent = c.extras?.absentClass ?? { file: '', cls: '' };
            const text = readFileSync(absent.file, 'utf8');
            await client.open(absent.file, text);
            const lens = await client.connection.sendRequest<{ range: Range; command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: uriOf(absent.file) } });
            const explained = await runCli('compile', c.env, '--node', c.node.certname, '--facts', c.node.facts, '--explain', `${absent.cls}::x`);
            expect(explained.code).toBe(1);
            const why = /error \w+: (.*)$/m.exec(explained.err)?.[1] ?? 'none';
            expect(lens).toHaveLength(1);
            expect(lens[0].range.start).toEqual(positionOf(text, absent.cls));
            expect(lens[0].command?.title).toContain(why);
        });

        test('workspace symbols, folding and semantic tokens', async () => {
            const symbols = await client.connection.sendRequest<{ name: string; location: { uri: string } }[]>('workspace/symbol', { query: c.define });
            expect(symbols.filter(x => x.name === c.define).map(x => x.location.uri)).toEqual([uriOf(definitionFile(c.env, 'define', c.define))]);
            const text = readFileSync(c.param.file, 'utf8');
            const classLine = positionOf(text, `class ${c.param.cls}`).line;
            const folds = await client.connection.sendRequest<{ startLine: number; endLine: number }[]>('textDocument/foldingRange', { textDocument: { uri: uriOf(c.param.file) } });
            expect(folds.some(f => f.startLine === classLine && f.endLine > classLine)).toBe(true);
            const tokens = await client.connection.sendRequest<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: uriOf(c.param.file) } });
            expect(tokens.data.length % 5).toBe(0);
            // Decoded (relative line/start pairs), the class's name is a `class` token.
            let line = 0;
            let start = 0;
            const decoded: { line: number; start: number; type: string }[] = [];
            for (let i = 0; i < tokens.data.length; i += 5) {
                line += tokens.data[i];
                start = tokens.data[i] === 0 ? start + tokens.data[i + 1] : tokens.data[i + 1];
                decoded.push({ line, start, type: tokenTypes[tokens.data[i + 3]] });
            }
            expect(decoded).toContainEqual({ line: classLine, start: text.split('\n')[classLine].indexOf(c.param.cls), type: 'class' });
        });

        test('completion of file attributes', async () => {
            const file = join(c.env, 'manifests', 'lsp_completion.pp');
            const text = "file { '/x': ";
            await client.open(file, text);
            const list = await client.request<Completion>('textDocument/completion', file, { line: 0, character: text.length });
            const labels = list.items.map(i => i.label);
            expect(labels).toEqual(expect.arrayContaining(['ensure', 'content', 'mode', 'owner', 'require', 'notify']));
            expect(labels).not.toContain('command');
            // A class declared resource-like completes with its parameters.
            const declare = `class { '${c.param.cls}':\n  `;
            await client.open(file, declare);
            const params = await client.request<Completion>('textDocument/completion', file, { line: 1, character: 2 });
            expect(params.items.map(i => i.label)).toContain(c.param.name);
        });
    });
}

/** The file defining `kind name` in the environment's modules. */
function definitionFile(env: string, kind: string, name: string): string {
    const found = manifests(env).find(f => new RegExp(`^\\s*${kind}\\s+${name}\\b`, 'm').test(readFileSync(f, 'utf8')));
    if (!found) throw new Error(`${kind} ${name} not found`);
    return found;
}

/** `uri:line` of every `name {` declaration and `Name[...]` reference in the environment's manifests. */
function declarationsOf(env: string, name: string): string[] {
    const reference = name.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('::');
    const pattern = new RegExp(`^\\s*${name}\\s*\\{|\\b${reference}\\s*\\[`, 'g');
    const out: string[] = [];
    for (const f of manifests(env)) {
        readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
            if (/^\s*#/.test(line)) return;
            out.push(...Array.from(line.matchAll(pattern), () => `${uriOf(f)}:${i}`));
        });
    }
    return out;
}

function manifests(env: string): string[] {
    const out: string[] = [];
    const walk = (dir: string): void => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
            const full = join(dir, e.name);
            if (e.isDirectory() || (e.isSymbolicLink() && existsSync(join(full, '.')))) walk(full);
            else if (e.name.endsWith('.pp') && !e.name.startsWith('lsp_')) out.push(full);
        }
    };
    walk(join(env, 'manifests'));
    walk(join(env, 'modules'));
    return out;
}

environmentSuite('modelc lsp on examples/site', () => ({
    env: SITE,
    node: { certname: 'web01.example.com', facts: WEB01 },
    includer: join(SITE, 'modules', 'role', 'manifests', 'web.pp'),
    define: 'profile::vhost',
    param: { file: join(SITE, 'modules', 'profile', 'manifests', 'nginx.pp'), cls: 'profile::nginx', name: 'worker_processes' },
    extras: { lookupKey: 'profile::nginx::worker_processes', eppUser: join(SITE, 'modules', 'profile', 'manifests', 'vhost.pp'), alias: 'Profile::Port',
        absentClass: { file: join(SITE, 'modules', 'profile', 'manifests', 'postgres.pp'), cls: 'profile::postgres' } }
}));

/**
 * One real-world case (puppetlabs-apt as Debian packages it), materialized with real symlinks
 * as test/catalog/realworld.test.ts does.
 */
const CASE = '/work/shared/conformance/realworld/apt-1-source';
const caseModules = existsSync(join(CASE, 'case.yaml'))
    ? ((parseYaml(readFileSync(join(CASE, 'case.yaml'), 'utf8')) as { modules?: string[] }).modules ?? []).map(m => [m, readFileSync(join(CASE, 'modules', m), 'utf8').trim()] as const)
    : [];
const caseMissing = caseModules.length === 0 || caseModules.some(([, target]) => !existsSync(target));

function materializeCase(): string {
    const out = join(work, 'apt-1-source');
    mkdirSync(join(out, 'modules'), { recursive: true });
    for (const entry of readdirSync(CASE)) if (entry !== 'modules') cpSync(join(CASE, entry), join(out, entry), { recursive: true });
    for (const [name, target] of caseModules) symlinkSync(target, join(out, 'modules', name));
    return out;
}

if (caseMissing) {
    describe.skip(`modelc lsp on a real-world case: ${CASE} or its Debian modules are absent (run /work/shared/conformance/realworld/install.sh)`, () => {
        test('skipped', () => undefined);
    });
} else {
    let env = '';
    environmentSuite('modelc lsp on the real-world case apt-1-source', () => {
        env ||= materializeCase();
        return {
            env,
            node: { certname: 'web01.example.com', facts: join(env, 'facts.yaml') },
            includer: join(env, 'modules', 'apt', 'manifests', 'init.pp'),
            define: 'apt::setting',
            param: { file: join(env, 'modules', 'apt', 'manifests', 'init.pp'), cls: 'apt', name: 'update' },
            variable: 'apt::params::update',
            ruby: { functionUser: join(env, 'modules', 'apt', 'manifests', 'init.pp'), fn: 'merge', typeUser: join(env, 'modules', 'apt', 'manifests', 'key.pp'), type: 'apt_key' }
        };
    });
}
