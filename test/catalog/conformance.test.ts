import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BindingsCatalogModule, createCatalogServices } from '../../src/catalog/index.js';
import { compileCase, conformanceCases, knownFailures, parseTyped } from './conformance-cases.js';

const cases = conformanceCases();
const known = knownFailures(join(import.meta.dirname, 'known-failures.txt'));
// The services `modelc compile` uses by default: ARM-8 bindings take part where an environment has them.
const services = createCatalogServices(BindingsCatalogModule);
let passed = 0;

/**
 * Every case of the shared conformance corpus against real Puppet's expected.json. Cases in
 * known-failures.txt are expected to fail (test.fails), so one that starts passing fails the
 * run until it is taken off the list.
 */
describe.skipIf(cases.length === 0)('catalog conformance with Puppet 7.23', () => {
    afterAll(() => {
        console.log(`catalog conformance: ${passed}/${cases.length} cases pass (${known.size} known failures listed)`);
    });

    for (const c of cases) {
        const run = known.has(c.name) ? test.fails : test;
        run(c.name, () => {
            const expected = parseTyped(readFileSync(join(c.dir, 'expected.json'), 'utf8'));
            const actual = parseTyped(compileCase(c, services));
            expect(actual).toEqual(expected);
            passed++;
        });
    }
});
