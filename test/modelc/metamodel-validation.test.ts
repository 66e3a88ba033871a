import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadMetamodel } from '../../src/modelc/index.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'modelc', 'invalid');

/**
 * Each fixture states what must be reported in its first line:
 * `// expect: CODE LINE:COLUMN`.
 */
const cases = readdirSync(dir).filter(f => f.endsWith('.emfatic')).sort().map(f => {
    const text = readFileSync(join(dir, f), 'utf8');
    const m = /^\/\/ expect: (\S+) (\d+):(\d+)/.exec(text);
    if (!m) throw new Error(`${f}: first line must be '// expect: CODE LINE:COL'`);
    return { file: f, text, code: m[1], line: Number(m[2]), column: Number(m[3]) };
});

describe('metamodel validation', () => {
    test('there are fixtures for every check', () => {
        expect(cases.length).toBeGreaterThanOrEqual(12);
    });

    test.each(cases)('$file reports $code at $line:$column', async ({ file, text, code, line, column }) => {
        const result = await loadMetamodel(text, file);
        expect(result.pkg).toBeUndefined();
        const found = result.diagnostics.map(d => `${d.code} ${d.at?.line}:${d.at?.column}`);
        expect(found).toContain(`${code} ${line}:${column}`);
    });

    test('a valid metamodel loads with documentation, defaults and multiplicities', async () => {
        const result = await loadMetamodel([
            '/** Package doc. */',
            '@namespace(uri="http://x/1.0", prefix="x")',
            'package X;',
            '/** A node. */',
            'class Node extends Named {',
            '    /** Children. */',
            '    val Node[*] children;',
            '    ref Node[0..1] next;',
            '    attr int[1..*] weights;',
            '    attr Color color = "red";',
            '}',
            'abstract class Named { id attr String[1] name; }',
            'enum Color { red; green = 5; blue; }',
            'datatype Stamp : String;'
        ].join('\n'), 'x.emfatic');
        expect(result.diagnostics).toEqual([]);
        expect(result.pkg).toMatchObject({
            name: 'X', nsURI: 'http://x/1.0', nsPrefix: 'x', doc: 'Package doc.',
            classifiers: [
                {
                    kind: 'class', name: 'Node', doc: 'A node.', superTypes: ['Named'], features: [
                        { kind: 'containment', name: 'children', type: 'Node', lower: 0, upper: -1, doc: 'Children.' },
                        { kind: 'reference', name: 'next', type: 'Node', lower: 0, upper: 1 },
                        { kind: 'attribute', name: 'weights', type: 'Int', lower: 1, upper: -1 },
                        { kind: 'attribute', name: 'color', type: 'Color', defaultValue: 'red' }
                    ]
                },
                { kind: 'class', name: 'Named', abstract: true, features: [{ name: 'name', id: true, lower: 1 }] },
                { kind: 'enum', name: 'Color', literals: [{ name: 'red', value: 0 }, { name: 'green', value: 5 }, { name: 'blue', value: 6 }] },
                { kind: 'datatype', name: 'Stamp', base: 'String' }
            ]
        });
    });
});
