import { realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { ChangeFilterName, IgnoreRule } from '../model/index.js';
import { compileAll } from './compile-pool.js';
import type { CompiledNode, CompileTask, NodeError } from './compile-node.js';
import { diffNodeCatalogs, type NodeDiff } from './node-diff.js';
import { nodeInputs } from './node-inputs.js';
import { progressBar } from './progress.js';
import type { NodeReport, NodeStatus, ReviewReport, ReviewSummary } from './report-model.js';
import { checkoutRevision, releaseOnSignal, repositoryRoot, workingTree, type Checkout } from './revisions.js';

export interface ReviewOptions {
    readonly repo: string;
    /** The old revision (default HEAD). */
    readonly base?: string;
    /** The new revision; unset: the working tree. */
    readonly head?: string;
    /** Environment directory inside the repository (default: REPO's place in it, its top when REPO is the top). */
    readonly path?: string;
    readonly nodes: readonly string[];
    readonly factsDir?: string;
    readonly environment: string;
    readonly jobs: number;
    readonly filters: ReadonlySet<ChangeFilterName>;
    readonly ignores: readonly IgnoreRule[];
    readonly includeTags?: boolean;
    /** Leave ARM-8 bindings out (Hiera 5 alone), as `compile --no-bindings`. */
    readonly noBindings?: boolean;
    /** Show a progress bar on stderr when it is a terminal. */
    readonly progress?: boolean;
}

/** The review's exit code: 0 nothing changed, 2 something did (errors exit 1 before a report exists). */
export function reviewExitCode(report: ReviewReport): number {
    return report.nodes.some(n => n.status !== 'unchanged' && !(n.status === 'broken' && sameError(n.error, n.baseError))) ? 2 : 0;
}

function sameError(a: NodeError | undefined, b: NodeError | undefined): boolean {
    return a?.message === b?.message && a?.file === b?.file && a?.line === b?.line;
}

function status(base: CompiledNode, head: CompiledNode, diff: NodeDiff | undefined): NodeStatus {
    if (base.error && head.error) return 'broken';
    if (head.error) return 'failed';
    if (base.error) return 'fixed';
    return diff && (diff.added.length + diff.removed.length + diff.changed.length) > 0 ? 'changed' : 'unchanged';
}

/**
 * `modelc review`: checks both revisions out as temporary git worktrees (never touching the
 * user's checkout; always removed), compiles every node at both in parallel, and diffs each
 * node's catalogs into one report.
 */
export async function review(options: ReviewOptions): Promise<ReviewReport> {
    const root = repositoryRoot(options.repo);
    // REPO may be a directory inside the work tree: the environment is that directory in each revision.
    const inside = relative(root, realpathSync(resolve(options.repo)));
    const envPath = options.path ?? (inside === '' ? '.' : inside);
    const inputs = nodeInputs(options.nodes, options.factsDir === undefined ? undefined : resolve(options.factsDir));
    const checkouts: Checkout[] = [];
    const stopListening = releaseOnSignal(() => checkouts);
    try {
        const base = checkoutRevision(root, options.base ?? 'HEAD');
        checkouts.push(base);
        const head = options.head !== undefined ? checkoutRevision(root, options.head) : workingTree(root);
        checkouts.push(head);
        const envDir = (c: Checkout): string => resolve(c.dir, envPath);
        // A revision's nodes are consecutive, so each worker mostly stays on one revision.
        const tasks: CompileTask[] = (['base', 'head'] as const).flatMap((side, s) => inputs.map((n, i) => ({
            id: s * inputs.length + i, side, dir: envDir(side === 'base' ? base : head), environment: options.environment, node: n.node,
            ...(n.factsFile ? { factsFile: n.factsFile } : {}), ...(options.noBindings ? { noBindings: true } : {})
        })));
        const bar = options.progress ? progressBar(tasks.length, 'compiling') : undefined;
        const compiled = await compileAll(tasks, options.jobs, done => bar?.update(done));
        bar?.finish();
        const nodes = inputs.map((n, i) => nodeReport(n.node, compiled[i], compiled[inputs.length + i], options));
        return {
            repository: root, environment: options.environment,
            base: { label: base.label, ...(base.commit ? { commit: base.commit } : {}) },
            head: { label: head.label, ...(head.commit ? { commit: head.commit } : {}) },
            filters: [...options.filters], ignores: options.ignores.map(r => r.text),
            summary: summarize(nodes, compiled),
            nodes: [...nodes].sort((a, b) => a.node < b.node ? -1 : a.node > b.node ? 1 : 0)
        };
    } finally {
        for (const c of checkouts) c.release();
        stopListening();
    }
}

function nodeReport(node: string, base: CompiledNode, head: CompiledNode, options: ReviewOptions): NodeReport {
    const diff = base.catalog && head.catalog ? diffNodeCatalogs(base.catalog, head.catalog, options) : undefined;
    return {
        node, status: status(base, head, diff),
        ...(head.error ? { error: head.error } : {}),
        ...(base.error ? { baseError: base.error } : {}),
        added: diff?.added ?? [], removed: diff?.removed ?? [], changed: diff?.changed ?? []
    };
}

function summarize(nodes: readonly NodeReport[], compiled: readonly CompiledNode[]): ReviewSummary {
    const count = (s: NodeStatus): number => nodes.filter(n => n.status === s).length;
    const sum = (f: (n: NodeReport) => number): number => nodes.reduce((acc, n) => acc + f(n), 0);
    return {
        nodes: nodes.length, changed: count('changed'), unchanged: count('unchanged'), failed: count('failed'), fixed: count('fixed'), broken: count('broken'),
        resourcesAdded: sum(n => n.added.length), resourcesRemoved: sum(n => n.removed.length), resourcesChanged: sum(n => n.changed.length),
        parametersChanged: sum(n => n.changed.reduce((a, r) => a + r.parameters.length, 0)),
        compileMillis: compiled.reduce((a, c) => a + c.millis, 0)
    };
}
