import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliResult } from '../../cli/run-cli.js';
import { writeEnv } from '../hiera/fixture.js';

/**
 * One normative statement of ARM-8 (the seed), checked through the CLI as a user runs it: an
 * environment (or a confdir) written from `files`, one command, and what it must print.
 */
export interface SeedCase {
    /** The seed's section the statement is in. */
    readonly section: string;
    /** The statement, in a few words. */
    readonly rule: string;
    readonly files: Record<string, string>;
    /** `lookup KEY` (default), `compile`, `bindings`, or `effective` (over what `bindings` printed). */
    readonly run?: 'lookup' | 'compile' | 'bindings' | 'effective';
    readonly key?: string;
    readonly node?: string;
    /** Extra arguments; `{dir}` is the environment's directory. */
    readonly args?: readonly string[];
    /** Commands run first (e.g. other nodes' compiles into a store), each must succeed; `{dir}` as in args. */
    readonly before?: readonly (readonly string[])[];
    /** lookup: the JSON value; compile: the messages of the catalog's notify resources by title (null: absent). */
    readonly expect?: unknown;
    /** An error: its code and, when given, where (`file:line:col`, the file relative to the environment). */
    readonly error?: { readonly code: string; readonly at?: string; readonly message?: string | RegExp };
    /** Success with a warning on stderr matching this. */
    readonly warns?: RegExp;
    /** Anything else to check on the result (compile: the catalog). */
    readonly check?: (r: CliResult, catalog?: Catalog) => void;
}

export interface CatalogResource {
    readonly type: string;
    readonly title: string;
    readonly parameters?: Record<string, unknown>;
}
export interface Catalog {
    readonly resources: CatalogResource[];
}

export const NODE = 'n1.example.com';
export const FACTS = `fqdn: ${NODE}\n`;

/** `bindings default { ... }` around the statements. */
export const b = (body: string): string => `bindings default {\n${body}\n}\n`;

/** A notify per expression: `notify { 'T': message => EXPR }`. */
export const notifies = (byTitle: Record<string, string>): string =>
    Object.entries(byTitle).map(([t, e]) => `notify { '${t}': message => ${e} }\n`).join('');

/** Runs one case and checks it. */
export async function check(c: SeedCase): Promise<void> {
    const files = { 'facts.yaml': FACTS, ...c.files };
    const dir = writeEnv(files);
    const node = ['--node', c.node ?? NODE];
    const run = c.run ?? 'lookup';
    const args = (c.args ?? []).map(a => a.replaceAll('{dir}', dir));
    for (const before of c.before ?? []) {
        const r = await runCli(...before.map(a => a.replaceAll('{dir}', dir)));
        expect({ code: r.code, err: r.err.split('\n').filter(l => / error /.test(l)) }, `before: ${before.join(' ')}`).toEqual({ code: 0, err: [] });
    }
    let r: CliResult;
    if (run === 'lookup') r = await runCli('lookup', dir, c.key ?? '', ...node, ...args);
    else if (run === 'compile') r = await runCli('compile', dir, ...node, '--format', 'puppet', ...args);
    else if (run === 'bindings') r = await runCli('bindings', dir, ...node, ...args);
    else {
        const composed = await runCli('bindings', dir, ...node, '--no-hiera');
        expect([composed.code, composed.err]).toEqual([0, '']);
        const model = join(dir, 'composed.json');
        writeFileSync(model, composed.out);
        r = await runCli('effective', model, ...node, '--facts', join(dir, 'facts.yaml'), ...args);
    }
    // Never a stack trace, whatever happens.
    expect(r.err).not.toMatch(/\n\s+at |TypeError|ReferenceError|RangeError/);
    if (c.error) {
        expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: '' });
        const lines = r.err.trim().split('\n');
        const line = lines.find(l => l.includes(` error ${c.error!.code}:`));
        expect(line, r.err).toBeDefined();
        // Located: file:line:col, relative to the environment (or absolute in it).
        expect(line).toMatch(/^[^:\s]+:\d+:\d+: error /);
        if (c.error.at !== undefined) {
            // `file:line` matches any column; `file:line:col` exactly.
            const at = /:\d+:\d+$/.test(c.error.at) ? c.error.at : `${c.error.at}:`;
            expect(line!.replace(`${dir}/`, '').startsWith(at), `${line} at ${c.error.at}`).toBe(true);
        }
        if (c.error.message !== undefined) expect(line).toMatch(c.error.message);
        return;
    }
    if (c.warns !== undefined) {
        expect(r.code, r.err).toBe(0);
        expect(r.err).toMatch(c.warns);
    } else {
        expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    }
    if (run === 'compile') {
        const catalog = JSON.parse(r.out) as Catalog;
        if (c.expect !== undefined) {
            const want = c.expect as Record<string, unknown>;
            const got: Record<string, unknown> = {};
            for (const title of Object.keys(want)) {
                const n = catalog.resources.find(x => x.type === 'Notify' && x.title === title);
                got[title] = n === undefined ? null : n.parameters?.message ?? title;
            }
            expect(got).toEqual(want);
        }
        c.check?.(r, catalog);
        return;
    }
    if (c.expect !== undefined) expect(JSON.parse(r.out)).toEqual(c.expect);
    c.check?.(r);
}

/** The test name of a case: its section and rule. */
export const named = (cases: readonly SeedCase[]): Array<[string, SeedCase]> => cases.map(c => [`${c.section}: ${c.rule}`, c]);
