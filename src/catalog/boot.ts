import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../common/index.js';
import type { ParsedFileCache } from '../parse/index.js';
import { CatalogIssues } from './issues.js';

/** The environment a compile runs in: its directory, manifests in evaluation order, module path. */
export interface Environment {
    readonly name: string;
    /** Absolute environment directory; paths in output are relative to it. */
    readonly dir: string;
    readonly manifests: readonly string[];
    readonly modulepath: readonly string[];
    /**
     * Where the environment's files are read and parsed: shared by every compile given the same
     * cache (an `EnvironmentCache`), else private to one compile.
     */
    readonly files?: ParsedFileCache;
}

/** `environment.conf`: `key = value` lines; comments start with `#`. */
function readEnvironmentConf(dir: string): Map<string, string> {
    const out = new Map<string, string>();
    const file = join(dir, 'environment.conf');
    if (!existsSync(file)) return out;
    for (const raw of readFileSync(file, 'utf8').split('\n')) {
        const line = raw.replace(/\s+#.*$/, '').trim();
        if (line === '' || line.startsWith('#') || line.startsWith('[')) continue;
        const m = /^([a-z_]+)\s*=\s*(.*)$/.exec(line);
        if (m) out.set(m[1], m[2].trim());
    }
    return out;
}

/** Every `.pp` below `dir`, sorted byte-wise by full path (Puppet's manifest directory order). */
function manifestsBelow(dir: string): string[] {
    const out: string[] = [];
    const walk = (d: string): void => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
            const p = join(d, e.name);
            if (e.isDirectory()) walk(p);
            else if (e.name.endsWith('.pp')) out.push(p);
        }
    };
    walk(dir);
    return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The manifests a manifest setting names: the file, every .pp below a directory, or none when it does not exist. */
export function manifestsAt(manifestPath: string): string[] {
    if (!existsSync(manifestPath)) return [];
    return statSync(manifestPath).isDirectory() ? manifestsBelow(manifestPath) : [manifestPath];
}

/**
 * Resolves CODEDIR to an environment: an environment directory itself, or a directory holding
 * `environments/<name>` (Puppet's environmentpath). Relative paths in environment.conf are
 * relative to the environment directory; `$basemodulepath` expands to `basemodulepath`.
 */
export function bootEnvironment(codedir: string, name: string, basemodulepath: readonly string[] = []): Environment {
    let dir = resolve(codedir);
    if (!existsSync(dir)) throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message: CatalogIssues.EVAL_NO_SUCH_DIRECTORY.message({ dir: codedir }), file: codedir });
    const envs = join(dir, 'environments', name);
    if (existsSync(envs) && statSync(envs).isDirectory()) dir = envs;
    const conf = readEnvironmentConf(dir);
    const manifestSetting = conf.get('manifest') ?? 'manifests';
    const manifestPath = resolve(dir, manifestSetting);
    const manifests = manifestsAt(manifestPath);
    const modulepathSetting = conf.get('modulepath');
    const modulepath = modulepathSetting === undefined
        ? [join(dir, 'modules'), ...basemodulepath]
        : modulepathSetting.split(':').flatMap(p => p === '$basemodulepath' ? [...basemodulepath] : [resolve(dir, p)]);
    return { name, dir, manifests, modulepath };
}
