/** Runs a generated query through modelc (in process, from dist/) and names kinds of difference. */
import { join } from 'node:path';
import { runLookupCommand } from '../../../dist/src/bindings/index.js';
import { createCatalogServices, jsonText, normalizedResult } from '../../../dist/src/catalog/index.js';
import { prepareWithCatalog } from '../../../dist/src/cli/lookup-command.js';
import { readNodeRequest } from '../../../dist/src/node/index.js';
import type { Query } from './scenario.ts';

/** What `modelc lookup` prints for the query (the oracle's shape: JSON text, or the explanation). */
export function runModelc(dir: string, sc: { node: string; facts?: string; trusted?: string }, q: Query): string {
    try {
        const rel = (f: string | undefined): string | undefined => (f === undefined ? undefined : join(dir, f));
        const result = runLookupCommand({
            codedir: dir, key: q.key, node: readNodeRequest({ node: sc.node, factsFile: rel(sc.facts), trustedFile: rel(sc.trusted), defaultFactsDir: dir }),
            merge: q.merge, knockoutPrefix: q.knockout_prefix, sortMergedArrays: q.sort_merged_arrays, mergeHashArrays: q.merge_hash_arrays,
            type: q.type, defaultJson: q.defaultRaw ?? (q.default === undefined ? undefined : JSON.stringify(q.default)), explain: q.explain,
            prepare: input => prepareWithCatalog(input, q.compile === true)
        });
        return result.output;
    } catch (e) {
        return JSON.stringify({ modelc_crash: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack?.split('\n').slice(1, 4).join('\n') ?? ''}` : String(e) });
    }
}

/** Replaces the varying parts of a message (quoted names, numbers, paths) so like failures group. */
function shape(message: string): string {
    return message
        .replace(/'[^']*'/g, "'…'")
        .replace(/"[^"]*"/g, '"…"')
        .replace(/\b\d+\b/g, 'N')
        .replace(/\(file: [^)]*\)/g, '(file: …)')
        .slice(0, 160);
}

function errorOf(v: unknown): { message: string; class?: string } | undefined {
    if (typeof v !== 'object' || v === null || !('error' in v)) return undefined;
    const e = (v as { error: { message?: string; class?: string } }).error;
    return { message: String(e.message), class: e.class };
}

/** A short description of how `got` differs from `expected`, shared by differences of one kind. */
export function signature(expected: unknown, got: unknown, q: Query): string {
    if (typeof got === 'object' && got !== null && 'modelc_crash' in got) return `CRASH ${shape(String((got as { modelc_crash: string }).modelc_crash).split('\n')[0])}`;
    if (q.explain && typeof expected === 'string' && !expected.startsWith('{')) {
        if (typeof got !== 'string' || got.startsWith('{')) return `explain: modelc gave ${JSON.stringify(got).slice(0, 100)}`;
        const e = expected.split('\n');
        const g = got.split('\n');
        const i = e.findIndex((l, j) => l !== g[j]);
        return `explain: line differs: ${shape(e[i]?.trim() ?? '<end>')} ≠ ${shape(g[i]?.trim() ?? '<end>')}`;
    }
    const ee = errorOf(expected);
    const ge = errorOf(got);
    if (ee && ge) {
        if (ee.message !== ge.message) return `error message: ${shape(ee.message)} ≠ ${shape(ge.message)}`;
        return `error details (${ee.class}): ${diffKeys(expected, got)}`;
    }
    if (ee) return `puppet fails, modelc gives value: ${shape(ee.message)}`;
    if (ge) return `modelc fails, puppet gives value: ${shape(ge.message)}`;
    if (JSON.stringify(expected) === JSON.stringify(got)) return 'JSON text differs (number format?)';
    return `value differs${q.merge ? ` (merge ${q.merge})` : ''}${q.type ? ' (type)' : ''}${q.key.includes('.') ? ' (dotted)' : ''}`;
}

function diffKeys(a: unknown, b: unknown): string {
    const ea = (a as { error: Record<string, unknown> }).error;
    const eb = (b as { error: Record<string, unknown> }).error;
    const keys = new Set([...Object.keys(ea), ...Object.keys(eb)]);
    const diffs = [...keys].filter(k => JSON.stringify(ea[k]) !== JSON.stringify(eb[k]));
    const logs = JSON.stringify((a as { logs?: unknown }).logs) !== JSON.stringify((b as { logs?: unknown }).logs) ? ['logs'] : [];
    return [...diffs, ...logs].join(',') || 'formatting';
}

/** Parses an output as the corpus stores it: JSON, or the text itself when it is not JSON (explanations). */
export function parseOutput(text: string): unknown {
    try {
        return JSON.parse(text) as unknown;
    } catch {
        return text;
    }
}

/** The oracle's command line for a query (paths relative to the case directory, run from it). */
export function oracleArgv(sc: { node: string; facts?: string; trusted?: string }, q: Query): string[] {
    const a = ['.', q.key, '--node', sc.node];
    if (sc.facts) a.push('--facts', sc.facts);
    if (sc.trusted) a.push('--trusted', sc.trusted);
    if (q.merge) a.push('--merge', q.merge);
    if (q.knockout_prefix !== undefined) a.push('--knock-out-prefix', q.knockout_prefix);
    if (q.sort_merged_arrays) a.push('--sort-merged-arrays');
    if (q.merge_hash_arrays) a.push('--merge-hash-arrays');
    if (q.type) a.push('--type', q.type);
    if (q.default !== undefined) a.push('--default', JSON.stringify(q.default));
    if (q.defaultRaw !== undefined) a.push('--default', q.defaultRaw);
    if (q.compile) a.push('--compile');
    if (q.explain) a.push('--explain');
    return a;
}

/** A compile case: its node, and its facts and trusted files relative to the case directory. */
export interface CompileCase { readonly node: string; readonly facts?: string; readonly trusted?: string }

/** The oracle's compile command line for a case (run from its directory). */
export function compileOracleArgv(sc: CompileCase): string[] {
    return ['.', '--node', sc.node, ...(sc.facts ? ['--facts', sc.facts] : []), ...(sc.trusted ? ['--trusted', sc.trusted] : [])];
}

/** modelc's normalized catalog for a case, compiled in process (a crash is reported as data, not thrown). */
export function modelcCompile(dir: string, sc: CompileCase): string {
    try {
        const node = readNodeRequest({ node: sc.node, factsFile: sc.facts ? join(dir, sc.facts) : undefined, trustedFile: sc.trusted ? join(dir, sc.trusted) : undefined });
        const result = createCatalogServices().compile(dir, 'production', { node: node.certname, facts: node.facts, trusted: node.trusted, classes: [], settings: new Map() });
        return `${jsonText(normalizedResult(result))}\n`;
    } catch (e) {
        return JSON.stringify({ modelc_crash: e instanceof Error ? e.stack : String(e) });
    }
}
