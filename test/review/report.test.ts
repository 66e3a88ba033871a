import { describe, expect, test } from 'vitest';
import { CHANGE_FILTERS } from '../../src/model/diff/index.js';
import type { ModelObject } from '../../src/model/index.js';
import { diffNodeCatalogs, formatReviewMarkdown, formatReviewText, type NodeReport, type ReviewReport } from '../../src/review/index.js';

function catalog(params: Record<string, unknown>, sensitive: string[] = [], tags: string[] = ['a']): ModelObject {
    return {
        $type: 'Catalog', name: 'n1', environment: 'production',
        resources: [{
            $type: 'Resource', ref: 'File[/etc/secret]', type: 'File', title: '/etc/secret', tags,
            parameters: Object.entries(params).map(([name, value]) => ({ $type: 'Parameter', name, value, provenance: { $type: 'ValueProvenance', origin: 'declared', location: { $type: 'SourceLocation', file: 'm.pp', line: 3 } } })),
            ...(sensitive.length ? { sensitiveParameters: sensitive } : {})
        }]
    } as ModelObject;
}

const options = { filters: new Set(CHANGE_FILTERS), ignores: [] };

describe('node diffs for the review', () => {
    test('a Sensitive parameter is reported changed, its values never shown', () => {
        const d = diffNodeCatalogs(catalog({ content: 'old secret\n' }, ['content']), catalog({ content: 'new secret\nline\n' }, ['content']), options);
        expect(d.changed[0].parameters).toEqual([{ name: 'content', kind: 'changed', old: '[redacted]', new: '[redacted]', redacted: true, origin: { kind: 'declared', at: { file: 'm.pp', line: 3 } } }]);
        const text = JSON.stringify(d);
        expect(text).not.toContain('old secret');
        expect(text).not.toContain('new secret');
    });

    test('tags are compared only when asked (as octocatalog-diff --include-tags)', () => {
        const a = catalog({ mode: '0644' }, [], ['a']);
        const b = catalog({ mode: '0644' }, [], ['a', 'b']);
        expect(diffNodeCatalogs(a, b, options).changed).toEqual([]);
        expect(diffNodeCatalogs(a, b, { ...options, includeTags: true }).changed[0].parameters.map(p => p.name)).toEqual(['tags']);
    });

    test('an added and a removed parameter carry their value', () => {
        const d = diffNodeCatalogs(catalog({ mode: '0644' }), catalog({ owner: 'root' }), options);
        expect(d.changed[0].parameters.map(p => [p.name, p.kind, p.old ?? p.new]).sort()).toEqual([['mode', 'removed', '0644'], ['owner', 'added', 'root']]);
    });
});

function report(nodes: NodeReport[]): ReviewReport {
    return {
        repository: '/r', environment: 'production', base: { label: 'main', commit: '0123456789abcdef' }, head: { label: 'worktree' }, filters: [], ignores: [],
        summary: { nodes: nodes.length, changed: nodes.length, unchanged: 0, failed: 0, fixed: 0, broken: 0, resourcesAdded: 0, resourcesRemoved: 0, resourcesChanged: nodes.length, parametersChanged: nodes.length, compileMillis: 1 },
        nodes
    };
}

function changedNode(i: number): NodeReport {
    return {
        node: `web${String(i).padStart(3, '0')}.example.com`, status: 'changed', added: [], removed: [],
        changed: [{ resource: 'File[/etc/motd]', type: 'File', title: '/etc/motd', parameters: [{ name: 'content', kind: 'changed', old: 'a\n', new: 'b\n', diff: ['@@ -1 +1 @@', '-a', '+b'] }] }]
    };
}

describe('markdown report size cap', () => {
    test('under the cap every node has its section', () => {
        const md = formatReviewMarkdown(report([1, 2, 3].map(changedNode)));
        expect(md.match(/<details>/g)?.length).toBe(3);
        expect(md).not.toContain('left out');
    });

    test('past the cap sections are left out with a pointer to the full JSON, the table stays whole', () => {
        const md = formatReviewMarkdown(report(Array.from({ length: 200 }, (_, i) => changedNode(i))), { limit: 20_000, fullReport: 'review.json' });
        expect(md.length).toBeLessThan(20_000 + 200);
        const shown = md.match(/<details>/g)?.length ?? 0;
        expect(shown).toBeGreaterThan(0);
        expect(shown).toBeLessThan(200);
        expect(md).toContain(`> ${200 - shown} node sections left out to keep this comment under 20000 characters; the full report is in \`review.json\`.`);
        expect(md.match(/^\| web\d+/gm)?.length).toBe(200);
    });

    test('a diff line holding a code fence does not close the block', () => {
        const n = changedNode(1);
        const md = formatReviewMarkdown(report([{ ...n, changed: [{ ...n.changed[0], parameters: [{ ...n.changed[0].parameters[0], diff: ['@@ -1 +1 @@', '-```', '+x'] }] }] }]));
        expect(md).toContain('~~~~diff');
    });

    test('resource references read as Type[\'title\'], not as rich data', () => {
        const n: NodeReport = {
            node: 'n1', status: 'changed', added: [], removed: [],
            changed: [{ resource: 'Exec[x]', type: 'Exec', title: 'x', parameters: [{ name: 'notify', kind: 'changed', old: [{ __ptype: 'Type', __pvalue: "Service['a']" }], new: [{ __ptype: 'Type', __pvalue: "Service['b \\'q\\'']" }] }] }]
        };
        expect(formatReviewText(report([n]))).toContain(`notify: [ Service['a'] ] → [ Service['b \\'q\\''] ]`);
    });

    test('text report lists the changed nodes; colours only when asked', () => {
        const plain = formatReviewText(report([changedNode(1)]));
        expect(plain).toContain('web001.example.com: changed (1 changed)');
        expect(plain).not.toContain('\x1b[');
        const coloured = formatReviewText(report([changedNode(1)]), { color: true });
        expect(coloured).toContain('\x1b[1mweb001.example.com: changed');
        expect(coloured).toContain('\x1b[32m        +b\x1b[0m');
        expect(coloured).toContain('\x1b[31m        -a\x1b[0m');
    });
});
