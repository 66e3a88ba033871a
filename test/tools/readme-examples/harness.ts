/**
 * A differential harness over the Debian-packaged modules' documented examples: every Puppet code
 * example a module's README/REFERENCE, examples/ and manifest doc comments show becomes a case
 * (a Puppet environment with the module and its dependencies symlinked), compiled by real Puppet
 * through the oracle and by modelc, and classified.
 *
 *   npm run build
 *   node test/tools/readme-examples/harness.ts [--out DIR] [--modules a,b,...] [--jobs N]
 *        [--no-oracle] [--upstream DIR] [--openstack] [--facts FILE] [--no-full]
 *
 * Puppet's outputs are cached under OUT/oracle by the case's content, so a second run only
 * compiles with modelc. OUT (default `tmp/readme-examples`, git-ignored) receives cases/,
 * results.tsv (one row per example: module, case, source, verdict, detail) and summary.txt. A verdict
 * is equal, both-error (the same error object), differ, refused (modelc's located refusal of plugin
 * code it will not run, e.g. a read outside the environment), crash, or no-oracle.
 * `--dist DIR` compiles with another build of modelc (e.g. main's, for a before/after).
 * `--cache DIR` keeps Puppet's outputs elsewhere (several OUTs can share them).
 * `--upstream DIR` adds docs fetched from the modules' upstream repositories: DIR/<module>/*.md.
 * `--facts FILE` compiles every case for another node (default: the Debian 12 node of
 * test/fixtures/realworld/core-1-types); test/fixtures/realworld/facts/ has RedHat, Ubuntu and a fuller
 * Debian node, since modules take other code paths per OS. The facts are part of the oracle cache key.
 * `--no-full` leaves out the `-full` variants (a quicker pass when Puppet's time is short).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { snippetsUnder, sourceSlug, type Snippet } from './extract.ts';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const MODULES_ROOT = '/usr/share/puppet/modules';
const DOC_ROOT = '/usr/share/doc';
const ORACLE_DIR = '/work/shared/oracle';
const DEFAULT_FACTS = join(REPO, 'test', 'fixtures', 'realworld', 'core-1-types', 'facts.yaml');
const NODE = 'web01.example.com';
const HIERA_CONFIG = '---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n';
const OPENSTACK = new Set(['aodh', 'barbican', 'ceilometer', 'ceph', 'cinder', 'cloudkitty', 'congress', 'designate', 'etcddiscovery', 'glance', 'gnocchi',
    'heat', 'horizon', 'ironic', 'keystone', 'magnum', 'manila', 'mistral', 'murano', 'neutron', 'nova', 'oci', 'octavia', 'openstack_extras',
    'openstacklib', 'oslo', 'ovn', 'panko', 'placement', 'sahara', 'swift', 'tempest', 'vswitch']);

interface Options { out: string; cache?: string; dist: string; facts: string; full: boolean; modules?: string[]; jobs: number; oracle: boolean; upstream?: string; openstack: boolean }

function options(argv: string[]): Options {
    const o: Options = { out: join(REPO, 'tmp', 'readme-examples'), dist: join(REPO, 'dist'), facts: DEFAULT_FACTS, full: true, jobs: 1, oracle: true, openstack: false };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--out') o.out = resolve(argv[++i]);
        else if (a === '--modules') o.modules = argv[++i].split(',');
        else if (a === '--jobs') o.jobs = Number(argv[++i]);
        else if (a === '--no-oracle') o.oracle = false;
        else if (a === '--upstream') o.upstream = resolve(argv[++i]);
        else if (a === '--openstack') o.openstack = true;
        else if (a === '--cache') o.cache = resolve(argv[++i]);
        else if (a === '--dist') o.dist = resolve(argv[++i]);
        else if (a === '--facts') o.facts = resolve(argv[++i]);
        else if (a === '--no-full') o.full = false;
        else throw new Error(`unknown option ${a}`);
    }
    return o;
}

/** An installed module: its name as Puppet sees it, the path to link, its package dir and dependencies. */
interface ModuleInfo { readonly name: string; readonly link: string; readonly pkg: string; readonly deps: string[]; readonly types: string[]; readonly functions: string[] }

function moduleIndex(): Map<string, ModuleInfo> {
    const out = new Map<string, ModuleInfo>();
    for (const entry of readdirSync(MODULES_ROOT).sort()) {
        const link = join(MODULES_ROOT, entry);
        const real = realpathSync(link);
        const metaFile = join(real, 'metadata.json');
        const meta = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) as { name?: string; dependencies?: { name: string }[] } : {};
        const name = entry.replace(/^[a-z0-9]+-/, '');
        const deps = (meta.dependencies ?? []).map(d => d.name.split(/[-/]/).slice(1).join('_'));
        const rb = (d: string): string[] => existsSync(join(real, d)) ? readdirSync(join(real, d)).filter(f => f.endsWith('.rb')).map(f => f.slice(0, -3)) : [];
        out.set(name, { name, link, pkg: basename(real), deps, types: rb('lib/puppet/type'), functions: [...rb('lib/puppet/functions'), ...rb('lib/puppet/parser/functions')] });
    }
    return out;
}

/** What a module's own manifests and templates name of other modules (types, functions, classes), read once. */
const namedByModule = new Map<string, string>();
function moduleCode(m: ModuleInfo): string {
    let text = namedByModule.get(m.name);
    if (text === undefined) {
        const real = realpathSync(m.link);
        const files = ['manifests', 'templates'].flatMap(d => existsSync(join(real, d)) ? listFiles(join(real, d)) : []);
        text = files.filter(f => /\.(pp|erb|epp)$/.test(f)).map(f => readFileSync(f, 'utf8')).join('\n');
        namedByModule.set(m.name, text);
    }
    return text;
}

function listFiles(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap(e => e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]);
}

/**
 * The modules a snippet of module `m` needs: m, the modules it names, and their dependencies;
 * with `full`, also the modules the code of those modules names (augeas_core for a module whose
 * manifests use `augeas` without declaring it), until nothing is added.
 */
function modulesFor(m: ModuleInfo, code: string, index: Map<string, ModuleInfo>, full = false): string[] {
    const want = new Set<string>([m.name]);
    const names = [...code.matchAll(/\b([a-z][a-z0-9_]*)::/g), ...code.matchAll(/\b(?:include|contain|require)\s+['"]?([a-z][a-z0-9_]*)/g),
        ...code.matchAll(/\bclass\s*\{\s*['"]:*([a-z][a-z0-9_]*)/g)].map(x => x[1]);
    for (const n of names) if (index.has(n)) want.add(n);
    const named = (text: string): string[] => {
        const out: string[] = [];
        for (const [, t] of text.matchAll(/\b([a-z][a-z0-9_]*)\s*\{/g)) for (const x of index.values()) if (x.types.includes(t)) out.push(x.name);
        for (const [, f] of text.matchAll(/\b([a-z][a-z0-9_]*)\s*\(/g)) for (const x of index.values()) if (x.functions.includes(f)) out.push(x.name);
        return out;
    };
    for (const x of named(code)) want.add(x);
    const queue = [...want];
    while (queue.length) {
        const d = index.get(queue.pop()!);
        const more = [...(d?.deps ?? []), ...(full && d ? named(moduleCode(d)) : [])];
        for (const dep of more) if (index.has(dep) && !want.has(dep)) { want.add(dep); queue.push(dep); }
    }
    return [...want].sort();
}

/** The snippet as the node's manifest: definitions at top scope (their classes included), the rest in `node default`. */
export function siteFor(code: string): string {
    if (/^\s*node\s+(default|['"/\w])/m.test(code)) return code.endsWith('\n') ? code : `${code}\n`;
    const classes = [...code.matchAll(/^\s*class\s+([a-z][\w:]*)\s*(?:\(|\{|inherits)/gm)].map(x => x[1]);
    const definitions = classes.length > 0 || /^\s*(define|function)\s+[a-z][\w:]*|^\s*type\s+[A-Z]/m.test(code);
    if (definitions) return `${code}\n${classes.length ? `node default {\n${classes.map(c => `  include ${c}\n`).join('')}}\n` : ''}`;
    return `node default {\n${code}\n}\n`;
}

interface Case { readonly module: string; readonly name: string; readonly dir: string; readonly snippet: Snippet; readonly modules: string[]; readonly key: string }

function docRoots(m: ModuleInfo, o: Options): { root: string; label: string; comments: boolean }[] {
    const roots = [{ root: join(DOC_ROOT, `puppet-module-${m.pkg.replace(/^puppet-module-/, '')}`), label: 'debian-doc', comments: false },
        { root: realpathSync(m.link), label: 'module', comments: true }];
    if (o.upstream) roots.push({ root: join(o.upstream, m.name), label: 'upstream', comments: false });
    return roots;
}

function buildCases(o: Options, index: Map<string, ModuleInfo>): Case[] {
    const facts = readFileSync(o.facts, 'utf8');
    const cases: Case[] = [];
    const selected = [...index.values()].filter(m => o.modules ? o.modules.includes(m.name) : o.openstack || !OPENSTACK.has(m.name));
    rmSync(join(o.out, 'cases'), { recursive: true, force: true });
    for (const m of selected) {
        const seen = new Set<string>();
        let n = 0;
        for (const { root, label, comments } of docRoots(m, o)) {
            for (const s of snippetsUnder(root, { manifestComments: comments, markdown: true, exampleFiles: true })) {
                const norm = `${s.code}${s.hiera ?? ''}`.replace(/\s+/g, ' ').trim();
                if (seen.has(norm)) continue;
                seen.add(norm);
                const base = `${String(++n).padStart(3, '0')}-${label}-${sourceSlug(s)}`;
                const site = siteFor(s.code);
                const declared = modulesFor(m, s.code, index);
                const full = modulesFor(m, s.code, index, true);
                // As the README declares it (the module and its dependencies), and, when the modules'
                // code needs more (augeas_core ...), also with those.
                const variants: Array<[string, string[]]> = [[base, declared]];
                if (o.full && full.join() !== declared.join()) variants.push([`${base}-full`, full]);
                for (const [name, modules] of variants) {
                    const dir = join(o.out, 'cases', m.name, name);
                    mkdirSync(join(dir, 'manifests'), { recursive: true });
                    mkdirSync(join(dir, 'modules'));
                    writeFileSync(join(dir, 'manifests', 'site.pp'), site);
                    writeFileSync(join(dir, 'facts.yaml'), facts);
                    if (s.hiera !== undefined) {
                        // The README's Hiera data as the environment's common level.
                        mkdirSync(join(dir, 'data'));
                        writeFileSync(join(dir, 'hiera.yaml'), HIERA_CONFIG);
                        writeFileSync(join(dir, 'data', 'common.yaml'), s.hiera.startsWith('---') ? `${s.hiera}\n` : `---\n${s.hiera}\n`);
                    }
                    for (const x of modules) symlinkSync(index.get(x)!.link, join(dir, 'modules', x));
                    writeFileSync(join(dir, 'source.txt'), `${label}: ${s.source}:${s.line}\n`);
                    const key = createHash('sha256').update(`${site}\0${modules.map(x => `${x}=${index.get(x)!.link}`).join(',')}\0${facts}${s.hiera === undefined ? '' : `\0${s.hiera}`}`).digest('hex').slice(0, 24);
                    cases.push({ module: m.name, name, dir, snippet: { ...s, source: `${label}:${s.source}` }, modules, key });
                }
            }
        }
    }
    return cases;
}

function cacheDir(o: Options): string {
    return o.cache ?? join(o.out, 'oracle');
}

function runOracle(o: Options, cases: Case[]): void {
    const cache = cacheDir(o);
    mkdirSync(cache, { recursive: true });
    const todo = new Map<string, Case>();
    for (const c of cases) if (!existsSync(join(cache, `${c.key}.json.rc`))) todo.set(c.key, c);
    if (todo.size === 0 || !o.oracle) return;
    console.log(`oracle: ${todo.size} cases to compile with real Puppet (${o.jobs} at a time)`);
    const jobs = [...todo.values()].map(c => ({ tool: 'compile', argv: [c.dir, '--node', NODE, '--facts', join(c.dir, 'facts.yaml')], out: join(cache, `${c.key}.json`) }));
    const jobsFile = join(o.out, `oracle-jobs-${process.pid}.json`);
    writeFileSync(jobsFile, JSON.stringify(jobs));
    execFileSync('ruby', [join(REPO, 'test', 'tools', 'oracle-batch.rb'), jobsFile, String(o.jobs)], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ORACLE_DIR } });
    rmSync(jobsFile, { force: true });
}

/** Numbers as typed strings, so Integer 2 and Float 2.0 differ as they do in Puppet. */
function parseTyped(text: string): unknown {
    return JSON.parse(text, (_k, v: unknown, ctx?: { source?: string }) => {
        if (typeof v !== 'number') return v;
        const src = ctx?.source ?? String(v);
        return /^-?\d+$/.test(src) ? `i:${BigInt(src)}` : `f:${Number(src)}`;
    });
}

type Json = Record<string, unknown>;

/** The first difference, in a few words. */
function firstDifference(p: Json, m: Json): string {
    const perr = p.error as Json | undefined;
    const merr = m.error as Json | undefined;
    if (perr && !merr) return `puppet error: ${String(perr.message).split('\n')[0].slice(0, 220)}`;
    if (merr && !perr) return `modelc error: ${String(merr.message).split('\n')[0].slice(0, 220)}`;
    if (perr && merr) {
        for (const k of ['message', 'file', 'line', 'pos', 'issue_code', 'class']) {
            if (!isDeepStrictEqual(perr[k], merr[k])) return `error.${k}: puppet ${JSON.stringify(perr[k])?.slice(0, 150)} / modelc ${JSON.stringify(merr[k])?.slice(0, 150)}`;
        }
    }
    if (!perr) {
        const pr = new Map((p.resources as Json[]).map(r => [`${String(r.type)}[${String(r.title)}]`, r]));
        const mr = new Map((m.resources as Json[]).map(r => [`${String(r.type)}[${String(r.title)}]`, r]));
        for (const k of pr.keys()) if (!mr.has(k)) return `missing resource ${k}`;
        for (const k of mr.keys()) if (!pr.has(k)) return `extra resource ${k}`;
        for (const [k, r] of pr) {
            const x = mr.get(k)!;
            for (const f of ['tags', 'exported', 'file', 'line']) if (!isDeepStrictEqual(r[f], x[f])) return `${k} ${f}: puppet ${JSON.stringify(r[f])?.slice(0, 150)} / modelc ${JSON.stringify(x[f])?.slice(0, 150)}`;
            const pp = (r.parameters ?? {}) as Json;
            const mp = (x.parameters ?? {}) as Json;
            for (const a of new Set([...Object.keys(pp), ...Object.keys(mp)])) {
                if (!isDeepStrictEqual(pp[a], mp[a])) return `${k}.${a}: puppet ${JSON.stringify(pp[a])?.slice(0, 150)} / modelc ${JSON.stringify(mp[a])?.slice(0, 150)}`;
            }
            if (!isDeepStrictEqual(r, x)) return `${k}: other field`;
        }
    }
    for (const k of new Set([...Object.keys(p), ...Object.keys(m)])) {
        if (isDeepStrictEqual(p[k], m[k])) continue;
        const a = p[k], b = m[k];
        if (Array.isArray(a) && Array.isArray(b)) {
            const i = a.findIndex((x, j) => !isDeepStrictEqual(x, b[j]));
            return `${k}[${i}]: puppet ${JSON.stringify(a[i])?.slice(0, 180)} / modelc ${JSON.stringify(b[i])?.slice(0, 180)}`;
        }
        return `${k} differs`;
    }
    return 'equal';
}

interface Verdict { readonly verdict: 'equal' | 'both-error' | 'differ' | 'refused' | 'crash' | 'no-oracle'; readonly detail: string }

async function runModelc(o: Options, cases: Case[]): Promise<Map<Case, Verdict>> {
    const catalog = await import(join(o.dist, 'src', 'catalog', 'index.js')) as typeof import('../../../src/catalog/index.js');
    const node = await import(join(o.dist, 'src', 'node', 'index.js')) as typeof import('../../../src/node/index.js');
    const out = new Map<Case, Verdict>();
    let services = catalog.createCatalogServices();
    let module = '';
    for (const c of cases) {
        if (c.module !== module) { services = catalog.createCatalogServices(); module = c.module; }
        const oracleFile = join(cacheDir(o), `${c.key}.json`);
        const oracleText = existsSync(`${oracleFile}.rc`) ? readFileSync(oracleFile, 'utf8') : undefined;
        if (oracleText !== undefined) writeFileSync(join(c.dir, 'puppet.json'), oracleText);
        let text: string;
        try {
            const req = node.readNodeRequest({ node: NODE, factsFile: join(c.dir, 'facts.yaml') });
            const result = services.compile(c.dir, 'production', { node: req.certname, facts: req.facts, trusted: req.trusted, classes: [], settings: new Map() });
            text = catalog.jsonText(catalog.normalizedResult(result));
        } catch (e) {
            const err = e as Error;
            const detail = `${err.message?.split('\n')[0].slice(0, 200)} @ ${(err.stack ?? '').split('\n').slice(1, 3).map(s => s.trim()).join(' < ')}`;
            writeFileSync(join(c.dir, 'modelc.crash'), String(err.stack ?? err));
            // A located input error by design (plugin code reading outside the environment, Ruby
            // modelc does not run) is a refusal, not a crash.
            const refused = /error (RUBY_[A-Z]+|[A-Z]+_[A-Z_]+):/.test(err.message ?? '');
            out.set(c, { verdict: refused ? 'refused' : 'crash', detail });
            continue;
        }
        writeFileSync(join(c.dir, 'modelc.json'), text);
        if (oracleText === undefined) { out.set(c, { verdict: 'no-oracle', detail: '' }); continue; }
        const p = parseTyped(oracleText) as Json;
        const m = parseTyped(text) as Json;
        if (isDeepStrictEqual(p, m)) out.set(c, { verdict: p.error ? 'both-error' : 'equal', detail: p.error ? String((p.error as Json).message).split('\n')[0].slice(0, 160) : '' });
        else out.set(c, { verdict: 'differ', detail: firstDifference(p, m) });
    }
    return out;
}

function report(o: Options, cases: Case[], verdicts: Map<Case, Verdict>): void {
    const rows = cases.map(c => { const v = verdicts.get(c)!; return [c.module, c.name, `${c.snippet.source}:${c.snippet.line}`, v.verdict, v.detail.replace(/\s+/g, ' ')].join('\t'); });
    writeFileSync(join(o.out, 'results.tsv'), `module\tcase\tsource\tverdict\tdetail\n${rows.join('\n')}\n`);
    const kinds = ['equal', 'both-error', 'differ', 'refused', 'crash', 'no-oracle'] as const;
    const per = new Map<string, Record<string, number>>();
    for (const c of cases) {
        const r = per.get(c.module) ?? Object.fromEntries(kinds.map(k => [k, 0]));
        r[verdicts.get(c)!.verdict]++;
        per.set(c.module, r);
    }
    const total = Object.fromEntries(kinds.map(k => [k, [...per.values()].reduce((s, r) => s + r[k], 0)]));
    const line = (name: string, r: Record<string, number>): string => `${name.padEnd(18)} ${kinds.map(k => String(r[k]).padStart(5)).join(' ')}`;
    const text = [`${'module'.padEnd(18)} ${kinds.map(k => k.padStart(5)).join(' ')}`, ...[...per].map(([n, r]) => line(n, r)), line('TOTAL', total)].join('\n');
    writeFileSync(join(o.out, 'summary.txt'), `${text}\n`);
    console.log(text);
}

const o = options(process.argv.slice(2));
mkdirSync(o.out, { recursive: true });
const index = moduleIndex();
const cases = buildCases(o, index);
console.log(`${cases.length} examples from ${new Set(cases.map(c => c.module)).size} modules`);
runOracle(o, cases);
report(o, cases, await runModelc(o, cases));
