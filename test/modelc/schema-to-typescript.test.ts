import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MPackage } from '../../src/model/index.js';
import { ALL_PACKAGES } from '../../generated/model/index.js';
import { generateJsonSchema, generateTypeScript } from '../../src/modelc/index.js';
import { fileStem } from '../../src/modelc/generated-file.js';

const ROOT = join(import.meta.dirname, '../..');

/** A package with one of each thing the in-memory form types differently from the wire. */
const PKG: MPackage = {
    name: 'Demo', nsURI: 'http://modelc.dev/demo/1.0', nsPrefix: 'demo',
    classifiers: [
        { kind: 'datatype', name: 'Stamp', base: 'String', doc: 'A point in time.' },
        { kind: 'enum', name: 'Level', literals: [{ name: 'low', value: 0 }, { name: 'high', value: 1 }] },
        { kind: 'class', name: 'Shape', abstract: true, interface: false, superTypes: [], features: [] },
        {
            kind: 'class', name: 'Box', abstract: false, interface: false, superTypes: ['Shape'], features: [
                { kind: 'attribute', name: 'size', type: 'Long', lower: 1, upper: 1, doc: 'How big.' },
                { kind: 'attribute', name: 'value', type: 'Data', lower: 0, upper: 1 },
                { kind: 'attribute', name: 'at', type: 'Stamp', lower: 0, upper: 1, doc: 'When it was made.' },
                { kind: 'attribute', name: 'level', type: 'Level', lower: 0, upper: -1 },
                { kind: 'reference', name: 'next', type: 'Box', lower: 0, upper: 1 },
                { kind: 'containment', name: 'inner', type: 'Box', lower: 0, upper: -1 }
            ]
        },
        { kind: 'class', name: 'Crate', abstract: false, interface: false, superTypes: ['Box'], features: [] }
    ]
};

describe('metamodel → JSON Schema → TypeScript (json-schema-to-typescript)', () => {
    it.each([
        ['a Long is a number or a bigint, with its doc', /\/\*\*\n {5}\* How big\.\n {5}\*\/\n {4}size: number \| bigint;/],
        ['Data is RichData', /\n {4}value\?: RichData;/],
        ['a datatype is one named type; the feature keeps its own doc', /When it was made\.\n {5}\*\/\n {4}at\?: Stamp;/],
        ['an enum is a union of its literals', /export type Level = 'low' \| 'high';/],
        ['a many-valued feature is an array', /\n {4}level\?: Level\[\];/],
        ['a reference is a ModelRef', /\n {4}next\?: ModelRef;/],
        ['a containment of a class with subclasses takes any of them', /\n {4}inner\?: BoxOrSubtype\[\];/],
        ['$type is the short, readonly class name', /export interface Crate \{\n {4}readonly \$type: 'Crate';/],
        ['an abstract class is the union of its concrete subclasses', /export type Shape = Box \| Crate;/],
        ['every concrete class', /export type DemoObject = Box \| Crate;/],
        ['constructors stay', /export function createBox\(init: Omit<Box, '\$type'>\): Box \{/],
        ['guards stay', /export function isShape\(value: unknown\): value is Shape \{/]
    ])('%s', async (_what, expected) => {
        const schema = generateJsonSchema(PKG, 'demo.emfatic');
        const ts = await generateTypeScript(PKG, 'demo.emfatic', schema.content);
        expect(ts.content).toMatch(expected);
    });

    it.each(ALL_PACKAGES.map(p => [p.name, p] as const))('generated/model for %s is what the committed schema gives', async (_name, pkg) => {
        const schema = readFileSync(join(ROOT, 'schemas', `${fileStem(pkg.name)}.schema.json`), 'utf8');
        const ts = await generateTypeScript(pkg, 'x', schema);
        const committed = readFileSync(join(ROOT, 'generated/model', `${fileStem(pkg.name)}.ts`), 'utf8');
        expect(committed.slice(committed.indexOf('import type'))).toBe(ts.content.slice(ts.content.indexOf('import type')));
    }, 60_000);
});
