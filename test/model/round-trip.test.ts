import { describe, expect, test } from 'vitest';
import { decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, encodeWire, modelRegistry, validateAgainstSchema } from '../../src/model/index.js';
import { fileStem } from '../../src/modelc/index.js';
import { validFixtures } from './fixtures.js';

const fixtures = validFixtures();

describe('every model kind has fixtures', () => {
    test.each(modelRegistry().packages.map(p => fileStem(p.pkg.name)))('%s', kind => {
        expect(fixtures.filter(f => f.kind === kind).length, `test/fixtures/model/valid/${kind}/`).toBeGreaterThan(0);
    });
});

describe('round trip: JSON -> msgpack -> JSON', () => {
    test.each(fixtures.map(f => [`${f.kind}/${f.name}`, f] as const))('%s', (_label, f) => {
        const model = decodeJson(f.text, f.path);
        expect(model.index.pkg.name.toLowerCase()).toBe(f.kind.replace(/-/g, ''));
        // The fixture is canonical: re-encoding it gives the same bytes.
        expect(encodeJson(model)).toBe(f.text);
        const packed = encodeMsgpack(model);
        const back = decodeMsgpack(packed, f.path);
        expect(encodeJson(back)).toBe(f.text);
        expect(validateAgainstSchema(encodeWire(back), back.index, f.path)).toEqual([]);
    });
});
