import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, normalizedResult, writeNormalizedResult, type CompileResult } from '../../src/catalog/index.js';
import { readNodeRequest } from '../../src/node/index.js';
import { conformanceCases } from './conformance-cases.js';

// The CLI writes a normalized catalog in pieces, each resource's text made by JSON.stringify with
// its numbers already Ruby's text; the oracle comparisons read jsonText(normalizedResult(...)).
// Both must be the same text, for every shape the conformance catalogs hold (numbers, types,
// Sensitive, Deferred, errors).
const cases = conformanceCases();

function bothTexts(result: CompileResult): [string, string] {
    const pieces: string[] = [];
    writeNormalizedResult(result, p => { pieces.push(p); });
    return [pieces.join(''), jsonText(normalizedResult(result))];
}

/** Parameter values of every kind whose numbers the writer spells itself. */
const manifests: Array<[string, string]> = [
    ['Integers and Floats', "notify { 'n': message => [1, -7, 9223372036854775807, 2.0, 0.1, 1e-5, -0.0, 1e20, 1.5e300] }"],
    ['types with ranges', "notify { 't': message => [Integer[1, 2], Float[0.5], String[3], Array[Integer[0], 1, 4], Hash[String, Integer[5, 6]], Optional[Integer[7]]] }"],
    ['rich data', "notify { 'r': message => { 1 => 2.5, 'a' => Sensitive(3), 'd' => Deferred('f', [4, 5.5]), 'b' => Binary('AQI='), 's' => Timespan(1.5) } }"],
    ['a Sensitive parameter', "notify { 's': message => Sensitive(42) }"],
    ['more resources than one piece holds', "Integer[1, 300].each |$i| { notify { \"n${i}\": message => $i } }"],
    ['titles and tags sorted by UTF-8 bytes (surrogate pairs above U+FFFF)', String.raw`notify { ["\u{1F600}", "\uFF21", "a"]: tag => ["\u{1D400}x", "\uFF21x"] }`],
    ['nested text with line breaks', "notify { 'x': message => \"a\\nb\", withpath => true }\nnotify { 'y': message => { 'k' => ['v', { 'w' => 1.25 }] } }"]
];
const root = mkdtempSync(join(tmpdir(), 'modelc-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('writeNormalizedResult writes exactly jsonText(normalizedResult) for every kind of value', () => {
    const services = createCatalogServices();
    test.each(manifests)('%s', (name, code) => {
        const dir = join(root, name.replaceAll(' ', '-'));
        mkdirSync(join(dir, 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'manifests', 'site.pp'), `${code}\n`);
        const result = services.compile(dir, 'production', { node: 'n.example.com', facts: new Map() });
        expect(result.error).toBeUndefined();
        const [written, text] = bothTexts(result);
        expect(written).toBe(text);
    });
});

describe.skipIf(cases.length === 0)('writeNormalizedResult writes exactly jsonText(normalizedResult)', () => {
    const services = createCatalogServices();
    test.each(cases.map(c => [c.name, c] as const))('%s', (_name, c) => {
        const node = readNodeRequest({ node: c.node, factsFile: c.facts, trustedFile: c.trusted });
        const settings = new Map(c.settings.map(s => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)] as [string, string]));
        const result = services.compile(c.dir, 'production', { node: node.certname, facts: node.facts, trusted: node.trusted, classes: c.classes, settings });
        const [written, text] = bothTexts(result);
        expect(written).toBe(text);
    });
});
