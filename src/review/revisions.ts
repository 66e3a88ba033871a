import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from '../common/index.js';
import { ReviewIssues } from './issues.js';

/** One side of a review: a checked-out revision (or the working tree) and how to let it go. */
export interface Checkout {
    /** What the user asked for: a revision name, or "worktree". */
    readonly label: string;
    /** The commit id, unset for the working tree. */
    readonly commit?: string;
    /** The directory holding that revision's files. */
    readonly dir: string;
    /** Removes the temporary worktree (idempotent; nothing for the working tree). */
    release(): void;
}

function git(repo: string, args: readonly string[]): string {
    return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function gitError(e: unknown): string {
    const err = e as { stderr?: string | Buffer; message?: string };
    const text = err.stderr ? String(err.stderr) : err.message ?? String(e);
    return text.trim().split('\n')[0] ?? '';
}

/** The top of the git work tree holding `repo`, or a usage error. */
export function repositoryRoot(repo: string): string {
    try {
        return git(resolve(repo), ['rev-parse', '--show-toplevel']);
    } catch (e) {
        throw new UserError({ severity: 'error', code: ReviewIssues.NOT_A_REPOSITORY, file: repo, message: `not a git repository: ${gitError(e)}` });
    }
}

/**
 * Checks `rev` out into a temporary detached git worktree of `repo`: the user's checkout, index
 * and branches are not touched, and the worktree is removed again by `release()`.
 */
export function checkoutRevision(repo: string, rev: string): Checkout {
    let commit: string;
    try {
        commit = git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
    } catch {
        throw new UserError({ severity: 'error', code: ReviewIssues.UNKNOWN_REVISION, file: repo, message: `unknown revision '${rev}'` });
    }
    const parent = mkdtempSync(join(tmpdir(), 'modelc-review-'));
    const dir = join(parent, commit.slice(0, 12));
    try {
        git(repo, ['worktree', 'add', '--detach', '--quiet', dir, commit]);
    } catch (e) {
        rmSync(parent, { recursive: true, force: true });
        throw new UserError({ severity: 'error', code: ReviewIssues.CHECKOUT_FAILED, file: repo, message: `cannot check out '${rev}': ${gitError(e)}` });
    }
    let released = false;
    return {
        label: rev, commit, dir,
        release() {
            if (released) return;
            released = true;
            try {
                git(repo, ['worktree', 'remove', '--force', dir]);
            } catch {
                // Already gone (e.g. removed by hand): prune forgets it below.
            }
            rmSync(parent, { recursive: true, force: true });
            try { git(repo, ['worktree', 'prune']); } catch { /* nothing left to prune */ }
        }
    };
}

/** The working tree itself (uncommitted changes included), for `--worktree`. */
export function workingTree(repo: string): Checkout {
    return { label: 'worktree', dir: repo, release() { /* the user's own files */ } };
}

/** Releases every checkout when the process is interrupted, so no worktree is left behind. */
export function releaseOnSignal(checkouts: () => readonly Checkout[]): () => void {
    const handler = (signal: NodeJS.Signals): void => {
        for (const c of checkouts()) c.release();
        process.kill(process.pid, signal);
    };
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
    return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
    };
}
