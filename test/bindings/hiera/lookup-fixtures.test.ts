import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runLookupCommand } from '../../../src/bindings/index.js';
import { prepareWithCatalog } from '../../../src/cli/lookup-command.js';
import { readNodeRequest } from '../../../src/node/index.js';
import { parseRubyJson, type PuppetValue } from '../../../src/values/index.js';
import { loadLookupQueries, type ConformanceQuery } from './conformance-cases.js';

/**
 * Lookup scenarios found by test/tools/hiera-fuzz and recorded with real Puppet 7.23's output
 * (test/fixtures/bindings/hiera/lookup/*: the conformance corpus's case layout, expected.json
 * holding each query's stdout verbatim). JSON is compared as Ruby reads it, so an Integer and a
 * Float differ; explanations as text.
 */
const FIXTURES = join(import.meta.dirname, '../../fixtures/bindings/hiera/lookup');
const queries = loadLookupQueries(FIXTURES);
const expectedTexts = new Map<string, ReadonlyMap<PuppetValue, PuppetValue>>();

function expectedOf(q: ConformanceQuery): PuppetValue {
    let all = expectedTexts.get(q.dir);
    if (!all) {
        all = parseRubyJson(readFileSync(join(q.dir, 'expected.json'), 'utf8')).value as ReadonlyMap<PuppetValue, PuppetValue>;
        expectedTexts.set(q.dir, all);
    }
    return all.get(q.name) as PuppetValue;
}

function run(q: ConformanceQuery): string {
    const rel = (f: string | undefined): string | undefined => (f === undefined ? undefined : join(q.dir, f));
    return runLookupCommand({
        codedir: q.dir, key: q.key, node: readNodeRequest({ node: q.node, factsFile: rel(q.facts), trustedFile: rel(q.trusted), defaultFactsDir: q.dir }),
        merge: q.merge, knockoutPrefix: q.knockoutPrefix, sortMergedArrays: q.sortMergedArrays, mergeHashArrays: q.mergeHashArrays,
        type: q.type, defaultValue: q.default, defaultJson: q.defaultRaw, explain: q.explain,
        prepare: input => prepareWithCatalog(input, q.compile === true)
    }).output;
}

describe('lookup scenarios found by hiera-fuzz (real Puppet 7.23 outputs)', () => {
    test('the fixtures are there', () => {
        expect(queries.length).toBeGreaterThan(0);
    });
    test.each(queries.map(q => [`${q.caseName}/${q.name}`, q] as const))('%s', (_id, q) => {
        const output = run(q);
        const expected = expectedOf(q);
        if (q.explain && typeof expected === 'string') expect(output).toBe(expected);
        else expect(parseRubyJson(output).value).toEqual(expected);
    });
});
