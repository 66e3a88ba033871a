import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ReviewReport } from '../../src/review/index.js';
import { runCli } from '../cli/run-cli.js';
import { ACCEPTANCE_EDITS, git, reviewRepo } from './review-repo.js';

// Debian's octocatalog-diff (2.1) diffs two Puppet catalog JSON files; `.ci/run` installs it when apt is there.
const installed = spawnSync('octocatalog-diff', ['--version'], { encoding: 'utf8' }).status === 0;
if (!installed) console.warn('octocatalog-diff is not installed (apt-get install octocatalog-diff): comparison with it skipped');

const NODES = ['util01.example.com', 'web01.example.com', 'web02.example.com'];

/** "+ Type[title]", "- Type[title]", "~ Type[title] parameters::name" of octocatalog-diff's JSON output. */
function octocatalogChanges(oldFile: string, newFile: string): string[] {
    const run = spawnSync('octocatalog-diff', ['--no-color', '--output-format', 'json', '--from-catalog', oldFile, '--to-catalog', newFile], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(2);
    const { diff } = JSON.parse(run.stdout) as { diff: Array<{ diff_type: string; type: string; title: string; structure: string[] }> };
    return diff.map(d => `${d.diff_type} ${d.type}[${d.title}]${d.structure.length ? ` ${d.structure.join('::')}` : ''}`).sort();
}

/** The same lines from a node of modelc's review report; Class resources left out as octocatalog-diff ignores them by default. */
function reviewChanges(report: ReviewReport, node: string): string[] {
    const n = report.nodes.find(x => x.node === node)!;
    return [
        ...n.added.map(a => `+ ${a.resource}`), ...n.removed.map(a => `- ${a.resource}`),
        ...n.changed.filter(c => c.type !== 'Class').flatMap(c => c.parameters.map(p => `~ ${c.resource} parameters::${p.name}`))
    ].sort();
}

describe.skipIf(!installed)('modelc review reports the resources and parameters octocatalog-diff reports', () => {
    let repo: string;
    let facts: string;
    let work: string;
    let report: ReviewReport;

    beforeAll(async () => {
        ({ repo, facts } = reviewRepo(ACCEPTANCE_EDITS));
        work = mkdtempSync(join(tmpdir(), 'modelc-octocatalog-'));
        const r = await runCli('review', repo, '--base', 'HEAD~1', '--head', 'HEAD', '--nodes-dir', facts, '--format', 'json', '--jobs', '1');
        report = JSON.parse(r.out) as ReviewReport;
        git(repo, 'worktree', 'add', '--detach', '--quiet', join(work, 'base'), 'HEAD~1');
    }, 120_000);

    afterAll(() => {
        if (repo) git(repo, 'worktree', 'remove', '--force', join(work, 'base'));
        if (work) rmSync(work, { recursive: true, force: true });
        if (repo) rmSync(dirname(repo), { recursive: true, force: true });
    });

    test.each(NODES)('%s', async node => {
        const files: string[] = [];
        for (const [side, dir] of [['old', join(work, 'base')], ['new', repo]]) {
            const c = await runCli('compile', dir, '--node', node, '--facts', join(facts, `${node}.yaml`), '--format', 'puppet');
            expect(c.code).toBe(0);
            const file = join(work, `${node}-${side}.json`);
            writeFileSync(file, c.out);
            files.push(file);
        }
        const theirs = octocatalogChanges(files[0], files[1]);
        expect(theirs.length).toBeGreaterThan(0);
        expect(reviewChanges(report, node)).toEqual(theirs);
    }, 60_000);
});
