import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseYamlData } from '../../../src/bindings/index.js';
import type { PuppetValue } from '../../../src/model/index.js';

export const LOOKUP_CORPUS = '/work/shared/conformance/lookup';

/** One query of a conformance case, with the case defaults applied. */
export interface ConformanceQuery {
    readonly caseName: string;
    readonly dir: string;
    readonly name: string;
    readonly key: string;
    readonly node?: string;
    readonly facts?: string;
    readonly trusted?: string;
    readonly merge?: string;
    readonly knockoutPrefix?: string;
    readonly sortMergedArrays?: boolean;
    readonly mergeHashArrays?: boolean;
    readonly type?: string;
    readonly default?: { readonly value: PuppetValue };
    /** A `--default` given as text (hiera-fuzz's `defaultRaw`: JSON, or a bare word taken as a string). */
    readonly defaultRaw?: string;
    readonly compile?: boolean;
    /** `--explain`: the expected output is the explanation text. */
    readonly explain?: boolean;
    /** The oracle's stdout, parsed. */
    readonly expected: unknown;
}

interface RawQuery {
    name: string; key: string; node?: string; facts?: string; trusted?: string; merge?: string;
    knockout_prefix?: string; sort_merged_arrays?: boolean; merge_hash_arrays?: boolean; type?: string; compile?: boolean; explain?: boolean; defaultRaw?: string;
}

/** Every query of every case in a lookup corpus (the shared one by default; empty when it is absent). */
export function loadLookupQueries(corpus = LOOKUP_CORPUS): ConformanceQuery[] {
    if (!existsSync(corpus)) return [];
    const out: ConformanceQuery[] = [];
    for (const caseName of readdirSync(corpus).sort()) {
        const dir = join(corpus, caseName);
        const caseFile = join(dir, 'case.yaml');
        if (!existsSync(caseFile)) continue;
        const text = readFileSync(caseFile, 'utf8');
        const spec = parse(text) as { node?: string; facts?: string; trusted?: string; queries: RawQuery[] };
        // The defaults are read again with our Psych-compatible reader, so values keep Puppet's types.
        const typed = parseYamlData(text, caseFile).value as Map<string, PuppetValue>;
        const typedQueries = typed.get('queries') as Map<string, PuppetValue>[];
        const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, unknown>;
        spec.queries.forEach((q, i) => {
            const tq = typedQueries[i];
            out.push({
                caseName, dir, name: q.name, key: q.key,
                node: q.node ?? spec.node,
                facts: q.facts ?? spec.facts,
                trusted: q.trusted ?? spec.trusted,
                merge: q.merge,
                knockoutPrefix: q.knockout_prefix,
                sortMergedArrays: q.sort_merged_arrays,
                mergeHashArrays: q.merge_hash_arrays,
                type: q.type,
                default: tq.has('default') ? { value: tq.get('default') as PuppetValue } : undefined,
                compile: q.compile,
                explain: q.explain,
                defaultRaw: q.defaultRaw,
                expected: expected[q.name]
            });
        });
    }
    return out;
}

/** known-failures.txt: `CASE/QUERY  reason` lines; # comments. */
export function loadKnownFailures(file: string): Map<string, string> {
    const m = new Map<string, string>();
    if (!existsSync(file)) return m;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
        const t = line.trim();
        if (t === '' || t.startsWith('#')) continue;
        const [id, ...reason] = t.split(/\s+/);
        m.set(id, reason.join(' '));
    }
    return m;
}
