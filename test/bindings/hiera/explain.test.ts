import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runLookupCommand } from '../../../src/bindings/index.js';
import { prepareWithCatalog } from '../../../src/cli/lookup-command.js';
import { readNodeRequest } from '../../../src/node/index.js';
import { loadLookupQueries } from './conformance-cases.js';

const golden = JSON.parse(readFileSync(join(import.meta.dirname, 'explain-golden.json'), 'utf8')) as { explanations: Record<string, string> };
const queries = loadLookupQueries().filter(q => golden.explanations[`${q.caseName}/${q.name}`] !== undefined);

describe.skipIf(queries.length === 0)('--explain equals real Puppet\'s explanation', () => {
    test.each(queries.map(q => [`${q.caseName}/${q.name}`, q] as const))('%s', (id, q) => {
        const rel = (f: string | undefined): string | undefined => f === undefined ? undefined : join(q.dir, f);
        const result = runLookupCommand({
            codedir: q.dir, key: q.key, node: readNodeRequest({ node: q.node, factsFile: rel(q.facts), trustedFile: rel(q.trusted), defaultFactsDir: q.dir }),
            merge: q.merge, knockoutPrefix: q.knockoutPrefix, sortMergedArrays: q.sortMergedArrays, mergeHashArrays: q.mergeHashArrays,
            type: q.type, defaultValue: q.default, explain: true,
            prepare: input => prepareWithCatalog(input, q.compile === true)
        });
        expect(result.output).toBe(golden.explanations[id]);
    });
});
