import { globSync, readdirSync, statSync } from 'node:fs';
import { dirname, matchesGlob, resolve } from 'node:path';
import { readRegularFile } from './files.js';

/** What the stages need to know of a path: its kind, size and modification time. */
export interface FileStat {
    readonly isFile: boolean;
    readonly isDirectory: boolean;
    readonly size: number;
    readonly mtimeMs: number;
}

/**
 * The one source of files of the compile pipeline (code, templates, Hiera configs and data,
 * module metadata, Ruby plugins, facts). The stages read through it rather than `node:fs`, so an
 * environment can come from a bundle (a model file) as well as from a directory. Paths are
 * absolute; readers throw like `node:fs` (an Error with `code` `ENOENT` or `EISDIR`).
 */
export interface FileSystemProvider {
    /** The path's kind, size and mtime; undefined when nothing is there. */
    stat(path: string): FileStat | undefined;
    readFile(path: string): Uint8Array;
    readText(path: string): string;
    /** The names in a directory (not sorted). */
    readdir(path: string): string[];
    /** The absolute paths matching an absolute glob pattern (`*`, `**`, `?`, `[...]`, `{a,b}`). */
    glob(pattern: string): string[];
}

export function pathExists(fs: FileSystemProvider, path: string): boolean {
    return fs.stat(path) !== undefined;
}

export function isDirectoryPath(fs: FileSystemProvider, path: string): boolean {
    return fs.stat(path)?.isDirectory === true;
}

export function isFilePath(fs: FileSystemProvider, path: string): boolean {
    return fs.stat(path)?.isFile === true;
}

/** The local disk. */
export class NodeFileSystemProvider implements FileSystemProvider {
    stat(path: string): FileStat | undefined {
        try {
            // A missing path answers undefined without an exception (an error object with its
            // stack for every path probed that is not there).
            const s = statSync(path, { throwIfNoEntry: false });
            return s && { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, mtimeMs: s.mtimeMs };
        } catch {
            return undefined;
        }
    }

    readFile(path: string): Uint8Array {
        try {
            return readRegularFile(path);
        } catch (e) {
            throw withPath(e, path);
        }
    }

    readText(path: string): string {
        try {
            return readRegularFile(path).toString('utf8');
        } catch (e) {
            throw withPath(e, path);
        }
    }

    readdir(path: string): string[] {
        return readdirSync(path);
    }

    glob(pattern: string): string[] {
        return globSync(pattern).map(p => resolve(p));
    }
}

/** node:fs names no path when the read itself fails (EISDIR): the reader's callers need it to say which file. */
function withPath(e: unknown, path: string): unknown {
    if (e instanceof Error && (e as NodeJS.ErrnoException).path === undefined) Object.assign(e, { path });
    return e;
}

function fsError(code: 'ENOENT' | 'EISDIR' | 'ENOTDIR', path: string): Error {
    const e = new Error(`${code}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'illegal operation on a directory' : 'not a directory'}, '${path}'`);
    return Object.assign(e, { code, path });
}

/**
 * Files held in memory (an environment bundle): every file under its absolute path; the
 * directories are those that hold a file. All files share one mtime, so caches keyed by mtime
 * see them as unchanged.
 */
export class MemoryFileSystemProvider implements FileSystemProvider {
    private readonly files = new Map<string, Uint8Array>();
    private readonly dirs = new Map<string, Set<string>>();

    constructor(files: Iterable<readonly [string, Uint8Array | string]> = [], private readonly mtimeMs = 0) {
        for (const [path, content] of files) this.add(path, content);
    }

    add(path: string, content: Uint8Array | string): void {
        const abs = resolve(path);
        this.files.set(abs, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
        for (let child = abs, dir = dirname(abs); ; child = dir, dir = dirname(dir)) {
            const names = this.dirs.get(dir) ?? new Set<string>();
            names.add(child.slice(dir.length).replace(/^[\\/]/, ''));
            this.dirs.set(dir, names);
            if (dirname(dir) === dir) break;
        }
    }

    /** Every file's absolute path, sorted. */
    paths(): string[] {
        return [...this.files.keys()].sort();
    }

    stat(path: string): FileStat | undefined {
        const abs = resolve(path);
        const file = this.files.get(abs);
        if (file) return { isFile: true, isDirectory: false, size: file.byteLength, mtimeMs: this.mtimeMs };
        if (this.dirs.has(abs)) return { isFile: false, isDirectory: true, size: 0, mtimeMs: this.mtimeMs };
        return undefined;
    }

    readFile(path: string): Uint8Array {
        const abs = resolve(path);
        const file = this.files.get(abs);
        if (file) return file;
        throw fsError(this.dirs.has(abs) ? 'EISDIR' : 'ENOENT', path);
    }

    readText(path: string): string {
        return Buffer.from(this.readFile(path)).toString('utf8');
    }

    readdir(path: string): string[] {
        const abs = resolve(path);
        const names = this.dirs.get(abs);
        if (names) return [...names];
        throw fsError(this.files.has(abs) ? 'ENOTDIR' : 'ENOENT', path);
    }

    glob(pattern: string): string[] {
        const abs = resolve(pattern);
        const candidates = [...this.files.keys(), ...this.dirs.keys()];
        return candidates.filter(p => matchesGlob(p, abs)).sort();
    }
}

/** The disk, shared by everything that is not given another source of files. */
export const nodeFileSystem: FileSystemProvider = new NodeFileSystemProvider();

/** The services every stage shares (Langium's shared module): today, the source of files. */
export interface ModelcSharedServices {
    readonly fileSystemProvider: FileSystemProvider;
}

export interface SharedServicesContext {
    /** Default: the local disk. */
    readonly fileSystemProvider?: FileSystemProvider;
}

export function createSharedServices(context: SharedServicesContext = {}): ModelcSharedServices {
    return { fileSystemProvider: context.fileSystemProvider ?? nodeFileSystem };
}
