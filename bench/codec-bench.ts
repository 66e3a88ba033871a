import { performance } from 'node:perf_hooks';
import { asModelObject, decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, modelRegistry, type Model } from '../src/model/index.js';

/** A synthetic catalog of `n` resources shaped like a real one (parameters, tags, edges). */
export function syntheticCatalog(n: number): Model {
    const index = modelRegistry().byPackageName('Catalog');
    if (!index) throw new Error('Catalog package missing');
    const resources = Array.from({ length: n }, (_, i) => ({
        $type: 'Resource', ref: `File[/srv/app/file-${i}]`, type: 'File', title: `/srv/app/file-${i}`,
        tags: ['file', 'class', 'profile::app', 'profile', 'app'], file: 'modules/profile/manifests/app.pp', line: 10 + (i % 50),
        parameters: [
            { $type: 'Parameter', name: 'ensure', value: 'file' },
            { $type: 'Parameter', name: 'mode', value: '0644' },
            { $type: 'Parameter', name: 'content', value: `generated content ${i}\n`.repeat(3) },
            { $type: 'Parameter', name: 'require', value: [`Package[pkg-${i % 20}]`] }
        ]
    }));
    const edges = resources.map(r => ({ $type: 'Edge', source: 'Class[Profile::App]', target: r.ref }));
    return { index, root: asModelObject({ $type: 'Catalog', name: 'bench.example.com', environment: 'production', resources, edges }) };
}

function time(label: string, runs: number, fn: () => unknown): number {
    fn();
    const start = performance.now();
    for (let i = 0; i < runs; i++) fn();
    const ms = (performance.now() - start) / runs;
    console.log(`  ${label.padEnd(36)} ${ms.toFixed(2).padStart(9)} ms`);
    return ms;
}

/** Encode/decode (decode includes schema validation and reference checks) of a 5,000-resource catalog. */
export function runCodecBench(): void {
    const model = syntheticCatalog(5000);
    const json = encodeJson(model);
    const packed = encodeMsgpack(model);
    console.log(`model codecs: catalog with 5,000 resources (${(json.length / 1e6).toFixed(2)} MB JSON, ${(packed.length / 1e6).toFixed(2)} MB msgpack)`);
    time('encode JSON', 10, () => encodeJson(model));
    time('decode + validate JSON', 10, () => decodeJson(json, 'bench.json'));
    time('encode msgpack', 10, () => encodeMsgpack(model));
    time('decode + validate msgpack', 10, () => decodeMsgpack(packed, 'bench.msgpack'));
}
