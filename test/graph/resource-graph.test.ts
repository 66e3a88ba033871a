import { describe, expect, test } from 'vitest';
import { bindingsGrid, bindingsGridDot, graphFormat, resourceGraph, resourceGraphDot } from '../../src/graph/index.js';
import type { ModelObject } from '../../src/model/index.js';

type R = [string, Record<string, unknown>?];

/** A Catalog model root with resources (Type[title] + parameters) and containment edges. */
function catalog(resources: R[], contains: Array<[string, string]> = []): ModelObject {
    return {
        $type: 'Catalog', name: 'n1',
        resources: resources.map(([ref, params = {}]) => {
            const m = /^([^[]+)\[(.*)\]$/.exec(ref)!;
            return { $type: 'Resource', ref, type: m[1], title: m[2], parameters: Object.entries(params).map(([name, value]) => ({ $type: 'Parameter', name, value })) };
        }),
        edges: contains.map(([source, target]) => ({ $type: 'Edge', source, target }))
    } as ModelObject;
}

describe('resource graph: relationships from metaparameters, cycles through containers', () => {
    test.each<{ name: string; resources: R[]; contains?: Array<[string, string]>; cycles: string[][]; relations: string[] }>([
        {
            name: 'a chain has no cycle',
            resources: [['Package[a]', { before: 'File[b]' }], ['File[b]', { notify: ['Service[c]'] }], ['Service[c]']],
            cycles: [], relations: ['Package[a] -before-> File[b]', 'File[b] -notify-> Service[c]']
        },
        {
            name: 'require and subscribe point at the holder',
            resources: [['File[b]', { require: 'Package[a]', subscribe: 'Exec[x]' }], ['Package[a]'], ['Exec[x]']],
            cycles: [], relations: ['Package[a] -before-> File[b]', 'Exec[x] -notify-> File[b]']
        },
        {
            name: 'two resources requiring each other',
            resources: [['File[a]', { require: 'File[b]' }], ['File[b]', { require: 'File[a]' }], ['File[c]']],
            cycles: [['File[a]', 'File[b]']], relations: ['File[b] -before-> File[a]', 'File[a] -before-> File[b]']
        },
        {
            name: 'a class ordered before a resource it contains',
            resources: [['Class[A]', { before: 'File[x]' }], ['File[x]']], contains: [['Class[A]', 'File[x]']],
            cycles: [['Class[A]', 'File[x]']], relations: ['Class[A] -before-> File[x]']
        },
        {
            name: 'a class ordered before another class is no cycle; class refs match case-insensitively',
            resources: [['Class[A]', { before: 'Class[b]' }], ['Class[B]'], ['File[x]'], ['File[y]']], contains: [['Class[A]', 'File[x]'], ['Class[B]', 'File[y]']],
            cycles: [], relations: ['Class[A] -before-> Class[B]']
        },
        {
            name: 'a cycle through the contents of two classes',
            resources: [['Class[A]', { before: 'Class[B]' }], ['Class[B]'], ['File[x]'], ['File[y]', { before: 'File[x]' }]], contains: [['Class[A]', 'File[x]'], ['Class[B]', 'File[y]']],
            cycles: [['Class[A]', 'Class[B]', 'File[x]', 'File[y]']], relations: ['Class[A] -before-> Class[B]', 'File[y] -before-> File[x]']
        },
        {
            name: 'rich-data resource types (the Catalog model) as references',
            resources: [['Exec[x]', { notify: [{ __ptype: 'Type', __pvalue: "Service['ng\\'inx']" }] }], ["Service[ng'inx]"]],
            cycles: [], relations: ["Exec[x] -notify-> Service[ng'inx]"]
        },
        {
            name: 'references to resources not in the catalog are left out',
            resources: [['File[a]', { require: 'Package[gone]' }]], cycles: [], relations: []
        }
    ])('$name', ({ resources, contains, cycles, relations }) => {
        const g = resourceGraph(catalog(resources, contains));
        expect(g.cycles).toEqual(cycles);
        expect(g.edges.filter(e => e.kind !== 'containment').map(e => `${e.source} -${e.kind}-> ${e.target}`)).toEqual(relations);
        const inCycle = new Set(cycles.flat());
        expect(g.resources.filter(r => r.inCycle).map(r => r.ref).sort()).toEqual([...inCycle].sort());
    });

    test('DOT: cycle members red, class ids with :: quoted whole (not read as ports)', () => {
        const dot = resourceGraphDot(resourceGraph(catalog([['Class[A::B]', { require: 'File[x]' }], ['File[x]', { require: 'Class[A::B]' }]])));
        expect(dot).toContain('"Class[A::B]" -> "File[x]"');
        expect(dot).toMatch(/"File\[x\]" \[\s*color = "#d62728";/);
        expect(dot).toContain('1 dependency cycle');
    });
});

describe('bindings grid: layers × categories', () => {
    const model = {
        $type: 'LayeredBindings', layers: [
            { $type: 'NamedLayer', name: 'site', bindings: [{ $type: 'NamedBindings', name: 'default', bindings: [
                { $type: 'Binding', name: 'a' },
                { $type: 'CategorizedBindings', predicates: [{ $type: 'Category', categorization: 'node', value: 'web01' }], bindings: [{ $type: 'Binding', name: 'b' }, { $type: 'Binding', name: 'c' }] }
            ] }] },
            { $type: 'NamedLayer', name: 'data', bindings: [{ $type: 'HieraLevelBindings', name: 'environment::common', levelName: 'common', bindings: [{ $type: 'Binding', name: 'd' }] }] },
            { $type: 'NamedLayer', name: 'empty' }
        ]
    } as ModelObject;

    test('cells count bindings per layer and category', () => {
        expect(bindingsGrid(model)).toEqual({
            layers: ['site', 'data', 'empty'],
            categories: ['common', 'node web01', 'hiera: common'],
            cells: [
                { layer: 'site', category: 'common', namedBindings: ['default'], bindings: 1 },
                { layer: 'site', category: 'node web01', namedBindings: ['default'], bindings: 2 },
                { layer: 'data', category: 'hiera: common', namedBindings: ['environment::common'], bindings: 1 }
            ]
        });
        const dot = bindingsGridDot(bindingsGrid(model));
        expect(dot).toContain('label = "layer empty"');
        expect(dot.match(/overrides/g)?.length).toBe(2);
    });
});

test.each([['x.dot', 'dot'], ['x.SVG', 'svg'], ['x.gv', 'dot']])('graph file %s is %s', (file, format) => {
    expect(graphFormat(file)).toBe(format);
});

test('other graph file names are refused with a located error', () => {
    expect(() => graphFormat('x.png')).toThrow(/--graph writes .dot or .svg files/);
});
