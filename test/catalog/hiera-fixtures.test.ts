import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { createCatalogServices } from '../../src/catalog/index.js';
import { compileCase, parseTyped } from './conformance-cases.js';

/**
 * Compiles reading Hiera (automatic class parameters, lookup() in its forms, hiera_xxx()) found
 * by test/tools/hiera-fuzz/compile-run.ts and recorded from real Puppet 7.23 (oracle/compile):
 * each directory is an environment with case.yaml (node, facts, trusted) and expected.json.
 */
const dir = join(import.meta.dirname, '..', 'fixtures', 'catalog', 'hiera');
const names = existsSync(dir) ? readdirSync(dir).filter(n => existsSync(join(dir, n, 'expected.json'))).sort() : [];
const services = createCatalogServices();

describe('Hiera in compiles, recorded from Puppet 7.23', () => {
    test('the fixtures are there', () => {
        expect(names.length).toBeGreaterThan(0);
    });
    test.each(names)('%s', name => {
        const caseDir = join(dir, name);
        const spec = parse(readFileSync(join(caseDir, 'case.yaml'), 'utf8')) as { node: string; facts?: string; trusted?: string };
        const actual = compileCase({
            name, dir: caseDir, node: spec.node, settings: [], classes: [],
            ...(spec.facts ? { facts: join(caseDir, spec.facts) } : {}), ...(spec.trusted ? { trusted: join(caseDir, spec.trusted) } : {})
        }, services);
        expect(parseTyped(actual)).toEqual(parseTyped(readFileSync(join(caseDir, 'expected.json'), 'utf8')));
    });
});
