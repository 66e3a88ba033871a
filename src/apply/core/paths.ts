import { chmodSync, chownSync, lstatSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { PuppetError } from '../errors.js';

/** Links followed while resolving one path, as the kernel's ELOOP bound. */
const MAX_LINK_HOPS = 40;

/**
 * The real path of a catalog path under the run's root ("/etc/motd" under /tmp/r → /tmp/r/etc/motd).
 * Under a root the directories on the way are resolved as if the root were `/` (a chroot): a
 * symlink inside the root pointing at `/etc` or climbing with `..` stays inside the root, so
 * no resource can reach outside it. The last component is not followed (a file resource
 * manages the link itself; content is replaced by rename, which does not follow it either).
 */
export function underRoot(root: string, path: string): string {
    if (root === '/') return path;
    const base = resolve(root);
    const pending = path.split('/').filter(p => p !== '' && p !== '.');
    const last = pending.length > 0 && pending[pending.length - 1] !== '..' ? pending.pop() : undefined;
    const at: string[] = [];
    let hops = 0;
    for (let part = pending.shift(); part !== undefined; part = pending.shift()) {
        if (part === '..') { at.pop(); continue; }
        const candidate = join(base, ...at, part);
        let link: string | undefined;
        try {
            if (lstatSync(candidate).isSymbolicLink()) link = readlinkSync(candidate);
        } catch {
            // missing: later components are created or reported missing by the caller
        }
        if (link === undefined) { at.push(part); continue; }
        if (++hops > MAX_LINK_HOPS) throw new PuppetError(`Too many levels of symbolic links resolving ${path} under ${root}`);
        if (link.startsWith('/')) at.length = 0;
        pending.unshift(...link.split('/').filter(p => p !== '' && p !== '.'));
    }
    return last === undefined ? join(base, ...at) : join(base, ...at, last);
}

/**
 * Replaces a file's content through a temporary file in the same directory and a rename, so a
 * run killed mid-write leaves the old content or the new, never a truncated file. An existing
 * regular file keeps its mode and owner.
 */
export function replaceFileContent(path: string, content: string | Uint8Array): void {
    const tmp = join(dirname(path), `.${basename(path)}.modelc-${process.pid}.tmp`);
    let previous: { mode: number; uid: number; gid: number } | undefined;
    try {
        const st = lstatSync(path);
        if (st.isFile()) previous = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
    } catch {
        // a new file
    }
    try {
        writeFileSync(tmp, content, { flag: 'wx', ...(previous ? { mode: previous.mode } : {}) });
        if (previous) {
            chmodSync(tmp, previous.mode);
            try {
                chownSync(tmp, previous.uid, previous.gid);
            } catch {
                // not ours to give away: the file stays the writer's, as a plain write would leave it
            }
        }
        renameSync(tmp, path);
    } catch (e) {
        rmSync(tmp, { force: true });
        throw e;
    }
}
