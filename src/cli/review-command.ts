import { writeFileSync } from 'node:fs';
import { UserError } from '../common/index.js';
import { stringifyJson } from '../model/index.js';
import { defaultJobs, formatReviewMarkdown, formatReviewText, review, reviewExitCode, ReviewIssues, type ReviewReport } from '../review/index.js';
import { changeFilters, ignoreRules } from './diff-command.js';
import type { ReviewFormat } from './choices.js';
import type { CliIo } from './io.js';


export interface ReviewCommandOptions {
    readonly base?: string;
    readonly head?: string;
    readonly worktree?: boolean;
    readonly node?: string[];
    readonly nodesDir?: string;
    readonly environment: string;
    readonly path?: string;
    readonly format: ReviewFormat;
    readonly out?: string;
    readonly jsonOut?: string;
    readonly jobs?: string;
    readonly ignore?: string[];
    readonly filters?: string;
    readonly includeTags?: boolean;
    /** Commander's `--no-bindings`: false leaves ARM-8 bindings out. */
    readonly bindings?: boolean;
    readonly maxSize?: string;
}

function positive(text: string | undefined, option: string): number | undefined {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new UserError({ severity: 'error', code: ReviewIssues.USAGE, message: `${option} expects a positive integer, got '${text}'` });
    return n;
}

function render(report: ReviewReport, options: ReviewCommandOptions): string {
    switch (options.format) {
        case 'json': return stringifyJson(report);
        // Colour only for a terminal reader, and never when NO_COLOR is set (no-color.org).
        case 'text': return formatReviewText(report, { color: options.out === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR });
        case 'markdown': return formatReviewMarkdown(report, { limit: positive(options.maxSize, '--max-size'), fullReport: options.jsonOut });
    }
}

/**
 * `modelc review REPO`: compiles the requested nodes at two git revisions and reports what
 * changed. Exit 0 when nothing changed, 2 when something did, 1 on errors (nothing written).
 */
export async function reviewAction(repo: string, options: ReviewCommandOptions, io: CliIo): Promise<number> {
    if (options.head !== undefined && options.worktree) {
        throw new UserError({ severity: 'error', code: ReviewIssues.USAGE, message: '--head and --worktree exclude each other' });
    }
    const report = await review({
        repo, base: options.base, head: options.worktree ? undefined : options.head, path: options.path,
        nodes: options.node ?? [], factsDir: options.nodesDir, environment: options.environment,
        jobs: positive(options.jobs, '--jobs') ?? defaultJobs(),
        filters: changeFilters(options.filters), ignores: ignoreRules(options.ignore),
        includeTags: options.includeTags, noBindings: options.bindings === false, progress: true
    });
    const text = render(report, options);
    if (options.jsonOut) writeFileSync(options.jsonOut, stringifyJson(report));
    if (options.out) writeFileSync(options.out, text);
    else io.out(text);
    return reviewExitCode(report);
}
