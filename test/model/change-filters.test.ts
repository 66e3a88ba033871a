import { describe, expect, test } from 'vitest';
import { CHANGE_FILTERS, diffModels, diffProfileFor, filterChanges, parseIgnoreRule, type ChangeFilterName } from '../../src/model/diff/index.js';
import { asModelObject, modelRegistry, type Model } from '../../src/model/index.js';

type Params = Record<string, unknown>;

function catalog(resources: Array<[string, string, Params]>): Model {
    const index = modelRegistry().byPackageName('Catalog')!;
    return {
        index,
        root: asModelObject({
            $type: 'Catalog', name: 'n', environment: 'production',
            resources: resources.map(([type, title, params]) => ({
                $type: 'Resource', ref: `${type}[${title}]`, type, title,
                parameters: Object.entries(params).map(([name, value]) => ({ $type: 'Parameter', name, value }))
            }))
        })
    };
}

/** The parameters (Type[Title].param) still reported after filtering. */
function reported(a: Model, b: Model, filters: readonly ChangeFilterName[], ignores: string[] = []): string[] {
    const raw = diffModels(a, b, diffProfileFor('Catalog'));
    const kept = filterChanges(raw, a.root, b.root, { filters: new Set(filters), ignores: ignores.map(t => parseIgnoreRule(t)!) });
    return kept.changes.map(c => `${c.octocatalog?.type}[${c.octocatalog?.title}]${c.octocatalog?.structure.length ? `.${c.octocatalog.structure.slice(1).join('.')}` : ''}`);
}

describe('equivalence filters (octocatalog-diff): each drops only what it covers, and only when switched on', () => {
    test.each<{ name: string; filter: ChangeFilterName; old: Params; new: Params; title?: string }>([
        { name: 'single-item array vs scalar', filter: 'single-item-array', old: { require: ['Package[x]'] }, new: { require: 'Package[x]' } },
        { name: 'JSON content that parses equal', filter: 'json', title: '/etc/a.json', old: { content: '{"a": 1, "b": [1,2]}' }, new: { content: '{\n  "b": [1, 2],\n  "a": 1\n}\n' } },
        { name: 'YAML content that parses equal', filter: 'yaml', title: '/etc/a.yaml', old: { content: 'a: 1\nb: [1, 2]\n' }, new: { content: '---\nb:\n  - 1\n  - 2\na: 1\n' } },
        { name: 'attributes of a file that becomes absent', filter: 'absent-file', old: { ensure: 'absent', mode: '0644' }, new: { ensure: 'absent', mode: '0600' } }
    ])('$name', ({ filter, old, new: next, title = '/etc/x' }) => {
        const a = catalog([['File', title, old]]);
        const b = catalog([['File', title, next]]);
        expect(reported(a, b, [])).not.toEqual([]);
        expect(reported(a, b, [filter])).toEqual([]);
        expect(reported(a, b, CHANGE_FILTERS.filter(f => f !== filter))).not.toEqual([]);
    });

    test.each([
        { name: 'a two-item array is not a scalar', old: { require: ['a', 'b'] }, new: { require: 'a' }, title: '/etc/x' },
        { name: 'JSON that parses different', old: { content: '{"a": 1}' }, new: { content: '{"a": 2}' }, title: '/etc/a.json' },
        { name: 'YAML filter does not apply to other files', old: { content: 'a: 1\n' }, new: { content: 'a:   1\n' }, title: '/etc/a.conf' },
        { name: 'a file becoming absent still shows its ensure', old: { ensure: 'file' }, new: { ensure: 'absent' }, title: '/etc/x' }
    ])('kept: $name', ({ old, new: next, title }) => {
        expect(reported(catalog([['File', title, old]]), catalog([['File', title, next]]), CHANGE_FILTERS).length).toBeGreaterThan(0);
    });
});

describe('--ignore Type[Title]::attribute', () => {
    const a = catalog([['File', '/etc/a', { mode: '1', owner: 'x' }], ['Service', 'ntp', { ensure: 'running' }]]);
    const b = catalog([['File', '/etc/a', { mode: '2', owner: 'y' }], ['Service', 'ntp', { ensure: 'stopped' }], ['Package', 'new', {}]]);
    test.each([
        { rules: [], left: ['File[/etc/a].mode', 'File[/etc/a].owner', 'Package[new]', 'Service[ntp].ensure'] },
        { rules: ['File[/etc/a]::mode'], left: ['File[/etc/a].owner', 'Package[new]', 'Service[ntp].ensure'] },
        { rules: ['file[/etc/*]::parameters::owner'], left: ['File[/etc/a].mode', 'Package[new]', 'Service[ntp].ensure'] },
        { rules: ['File[*]', 'Package[*]'], left: ['Service[ntp].ensure'] },
        { rules: ['Service[ntp]::*'], left: ['File[/etc/a].mode', 'File[/etc/a].owner', 'Package[new]'] },
        { rules: ['Service[NTP]'], left: ['File[/etc/a].mode', 'File[/etc/a].owner', 'Package[new]', 'Service[ntp].ensure'] }
    ])('$rules', ({ rules, left }) => {
        expect(reported(a, b, [], rules).sort()).toEqual(left);
    });

    test.each(['File', 'File[x', '[x]'])('malformed rule %s is refused', t => {
        expect(parseIgnoreRule(t)).toBeUndefined();
    });
});
