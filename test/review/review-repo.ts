import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');

/** An edit of one file: the text to replace (must occur) and its replacement. */
export interface Edit {
    readonly file: string;
    readonly from: string;
    readonly to: string;
}

// Fixed author, committer and dates: the commit ids (printed in reports) are the same on every run.
const GIT_ENV = {
    ...process.env, GIT_AUTHOR_NAME: 'review test', GIT_AUTHOR_EMAIL: 'review@example.com', GIT_COMMITTER_NAME: 'review test',
    GIT_COMMITTER_EMAIL: 'review@example.com', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z'
};

export function git(dir: string, ...args: string[]): string {
    return execFileSync('git', ['-C', dir, '-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], { encoding: 'utf8', env: GIT_ENV }).trim();
}

export function applyEdits(dir: string, edits: readonly Edit[]): void {
    for (const e of edits) {
        const path = join(dir, e.file);
        const text = readFileSync(path, 'utf8');
        if (!text.includes(e.from)) throw new Error(`edit of ${e.file}: '${e.from}' not found`);
        writeFileSync(path, text.replace(e.from, e.to));
    }
}

/**
 * A git repository holding examples/site with two commits: the example as it is, then `edits`.
 * Returns the repository and a facts directory (outside it) with the example's four nodes.
 */
export function reviewRepo(edits: readonly Edit[], extra: Readonly<Record<string, string>> = {}, options: { readonly gitAtParent?: boolean } = {}): { repo: string; facts: string } {
    const root = mkdtempSync(join(tmpdir(), 'modelc-review-test-'));
    const repo = join(root, 'site');
    // gitAtParent: the environment is a subdirectory (site/) of the git work tree.
    const top = options.gitAtParent ? root : repo;
    cpSync(join(EXAMPLES, 'site'), repo, { recursive: true });
    const facts = join(root, 'facts');
    cpSync(join(EXAMPLES, 'facts'), facts, { recursive: true });
    git(top, 'init', '--quiet', '--initial-branch=main');
    git(top, 'add', '-A');
    git(top, 'commit', '--quiet', '-m', 'the example site');
    applyEdits(repo, edits);
    for (const [file, text] of Object.entries(extra)) writeFileSync(join(repo, file), text);
    git(top, 'add', '-A');
    git(top, 'commit', '--quiet', '-m', 'changes under review');
    return { repo, facts };
}

export function worktreeCount(repo: string): number {
    return git(repo, 'worktree', 'list', '--porcelain').split('\n').filter(l => l.startsWith('worktree ')).length;
}

/** The changes of the acceptance case: a Hiera value, a resource parameter, a new resource, a template, a node that stops compiling. */
export const ACCEPTANCE_EDITS: readonly Edit[] = [
    // A key the site's ARM-8 bindings leave to Hiera (worker_processes is bound by the site layer).
    { file: 'data/nodes/web01.example.com.yaml', from: 'profile::nginx::worker_processes: 8', to: 'profile::nginx::worker_processes: 8\nprofile::base::motd_contact: "web-team@example.com"' },
    { file: 'modules/profile/manifests/nginx.pp', from: "command     => 'nginx -t',", to: "command     => 'nginx -t -q',", },
    {
        file: 'modules/profile/manifests/base.pp', from: "  file { '/etc/motd':",
        to: "  file { '/etc/issue.net':\n    ensure  => file,\n    content => \"Authorized use only.\\n\",\n  }\n\n  file { '/etc/motd':"
    },
    { file: 'modules/profile/templates/chrony.conf.epp', from: 'makestep 1.0 3', to: 'makestep 1.0 -1' },
    { file: 'data/nodes/db01.example.com.yaml', from: '  work_mem: 16MB', to: '  work_mem: 16MB\nprofile::postgres::version: "fifteen"' }
];
