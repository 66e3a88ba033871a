import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArgumentError, PuppetError } from '../errors.js';
import type { ClassicResource } from '../dsl/resource.js';
import { newtype, type ClassicType } from '../dsl/type.js';
import { ABSENT, sym, toS, type DslValue } from '../dsl/values.js';
import { replaceFileContent, underRoot } from './paths.js';
import { readDb } from './system-db.js';

const FROM_SOURCE = sym('rsapi_from_source');

/** Parameters Puppet's file type accepts that this implementation records but does not act on. */
const PASSIVE_PARAMS = ['backup', 'checksum', 'checksum_value', 'ignore', 'links', 'max_files', 'purge', 'recurse', 'recurselimit',
    'selinux_ignore_defaults', 'show_diff', 'sourceselect', 'validate_cmd', 'validate_replacement', 'source_permissions',
    'seltype', 'selrole', 'seluser', 'selrange', 'ctime', 'mtime', 'type', 'provider', 'staging_location'];

/** Ruby's Time#to_s in UTC: `2026-11-27 16:54:27 +0000`. */
function rubyTime(d: Date): string {
    return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}

const READ_ONLY: Readonly<Record<string, (path: string) => string>> = {
    ctime: path => rubyTime(lstatSync(path).ctime),
    mtime: path => rubyTime(lstatSync(path).mtime),
    type: path => {
        const st = lstatSync(path);
        return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'directory' : st.isFile() ? 'file' : st.isFIFO() ? 'fifo' : st.isSocket() ? 'socket'
            : st.isCharacterDevice() ? 'characterSpecial' : st.isBlockDevice() ? 'blockSpecial' : 'unknown';
    }
};

function realPath(r: ClassicResource): string {
    return underRoot(r.env?.root ?? '/', toS(r.get('path')));
}

function kindOf(path: string): symbol {
    try {
        const st = lstatSync(path);
        return st.isSymbolicLink() ? sym('link') : st.isDirectory() ? sym('directory') : sym('file');
    } catch {
        return ABSENT;
    }
}

function checksum(data: string | Buffer): string {
    return `{sha256}${createHash('sha256').update(data).digest('hex')}`;
}

/** The desired content: the content parameter, or the source file read under the root. */
function desiredContent(r: ClassicResource): Buffer | undefined {
    const content = r.get('content');
    if (content === undefined) return undefined;
    if (content !== FROM_SOURCE) return Buffer.from(toS(content));
    const source = toS(r.get('source'));
    const local = source.startsWith('file:') ? fileURLToPath(source) : source;
    if (!local.startsWith('/')) throw new PuppetError(`Could not retrieve information from environment ${'production'} source(s) ${source}`);
    const path = underRoot(r.env?.root ?? '/', local);
    if (!existsSync(path)) throw new PuppetError(`Could not retrieve information from environment production source(s) file:${local}`);
    return readFileSync(path);
}

function lookupId(r: ClassicResource, file: '/etc/passwd' | '/etc/group', name: DslValue, what: string): number {
    const n = toS(name);
    if (/^\d+$/.test(n)) return Number(n);
    // Owners and groups are the host's accounts: --root relocates files, not the user database.
    const entry = readDb('/', file).find(e => e.name === n);
    if (!entry) throw new PuppetError(`Could not find ${what} ${n}`);
    return entry.id;
}

/** An unknown account makes the property out of sync; the failure comes when syncing it. */
function idOrNull(r: ClassicResource, file: '/etc/passwd' | '/etc/group', name: DslValue): number | null {
    try {
        return lookupId(r, file, name, '');
    } catch {
        return null;
    }
}


function nameOf(file: '/etc/passwd' | '/etc/group', id: number): string {
    return readDb('/', file).find(e => e.id === id)?.name ?? String(id);
}

/** Writes what ensure => file/directory/link creates, with the mode, owner and group asked for. */
function create(r: ClassicResource, kind: string): void {
    const path = realPath(r);
    // Like Puppet, missing parent directories are an error, not created on the way.
    if (!existsSync(dirname(path))) throw new PuppetError(`No such file or directory @ rb_sysopen - ${toS(r.get('path'))}`);
    const existing = kindOf(path);
    if (existing !== ABSENT && toS(existing) !== kind) rmSync(path, { recursive: r.is('force'), force: true });
    if (kind === 'directory') mkdirSync(path, { recursive: true });
    else if (kind === 'link') {
        const target = r.get('target');
        if (target === undefined) throw new ArgumentError('Cannot create a link without a target');
        symlinkSync(toS(target), path);
        return;
    } else replaceFileContent(path, desiredContent(r) ?? '');
    applyMetadata(r, path);
}

function applyMetadata(r: ClassicResource, path: string): void {
    const mode = r.get('mode');
    if (mode !== undefined) chmodSync(path, parseInt(toS(mode), 8));
    const owner = r.get('owner');
    const group = r.get('group');
    if (owner !== undefined || group !== undefined) {
        const st = lstatSync(path);
        chownSync(path, owner !== undefined ? lookupId(r, '/etc/passwd', owner, 'user') : st.uid, group !== undefined ? lookupId(r, '/etc/group', group, 'group') : st.gid);
    }
}

/**
 * `file` acting on paths under the run's root: ensure (file, directory, link, present, absent),
 * content and source (compared by sha256 checksum, as Puppet 7 reports them), mode, owner,
 * group and target, with Puppet's change messages.
 */
export function fileType(): ClassicType {
    return newtype('file', t => {
        t.desc('Manages files, including their content, ownership, and permissions.');
        // The properties act themselves; the provider only names how (Puppet's `posix`).
        // Puppet's File.instances lists nothing: `puppet resource file PATH` reads the path itself.
        t.instances(() => []);
        t.provide({ name: 'posix', isDefault: true, features: ['manages_symlinks'], create: () => ({ name: 'posix' }) });
        t.titlePatterns([[/^(.*?)\/*(?![\s\S])/s, [['path', v => v === '' ? '/' : v]]]]);
        t.newparam('path', { namevar: true }, p => {
            p.desc('The path to the file to manage. Must be fully qualified.');
            p.validate(function (v) {
                if (!toS(v).startsWith('/')) throw new ArgumentError(`File paths must be fully qualified, not '${toS(v)}'`);
            });
            p.munge(v => toS(v).length > 1 ? toS(v).replace(/\/+$/, '') : toS(v));
        });
        t.newproperty('ensure', p => {
            p.desc('Whether the file should exist, and if so what kind of file it should be.');
            p.newvalues('absent', 'present', 'file', 'directory', 'link');
            p.aliasvalue('false', 'absent');
            // With content or source the file is a plain file; otherwise ensure stays unset.
            p.defaultto(r => r.get('content') !== undefined || r.get('source') !== undefined ? 'file' : null);
            p.retrieve(function () { return kindOf(realPath(this.resource)); });
            p.insync(function (is) {
                const should = toS(this.should);
                if (should === 'present') return is !== ABSENT;
                return toS(is) === should;
            });
            p.changeToS(function (is, should) {
                const r = this.resource;
                const content = r.get('content');
                if ((toS(should) === 'file' || toS(should) === 'present') && content !== undefined && is === ABSENT) {
                    return `defined content as '${checksum(desiredContent(r) ?? '')}'`;
                }
                if (is === ABSENT) return 'created';
                if (toS(should) === 'absent') return 'removed';
                return `ensure changed '${toS(is)}' to '${toS(should)}'`;
            });
            p.sync(function () {
                const r = this.resource;
                const should = toS(this.should);
                const path = realPath(r);
                if (should === 'absent') {
                    if (kindOf(path) === sym('directory') && !r.is('force')) throw new PuppetError('Could not remove directory; use force to override');
                    rmSync(path, { recursive: true, force: true });
                    return 'file_removed';
                }
                try {
                    create(r, should === 'present' ? 'file' : should);
                } catch (e) {
                    // Puppet wraps the failure with the value and the declaration and logs it on raising it,
                    // before the harness logs the exception and reports the change failure.
                    const where = r.file !== undefined && r.line !== undefined ? ` (file: ${r.file}, line: ${r.line})` : '';
                    const message = `Could not set '${should}' on ensure: ${e instanceof Error ? e.message : String(e)}${where}`;
                    r.env?.log({ level: 'err', message, time: new Date() });
                    throw new PuppetError(message);
                }
                return 'file_created';
            });
        });
        t.newproperty('content', p => {
            p.desc('The desired contents of a file, as a string.');
            p.retrieve(function () {
                const path = realPath(this.resource);
                if (kindOf(path) !== sym('file')) return ABSENT;
                return checksum(readFileSync(path));
            });
            p.insync(function (is) {
                if (this.resource.get('replace') === sym('false') && is !== ABSENT) return true;
                return is === checksum(desiredContent(this.resource) ?? '');
            });
            p.isToS(is => is === ABSENT ? "'absent'" : `'${toS(is)}'`);
            p.shouldToS(function () { return `'${checksum(desiredContent(this.resource) ?? '')}'`; });
            p.changeToS(function (is) {
                const to = checksum(desiredContent(this.resource) ?? '');
                return is === ABSENT ? `defined content as '${to}'` : `content changed '${toS(is)}' to '${to}'`;
            });
            p.sync(function () {
                replaceFileContent(realPath(this.resource), desiredContent(this.resource) ?? '');
                return 'content_changed';
            });
        });
        t.newparam('source', p => p.desc('A source file, which will be copied into place on the local system.'));
        t.newproperty('mode', p => {
            p.desc('The desired permissions mode for the file, in symbolic or numeric notation.');
            p.validate(v => {
                if (!/^[0-7]{1,4}$/.test(toS(v))) throw new ArgumentError(`The file mode specification is invalid: ${JSON.stringify(toS(v))}`);
            });
            p.munge(v => toS(v).padStart(4, '0'));
            p.retrieve(function () {
                const path = realPath(this.resource);
                if (kindOf(path) === ABSENT) return ABSENT;
                return (lstatSync(path).mode & 0o7777).toString(8).padStart(4, '0');
            });
            p.sync(function () { chmodSync(realPath(this.resource), parseInt(toS(this.should), 8)); return 'mode_changed'; });
        });
        // The posix provider reads owner and group as numeric ids (what `puppet resource` prints);
        // messages name them (is_to_s), as Puppet's do.
        const account = (prop: 'owner' | 'group', db: '/etc/passwd' | '/etc/group', desc: string): void => {
            t.newproperty(prop, p => {
                p.desc(desc);
                p.retrieve(function () {
                    const path = realPath(this.resource);
                    if (kindOf(path) === ABSENT) return ABSENT;
                    const st = lstatSync(path);
                    return BigInt(prop === 'owner' ? st.uid : st.gid);
                });
                p.insync(function (is) { return is !== ABSENT && (toS(is) === toS(this.should) || String(idOrNull(this.resource, db, this.should)) === toS(is)); });
                p.isToS(is => (typeof is === 'bigint' ? `'${nameOf(db, Number(is))}'` : is === ABSENT ? "'absent'" : `'${toS(is)}'`));
                p.sync(function () {
                    const path = realPath(this.resource);
                    const st = lstatSync(path);
                    const id = lookupId(this.resource, db, this.should, prop === 'owner' ? 'user' : 'group');
                    chownSync(path, prop === 'owner' ? id : st.uid, prop === 'owner' ? st.gid : id);
                    return `${prop}_changed`;
                });
            });
        };
        account('owner', '/etc/passwd', 'The user to whom the file should belong.');
        account('group', '/etc/group', 'Which group should own the file.');
        t.newproperty('target', p => {
            p.desc('The target for creating a link.');
            p.retrieve(function () {
                const path = realPath(this.resource);
                return kindOf(path) === sym('link') ? readlinkSync(path) : ABSENT;
            });
            p.insync(function (is) { return toS(this.resource.get('ensure')) !== 'link' || is === toS(this.should); });
            p.sync(function () {
                const path = realPath(this.resource);
                rmSync(path, { force: true });
                symlinkSync(toS(this.should), path);
                return 'target_changed';
            });
        });
        t.newparam('force', { boolean: true, parent: 'boolean' }, p => { p.desc('Perform the file operation even if it will destroy one or more directories.'); p.defaultto(false); });
        t.newparam('replace', { boolean: true, parent: 'boolean' }, p => { p.desc('Whether to replace a file that already exists.'); p.defaultto(true); });
        for (const name of PASSIVE_PARAMS) {
            const stat = READ_ONLY[name];
            if (!stat) {
                t.newparam(name);
                continue;
            }
            // ctime, mtime and type are read-only properties: they show in `puppet resource`, never change.
            const spec = t.newproperty(name, p => {
                p.validate(() => { throw new ArgumentError(`${name} is read-only`); });
                p.retrieve(function () {
                    const path = realPath(this.resource);
                    return kindOf(path) === ABSENT ? ABSENT : stat(path);
                });
            });
            if (name !== 'type') spec.valueClass = 'Time';
        }
        t.validate(r => {
            if (r.get('content') !== undefined && r.get('source') !== undefined) r.fail('You cannot specify more than one of content, source, target');
            if (r.get('source') !== undefined && r.get('content') === undefined) r.set('content', FROM_SOURCE);
        });
        t.autorequire('file', r => {
            const path = toS(r.get('path'));
            const parent = dirname(path);
            return parent !== path ? [parent] : [];
        });
    });
}
