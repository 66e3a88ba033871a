import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { hieraFor, V5 } from './fixture.js';

/**
 * Broken YAML data files and what `lookup a` gave in real Puppet 7.23 (../shared/oracle/lookup):
 * Psych's (libyaml's) problem, context and position, or the value when Psych read only the
 * first document.
 */
interface Recorded { readonly yaml: string; readonly message: string | null; readonly value?: unknown }
const cases = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'bindings', 'hiera', 'yaml-syntax-errors.json'), 'utf8')) as Recorded[];

describe('a YAML syntax error in a data file is reported as Psych reports it', () => {
    test.each(cases.map(c => [JSON.stringify(c.yaml), c] as const))('%s', (_, c) => {
        const svc = hieraFor({ 'hiera.yaml': V5('  - name: common\n    path: common.yaml\n'), 'data/common.yaml': c.yaml });
        let message: string | null = null;
        try {
            svc.lookup('a');
        } catch (e) {
            message = (e as Error).message;
        }
        expect(message).toBe(c.message);
    });
});
