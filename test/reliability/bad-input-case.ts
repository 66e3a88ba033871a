import { expect } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { filesBelow, ONE_LINE, scratch, writeTree } from './harness.js';

/** A bad input of a table-driven reliability test: the files it is made of, the command, and the one line it must give. */
export interface BadInputCase {
    readonly args: (dir: string) => string[];
    readonly files?: Record<string, string | Uint8Array>;
    readonly code: string;
    readonly message: RegExp;
}

/**
 * Runs the case in-process and checks the README's promise: exit 1, one located line with the
 * case's code and message, no stack trace, nothing written (nothing on stdout but the
 * oracle-shaped error object of `--format normalized`).
 */
export async function expectOneLocatedLine(c: BadInputCase): Promise<void> {
    const dir = writeTree(scratch(), c.files ?? {});
    const before = filesBelow(dir);
    const r = await runCli(...c.args(dir));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(ONE_LINE(c.code));
    expect(r.err).toMatch(c.message);
    expect(r.err).not.toMatch(/\n\s+at |TypeError|RangeError/);
    if (!c.args(dir).includes('normalized')) expect(r.out).toBe('');
    expect(filesBelow(dir)).toEqual(before);
}
