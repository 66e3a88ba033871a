import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Program } from '../../generated/langium/ast.js';
import { nodeFileSystem, type FileSystemProvider } from '../common/index.js';
import { parsePuppet, type ParseOptions, type ParseResult } from './parse.js';

/** A source file as read: its text (decoded by the caller's rule) and its parses by options. */
export interface SourceText {
    readonly path: string;
    readonly text: string;
}

export interface ParsedSource extends SourceText {
    readonly result: ParseResult;
}

/** How many reads and parses a cache did and saved (for benchmarks and tests). */
export interface FileCacheStats {
    /** Files read from disk (first use, or changed on disk). */
    readonly reads: number;
    /** Parses run; every other parse request was answered from the cache. */
    readonly parses: number;
    readonly hits: number;
}

interface Entry {
    /** The generation in which the file was last checked against the disk. */
    checked: number;
    /** size, mtime, ctime and inode: a change of any means the file may have changed. */
    signature: string;
    text: string;
    readonly parses: Map<string, ParseResult>;
    /** What callers built from the text (`derive`), by their keys. */
    readonly derived: Map<string, unknown>;
}

function signatureOf(fs: FileSystemProvider, path: string): string | undefined {
    if (fs !== nodeFileSystem) {
        const st = fs.stat(path);
        return st ? `${st.size}:${st.mtimeMs}` : undefined;
    }
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s ? `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}` : undefined;
}

const utf8 = (bytes: Buffer): string => bytes.toString('utf8');

/** ASTs known before any parse (an environment bundle's), by absolute path. */
export type GivenAsts = (path: string, epp: boolean) => Program | undefined;

/**
 * Parsed source files, shared by every compile that uses them: a file is read and parsed once and
 * its AST reused (nothing downstream changes an AST) until the file changes.
 *
 * Files are checked against the disk once per *generation*: within one, every use answers from
 * memory without touching the disk (a batch of compiles sees one consistent snapshot); after
 * `refresh()`, the next use of a file compares its size, times and inode, and only a file that
 * changed is read again, and parsed again only if its text differs. A server calls `refresh()` per
 * request; an editor calls `invalidate(path)` when a file is saved.
 */
export class ParsedFileCache {
    private generation = 0;
    private readonly entries = new Map<string, Entry>();
    private readonly existing = new Map<string, { checked: number; exists: boolean }>();
    private readonly computed = new Map<string, { checked: number; value: unknown }>();
    private counts = { reads: 0, parses: 0, hits: 0 };

    /**
     * `fs`: where files are read (the disk, or an environment bundle's files in memory); `given`:
     * ASTs that stand for parses (a bundle's), used instead of parsing the file's text.
     */
    constructor(private readonly fs: FileSystemProvider = nodeFileSystem, private readonly given?: GivenAsts) {}

    /** Starts a new generation: each file is checked against the disk again at its next use. */
    refresh(): void {
        this.generation++;
    }

    /** Forgets one file (or every file): its next use reads and parses it again. */
    invalidate(path?: string): void {
        if (path === undefined) {
            this.entries.clear();
            this.existing.clear();
            this.computed.clear();
        } else {
            this.entries.delete(path);
            this.existing.delete(path);
            // Listings and the like may include the file.
            this.computed.clear();
        }
    }

    stats(): FileCacheStats {
        return { ...this.counts };
    }

    /** Whether a file exists, asked of the disk once per generation. */
    exists(path: string): boolean {
        const known = this.existing.get(path);
        if (known && known.checked === this.generation) return known.exists;
        const exists = this.fs.stat(path) !== undefined;
        this.existing.set(path, { checked: this.generation, exists });
        return exists;
    }

    /**
     * The text of a file. `decode` turns its bytes into text (and may throw for bytes it refuses,
     * which then stay uncached); the first decode rule to succeed for a file is kept.
     * Reading errors (a missing file) are thrown as `readFileSync` throws them.
     */
    text(path: string, decode: (bytes: Buffer) => string = utf8): SourceText {
        return { path, text: this.entry(path, decode).text };
    }

    /** The parse of a file with these options (as `parsePuppet`), run once while the file is unchanged. */
    parse(path: string, options: ParseOptions & { readonly display?: string; readonly decode?: (bytes: Buffer) => string } = {}): ParsedSource {
        const entry = this.entry(path, options.decode ?? utf8);
        const key = `${options.epp === true}:${options.validate !== false}:${options.engine ?? 'fast'}:${options.compact === true}:${options.display ?? path}`;
        let result = entry.parses.get(key);
        if (result) {
            this.counts.hits++;
        } else {
            const { display, decode, ...parseOptions } = options;
            void decode;
            const ast = this.given?.(path, options.epp === true);
            result = ast ? { ast, diagnostics: [] } : parsePuppet(entry.text, display ?? path, parseOptions);
            if (!ast) this.counts.parses++;
            entry.parses.set(key, result);
        }
        return { path, text: entry.text, result };
    }

    /**
     * Something built from a file's text (a parsed ERB template, say), built once while the file
     * is unchanged; `key` names what is built, so different builders of one file do not collide.
     */
    derive<T>(path: string, key: string, build: (text: string) => T, decode: (bytes: Buffer) => string = utf8): T {
        const entry = this.entry(path, decode);
        if (entry.derived.has(key)) {
            this.counts.hits++;
            return entry.derived.get(key) as T;
        }
        const value = build(entry.text);
        entry.derived.set(key, value);
        return value;
    }

    private view: (FileSystemProvider & { readonly base: FileSystemProvider }) | undefined;

    /**
     * The source of files as seen through this cache: a path's kind and a directory's names are
     * asked of the source once per generation, a file's text read once while it is unchanged (for
     * readers that probe many paths, like the Ruby autoloader). `base` is the source itself.
     */
    files(): FileSystemProvider & { readonly base: FileSystemProvider } {
        const fs = this.fs;
        this.view ??= {
            base: fs,
            // A path whose directory's listing says it is not there is not asked about: readers
            // probing many candidate paths (the Ruby autoloader, Hiera) mostly probe missing ones.
            stat: path => (this.listed(path) === false ? undefined : this.once(`stat\0${path}`, () => fs.stat(path))),
            readFile: path => fs.readFile(path),
            readText: path => this.text(path).text,
            readdir: path => [...this.once(`readdir\0${path}`, () => fs.readdir(path))],
            glob: pattern => fs.glob(pattern)
        };
        return this.view;
    }

    /**
     * Whether a path's directory lists its name (once per generation): false when the directory
     * is missing, not a directory, or has no such entry; undefined when the listing cannot say
     * (a directory that cannot be read, a root).
     */
    private listed(path: string): boolean | undefined {
        const dir = dirname(path);
        if (dir === path) return undefined;
        const names = this.once(`names\0${dir}`, (): ReadonlySet<string> | 'missing' | 'unknown' => {
            try {
                return new Set(this.fs.readdir(dir));
            } catch (e) {
                const code = (e as NodeJS.ErrnoException).code;
                return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unknown';
            }
        });
        if (names === 'unknown') return undefined;
        return names !== 'missing' && names.has(basename(path));
    }

    /** A value computed from the disk (a directory listing, say), computed once per generation. */
    once<T>(key: string, compute: () => T): T {
        const known = this.computed.get(key);
        if (known && known.checked === this.generation) return known.value as T;
        const value = compute();
        this.computed.set(key, { checked: this.generation, value });
        return value;
    }

    private entry(path: string, decode: (bytes: Buffer) => string): Entry {
        const known = this.entries.get(path);
        if (known && known.checked === this.generation) return known;
        const signature = signatureOf(this.fs, path);
        if (known && signature === known.signature) {
            known.checked = this.generation;
            return known;
        }
        const bytes = Buffer.from(this.fs.readFile(path));
        this.counts.reads++;
        const text = decode(bytes);
        if (known && known.text === text) {
            known.checked = this.generation;
            known.signature = signature ?? '';
            return known;
        }
        const entry: Entry = { checked: this.generation, signature: signature ?? '', text, parses: new Map(), derived: new Map() };
        this.entries.set(path, entry);
        this.existing.set(path, { checked: this.generation, exists: true });
        return entry;
    }
}
