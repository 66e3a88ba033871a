import { join, relative, resolve } from 'node:path';
import { pathExists, type FileSystemProvider, type SourcePoint } from '../../common/index.js';

/**
 * The ENC Puppet's own settings configure: `node_terminus = exec` with `external_nodes = COMMAND`
 * in `CONFDIR/puppet.conf` ([main], [server] or [master]), as a Puppet user configures one. ARM-8
 * "Integration with existing ENC": "If an external (current API) ENC is configured it is called".
 * A relative command is relative to the confdir; it runs there.
 */
export function puppetConfEnc(fs: FileSystemProvider, confdir: string): { readonly command: readonly string[]; readonly at: SourcePoint; readonly dir: string } | undefined {
    const file = join(resolve(confdir), 'puppet.conf');
    if (!pathExists(fs, file)) return undefined;
    const display = relative(resolve(confdir), file);
    let section = 'main';
    let terminus: string | undefined;
    let nodes: { value: string; at: SourcePoint } | undefined;
    fs.readText(file).split('\n').forEach((raw, i) => {
        const line = raw.replace(/^\s*#.*$/, '').trim();
        const header = /^\[(\w+)\]$/.exec(line);
        if (header) {
            section = header[1] as string;
            return;
        }
        // The agent's and user's sections do not configure a server's node terminus.
        if (!['main', 'server', 'master'].includes(section)) return;
        const m = /^(\w+)\s*=\s*(.*)$/.exec(line);
        if (!m) return;
        if (m[1] === 'node_terminus') terminus = m[2];
        if (m[1] === 'external_nodes') nodes = { value: (m[2] as string).trim(), at: { file: display, line: i + 1, column: raw.indexOf('external_nodes') + 1 } };
    });
    if (terminus !== 'exec' || !nodes || nodes.value === '' || nodes.value === 'none') return undefined;
    const command = nodes.value.split(/\s+/);
    return { command, at: nodes.at, dir: resolve(confdir) };
}
