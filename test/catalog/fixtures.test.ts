import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalogServices } from '../../src/catalog/index.js';
import { compileCase, parseTyped } from './conformance-cases.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'catalog');
const names = readdirSync(dir).filter(n => existsSync(join(dir, n, 'expected.json'))).sort();
const services = createCatalogServices();

/** Our own differential cases, recorded from real Puppet 7.23 (see test/fixtures/catalog/README.md). */
describe('catalog fixtures recorded from Puppet 7.23', () => {
    test.each(names)('%s', name => {
        const caseDir = join(dir, name);
        const actual = parseTyped(compileCase({ name, dir: caseDir, node: 'testnode.example.com', settings: [], classes: [] }, services));
        expect(actual).toEqual(parseTyped(readFileSync(join(caseDir, 'expected.json'), 'utf8')));
    });
});
