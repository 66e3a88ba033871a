import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NodeReport, ReviewReport } from '../../src/review/index.js';
import { runCli } from '../cli/run-cli.js';
import { ACCEPTANCE_EDITS, applyEdits, git, reviewRepo, worktreeCount } from './review-repo.js';

const GOLDEN = join(import.meta.dirname, '..', 'fixtures', 'review', 'acceptance');

let repo: string;
let facts: string;
let report: ReviewReport;
let code: number;

beforeAll(async () => {
    ({ repo, facts } = reviewRepo(ACCEPTANCE_EDITS));
    const r = await runCli('review', repo, '--base', 'HEAD~1', '--head', 'HEAD', '--nodes-dir', facts, '--format', 'json', '--jobs', '1');
    expect(r.err).toBe('');
    code = r.code;
    report = JSON.parse(r.out) as ReviewReport;
}, 120_000);

afterAll(() => {
    if (repo) rmSync(dirname(repo), { recursive: true, force: true });
});

function node(name: string): NodeReport {
    const n = report.nodes.find(x => x.node === name);
    if (!n) throw new Error(`no report for ${name}`);
    return n;
}

function parameter(n: string, resource: string, param: string): Record<string, unknown> {
    const p = node(n).changed.find(c => c.resource === resource)?.parameters.find(x => x.name === param);
    if (!p) throw new Error(`no change of ${resource} ${param} on ${n}`);
    return p as unknown as Record<string, unknown>;
}

describe('modelc review of examples/site: two commits (Hiera value, resource parameter, new resource, template, a node that stops compiling)', () => {
    test('exit 2, every node reported, the temporary worktrees removed', () => {
        expect(code).toBe(2);
        expect(report.nodes.map(n => [n.node, n.status])).toEqual([
            ['db01.example.com', 'failed'], ['util01.example.com', 'changed'], ['web01.example.com', 'changed'], ['web02.example.com', 'changed']
        ]);
        expect(worktreeCount(repo)).toBe(1);
    });

    test('the node that stops compiling has its located error (as Puppet 7.23 reports it: role/db.pp:4:3)', () => {
        expect(node('db01.example.com').error).toEqual({
            code: 'EVAL_RUNTIME', file: 'modules/role/manifests/db.pp', line: 4, column: 3,
            message: "Evaluation Error: Error while evaluating a Function Call, Class[Profile::Postgres]: parameter 'version' expects a match for Pattern[/\\A\\d+\\z/], got 'fifteen'"
        });
    });

    test('the new resource on every node that compiles, where it is declared', () => {
        for (const n of ['util01.example.com', 'web01.example.com', 'web02.example.com']) {
            expect(node(n).added).toEqual([expect.objectContaining({
                resource: 'File[/etc/issue.net]', declaredAt: { file: 'modules/profile/manifests/base.pp', line: 32 },
                parameters: expect.objectContaining({ ensure: 'file', content: 'Authorized use only.\n' })
            })]);
            expect(node(n).removed).toEqual([]);
        }
    });

    test('the resource parameter, old → new, with the manifest line that set it', () => {
        expect(parameter('web02.example.com', 'Exec[nginx-configtest]', 'command')).toEqual({
            name: 'command', kind: 'changed', old: 'nginx -t', new: 'nginx -t -q',
            origin: { kind: 'declared', at: { file: 'modules/profile/manifests/nginx.pp', line: 38, column: 5 } }
        });
    });

    test('the template change as a unified diff hunk', () => {
        const p = parameter('util01.example.com', 'File[/etc/chrony.conf]', 'content');
        expect(p.diff).toEqual(expect.arrayContaining(['-makestep 1.0 3', '+makestep 1.0 -1']));
        expect((p.diff as string[])[0]).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
    });

    test('the Hiera change: the class parameter with its Hiera level, data file and line', () => {
        expect(parameter('web01.example.com', 'Class[Profile::Base]', 'motd_contact')).toEqual({
            name: 'motd_contact', kind: 'changed', old: 'ops@example.com', new: 'web-team@example.com',
            origin: {
                kind: 'binding', at: { file: 'modules/profile/manifests/base.pp', line: 3, column: 3 },
                binding: {
                    key: 'profile::base::motd_contact', layer: 'environment', category: 'Per-node exceptions', namedBindings: 'hiera',
                    at: { file: 'data/nodes/web01.example.com.yaml', line: 5, column: 1 }
                }
            }
        });
        const motd = parameter('web01.example.com', 'File[/etc/motd]', 'content');
        expect(motd.diff).toEqual(expect.arrayContaining(['+Managed by Puppet: local changes will be overwritten. Questions: web-team@example.com']));
        expect(node('web02.example.com').changed.map(c => c.resource)).not.toContain('Class[Profile::Base]');
    });

    test('the summary counts what the nodes list', () => {
        expect(report.summary).toMatchObject({ nodes: 4, changed: 3, unchanged: 0, failed: 1, fixed: 0, broken: 0, resourcesAdded: 3, resourcesRemoved: 0 });
        expect(report.summary.resourcesChanged).toBe(report.nodes.reduce((a, n) => a + n.changed.length, 0));
    });

    test('markdown for a pull request (golden file)', async () => {
        const r = await runCli('review', repo, '--base', 'HEAD~1', '--head', 'HEAD', '--nodes-dir', facts, '--format', 'markdown', '--jobs', '1');
        expect(r.code).toBe(2);
        // Commit ids hash the whole example tree: the golden names them by position only.
        const out = r.out.replace(/ \([0-9a-f]{10}\)/g, ' (<commit>)');
        const golden = join(GOLDEN, 'expected.md');
        if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, out);
        expect(out).toBe(readFileSync(golden, 'utf8'));
    }, 60_000);

    test('parallel compiles in worker threads (--jobs 2, 24 compiles) give the same report as one thread', async () => {
        // Enough nodes that the pool starts workers (it compiles small reviews in its own thread).
        const many = mkdtempSync(join(dirname(repo), 'facts-'));
        cpSync(facts, many, { recursive: true });
        const web = readFileSync(join(facts, 'web02.example.com.yaml'), 'utf8');
        for (let i = 10; i < 18; i++) writeFileSync(join(many, `web${i}.example.com.yaml`), web.replaceAll('web02', `web${i}`));
        const run = async (jobs: string): Promise<ReviewReport> => {
            const r = await runCli('review', repo, '--base', 'HEAD~1', '--head', 'HEAD', '--nodes-dir', many, '--format', 'json', '--jobs', jobs);
            expect(r.code).toBe(2);
            return JSON.parse(r.out) as ReviewReport;
        };
        const [one, two] = [await run('1'), await run('2')];
        expect(two.nodes).toEqual(one.nodes);
        expect(two.nodes).toHaveLength(12);
        expect(worktreeCount(repo)).toBe(1);
    }, 120_000);
});

describe('modelc review: options and errors', () => {
    test.each([
        { name: 'the same revision twice: no change, exit 0', args: ['--base', 'HEAD', '--head', 'HEAD', '--node', 'web02.example.com'], code: 0, out: /1 node: 0 changed, 1 unchanged/ },
        { name: 'an ignore rule and a node list', args: ['--base', 'HEAD~1', '--head', 'HEAD', '--node', 'web02.example.com', '--ignore', 'File[*]', '--ignore', 'Exec[nginx-configtest]::command'], code: 0, out: /0 changed, 1 unchanged/ },
        { name: 'the working tree (default head) with an uncommitted edit', args: ['--node', 'web02.example.com'], code: 2, out: /motd/, edit: true }
    ])('$name', async ({ args, code: expected, out, edit }) => {
        if (edit) applyEdits(repo, [{ file: 'modules/profile/manifests/base.pp', from: "file { '/etc/motd':\n    ensure  => file,", to: "file { '/etc/motd':\n    ensure  => file,\n    mode    => '0600'," }]);
        try {
            const r = await runCli('review', repo, '--nodes-dir', facts, '--jobs', '1', ...args);
            expect(r.err).toBe('');
            expect(r.code).toBe(expected);
            expect(r.out).toMatch(out);
        } finally {
            if (edit) git(repo, 'checkout', '--', '.');
        }
    }, 60_000);

    test('an environment in a subdirectory of the git work tree is reviewed there', async () => {
        const sub = reviewRepo(ACCEPTANCE_EDITS, {}, { gitAtParent: true });
        try {
            const r = await runCli('review', sub.repo, '--base', 'HEAD~1', '--head', 'HEAD', '--nodes-dir', sub.facts, '--node', 'web02.example.com', '--format', 'json', '--jobs', '1');
            expect(r.code).toBe(2);
            const parsed = JSON.parse(r.out) as ReviewReport;
            expect(parsed.nodes[0].added.map(a => a.resource)).toEqual(['File[/etc/issue.net]']);
            expect(worktreeCount(dirname(sub.repo))).toBe(1);
        } finally {
            rmSync(dirname(sub.repo), { recursive: true, force: true });
        }
    }, 60_000);

    test('facts in the `puppet facts` JSON shape (name, values, timestamp) review the same as plain YAML facts', async () => {
        const dir = mkdtempSync(join(dirname(repo), 'facts-'));
        const { parse } = await import('yaml');
        const values = parse(readFileSync(join(facts, 'web02.example.com.yaml'), 'utf8')) as Record<string, unknown>;
        writeFileSync(join(dir, 'web02.example.com.json'), JSON.stringify({ name: 'web02.example.com', values, timestamp: '2026-01-01T00:00:00Z', expiration: '2026-01-01T00:30:00Z' }));
        const args = ['--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json', '--jobs', '1', '--node', 'web02.example.com'];
        const fromJson = JSON.parse((await runCli('review', repo, '--nodes-dir', dir, ...args)).out) as ReviewReport;
        const fromYaml = JSON.parse((await runCli('review', repo, '--nodes-dir', facts, ...args)).out) as ReviewReport;
        expect(fromJson.nodes).toEqual(fromYaml.nodes);
        expect(fromJson.nodes[0].status).toBe('changed');
    }, 60_000);

    test.each([
        { name: 'not a repository', args: ['/'], err: /^\/: error REVIEW_NOT_A_REPOSITORY: not a git repository/ },
        { name: 'unknown revision', args: ['REPO', '--base', 'no-such-rev'], err: /: error REVIEW_UNKNOWN_REVISION: unknown revision 'no-such-rev'$/m },
        { name: 'a node without facts', args: ['REPO', '--node', 'nobody.example.com'], err: /error REVIEW_NO_FACTS: no facts file for node 'nobody.example.com'/ },
        { name: '--head with --worktree', args: ['REPO', '--head', 'HEAD', '--worktree'], err: /error REVIEW_USAGE: --head and --worktree exclude each other/ },
        { name: 'a bad --jobs', args: ['REPO', '--jobs', '0'], err: /error REVIEW_USAGE: --jobs expects a positive integer/ },
        { name: 'a bad --ignore', args: ['REPO', '--ignore', 'File'], err: /error DIFF_IGNORE_SYNTAX/ }
    ])('error: $name (exit 1, one line, no output, no worktree left)', async ({ args, err }) => {
        const r = await runCli('review', ...args.map(a => a === 'REPO' ? repo : a), '--nodes-dir', facts);
        expect(r.code).toBe(1);
        expect(r.out).toBe('');
        expect(r.err).toMatch(err);
        expect(r.err.trimEnd().split('\n')).toHaveLength(1);
        expect(worktreeCount(repo)).toBe(1);
    });
});
