import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ArgumentError, PuppetError } from '../errors.js';
import type { ClassicResource } from '../dsl/resource.js';
import { newtype, type ClassicType } from '../dsl/type.js';
import { sym, toS, type DslValue } from '../dsl/values.js';
import { underRoot } from './paths.js';

const NOTRUN = sym('notrun');

function list(v: DslValue): string[] {
    if (v === undefined || v === null) return [];
    return (Array.isArray(v) ? v : [v]).map(toS);
}

function searchPath(r: ClassicResource): string[] {
    return list(r.get('path')).flatMap(p => p.split(':')).filter(p => p !== '');
}

/** The executable a command starts with must exist (Puppet's checkexe), looked up in `path` when unqualified. */
function checkExecutable(r: ClassicResource, command: string): void {
    const exe = command.trim().split(/\s+/)[0];
    if (exe.startsWith('/')) {
        if (!existsSync(exe)) throw new ArgumentError(`Could not find command '${exe}'`);
        try {
            accessSync(exe, constants.X_OK);
        } catch {
            throw new ArgumentError(`'${exe}' is not executable`);
        }
        return;
    }
    const found = searchPath(r).some(dir => {
        const candidate = join(dir, exe);
        try {
            return statSync(candidate).isFile() && (accessSync(candidate, constants.X_OK), true);
        } catch {
            return false;
        }
    });
    if (!found) throw new ArgumentError(`Could not find command '${exe}'`);
}

interface RunResult {
    readonly status: number;
    readonly output: string;
}

/** Runs one command the way the posix provider does, with cwd under the root and the exec's environment. */
function run(r: ClassicResource, command: string): RunResult {
    checkExecutable(r, command);
    const root = r.env?.root ?? '/';
    const cwd = r.get('cwd') !== undefined ? underRoot(root, toS(r.get('cwd'))) : underRoot(root, '/');
    if (!existsSync(cwd)) throw new ArgumentError(`Working directory '${toS(r.get('cwd') ?? cwd)}' does not exist`);
    const env: Record<string, string> = { ...process.env as Record<string, string> };
    const path = searchPath(r);
    if (path.length > 0) env.PATH = path.join(':');
    for (const kv of list(r.get('environment'))) {
        const i = kv.indexOf('=');
        if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
    }
    const timeout = Number(toS(r.get('timeout') ?? '300'));
    const res = spawnSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8', ...(timeout > 0 ? { timeout: timeout * 1000 } : {}) });
    if (res.error && (res.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') throw new PuppetError(`Command exceeded timeout`);
    return { status: res.status ?? 1, output: `${res.stdout ?? ''}${res.stderr ?? ''}` };
}

/** Puppet's check_all_attributes: refreshonly, creates, onlyif (all succeed), unless (any succeeds → skip). */
function shouldRun(r: ClassicResource, refreshing: boolean): boolean {
    if (r.is('refreshonly') && !refreshing) return false;
    const root = r.env?.root ?? '/';
    if (list(r.get('creates')).some(p => existsSync(underRoot(root, p)))) return false;
    if (!list(r.get('onlyif')).every(c => run(r, c).status === 0)) return false;
    if (list(r.get('unless')).some(c => run(r, c).status === 0)) return false;
    return true;
}

/** Runs the command (or `refresh`), logs its output per `logoutput`, and fails on an unexpected status. */
function execute(r: ClassicResource, command: string): void {
    const returns = list(r.get('returns')).length > 0 ? list(r.get('returns')) : ['0'];
    const result = run(r, command);
    const ok = returns.includes(String(result.status));
    const logoutput = toS(r.get('logoutput') ?? 'on_failure');
    if (!r.isSensitive('command') && (logoutput === 'true' || (logoutput === 'on_failure' && !ok))) {
        const level = ok ? 'notice' : 'err';
        for (const line of result.output.split('\n').filter(l => l !== '')) {
            r.env?.log({ level, message: line, time: new Date(), ...(r.path ? { source: `${r.path}/returns` } : {}) });
        }
    }
    if (!ok) {
        // A Sensitive command is never shown, as Puppet redacts it.
        const shown = r.isSensitive('command') ? '[command redacted]' : command;
        const message = `'${shown}' returned ${result.status} instead of one of [${returns.join(',')}]`;
        throw new PuppetError(message);
    }
}

/**
 * `exec` with the posix provider's behaviour: commands run through /bin/sh with `path`,
 * `environment` and `cwd` (under the root); creates/onlyif/unless/refreshonly decide whether it
 * runs; it is refreshable.
 */
export function execType(): ClassicType {
    return newtype('exec', t => {
        t.desc('Executes external commands.');
        // Puppet's Exec.instances lists nothing; its providers (posix, the default, and shell) only name how commands run.
        t.instances(() => []);
        t.provide({ name: 'posix', isDefault: true, create: () => ({ name: 'posix' }) });
        t.provide({ name: 'shell', create: () => ({ name: 'shell' }) });
        t.newparam('command', { namevar: true }, p => {
            p.desc('The actual command to execute.');
            p.validate(v => {
                if (Array.isArray(v)) return;
                if (typeof v !== 'string') throw new ArgumentError(`Command must be a String or Array<String>, got value of class ${typeof v}`);
            });
        });
        t.newproperty('returns', { arrayMatching: 'all' }, p => {
            p.desc('The expected exit code(s).');
            p.defaultto('0');
            p.munge(v => toS(v));
            p.retrieve(function () { return shouldRun(this.resource, false) ? NOTRUN : this.shouldArray; });
            p.isToS(is => `'${toS(is)}'`);
            p.shouldToS(function () { return `[${this.shouldArray.map(s => `'${toS(s)}'`).join(', ')}]`; });
            p.changeToS(() => 'executed successfully');
            p.sync(function () {
                execute(this.resource, toS(this.resource.get('command')));
                return 'executed_command';
            });
        });
        for (const name of ['path', 'cwd', 'environment', 'creates', 'onlyif', 'unless', 'refresh', 'user', 'group', 'umask', 'tries', 'try_sleep', 'provider']) {
            t.newparam(name);
        }
        t.newparam('timeout', p => p.defaultto('300'));
        t.newparam('logoutput', p => {
            p.newvalues(true, false, 'on_failure');
            p.defaultto('on_failure');
        });
        t.newparam('refreshonly', { boolean: true, parent: 'boolean' }, p => p.desc('Only run the command when an event is received.'));
        // The posix provider's validatecmd: the executable (a quoted first word, else the text up to the first space) must be absolute without a path.
        t.validate(r => {
            const command = toS(r.get('command'));
            const quoted = /^"([^"]+)"|^'([^']+)'/.exec(command);
            const exe = quoted ? quoted[1] ?? quoted[2] : command.split(' ')[0];
            if (!exe.startsWith('/') && searchPath(r).length === 0) {
                r.fail(`'${exe}' is not qualified and no path was specified. Please qualify the command or specify a path.`);
            }
        });
        t.refresh(r => {
            if (!shouldRun(r, true)) return;
            execute(r, toS(r.get('refresh') ?? r.get('command')));
        });
        t.autorequire('file', r => [toS(r.get('cwd') ?? ''), ...list(r.get('command')).map(c => c.split(/\s+/)[0])].filter(p => p.startsWith('/')));
    });
}
