import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { writeEnv } from './hiera/fixture.js';

/** Every example of the user reference (docs/arm8/reference.md) runs and prints what the page says. */
const PAGE = join(import.meta.dirname, '..', '..', 'docs', 'arm8', 'reference.md');
const EXAMPLE = /<!-- example key: (.+?) -->\s*```puppet\n([\s\S]*?)```\s*```json\n([\s\S]*?)```/g;

const examples = [...readFileSync(PAGE, 'utf8').matchAll(EXAMPLE)].map(m => ({ key: m[1] as string, bindings: m[2] as string, expected: JSON.parse(m[3] as string) as unknown }));

describe('docs/arm8/reference.md examples', () => {
    test('the page has examples', () => {
        expect(examples.length).toBeGreaterThan(15);
    });
    test.each(examples.map(e => [e.key, e] as const))('lookup %s', async (_k, e) => {
        const env = writeEnv({ 'bindings/default.pp': e.bindings, 'facts.yaml': 'fqdn: n1.example.com\n' });
        const r = await runCli('lookup', env, e.key, '--node', 'n1.example.com');
        expect([r.code, r.err]).toEqual([0, '']);
        expect(JSON.parse(r.out)).toEqual(e.expected);
    });
});
