import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDiagnostic, parsePuppet, toPN } from '../../src/parse/index.js';

// Each fixture is a manifest (.pp) or template (.epp) with the PN that real Puppet 7.23 prints
// for it (`puppet parser dump --format pn` / `puppet epp dump --format pn --no-header`).
const dir = join(import.meta.dirname, '..', 'fixtures', 'parse', 'golden');
const cases = readdirSync(dir)
    .filter(f => f.endsWith('.pp') || f.endsWith('.epp'))
    .sort()
    .map(f => [f, join(dir, f), join(dir, f.replace(/\.e?pp$/, '.pn'))] as const);

describe('golden PN fixtures', () => {
    test('fixtures exist', () => {
        expect(cases.length).toBeGreaterThanOrEqual(20);
    });

    test.each(cases)('%s', (name, source, expectedFile) => {
        // Puppet's dump does not validate, and some fixtures show forms its validator rejects.
        const result = parsePuppet(readFileSync(source, 'utf8'), name, { epp: name.endsWith('.epp'), validate: false });
        const errors = result.diagnostics.filter(d => d.severity === 'error').map(formatDiagnostic);
        expect(errors).toEqual([]);
        expect(toPN(result.ast)).toBe(readFileSync(expectedFile, 'utf8').replace(/\n$/, ''));
    });
});
