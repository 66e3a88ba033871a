import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, normalizedResult } from '../../src/catalog/index.js';
import { readFactsFile } from '../../src/node/index.js';
import { compileCase, parseTyped } from './conformance-cases.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'catalog');
const names = readdirSync(dir).filter(n => existsSync(join(dir, n, 'expected.json'))).sort();
const services = createCatalogServices();

/** Puppet names the code that set an overridden parameter by its Ruby object's address, different in every run. */
function withoutAddresses(json: string): string {
    return json.replace(/#<Puppet::Resource::Type:0x[0-9a-f]{16}>/g, '#<Puppet::Resource::Type>');
}

/** Our own differential cases, recorded from real Puppet 7.23 (see test/fixtures/catalog/README.md). */
describe('catalog fixtures recorded from Puppet 7.23', () => {
    test.each(names)('%s', name => {
        const caseDir = join(dir, name);
        // An optional `settings` file holds NAME=VALUE lines (the oracle's --setting).
        const settingsFile = join(caseDir, 'settings');
        const settings = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8').split('\n').filter(l => l.includes('=')) : [];
        // An optional `classes` file lists classifier classes (the oracle's --class), one a line.
        const classesFile = join(caseDir, 'classes');
        const classes = existsSync(classesFile) ? readFileSync(classesFile, 'utf8').split('\n').filter(l => l !== '') : [];
        // An optional `facts.yaml` holds the node's facts (the oracle's --facts).
        const factsFile = join(caseDir, 'facts.yaml');
        const facts = existsSync(factsFile) ? { facts: factsFile } : {};
        const actual = parseTyped(withoutAddresses(compileCase({ name, dir: caseDir, node: 'testnode.example.com', settings, classes, ...facts }, services)));
        expect(actual).toEqual(parseTyped(withoutAddresses(readFileSync(join(caseDir, 'expected.json'), 'utf8'))));
    });
});

const site = join(import.meta.dirname, '..', '..', 'examples', 'site');
const factsDir = join(import.meta.dirname, '..', '..', 'examples', 'facts');
const recorded = join(dir, 'examples-site');
const nodes = existsSync(recorded) ? readdirSync(recorded).filter(f => f.endsWith('.json')).map(f => f.slice(0, -5)).sort() : [];

/** The bundled example site, for every node of examples/facts, against Puppet's catalogs. */
describe('the example site compiles as Puppet compiles it', () => {
    test.each(nodes)('%s', node => {
        const facts = readFactsFile(join(factsDir, `${node}.yaml`));
        const result = services.compile(site, 'production', { node, facts: facts.values });
        expect(parseTyped(jsonText(normalizedResult(result)))).toEqual(parseTyped(readFileSync(join(recorded, `${node}.json`), 'utf8')));
    });
});
