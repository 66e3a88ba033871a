import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { createHieraLookup, createHieraServices, createTypeSupport, type HieraLookup } from '../../../src/bindings/index.js';
import { trustedFor } from '../../../src/node/index.js';
import type { PuppetValue } from '../../../src/values/index.js';

const created: string[] = [];
// Test environments are removed after each test file that made them.
afterAll(() => { for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** Writes an environment directory from `{ relative path: content }`; returns its path. */
export function writeEnv(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'modelc-hiera-'));
    created.push(root);
    for (const [rel, text] of Object.entries(files)) {
        const p = join(root, rel);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, text);
    }
    return root;
}

/** A lookup service over `files` for node `node` with `facts` (fresh caches each time). */
export function hieraFor(files: Record<string, string>, facts: Record<string, PuppetValue> = {}, node = 'n1.example.com'): HieraLookup {
    return createHieraLookup({
        environment: writeEnv(files),
        context: { environment: 'production', facts: new Map(Object.entries(facts)), trusted: trustedFor(node) },
        types: createTypeSupport(),
        services: createHieraServices()
    });
}

export const V5 = (hierarchy: string, defaults = ''): string => `---\nversion: 5\n${defaults}hierarchy:\n${hierarchy}`;
