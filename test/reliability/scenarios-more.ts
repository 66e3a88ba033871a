import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pick, type Rnd } from './mutations.js';
import { copyResolved, type Scenario } from './scenarios.js';

// Scenarios of the inputs the first campaign left out: a git repository under review, module
// metadata.json, ERB templates, module-level hiera.yaml and data, and the metamodel sources
// `generate --check` reads (run on a copy of the project, see projectCopy).

const ROOT = join(import.meta.dirname, '..', '..');
const SITE = join(ROOT, 'examples', 'site');
const FACTS = join(ROOT, 'examples', 'facts');
const MODULES = '/usr/share/puppet/modules.available';
const NODES = ['web01', 'web02', 'db01', 'util01'] as const;

const GIT_ENV = {
    ...process.env, GIT_AUTHOR_NAME: 'fuzz', GIT_AUTHOR_EMAIL: 'fuzz@example.com', GIT_COMMITTER_NAME: 'fuzz',
    GIT_COMMITTER_EMAIL: 'fuzz@example.com', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z'
};

function git(dir: string, ...args: string[]): void {
    execFileSync('git', ['-C', dir, '-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], { stdio: 'ignore', env: GIT_ENV });
}

/**
 * A second commit holding what a repository can hold besides text: a binary manifest, a
 * submodule (a gitlink to a commit that is not there), a symbolic link, an empty tree entry.
 */
function oddHistory(env: string, rnd: Rnd): string {
    const what = pick(rnd, ['binary', 'submodule', 'link', 'binary-data']);
    if (what === 'binary') writeFileSync(join(env, 'manifests', 'site.pp'), Buffer.from([0, 1, 2, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]));
    else if (what === 'binary-data') writeFileSync(join(env, 'data', 'common.yaml'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff]));
    else if (what === 'link') { rmSync(join(env, 'manifests', 'site.pp')); symlinkSync('/etc/passwd', join(env, 'manifests', 'site.pp')); }
    git(env, 'add', '-A');
    // After `add -A`, which would record the missing directory as removed.
    if (what === 'submodule') git(env, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},modules/sub`);
    git(env, 'commit', '--quiet', '--allow-empty', '-m', what);
    return what;
}

function files(dir: string, pattern: RegExp): string[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map(f => join(dir, f)).filter(f => pattern.test(f) && statSync(f).isFile()).sort();
}

/** Small ERB templates of the installed modules (read once). */
let erbSources: string[] | undefined;
function erbs(): string[] {
    erbSources ??= readdirSync(MODULES).flatMap(m => files(join(MODULES, m, 'templates'), /\.erb$/)).filter(f => statSync(f).size < 4000).slice(0, 300);
    return erbSources;
}

/** Modules' metadata.json files (read once). */
let metadataSources: string[] | undefined;
function metadatas(): string[] {
    metadataSources ??= readdirSync(MODULES).map(m => join(MODULES, m, 'metadata.json')).filter(f => existsSync(f)).slice(0, 60);
    return metadataSources;
}

const siteCopy = (dir: string): { env: string; facts: string } => {
    const env = join(dir, 'site');
    const facts = join(dir, 'facts');
    copyResolved(SITE, env);
    copyResolved(FACTS, facts);
    return { env, facts };
};

const nodeArgs = (facts: string, n: string): string[] => ['--node', `${n}.example.com`, '--facts', join(facts, `${n}.example.com.yaml`)];

export const MORE_SCENARIOS: readonly Scenario[] = [
    {
        // The working tree is mutated after the commit: review compares HEAD with it (or a
        // second commit holding the mutation, with --base HEAD~1 --head HEAD).
        name: 'review', weight: 5, make: (dir, rnd) => {
            const { env, facts } = siteCopy(dir);
            git(env, 'init', '--quiet', '--initial-branch=main');
            git(env, 'add', '-A');
            git(env, 'commit', '--quiet', '-m', 'site');
            const history = rnd() < 0.35 ? oddHistory(env, rnd) : undefined;
            const format = pick(rnd, ['text', 'json', 'markdown']);
            const out = rnd() < 0.3 ? [join(dir, 'report.out')] : [];
            const jsonOut = rnd() < 0.2 ? [join(dir, 'report.json')] : [];
            const nodes = rnd() < 0.5 ? ['--nodes-dir', facts] : ['--nodes-dir', facts, '--node', `${pick(rnd, NODES)}.example.com`];
            const revs = pick(rnd, [[], [], [], ['--base', 'HEAD'], ['--base', 'nope'], ['--base', 'HEAD~3'], ['--head', 'HEAD'], ...(history ? [['--base', 'HEAD~1', '--head', 'HEAD']] : []),
                ['--base', 'HEAD^{tree}'], ['--base', 'HEAD:manifests/site.pp'], ['--base', 'main..HEAD'], ['--base', '--output=x'], ['--base', ''], ['--base', 'refs/heads/../x'],
                ['--head', 'HEAD@{99}'], ['--base', '0'.repeat(40)], ['--base', 'HEAD', '--head', 'nope']]);
            const targets = [...files(env, /\.(pp|epp|yaml|json|conf)$/), ...files(facts, /./)];
            return {
                args: ['review', env, ...nodes, '--format', format, '--jobs', '1', ...revs, ...out.flatMap(o => ['--out', o]), ...jsonOut.flatMap(o => ['--json-out', o])],
                targets, outputs: [...out, ...jsonOut], exits: [2]
            };
        }
    },
    {
        name: 'erb-template', weight: 4, make: (dir, rnd) => {
            const env = join(dir, 'env');
            const src = pick(rnd, erbs());
            const tpl = join(env, 'modules', 'm', 'templates', basename(src));
            mkdirSync(join(tpl, '..'), { recursive: true });
            cpSync(src, tpl);
            mkdirSync(join(env, 'manifests'), { recursive: true });
            const how = rnd() < 0.8 ? `template('m/${basename(src)}')` : `inline_template(file('m/${basename(src)}'))`;
            if (how.includes('file(')) {
                mkdirSync(join(env, 'modules', 'm', 'files'), { recursive: true });
                cpSync(src, join(env, 'modules', 'm', 'files', basename(src)));
            }
            writeFileSync(join(env, 'manifests', 'site.pp'), `$port = 80\n$servers = ['a', 'b']\nnotify { 'x': message => ${how} }\n`);
            const targets = how.includes('file(') ? [join(env, 'modules', 'm', 'files', basename(src))] : [tpl];
            return { args: ['compile', env, '--node', 'n1.example.com', '--format', pick(rnd, ['puppet', 'json'])], targets: [...targets, ...targets] };
        }
    },
    {
        name: 'metadata-json', weight: 3, make: (dir, rnd) => {
            const { env, facts } = siteCopy(dir);
            const meta = join(env, 'modules', 'profile', 'metadata.json');
            cpSync(pick(rnd, metadatas()), meta);
            const out = join(dir, 'bundle.json');
            const cmd = pick(rnd, [
                ['parse', env, '--bundle', out],
                ['compile', env, ...nodeArgs(facts, pick(rnd, NODES)), '--format', 'puppet'],
                ['lookup', env, 'profile::nginx::worker_processes', ...nodeArgs(facts, 'web01')]
            ]);
            return { args: cmd, targets: [meta, meta], outputs: cmd[0] === 'parse' ? [out] : [] };
        }
    },
    {
        name: 'module-hiera', weight: 4, make: (dir, rnd) => {
            const { env, facts } = siteCopy(dir);
            const m = join(env, 'modules', 'profile');
            const targets = [join(m, 'hiera.yaml'), join(m, 'hiera.yaml'), ...files(join(m, 'data'), /\.yaml$/), join(env, 'hiera.yaml'), join(env, 'environment.conf')];
            const cmd = pick(rnd, [
                ['lookup', env, pick(rnd, ['profile::nginx::package', 'profile::base::ntp_servers', 'profile::nginx::worker_processes', 'lookup_options']), ...nodeArgs(facts, pick(rnd, NODES))],
                ['compile', env, ...nodeArgs(facts, pick(rnd, NODES)), '--no-bindings', '--format', 'puppet'],
                ['bindings', env, ...nodeArgs(facts, pick(rnd, NODES))]
            ]);
            return { args: cmd, targets };
        }
    }
];
