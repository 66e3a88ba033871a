/**
 * Many Debian packages ship no README. This copies the docs of each installed module's upstream
 * repository (its metadata.json `source`), at the tag of the packaged version, out of local git
 * mirrors into DIR/<module>/ for the harness's `--upstream DIR`:
 *
 *   node test/tools/readme-examples/upstream-docs.ts MIRRORS DIR
 *
 * MIRRORS holds one git directory per repository as `<owner>+<name>/repo` (bare or with `.git`).
 * Copied: README*, REFERENCE.md and examples/ (.pp). Nothing of it is committed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const [mirrors, outArg] = process.argv.slice(2);
if (!mirrors || !outArg) throw new Error('usage: upstream-docs.ts MIRRORS DIR');
const out = resolve(outArg);
const ROOT = '/usr/share/puppet/modules';

/** Modules packaged without a metadata.json: their upstream repository; the version comes from dpkg. */
const NO_METADATA: Record<string, string> = {
    filemapper: 'https://github.com/adrienthebo/puppet-filemapper', logrotate: 'https://github.com/rodjek/puppet-logrotate',
    mongodb: 'https://github.com/puppetlabs/puppetlabs-mongodb', 'saz-rsyslog': 'https://github.com/saz/puppet-rsyslog'
};

function packagedVersion(dir: string): string {
    const pkg = execFileSync('dpkg-query', ['-S', dir], { encoding: 'utf8' }).split(':')[0];
    return execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' }).replace(/[-+~].*$/, '');
}

const git = (dir: string, ...args: string[]): string => execFileSync('git', [`--git-dir=${dir}`, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });

for (const entry of readdirSync(ROOT).sort()) {
    const real = realpathSync(join(ROOT, entry));
    const metaFile = join(real, 'metadata.json');
    const meta = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) as { version?: string; source?: string }
        : NO_METADATA[entry] ? { source: NO_METADATA[entry], version: packagedVersion(real) } : {};
    const m = /github\.com[:/]([^/]+)\/([^/.]+(?:\.[^/.]+)*?)(?:\.git)?\/?$/.exec(meta.source ?? '');
    if (!m) continue;
    const base = [join(mirrors, `${m[1]}+${m[2]}`, 'repo', '.git'), join(mirrors, `${m[1]}+${m[2]}`, 'repo')].find(d => existsSync(join(d, 'HEAD')));
    if (!base) continue;
    const tags = git(base, 'tag').split('\n');
    const v = meta.version ?? '';
    const tag = tags.find(t => t === v || t === `v${v}` || t.endsWith(`-${v}`)) ?? 'HEAD';
    const files = git(base, 'ls-tree', '-r', '--name-only', tag).split('\n')
        .filter(f => /^(README[^/]*|REFERENCE\.md)$/i.test(f) || /^examples\/.*\.pp$/.test(f));
    const name = entry.replace(/^[a-z0-9]+-/, '');
    for (const f of files) {
        const dest = join(out, name, f);
        mkdirSync(dirname(dest), { recursive: true });
        writeFileSync(dest, git(base, 'show', `${tag}:${f}`));
    }
    console.log(`${name.padEnd(14)} ${m[1]}/${m[2]} @ ${tag} (metadata ${v}): ${files.length} files`);
}
