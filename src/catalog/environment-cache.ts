import { ParsedFileCache, type FileCacheStats, type ParsedSource } from '../parse/index.js';
import { bootEnvironment, type Environment } from './boot.js';

/**
 * Parse once, compile many: the environments of code directories with their parsed files, shared
 * by every compile (and lookup, review, server or editor request) given this cache.
 *
 * ```ts
 * const cache = new EnvironmentCache();
 * for (const node of nodes) services.compile(codedir, 'production', { ...node, cache });
 * cache.refresh();   // before the next batch: files changed on disk are read and parsed again
 * ```
 *
 * Within one generation (until `refresh()`), the disk is asked about each file once; afterwards a
 * file whose size, times or inode changed is read again and parsed again if its text differs.
 * `invalidate(path)` forgets one file at once (an editor's save).
 */
export class EnvironmentCache {
    readonly files: ParsedFileCache;
    private readonly environments = new Map<string, Environment>();

    constructor(files: ParsedFileCache = new ParsedFileCache()) {
        this.files = files;
    }

    /**
     * The environment of CODEDIR (booted as `bootEnvironment` does: the directory itself or
     * `environments/NAME`, environment.conf, its manifests and module path), with this cache's
     * files; booted once per generation.
     */
    environment(codedir: string, name = 'production', basemodulepath: readonly string[] = [],
        boot: (codedir: string, name: string, basemodulepath: readonly string[]) => Environment = bootEnvironment): Environment {
        const key = JSON.stringify([codedir, name, basemodulepath]);
        let env = this.environments.get(key);
        if (!env) {
            const booted = boot(codedir, name, basemodulepath);
            // An environment read from elsewhere than the disk (a bundle) keeps its own files.
            env = booted.fs || booted.files ? { ...booted, files: booted.files ?? new ParsedFileCache(booted.fs) } : { ...booted, files: this.files };
            this.environments.set(key, env);
        }
        return env;
    }

    /** A manifest or template parsed (never throws for errors in the code: they are in `result.diagnostics`). */
    parse(path: string, options: { readonly epp?: boolean } = {}): ParsedSource {
        return this.files.parse(path, options);
    }

    /** Starts a new generation: environments are booted again and files checked against the disk at their next use. */
    refresh(): void {
        this.environments.clear();
        this.files.refresh();
    }

    /** Forgets one file (its next use reads and parses it), or everything. */
    invalidate(path?: string): void {
        // Booting again is cheap, and a new or deleted manifest changes the environment's list.
        this.environments.clear();
        this.files.invalidate(path);
    }

    stats(): FileCacheStats {
        return this.files.stats();
    }
}
