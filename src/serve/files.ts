import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import { readRegularFile } from '../common/index.js';
import type { Environment } from '../catalog/index.js';
import { HttpFailure } from './environments.js';

/**
 * Puppet's file serving for an environment: the `plugins`, `pluginfacts` and `locales` mounts
 * (every module's lib/, facts.d/ and locales/ merged into one tree, the first module of the
 * module path winning a path both have) that pluginsync reads, and `modules/NAME/PATH` (a
 * module's files/) behind `puppet:///modules/...` sources.
 */
type MountKind = 'plugins' | 'pluginfacts' | 'locales' | 'modules';

const MERGED: Readonly<Record<string, string>> = { plugins: 'lib', pluginfacts: 'facts.d', locales: 'locales' };

/** The query parameters of file_metadata(s) that shape the answer. */
export interface MetadataQuery {
    readonly recurse: boolean;
    readonly links: 'follow' | 'manage';
    readonly checksumType: string;
    readonly ignore: readonly string[];
}

type Json = string | number | null | { [k: string]: Json };

/** The modules of the environment, first of a name along the module path. */
function modulesOf(env: Environment): Map<string, string> {
    const out = new Map<string, string>();
    for (const dir of env.modulepath) {
        let names: string[];
        try {
            names = readdirSync(dir);
        } catch {
            continue;
        }
        for (const n of names.sort()) {
            if (/^[a-z][a-z0-9_]*$/.test(n) && !out.has(n) && isDir(join(dir, n))) out.set(n, join(dir, n));
        }
    }
    return out;
}

function isDir(p: string): boolean {
    try {
        return statSync(p).isDirectory();
    } catch {
        return false;
    }
}

/** A path below a mount may not climb out of it. */
function safeRelative(rel: string): string {
    const parts = rel.split('/').filter(p => p !== '' && p !== '.');
    if (parts.some(p => p === '..' || p.includes('\\'))) throw new HttpFailure(403, 'Forbidden: a file path may not contain ..', 'RUNTIME_ERROR');
    return parts.join('/');
}

/** The base directories a request searches, and the path below them. */
function roots(env: Environment, mountPath: string): { bases: string[]; rel: string } {
    const [mount, ...rest] = mountPath.split('/');
    const kind = mount as MountKind;
    if (kind === 'modules') {
        const [module, ...inside] = rest;
        const dir = module !== undefined ? modulesOf(env).get(module) : undefined;
        return { bases: dir !== undefined ? [join(dir, 'files')] : [], rel: safeRelative(inside.join('/')) };
    }
    const sub = MERGED[kind];
    if (sub === undefined) throw new HttpFailure(404, `Not Found: Could not find a mount point named '${mount}'`, 'RESOURCE_NOT_FOUND');
    return { bases: [...modulesOf(env).values()].map(m => join(m, sub)).filter(isDir), rel: safeRelative(rest.join('/')) };
}

const HASHES: Readonly<Record<string, string>> = { md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512' };

function checksumOf(path: string, type: string, st: Stats): { type: string; value: string } {
    const lite = type.endsWith('lite');
    const algo = HASHES[lite ? type.slice(0, -4) : type];
    if (algo !== undefined) {
        const data = readRegularFile(path);
        return { type, value: `{${type}}${createHash(algo).update(lite ? data.subarray(0, 512) : data).digest('hex')}` };
    }
    if (type === 'mtime' || type === 'ctime') return { type, value: `{${type}}${rubyTime(type === 'mtime' ? st.mtime : st.ctime)}` };
    return { type: 'none', value: '{none}' };
}

/** A time as Ruby's Time#to_s prints it in UTC. */
function rubyTime(d: Date): string {
    return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}

function metadata(base: string, rel: string, q: MetadataQuery): { [k: string]: Json } {
    const full = rel === '' ? base : join(base, ...rel.split('/'));
    const st = q.links === 'follow' ? statSync(full) : lstatSync(full);
    const type = st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : 'none';
    const checksum = type === 'directory' ? { type: 'ctime', value: `{ctime}${rubyTime(st.ctime)}` } : type === 'file' ? checksumOf(full, q.checksumType, st) : { type: 'none', value: '{none}' };
    return {
        path: base, relative_path: rel === '' ? '.' : rel, links: q.links,
        owner: st.uid, group: st.gid, mode: st.mode & 0o7777,
        checksum, type, destination: type === 'link' ? readlinkSync(full) : null
    };
}

/** fnmatch of a basename against Puppet's ignore patterns (`*`, `?`). */
function ignored(name: string, patterns: readonly string[]): boolean {
    return patterns.some(p => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(name));
}

/** Every path below `dir` (relative, `/`-separated), parents before children, ignored names pruned. */
function walk(dir: string, prefix: string, q: MetadataQuery, out: string[]): void {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (ignored(e.name, q.ignore)) continue;
        const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
        out.push(rel);
        const full = join(dir, e.name);
        if (e.isDirectory() || (q.links === 'follow' && e.isSymbolicLink() && isDir(full))) walk(full, rel, q, out);
    }
}

/** `file_metadata/MOUNT/PATH`: the first base holding the path. */
export function fileMetadata(env: Environment, mountPath: string, q: MetadataQuery): { [k: string]: Json } {
    const { bases, rel } = roots(env, mountPath);
    const base = bases.find(b => existsSync(rel === '' ? b : join(b, ...rel.split('/'))));
    if (base === undefined) throw new HttpFailure(404, `Not Found: Could not find file_metadata ${mountPath}`, 'RESOURCE_NOT_FOUND');
    return metadata(base, rel, q);
}

/**
 * `file_metadatas/MOUNT/PATH`: the path and, recursing, everything below it, merged over the
 * bases (the first base giving a relative path wins). A merged mount with no directory at all
 * answers one empty directory, so pluginsync purges what it had.
 */
export function fileMetadatas(env: Environment, mountPath: string, q: MetadataQuery): Array<{ [k: string]: Json }> {
    const { bases, rel } = roots(env, mountPath);
    const found = bases.filter(b => existsSync(rel === '' ? b : join(b, ...rel.split('/'))));
    if (found.length === 0) {
        if (rel === '' && mountPath.split('/')[0] in MERGED) {
            const empty = env.modulepath.find(isDir) ?? env.dir;
            return [{ ...metadata(empty, '', { ...q, links: 'follow' }), relative_path: '.' }];
        }
        throw new HttpFailure(404, `Not Found: Could not find file_metadatas ${mountPath}`, 'RESOURCE_NOT_FOUND');
    }
    const seen = new Map<string, { [k: string]: Json }>();
    for (const base of found) {
        const top = rel === '' ? base : join(base, ...rel.split('/'));
        const here = ['', ...(q.recurse && isDir(top) ? collect(top, q) : [])];
        for (const r of here) {
            const key = r === '' ? '.' : r;
            if (seen.has(key)) continue;
            const m = metadata(top, r, q);
            seen.set(key, m);
        }
    }
    return [...seen.values()];
}

function collect(top: string, q: MetadataQuery): string[] {
    const out: string[] = [];
    walk(top, '', q, out);
    return out.map(p => p.split(sep).join('/'));
}

/** `file_content/MOUNT/PATH`: the bytes of the first base's file. */
export function fileContent(env: Environment, mountPath: string): Buffer {
    const { bases, rel } = roots(env, mountPath);
    for (const b of bases) {
        const full = rel === '' ? b : join(b, ...rel.split('/'));
        if (existsSync(full) && statSync(full).isFile()) return readFileSync(full);
    }
    throw new HttpFailure(404, `Not Found: Could not find file_content ${mountPath}`, 'RESOURCE_NOT_FOUND');
}
