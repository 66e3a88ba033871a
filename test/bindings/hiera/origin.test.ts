import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createHieraDataBinding, type DataBindingContext } from '../../../src/bindings/index.js';
import { readFactsFile } from '../../../src/node/index.js';

const site = join(import.meta.dirname, '..', '..', '..', 'examples', 'site');

function contextFor(node: string): DataBindingContext {
    const facts = readFactsFile(join(site, '..', 'facts', `${node}.yaml`)).values;
    return { facts, trusted: new Map([['certname', node]]), environment: 'production', variable: () => undefined };
}

// Where each value of examples/site is written (read off the data files).
describe('Hiera data binding origin: layer, level, data file and line of the winning value', () => {
    const hiera = createHieraDataBinding({ environment: { name: 'production', root: site, modulePath: [join(site, 'modules')] } });
    test.each([
        { node: 'web01.example.com', key: 'profile::nginx::worker_processes', origin: { layer: 'environment', category: 'Per-node exceptions', file: 'data/nodes/web01.example.com.yaml', line: 4 } },
        { node: 'web02.example.com', key: 'profile::ntp::servers', origin: { layer: 'environment', category: 'Site-wide defaults', file: 'data/common.yaml', line: 37 } },
        {
            node: 'db01.example.com', key: 'profile::postgres::settings',
            origin: {
                layer: 'environment', category: 'Per-node exceptions', file: 'data/nodes/db01.example.com.yaml', line: 4, merge: 'deep',
                contributors: [{ file: 'data/nodes/db01.example.com.yaml', line: 4 }, { file: 'data/roles/db.yaml', line: 12 }]
            }
        }
    ])('$key for $node', ({ node, key, origin }) => {
        const r = hiera.lookup(key, {}, contextFor(node));
        expect(r.found).toBe(true);
        expect(r.found && r.origin).toMatchObject(origin);
    });

    test('a key found nowhere has no origin; a default has none either', () => {
        expect(hiera.lookup('profile::nothing', {}, contextFor('web01.example.com'))).toEqual({ found: false });
        expect(hiera.lookup('profile::nothing', { defaultValue: 'x' }, contextFor('web01.example.com'))).toEqual({ found: true, value: 'x' });
    });
});
