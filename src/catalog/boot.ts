import { join, resolve } from 'node:path';
import { isDirectoryPath, nodeFileSystem, pathExists, UserError, type FileSystemProvider } from '../common/index.js';
import type { ParsedFileCache } from '../parse/index.js';
import { CatalogIssues } from './issues.js';

/** The environment a compile runs in: its directory, manifests in evaluation order, module path. */
export interface Environment {
    readonly name: string;
    /** Absolute environment directory; paths in output are relative to it. */
    readonly dir: string;
    readonly manifests: readonly string[];
    readonly modulepath: readonly string[];
    /** Where its ARM-8 bindings are (environments.pp's `bindingsdir`); default DIR/bindings. */
    readonly bindingsDir?: string;
    /**
     * ARM-8 environments.pp's `templatedir`: where `template()` and `epp()` look before the
     * modules, as Puppet 3's templatedir was. Unset (Puppet 7, no environments.pp): modules only.
     */
    readonly templateDir?: string;
    /** Where the environment's files are read from (default: the disk); an environment bundle's files are in memory. */
    readonly fs?: FileSystemProvider;
    /**
     * Where the environment's files are read and parsed: shared by every compile given the same
     * cache (an `EnvironmentCache`), else private to one compile. A bundle's holds its ASTs.
     */
    readonly files?: ParsedFileCache;
}

/** The source of an environment's files. */
export function filesOf(env: { readonly fs?: FileSystemProvider }): FileSystemProvider {
    return env.fs ?? nodeFileSystem;
}

/** `environment.conf`: `key = value` lines; comments start with `#`. */
function readEnvironmentConf(fs: FileSystemProvider, dir: string): Map<string, string> {
    const out = new Map<string, string>();
    const file = join(dir, 'environment.conf');
    if (!pathExists(fs, file)) return out;
    for (const raw of fs.readText(file).split('\n')) {
        const line = raw.replace(/\s+#.*$/, '').trim();
        if (line === '' || line.startsWith('#') || line.startsWith('[')) continue;
        const m = /^([a-z_]+)\s*=\s*(.*)$/.exec(line);
        if (m) out.set(m[1], m[2].trim());
    }
    return out;
}

/** Every `.pp` below `dir`, sorted byte-wise by full path (Puppet's manifest directory order). */
function manifestsBelow(fs: FileSystemProvider, dir: string): string[] {
    const out: string[] = [];
    const walk = (d: string): void => {
        for (const name of fs.readdir(d)) {
            const p = join(d, name);
            const st = fs.stat(p);
            if (st?.isDirectory) walk(p);
            else if (st !== undefined && name.endsWith('.pp')) out.push(p);
        }
    };
    walk(dir);
    return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The manifests a manifest setting names: the file, every .pp below a directory, or none when it does not exist. */
export function manifestsAt(manifestPath: string, fs: FileSystemProvider = nodeFileSystem): string[] {
    if (!pathExists(fs, manifestPath)) return [];
    return isDirectoryPath(fs, manifestPath) ? manifestsBelow(fs, manifestPath) : [manifestPath];
}

/**
 * Resolves CODEDIR to an environment: an environment directory itself, or a directory holding
 * `environments/<name>` (Puppet's environmentpath). Relative paths in environment.conf are
 * relative to the environment directory; `$basemodulepath` expands to `basemodulepath`.
 */
export function bootEnvironment(codedir: string, name: string, basemodulepath: readonly string[] = [], fs: FileSystemProvider = nodeFileSystem): Environment {
    let dir = resolve(codedir);
    if (!pathExists(fs, dir)) throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message: CatalogIssues.EVAL_NO_SUCH_DIRECTORY.message({ dir: codedir }), file: codedir });
    const envs = join(dir, 'environments', name);
    if (isDirectoryPath(fs, envs)) dir = envs;
    const conf = readEnvironmentConf(fs, dir);
    const manifestSetting = conf.get('manifest') ?? 'manifests';
    const manifestPath = resolve(dir, manifestSetting);
    const manifests = manifestsAt(manifestPath, fs);
    const modulepathSetting = conf.get('modulepath');
    const modulepath = modulepathSetting === undefined
        ? [join(dir, 'modules'), ...basemodulepath]
        : modulepathSetting.split(':').flatMap(p => p === '$basemodulepath' ? [...basemodulepath] : [resolve(dir, p)]);
    return { name, dir, manifests, modulepath, ...(fs === nodeFileSystem ? {} : { fs }) };
}
