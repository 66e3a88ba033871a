import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ReviewReport } from '../src/review/index.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root, from both bench/ (tsx) and dist/bench/ (compiled). */
const root = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
const examples = join(root, 'examples');

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };

function git(dir: string, ...args: string[]): void {
    execFileSync('git', ['-C', dir, '-c', 'commit.gpgsign=false', ...args], { env: GIT_ENV, stdio: 'ignore' });
}

/** The reviewed change: a Hiera value, a resource parameter, a new resource, a template. */
const EDITS: ReadonlyArray<[string, string, string]> = [
    ['data/common.yaml', '  - 2.pool.ntp.org', '  - 3.pool.ntp.org'],
    ['modules/profile/manifests/nginx.pp', "command     => 'nginx -t',", "command     => 'nginx -t -q',"],
    ['modules/profile/manifests/base.pp', "  file { '/etc/motd':", "  file { '/etc/issue.net':\n    ensure  => file,\n    content => \"Authorized use only.\\n\",\n  }\n\n  file { '/etc/motd':"],
    ['modules/profile/templates/chrony.conf.epp', 'makestep 1.0 3', 'makestep 1.0 -1']
];

/** examples/site in a git repository, committed before and after EDITS. */
function benchRepo(dir: string): string {
    const repo = join(dir, 'site');
    cpSync(join(examples, 'site'), repo, { recursive: true });
    git(repo, 'init', '--quiet');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'before');
    for (const [file, from, to] of EDITS) {
        const path = join(repo, file);
        writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
    }
    git(repo, 'commit', '--quiet', '-am', 'after');
    return repo;
}

/** N generated nodes: web nodes (matched by site.pp's /^web\d+/) and unclassified ones, facts from the examples'. */
function generatedFacts(dir: string, count: number): string {
    const out = join(dir, `facts-${count}`);
    mkdirSync(out, { recursive: true });
    const web = readFileSync(join(examples, 'facts', 'web02.example.com.yaml'), 'utf8');
    const util = readFileSync(join(examples, 'facts', 'util01.example.com.yaml'), 'utf8');
    for (let i = 1; i <= count; i++) {
        const [template, base, name] = i % 3 === 0 ? [util, 'util01', `util${String(i).padStart(3, '0')}`] : [web, 'web02', `web${String(i).padStart(3, '0')}`];
        writeFileSync(join(out, `${name}.example.com.yaml`), template.replaceAll(base, name));
    }
    return out;
}

interface Timing {
    readonly wallMs: number;
    /** user + sys CPU time; undefined when it could not be measured. */
    readonly cpuMs?: number;
}

/** `modelc review` as a user runs it: a fresh process (start-up included), CPU from GNU time when it is there. */
function timeReview(repo: string, factsDir: string, jobs: number, work: string): Timing & { report: ReviewReport } {
    const cli = [join(root, 'bin', 'modelc.js'), 'review', repo, '--base', 'HEAD~1', '--head', 'HEAD', '--nodes-dir', factsDir, '--format', 'json', '--jobs', String(jobs)];
    const cpuFile = join(work, 'modelc.cpu');
    const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
    const started = performance.now();
    const run = gnuTime
        ? spawnSync(gnuTime, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...cli], { encoding: 'utf8', maxBuffer: 1 << 30 })
        : spawnSync(process.execPath, cli, { encoding: 'utf8', maxBuffer: 1 << 30 });
    const wallMs = performance.now() - started;
    if (run.status !== 0 && run.status !== 2) throw new Error(`modelc review failed: ${run.stderr}`);
    const [user, sys] = gnuTime ? readFileSync(cpuFile, 'utf8').trim().split('\n').slice(-1)[0].split(' ').map(Number) : [NaN, NaN];
    return { wallMs, ...(gnuTime ? { cpuMs: (user + sys) * 1000 } : {}), report: JSON.parse(run.stdout) as ReviewReport };
}

/** octocatalog-diff compiling with the real Puppet (puppet-agent), one node after another; undefined when either is missing. */
function octocatalogTiming(repo: string, factsDir: string, nodes: readonly string[], work: string): Timing | undefined {
    const puppet = spawnSync('sh', ['-c', 'command -v puppet'], { encoding: 'utf8' }).stdout.trim();
    if (spawnSync('octocatalog-diff', ['--version']).status !== 0 || puppet === '') return undefined;
    // CPU of octocatalog-diff and the Puppet processes it forks, from GNU time when it is there.
    const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
    const cpuFile = join(work, 'octocatalog.cpu');
    let cpuMs: number | undefined = gnuTime ? 0 : undefined;
    const started = performance.now();
    for (const node of nodes) {
        // octocatalog-diff wants `puppet facts` output: name and values.
        const facts = join(work, `${node}.octo.yaml`);
        const plain = readFileSync(join(factsDir, `${node}.yaml`), 'utf8').split('\n').filter(l => !l.startsWith('#'));
        writeFileSync(facts, ['---', `name: ${node}`, 'values:', ...plain.filter(l => l !== '---').map(l => `  ${l}`)].join('\n'));
        const args = [
            '--no-color', '-n', node, '--fact-file', facts, '--puppet-binary', puppet, '--basedir', repo, '--from', 'HEAD~1', '--to', 'HEAD',
            '--hiera-config', 'hiera.yaml', '--hiera-path', 'data', '--output-format', 'json'
        ];
        const run = gnuTime
            ? spawnSync(gnuTime, ['-f', '%U %S', '-o', cpuFile, 'octocatalog-diff', ...args], { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 28 })
            : spawnSync('octocatalog-diff', args, { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 28 });
        if (cpuMs !== undefined) {
            const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split('\n').slice(-1)[0].split(' ').map(Number);
            cpuMs += (user + sys) * 1000;
        }
        // 0 no change, 2 changes; anything else means it did not do the work being timed.
        if (run.status !== 0 && run.status !== 2) {
            console.log(`  octocatalog-diff failed for ${node}: ${(run.stderr || '').trim().split('\n').slice(-1)[0]}`);
            return undefined;
        }
    }
    return { wallMs: performance.now() - started, ...(cpuMs !== undefined ? { cpuMs } : {}) };
}

/**
 * `modelc review` wall time on the example's 4 nodes and on a generated 200-node site (same
 * code, generated facts), beside octocatalog-diff with the real Puppet where both are
 * installed. octocatalog-diff takes one node per run, so on the 200-node site it is timed on
 * a sample of nodes and scaled (stated in the output).
 */
export async function runReviewBench(): Promise<void> {
    const work = mkdtempSync(join(tmpdir(), 'modelc-review-bench-'));
    try {
        const repo = benchRepo(work);
        const jobs = availableParallelism();
        const sec = (ms: number | undefined): string => ms === undefined ? 'n/a' : (ms / 1000).toFixed(2);
        const ratio = (a: number | undefined, b: number | undefined): string => a === undefined || b === undefined ? '' : `${(a / b).toFixed(1)}x`;
        console.log(`modelc review (${jobs} job${jobs === 1 ? '' : 's'}) beside octocatalog-diff 2.1 compiling with puppet-agent 7.23 (where installed);`);
        console.log('  both as fresh processes; CPU = user+sys of every thread and child process (wall time is unreliable on a loaded machine):');
        console.log(`  ${'site'.padEnd(24)} ${'nodes'.padStart(5)} ${'ours cpu s'.padStart(10)} ${'wall s'.padStart(7)} ${'octo cpu s'.padStart(10)} ${'wall s'.padStart(7)} ${'cpu ratio'.padStart(9)}`);
        const exampleFacts = join(examples, 'facts');
        const sample = ['web01.example.com', 'web02.example.com', 'db01.example.com', 'util01.example.com'];
        const cases: Array<{ label: string; facts: string; sample: readonly string[] }> = [
            { label: 'examples/site', facts: exampleFacts, sample },
            { label: 'generated 200-node site', facts: generatedFacts(work, 200), sample: ['web001.example.com', 'web002.example.com', 'util003.example.com', 'web004.example.com'] }
        ];
        for (const c of cases) {
            const ours = timeReview(repo, c.facts, jobs, work);
            const nodes = ours.report.summary.nodes;
            const sampled = octocatalogTiming(repo, c.facts, c.sample, work);
            // octocatalog-diff runs one node at a time: a sample, scaled to the site's node count.
            const scale = nodes / c.sample.length;
            const theirs = sampled && { wallMs: sampled.wallMs * scale, ...(sampled.cpuMs !== undefined ? { cpuMs: sampled.cpuMs * scale } : {}) };
            const note = sampled && scale !== 1 ? ` (octocatalog-diff: ${c.sample.length} nodes timed, scaled)` : '';
            console.log(`  ${c.label.padEnd(24)} ${String(nodes).padStart(5)} ${sec(ours.cpuMs).padStart(10)} ${sec(ours.wallMs).padStart(7)} ${sec(theirs?.cpuMs).padStart(10)} ${sec(theirs?.wallMs).padStart(7)} ${ratio(theirs?.cpuMs, ours.cpuMs).padStart(9)}${note}`);
        }
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}
