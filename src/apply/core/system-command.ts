import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NotApplied, PuppetError } from '../errors.js';
import type { ClassicResource } from '../dsl/resource.js';

/**
 * Runs a system administration command (useradd, apt-get, systemctl ...) when the run manages
 * the real system (root `/`) and the tool exists; otherwise reports what it would have run, so
 * a run under --root never touches the host's accounts, packages or services, and throws
 * NotApplied so the change is reported as not made.
 */
export function runSystemCommand(r: ClassicResource, argv: readonly string[], secrets: readonly string[] = []): void {
    const root = r.env?.root ?? '/';
    const tool = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'].map(d => `${d}/${argv[0]}`).find(p => existsSync(p));
    // Secrets (Sensitive values) never reach a log line, even as a command argument.
    const text = argv.map(a => secrets.includes(a) ? '[redacted]' : /^[\w./:=,@+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    if (root !== '/' || !tool) {
        const why = root !== '/' ? `system tools are not used under --root ${root}` : `${argv[0]} is not available`;
        r.env?.log({ level: 'info', message: `Would run: ${text} (${why})`, time: new Date(), ...(r.path ? { source: r.path } : {}) });
        throw new NotApplied(`not applied: ${why}`);
    }
    const res = spawnSync(tool, argv.slice(1), { encoding: 'utf8' });
    if (res.status !== 0) throw new PuppetError(`Execution of '${text}' returned ${res.status ?? 1}: ${(res.stderr ?? '').trim()}`);
}
