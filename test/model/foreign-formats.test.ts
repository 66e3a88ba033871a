import { describe, expect, test } from 'vitest';
import { formatDiagnostic, isUserError } from '../../src/common/index.js';
import { decodeJson, decodeModelBytes, decodeRgenJson, decodeXmi, encodeJson, toRgenJson, toXmi } from '../../src/model/index.js';
import { validFixtures } from './fixtures.js';

const fixtures = validFixtures();

function rgenCarries(text: string): boolean {
    try {
        toRgenJson(decodeJson(text));
        return true;
    } catch {
        return false;
    }
}

/** Every valid fixture comes back unchanged from the formats Java EMF and Ruby RGen exchange. */
describe('round trip: JSON -> XMI -> JSON', () => {
    test.each(fixtures.map(f => [`${f.kind}/${f.name}`, f] as const))('%s', (_label, f) => {
        const xmi = toXmi(decodeJson(f.text, f.path));
        expect(encodeJson(decodeXmi(xmi, 'x.xmi'))).toBe(f.text);
        // Told by content, whatever the file is called.
        expect(encodeJson(decodeModelBytes(Buffer.from(xmi), 'model.bin'))).toBe(f.text);
    });
});

describe('round trip: JSON -> RGen JSON -> JSON', () => {
    test.each(fixtures.filter(f => rgenCarries(f.text)).map(f => [`${f.kind}/${f.name}`, f] as const))('%s', (_label, f) => {
        const rgen = toRgenJson(decodeJson(f.text, f.path));
        expect(encodeJson(decodeRgenJson(rgen, 'x.rgen.json', { kind: f.kind.replace(/-/g, '') }))).toBe(f.text);
    });
});

function diagnosticOf(run: () => unknown): string {
    try {
        run();
    } catch (e) {
        if (isUserError(e)) return e.diagnostics.map(formatDiagnostic).join('\n');
        throw e;
    }
    return '';
}

const NS = 'http://modelc.dev/catalog/1.0';

describe('bad XMI and RGen JSON: located errors', () => {
    test.each([
        ['not XML', () => decodeXmi('<a><b></a>', 'f.xmi'), /^f\.xmi:1:\d+: error MODEL_INVALID_XML: invalid XML: /],
        ['unknown namespace', () => decodeXmi('<x:Catalog xmlns:x="http://nowhere/1"/>', 'f.xmi'), /^f\.xmi:1:\d+: error MODEL_UNKNOWN_PACKAGE: /],
        ['unknown feature', () => decodeXmi(`<catalog:Catalog xmlns:catalog="${NS}" name="n" environment="e" colour="red"/>`, 'f.xmi'),
            /^f\.xmi:1:\d+: error MODEL_UNKNOWN_FEATURE: unknown feature 'colour' of Catalog$/],
        ['bad integer', () => decodeXmi(`<catalog:Catalog xmlns:catalog="${NS}" name="n" environment="e" catalogFormat="two"/>`, 'f.xmi'),
            /^f\.xmi:1:\d+: error MODEL_WRONG_DATATYPE: 'catalogFormat' expects an integer, got "two"$/],
        ['missing feature (validated like JSON)', () => decodeXmi(`<catalog:Catalog xmlns:catalog="${NS}" name="n"/>`, 'f.xmi'), /^f\.xmi: error MODEL_\w+: .*environment/],
        ['RGen: unknown class', () => decodeRgenJson('[{"_class": "Nothing"}]', 'r.json'), /^r\.json: error MODEL_UNKNOWN_PACKAGE: .* \(at \/0\/_class\)$/],
        ['RGen: Data not text', () => decodeRgenJson('[{"_class": "Catalog", "name": "n", "environment": "e", "version": 3}]', 'r.json', { kind: 'catalog' }),
            /^r\.json: error MODEL_WRONG_DATATYPE: a Data value is its rich-data JSON text .* \(at \/0\/version\)$/],
        ['RGen: two roots', () => decodeRgenJson('[{"_class": "Catalog"}, {"_class": "Catalog"}]', 'r.json'), /^r\.json: error MODEL_NOT_A_MODEL: a model document has one root object, this one has 2 \(at \/\)$/]
    ])('%s', (_name, run, expected) => {
        expect(diagnosticOf(run)).toMatch(expected);
    });

    test('RGen JSON refuses, where it is, a string it cannot carry', () => {
        const model = decodeJson(JSON.stringify({ $type: `${NS}#//Catalog`, name: 'a\\nb', environment: 'e' }));
        expect(diagnosticOf(() => toRgenJson(model))).toMatch(/error MODEL_NOT_SERIALIZABLE: RGen JSON cannot carry a backslash before n, r, t, f or b: .* \(at \/name\)$/);
    });

    test('RGen JSON carries any Data value, backslashes and quotes included', () => {
        const value = 'C:\\new\\table "quoted"\n\u0001';
        const model = decodeJson(JSON.stringify({ $type: `${NS}#//Catalog`, name: 'n', environment: 'e', version: value }));
        const text = toRgenJson(model);
        expect(text).not.toMatch(/\\\\[nrtfb]/);
        expect(decodeRgenJson(text, 'r.json').root.version).toBe(value);
    });
});
