import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { ClassicResource } from '../dsl/resource.js';
import { newtype, type ClassicType } from '../dsl/type.js';
import { ABSENT, sym, toS, type DslValue } from '../dsl/values.js';
import { underRoot } from './paths.js';
import { runSystemCommand } from './system-command.js';

/** Parsed status files, kept while the file is unchanged (a listing asks once per package). */
const parsedStatus = new Map<string, { readonly mtimeMs: number; readonly size: number; readonly packages: Map<string, string> }>();

/** The installed packages of dpkg's status file under the root: name → version. */
function installedPackages(root: string): Map<string, string> {
    const status = underRoot(root, '/var/lib/dpkg/status');
    const out = new Map<string, string>();
    if (!existsSync(status)) return out;
    const st = statSync(status);
    const known = parsedStatus.get(status);
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.packages;
    parsedStatus.set(status, { mtimeMs: st.mtimeMs, size: st.size, packages: out });
    for (const stanza of readFileSync(status, 'utf8').split(/\n\n+/)) {
        const field = (n: string): string | undefined => new RegExp(`^${n}: (.*)$`, 'm').exec(stanza)?.[1];
        const name = field('Package');
        if (name !== undefined && (field('Status') ?? '').endsWith(' installed')) out.set(name, field('Version') ?? 'present');
    }
    return out;
}

/** The installed version of a package from dpkg's status file under the root, or absent. */
function installedVersion(r: ClassicResource): DslValue {
    return installedPackages(r.env?.root ?? '/').get(r.title) ?? ABSENT;
}

/**
 * The service units a systemd system has (what `systemctl list-unit-files --type service` lists),
 * read from the unit directories below the root.
 */
function unitFiles(root: string): string[] {
    const names = new Set<string>();
    for (const dir of ['/etc/systemd/system', '/lib/systemd/system', '/usr/lib/systemd/system']) {
        const path = underRoot(root, dir);
        if (!existsSync(path)) continue;
        for (const f of readdirSync(path)) if (f.endsWith('.service')) names.add(f);
    }
    return [...names].sort();
}

/** `package` with an apt/dpkg view of the system below the root. */
export function packageType(): ClassicType {
    return newtype('package', t => {
        t.desc('Manage packages.');
        t.newparam('name', { namevar: true });
        t.newproperty('ensure', p => {
            p.newvalues('present', 'absent', 'purged', 'held', 'latest', /./);
            p.aliasvalue('installed', 'present');
            p.defaultto('installed');
            p.retrieve(function () { return installedVersion(this.resource); });
            p.insync(function (is) {
                const should = toS(this.should);
                if (should === 'absent' || should === 'purged') return is === ABSENT;
                if (['present', 'latest', 'held'].includes(should)) return is !== ABSENT;
                return toS(is) === should;
            });
            p.sync(function () {
                const r = this.resource;
                const should = toS(this.should);
                const options = (Array.isArray(r.get('install_options')) ? r.get('install_options') as DslValue[] : []).map(toS);
                if (should === 'absent' || should === 'purged') runSystemCommand(r, ['apt-get', '-q', '-y', should === 'purged' ? 'purge' : 'remove', r.title]);
                else runSystemCommand(r, ['apt-get', '-q', '-y', ...options, 'install', ['present', 'latest', 'held'].includes(should) ? r.title : `${r.title}=${should}`]);
                return installedVersion(r) === ABSENT ? 'package_installed' : 'package_changed';
            });
        });
        t.provide({ name: 'apt', isDefault: true, instances: env => [...installedPackages(env.root).keys()], create: () => ({ name: 'apt' }) });
        for (const n of ['install_options', 'uninstall_options', 'source', 'provider', 'configfiles', 'responsefile', 'adminfile', 'allowcdrom', 'category', 'description', 'flavor', 'instance', 'platform', 'root', 'status', 'vendor', 'reinstall_on_refresh', 'mark', 'package_settings', 'command', 'enable_only', 'install_only', 'allow_virtual']) {
            t.newparam(n);
        }
    });
}

/** Whether a service runs: asked of systemctl on the real system, unknown (stopped) under a root. */
function serviceRunning(r: ClassicResource): boolean {
    if ((r.env?.root ?? '/') !== '/' || !existsSync('/bin/systemctl')) return false;
    return spawnSync('/bin/systemctl', ['is-active', '--quiet', r.title]).status === 0;
}

/** `service`, refreshable (restart), with systemctl commands on the real system only. */
export function serviceType(): ClassicType {
    return newtype('service', t => {
        t.desc('Manage running services.');
        t.newparam('name', { namevar: true });
        t.newproperty('ensure', p => {
            p.newvalues('stopped', 'running');
            p.aliasvalue('false', 'stopped');
            p.aliasvalue('true', 'running');
            p.retrieve(function () { return serviceRunning(this.resource) ? sym('running') : sym('stopped'); });
            p.sync(function () {
                const running = toS(this.should) === 'running';
                runSystemCommand(this.resource, ['systemctl', running ? 'start' : 'stop', this.resource.title]);
                return running ? 'service_started' : 'service_stopped';
            });
        });
        t.newproperty('enable', p => {
            p.newvalues(true, false, 'manual', 'mask', 'delayed');
            p.retrieve(function () {
                if ((this.resource.env?.root ?? '/') !== '/' || !existsSync('/bin/systemctl')) return sym('false');
                return spawnSync('/bin/systemctl', ['is-enabled', '--quiet', this.resource.title]).status === 0 ? sym('true') : sym('false');
            });
            p.sync(function () {
                runSystemCommand(this.resource, ['systemctl', toS(this.should) === 'true' ? 'enable' : toS(this.should) === 'mask' ? 'mask' : 'disable', this.resource.title]);
            });
        });
        for (const n of ['hasrestart', 'hasstatus', 'restart', 'start', 'stop', 'status', 'pattern', 'provider', 'binary', 'path', 'flags', 'manifest', 'timeout', 'control', 'logonaccount', 'logonpassword']) {
            t.newparam(n);
        }
        t.provide({ name: 'systemd', isDefault: true, instances: env => unitFiles(env.root), create: () => ({ name: 'systemd' }) });
        t.refresh(r => {
            if (serviceRunning(r) || toS(r.get('ensure')) === 'running') runSystemCommand(r, ['systemctl', 'restart', r.title]);
        });
    });
}
