import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryFileSystemProvider } from '../../src/common/index.js';
import { createModelcServices, jsonText, normalizedResult } from '../../src/catalog/index.js';
import { readNodeRequest } from '../../src/node/index.js';
import { compileCase, conformanceCases } from './conformance-cases.js';

/** Every file below `dir`, as [path relative to dir, bytes]. */
function filesBelow(dir: string): Array<[string, Buffer]> {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .map(f => join(dir, f))
        .filter(p => statSync(p).isFile())
        .map(p => [relative(dir, p), readFileSync(p)]);
}

/**
 * The catalog stage reads the environment only through the shared FileSystemProvider: each
 * conformance case copied into memory under a directory that does not exist on disk compiles to
 * what its directory compiles to (with that directory's name in place of the made-up one).
 */
describe('createModelcServices with files in memory', () => {
    const cases = conformanceCases();
    it.skipIf(cases.length === 0)(`all ${cases.length} catalog conformance cases`, () => {
        const differ: string[] = [];
        for (const c of cases) {
            const root = `/nonexistent-modelc-memory/${c.name}`;
            const memory = new MemoryFileSystemProvider(filesBelow(c.dir).map(([rel, bytes]) => [join(root, rel), bytes] as const));
            const services = createModelcServices({ fileSystemProvider: memory });
            const node = readNodeRequest({ node: c.node, factsFile: c.facts, trustedFile: c.trusted });
            const settings = new Map(c.settings.map(s => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)] as [string, string]));
            const result = services.compile(root, 'production', { node: node.certname, facts: node.facts, trusted: node.trusted, classes: c.classes, settings });
            const text = jsonText(normalizedResult(result)).split(root).join(c.dir);
            if (text !== compileCase(c)) differ.push(c.name);
        }
        expect(differ).toEqual([]);
    }, 300_000);
});
