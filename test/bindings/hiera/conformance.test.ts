import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runLookupCommand } from '../../../src/bindings/index.js';
import { prepareWithCatalog } from '../../../src/cli/lookup-command.js';
import { readNodeRequest } from '../../../src/node/index.js';
import { loadKnownFailures, loadLookupQueries, type ConformanceQuery } from './conformance-cases.js';

const queries = loadLookupQueries();
const known = loadKnownFailures(join(import.meta.dirname, 'known-failures.txt'));
const passed = new Map<string, number>();
const total = new Map<string, number>();

/** Runs a query the way the oracle ran it (paths relative to the corpus case directory). */
function run(q: ConformanceQuery): unknown {
    const rel = (f: string | undefined): string | undefined => f === undefined ? undefined : join(q.dir, f);
    const result = runLookupCommand({
        codedir: q.dir, key: q.key, node: readNodeRequest({ node: q.node, factsFile: rel(q.facts), trustedFile: rel(q.trusted), defaultFactsDir: q.dir }),
        merge: q.merge, knockoutPrefix: q.knockoutPrefix, sortMergedArrays: q.sortMergedArrays, mergeHashArrays: q.mergeHashArrays,
        type: q.type, defaultValue: q.default,
        // As `modelc lookup` does: the catalog builder boots the environment, supplies `new` for
        // convert_to and, for --compile queries, evaluates the manifests first.
        prepare: input => prepareWithCatalog(input, q.compile === true)
    });
    return JSON.parse(result.output) as unknown;
}

describe.skipIf(queries.length === 0)('lookup conformance (real Puppet 7.23 expected outputs)', () => {
    for (const q of queries) {
        const id = `${q.caseName}/${q.name}`;
        total.set(q.caseName, (total.get(q.caseName) ?? 0) + 1);
        const body = (): void => {
            expect(run(q)).toEqual(q.expected);
            passed.set(q.caseName, (passed.get(q.caseName) ?? 0) + 1);
        };
        if (known.has(id)) test.fails(`${id} (known failure: ${known.get(id)})`, body);
        else test(id, body);
    }

    test('known-failures.txt names only existing queries', () => {
        const ids = new Set(queries.map(q => `${q.caseName}/${q.name}`));
        expect([...known.keys()].filter(k => !ids.has(k))).toEqual([]);
    });

    afterAll(() => {
        const n = [...passed.values()].reduce((a, b) => a + b, 0);
        const perCase = [...total].map(([c, t]) => `${c} ${passed.get(c) ?? 0}/${t}`).join(', ');
        console.log(`lookup conformance: ${n}/${queries.length} queries pass (${perCase})`);
    });
});
