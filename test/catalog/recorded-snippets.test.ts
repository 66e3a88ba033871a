import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, normalizedResult } from '../../src/catalog/index.js';

interface Recorded { readonly source: string; readonly message: string | null; readonly notices?: string[] }

/** One-line manifests (assert_type mismatches, Type(value) conversions) and what real Puppet 7.23 said for each. */
const load = (file: string): Recorded[] => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'catalog', file), 'utf8')) as Recorded[];
const cases = [...load('type-mismatches.json'), ...load('type-conversions.json'), ...load('operators.json'), ...load('function-arguments.json'), ...load('language-snippets.json')];
const services = createCatalogServices();
const root = mkdtempSync(join(tmpdir(), 'modelc-mismatch-'));

describe('type mismatch messages and conversions are Puppet\'s', () => {
    test.each(cases.map((c, i) => [c.source, i] as const))('%s', (source, i) => {
        const dir = join(root, `m${i}`);
        mkdirSync(join(dir, 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'manifests', 'site.pp'), `${source}\n`);
        const out = JSON.parse(jsonText(normalizedResult(services.compile(dir, 'production', { node: 'testnode.example.com', facts: new Map() })))) as { error?: { message: string }; notices: string[] };
        expect(out.error?.message ?? null).toBe(cases[i].message);
        if (cases[i].notices) expect(out.notices).toEqual(cases[i].notices);
    });
});
