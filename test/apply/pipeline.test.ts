import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { modelcApply, prepareRoot } from './crosscheck.js';
import { tempRoot } from './helpers.js';

const CONFORMANCE = '/work/shared/conformance/catalog';
const FIXTURES = join(import.meta.dirname, '../fixtures/apply/catalogs');
const CASES = ['004-heredoc', '028-undef-handling', '046-resource-defaults', '052-exported-resources', '056-tags', '076-order-defaults-position'];

/**
 * The whole pipeline: `modelc compile` writes our Catalog model, `modelc apply` applies it; the
 * change list equals the one of the catalog real Puppet compiled (which the crosscheck holds
 * against `puppet apply`).
 */
describe('compile → apply', () => {
    it.each(CASES)('%s', async name => {
        const dir = join(CONFORMANCE, name);
        const node = /^node: (\S+)/m.exec(readFileSync(join(dir, 'case.yaml'), 'utf8'))?.[1] ?? 'testnode.example.com';
        const compiled = await runCli('compile', dir, '--node', node, '--format', 'json');
        expect(compiled.code, compiled.err).toBe(0);
        const root = tempRoot();
        const model = join(root, 'catalog.json');
        writeFileSync(model, compiled.out);
        const oracle = join(FIXTURES, `${name}.json`);
        prepareRoot(oracle, root);
        // The catalog versions differ (compile times); everything else must not.
        const lines = (file: string): string[] => modelcApply(file, root, true).filter(l => !l.startsWith('Info: Applying configuration version'));
        expect(lines(model)).toEqual(lines(oracle));
    }, 60_000);
});
