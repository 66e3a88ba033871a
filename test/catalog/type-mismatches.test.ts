import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, normalizedResult } from '../../src/catalog/index.js';

interface Recorded { readonly source: string; readonly message: string | null }

/** assert_type(T, value) one-liners and the error message real Puppet 7.23 gave for each. */
const cases = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'catalog', 'type-mismatches.json'), 'utf8')) as Recorded[];
const services = createCatalogServices();
const root = mkdtempSync(join(tmpdir(), 'modelc-mismatch-'));

describe('type mismatch messages are Puppet\'s (TypeMismatchDescriber)', () => {
    test.each(cases.map((c, i) => [c.source, i] as const))('%s', (source, i) => {
        const dir = join(root, `m${i}`);
        mkdirSync(join(dir, 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'manifests', 'site.pp'), `${source}\n`);
        const out = JSON.parse(jsonText(normalizedResult(services.compile(dir, 'production', { node: 'testnode.example.com', facts: new Map() })))) as { error?: { message: string } };
        expect(out.error?.message ?? null).toBe(cases[i].message);
    });
});
