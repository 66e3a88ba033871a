import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { decodeJson, decodeMsgpack } from '../../src/model/index.js';
import { writeSiteFixture } from './make-site-fixture.js';

const DIR = 'test/fixtures/injector/site';

/** Requests of the site fixture: a virtual node in production, a physical one in staging. */
const REQUESTS = [
    { name: 'kermit-production', args: ['--node', 'kermit.example.com', '--facts', `${DIR}/kermit.facts.yaml`] },
    { name: 'piggy-staging', args: ['--node', 'piggy.example.com', '--facts', `${DIR}/piggy.facts.json`, '--environment', 'staging'] }
];

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(['node', 'modelc', ...args], { out: t => { out += String(t); }, err: t => { err += t; } });
    return { code, out, err };
}

describe('golden EffectiveBindings (modelc effective)', () => {
    if (process.env.MAKE_FIXTURE) writeSiteFixture(`${DIR}/bindings.json`);

    it.each(REQUESTS)('$name', async r => {
        const { code, out, err } = await run(['effective', `${DIR}/bindings.json`, '--values', ...r.args]);
        expect(err).toBe('');
        expect(code).toBe(0);
        decodeJson(out, 'effective.json', { kind: 'effective-bindings' }); // schema-valid
        const golden = `${DIR}/${r.name}.effective.json`;
        if (process.env.UPDATE_GOLDEN) writeFileSync(golden, out);
        expect(out).toBe(readFileSync(golden, 'utf8'));
    });

    it('explains a key with every candidate, its layer, category, file:line and reason', async () => {
        const { out } = await run(['effective', `${DIR}/bindings.json`, '--node', 'kermit.example.com', '--facts', `${DIR}/kermit.facts.yaml`, '--explain', 'apache::max_clients']);
        expect(out).toBe([
            'Data/apache::max_clients: bound',
            '  1. winner       confdir/bindings/default.pp:7  layer site, default, category virtual true [999]',
            '     virtual true (precedence [999]) in layer site wins: wins over 1 other binding',
            '  2. shadowed     modules/apache/bindings/default.pp:2  layer modules, apache::default, category common [0]',
            '     lowerLayer: layer site is above layer modules',
            ''
        ].join('\n'));
    });

    it('exits 1 with the diagnostics when the bindings have errors, still printing the model', async () => {
        const { code, out, err } = await run(['effective', 'test/fixtures/model/valid/bindings/arm8-site.json', '--node', 'kermit.example.com']);
        expect(code).toBe(1);
        expect(err).toContain('error INJECT_REBIND_MISSING');
        expect(JSON.parse(out).issues.length).toBeGreaterThan(0);
    });

    it('writes msgpack with --format msgpack', async () => {
        let bytes: Uint8Array | undefined;
        const code = await main(['node', 'modelc', 'effective', `${DIR}/bindings.json`, '--node', 'kermit.example.com', '--format', 'msgpack'], { out: t => { bytes = t as Uint8Array; }, err: () => undefined });
        expect(code).toBe(0);
        const model = decodeMsgpack(bytes as Uint8Array, 'effective.msgpack', { kind: 'effective-bindings' });
        expect(model.root.$type).toBe('EffectiveBindings');
    });

    it('needs --node', async () => {
        expect((await run(['effective', `${DIR}/bindings.json`])).code).toBe(64);
    });
});
