import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseTypeString } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import { PluginCallError, PluginFailure, type PluginHost, type PluginModule } from './puppet/host.js';
import { PluginRuntime } from './puppet/runtime.js';
import { SchemaRegistry } from './puppet/type-dsl.js';

export type PluginKind = 'function4' | 'function3' | 'type';

export interface PluginResult {
    readonly module: string;
    readonly kind: PluginKind;
    readonly name: string;
    readonly file: string;
    /** Undefined when the file loaded and defined its plugin. */
    readonly error?: string;
}

export interface CensusReport {
    readonly results: readonly PluginResult[];
    /** Modules of the OpenStack family (counted apart: the targets exclude them). */
    readonly openstack: ReadonlySet<string>;
}

function rbFiles(dir: string): string[] {
    if (!existsSync(dir)) return [];
    const out: string[] = [];
    for (const e of readdirSync(dir).sort()) {
        const p = join(dir, e);
        if (statSync(p).isDirectory()) out.push(...rbFiles(p));
        else if (e.endsWith('.rb')) out.push(p);
    }
    return out;
}

function isOpenstack(dir: string, name: string): boolean {
    const meta = join(dir, 'metadata.json');
    if (existsSync(meta)) {
        try {
            const m = JSON.parse(readFileSync(meta, 'utf8')) as { name?: string; author?: string; source?: string };
            if (/openstack/i.test(`${m.name ?? ''} ${m.author ?? ''} ${m.source ?? ''}`)) return true;
        } catch { /* a broken metadata.json says nothing */ }
    }
    return name === 'openstacklib' || name === 'oslo';
}

const CENSUS_OS: PuppetValue = new Map<string, PuppetValue>([
    ['name', 'Debian'], ['family', 'Debian'],
    ['release', new Map<string, PuppetValue>([['full', '12.5'], ['major', '12'], ['minor', '5']])]
]);

/** A host for loading only: nothing is called, types parse without an environment's aliases. */
const loadingHost: PluginHost = {
    environment: 'census',
    parseType: (text, local) => parseTypeString(text, local),
    callFunction: name => { throw new PluginCallError(`census: ${name} is not called while loading`, 'RuntimeError'); },
    log: () => undefined,
    setting: () => undefined,
    warnOnce: () => undefined,
    // Types may read a host fact while loading (firewall's Facter.value(:os)): the census loads them as on a Debian 12 host.
    fact: name => (name === 'os' ? CENSUS_OS : undefined),
    puppetStack: () => []
};

/**
 * Loads every Ruby 4.x function, 3.x function and resource type of the modules in a directory
 * (each module in a runtime of its own, with all modules on the path for `require`) and reports
 * which define their plugin without error. A 4.x function's signatures are parsed too.
 */
export function census(root: string): CensusReport {
    const modules: PluginModule[] = readdirSync(root).sort().filter(n => /^[a-z][a-z0-9_]*$/.test(n) && statSync(join(root, n)).isDirectory()).map(name => ({ name, dir: join(root, name) }));
    const results: PluginResult[] = [];
    const openstack = new Set(modules.filter(m => isOpenstack(m.dir, m.name)).map(m => m.name));
    for (const m of modules) {
        const ordered = [m, ...modules.filter(x => x !== m)];
        const rt = new PluginRuntime(ordered, loadingHost, new SchemaRegistry(), root, undefined, { moduleLibsOnLoadPath: true });
        // As on an agent, the file type (and what its file defines) is loaded before any module's.
        rt.coreTypeLoaded('file');
        const lib = join(m.dir, 'lib', 'puppet');
        const attempt = (kind: PluginKind, file: string, name: string, defined: () => boolean): void => {
            let error: string | undefined;
            try {
                rt.loadFile(file);
                if (!defined()) error = `${name} was not defined by its file`;
            } catch (e) {
                error = e instanceof PluginFailure ? `${e.kind}: ${e.message} (${e.file}:${e.line}:${e.column})` : e instanceof Error ? e.message : String(e);
            }
            results.push({ module: m.name, kind, name, file: relative(root, file), ...(error !== undefined ? { error } : {}) });
        };
        const fnDir = join(lib, 'functions');
        for (const f of rbFiles(fnDir)) {
            const name = relative(fnDir, f).replace(/\.rb$/, '').split('/').join('::');
            attempt('function4', f, name, () => {
                const fn = rt.functions4.get(name);
                if (fn) fn.signatures(rt);
                return fn !== undefined;
            });
        }
        for (const f of rbFiles(join(lib, 'parser', 'functions'))) {
            const name = f.slice(f.lastIndexOf('/') + 1).replace(/\.rb$/, '');
            attempt('function3', f, name, () => rt.functions3.get(name) !== undefined);
        }
        const typeDir = join(lib, 'type');
        const typeFiles = existsSync(typeDir) ? readdirSync(typeDir, { withFileTypes: true }).filter(e => e.isFile() && e.name.endsWith('.rb')).map(e => join(typeDir, e.name)).sort() : [];
        for (const f of typeFiles) {
            const name = f.slice(f.lastIndexOf('/') + 1).replace(/\.rb$/, '');
            attempt('type', f, name, () => rt.registry.schema(name) !== undefined);
        }
    }
    return { results, openstack };
}

/** The census as a table: loaded/total per kind, outside and inside the OpenStack family. */
export function censusSummary(report: CensusReport): string {
    const lines: string[] = [];
    for (const family of ['non-OpenStack', 'OpenStack'] as const) {
        const inFamily = report.results.filter(r => report.openstack.has(r.module) === (family === 'OpenStack'));
        for (const kind of ['function4', 'function3', 'type'] as const) {
            const all = inFamily.filter(r => r.kind === kind);
            const ok = all.filter(r => r.error === undefined).length;
            lines.push(`${family.padEnd(14)} ${kind.padEnd(10)} ${String(ok).padStart(4)}/${String(all.length).padEnd(4)} ${all.length ? ((100 * ok) / all.length).toFixed(1) : '-'}%`);
        }
    }
    return lines.join('\n');
}
