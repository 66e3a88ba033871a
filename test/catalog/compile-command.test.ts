import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'catalog');

describe('modelc compile', () => {
    test('--format normalized prints the oracle shape; notices go to stderr in Puppet\'s format', async () => {
        const r = await runCli('compile', join(fixtures, 't10'), '--node', 'testnode.example.com');
        expect(r.code).toBe(0);
        expect(JSON.parse(r.out)).toMatchObject({ name: 'testnode.example.com', environment: 'production' });
        expect(r.err).toContain('Notice: Scope(Class[Later]): later\n');
    });

    test('an error in the code is file:line:col: error CODE: message, exit 1', async () => {
        const r = await runCli('compile', join(fixtures, 'e1'), '--format', 'puppet');
        expect(r.code).toBe(1);
        expect(r.err).toBe("manifests/site.pp:1:8: error EVAL_NOT_NUMERIC: Evaluation Error: The value 'a' cannot be converted to Numeric. (on node testnode.example.com)\n");
        expect(r.out).toBe('');
    });

    test('--format normalized prints the error object too, exit 1', async () => {
        const r = await runCli('compile', join(fixtures, 'e1'));
        expect(r.code).toBe(1);
        expect(JSON.parse(r.out).error.issue_code).toBe('NOT_NUMERIC');
    });

    test('--format json is a Catalog model with provenance', async () => {
        const r = await runCli('compile', join(fixtures, 't11'), '--format', 'json');
        expect(r.code).toBe(0);
        const model = JSON.parse(r.out) as { $type: string; resources: Array<{ ref: string; parameters?: Array<{ name: string; provenance: { origin: string } }> }> };
        expect(model.$type).toBe('http://modelc.dev/catalog/1.0#//Catalog');
        const app = model.resources.find(x => x.ref === 'Class[App]');
        expect(app?.parameters?.find(p => p.name === 'port')?.provenance.origin).toBe('binding');
        expect(app?.parameters?.find(p => p.name === 'other')?.provenance.origin).toBe('parameterDefault');
    });

    test('a missing directory is a usage error without a stack trace', async () => {
        const r = await runCli('compile', '/no/such/dir');
        expect(r.code).toBe(1);
        expect(r.err).toBe('/no/such/dir: error EVAL_USAGE: no such directory: /no/such/dir\n');
    });
});
