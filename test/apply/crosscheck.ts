import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyCatalog, createApplyServices, formatLogLine, loadCatalog } from '../../src/apply/index.js';

export const HAS_PUPPET = spawnSync('puppet', ['--version'], { encoding: 'utf8' }).status === 0;

const PATH_PARAMS: Record<string, readonly string[]> = { File: ['path', 'source'], Exec: ['creates', 'cwd'] };

function rebaseRef(ref: string, root: string): string {
    return ref.startsWith('File[/') ? `File[${root}${ref.slice(5)}` : ref;
}

function rebaseValue(v: unknown, root: string): unknown {
    if (typeof v === 'string') return v.startsWith('/') ? `${root}${v}` : v;
    if (Array.isArray(v)) return v.map(x => rebaseValue(x, root));
    return v;
}

function rebaseRefs(v: unknown, root: string): unknown {
    if (typeof v === 'string') return rebaseRef(v, root);
    if (Array.isArray(v)) return v.map(x => rebaseRefs(x, root));
    return v;
}

/**
 * Puppet cannot apply under a root directory, so its copy of the catalog is rebased instead:
 * File paths, sources, exec creates/cwd and references to files get the root as prefix.
 */
export function rebaseCatalog(catalog: Record<string, unknown>, root: string): Record<string, unknown> {
    const resources = (catalog.resources as Record<string, unknown>[]).map(r => {
        const params = { ...(r.parameters as Record<string, unknown> | undefined ?? {}) };
        for (const p of PATH_PARAMS[String(r.type)] ?? []) if (p in params) params[p] = rebaseValue(params[p], root);
        for (const p of ['before', 'require', 'notify', 'subscribe']) if (p in params) params[p] = rebaseRefs(params[p], root);
        return { ...r, title: r.type === 'File' ? `${root}${String(r.title)}` : r.title, parameters: params };
    });
    const edges = (catalog.edges as Record<string, string>[]).map(e => ({ source: rebaseRef(e.source, root), target: rebaseRef(e.target, root) }));
    return { ...catalog, resources, edges };
}

/** The lines both tools print about resources (no timing, no Facter noise). */
function relevant(lines: readonly string[]): string[] {
    return lines.filter(l => /^(Info|Notice|Warning|Error): /.test(l) && !l.startsWith('Error: Facter') && !/^Notice: (Applied|Compiled) catalog/.test(l)
        // Puppet's own bookkeeping, which has no counterpart here.
        && !/^Info: (Using environment|Creating state file)/.test(l));
}

/** `puppet apply --catalog` with throwaway config dirs; returns the resource lines with the root prefix removed. */
export async function puppetApply(catalogFile: string, root: string, noop: boolean): Promise<string[]> {
    const conf = mkdtempSync(join(tmpdir(), 'modelc-puppet-'));
    try {
        const rebased = join(conf, 'catalog.json');
        writeFileSync(rebased, JSON.stringify(rebaseCatalog(JSON.parse(readFileSync(catalogFile, 'utf8')), root)));
        // Facts come from a file (json terminus), so Facter is not run: faster, and no host noise.
        const node = 'testnode.example.com';
        mkdirSync(join(conf, 'vardir/client_data/facts'), { recursive: true });
        writeFileSync(join(conf, `vardir/client_data/facts/${node}.json`), JSON.stringify({ name: node, values: { clientcert: node } }));
        const args = ['apply', '--catalog', rebased, '--verbose', '--color=false', ...(noop ? ['--noop'] : []), '--facts_terminus=json', `--certname=${node}`,
            ...['confdir', 'vardir', 'rundir', 'logdir', 'publicdir', 'codedir'].map(d => `--${d}=${conf}/${d}`)];
        // One stream, so errors (stderr) and notices (stdout) keep their relative order.
        // Asynchronous, so several cases run puppet at the same time.
        const { stdout } = await promisify(execFile)('/bin/sh', ['-c', `exec puppet ${args.map(a => `'${a}'`).join(' ')} 2>&1 || true`], { encoding: 'utf8', timeout: 120_000 });
        const out = stdout.split('\n');
        return relevant(out).map(l => l.split(root).join(''));
    } finally {
        rmSync(conf, { recursive: true, force: true });
    }
}

/** Our apply of the original catalog under the root, printed as `puppet apply` prints. */
export function modelcApply(catalogFile: string, root: string, noop: boolean): string[] {
    const lines: string[] = [];
    const registry = createApplyServices().registries.environment('production');
    applyCatalog(loadCatalog(catalogFile), registry, { root, noop, onLog: m => { if (m.level !== 'debug') lines.push(formatLogLine(m)); } });
    return relevant(lines.flatMap(l => l.split('\n')));
}

/** Creates the parent directories of the catalog's files that the catalog does not manage itself. */
export function prepareRoot(catalogFile: string, root: string): void {
    const catalog = JSON.parse(readFileSync(catalogFile, 'utf8')) as { resources: { type: string; title: string }[] };
    const managed = new Set(catalog.resources.filter(r => r.type === 'File').map(r => r.title));
    for (const r of catalog.resources) {
        if (r.type !== 'File') continue;
        let dir = dirname(r.title);
        while (managed.has(dir)) dir = dirname(dir);
        mkdirSync(join(root, dir), { recursive: true });
    }
}

interface Seed {
    readonly dirs?: Record<string, string>;
    readonly files?: Record<string, { content: string; mode: string }>;
    readonly links?: Record<string, string>;
}

/** Puts a case's starting state (test/fixtures/apply/seeds/NAME.json) under a root: drifted files, links, directories. */
export function seedRoot(seedFile: string, root: string): void {
    if (!existsSync(seedFile)) return;
    const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as Seed;
    for (const [path, mode] of Object.entries(seed.dirs ?? {})) {
        mkdirSync(join(root, path), { recursive: true });
        chmodSync(join(root, path), parseInt(mode, 8));
    }
    for (const [path, f] of Object.entries(seed.files ?? {})) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), f.content);
        chmodSync(join(root, path), parseInt(f.mode, 8));
    }
    for (const [path, target] of Object.entries(seed.links ?? {})) symlinkSync(target, join(root, path));
}
