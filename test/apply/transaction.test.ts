import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, RelationshipGraph, type ApplyCatalog } from '../../src/apply/index.js';
import { asModelObject, decodeJson, encodeJson, modelRegistry } from '../../src/model/index.js';
import { diffModels, diffProfileFor, formatDiffText, toDiffModel } from '../../src/model/diff/index.js';
import { PSensitive } from '../../src/values/index.js';
import { runCli } from '../cli/run-cli.js';
import { catalogOf, newRegistry, res, run, tempRoot } from './helpers.js';

const before = (source: string, target: string): ApplyCatalog['relationships'][number] => ({ source, target, kind: 'before', declaredBy: source });
const notify = (source: string, target: string): ApplyCatalog['relationships'][number] => ({ source, target, kind: 'notify', declaredBy: source });

describe('graph and transaction', () => {
    it('orders by dependencies, ties in catalog order', () => {
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([res('notify', 'a'), res('notify', 'b'), res('notify', 'c')], [before('Notify[c]', 'Notify[a]')]));
        // Kahn's algorithm picks the ready resource earliest in the catalog: b is ready before a.
        expect(lines.filter(l => !l.includes('/'))).toEqual(['notice: b', 'notice: c', 'notice: a']);
    });

    it('a cycle aborts the run with a message listing it', () => {
        const { registry } = newRegistry();
        const { lines, result } = run(registry, catalogOf([res('notify', 'a'), res('notify', 'b'), res('notify', 'c')],
            [before('Notify[a]', 'Notify[b]'), before('Notify[b]', 'Notify[c]'), before('Notify[c]', 'Notify[a]')]));
        expect(lines).toEqual([
            "err: Found 1 dependency cycle:\n(Notify[a] => Notify[b] => Notify[c] => Notify[a])\nTry the '--graph' option and opening the resulting '.dot' file in OmniGraffle or GraphViz",
            'err: Failed to apply catalog: One or more resource dependency cycles detected in graph'
        ]);
        expect(result.status).toBe('failed');
        expect(result.aborted?.code).toBe('APPLY_DEPENDENCY_CYCLE');
        expect(result.resources).toEqual([]);
    });

    it('a cycle through a container is found and named by resources', () => {
        const g = new RelationshipGraph(new Set(['Class[X]']));
        ['Class[X]', 'Notify[in]', 'Notify[out]'].forEach((r, i) => g.addResource(r, i));
        g.contain('Class[X]', 'Notify[in]');
        g.relate('Class[X]', 'Notify[out]', false);
        g.relate('Notify[out]', 'Notify[in]', false);
        expect(g.cycles()).toEqual([['Class[X]', 'Notify[out]', 'Notify[in]', 'Class[X]']]);
    });

    it('a relationship to a missing resource aborts with its location', () => {
        const { registry } = newRegistry();
        const { lines, result } = run(registry, catalogOf([res('notify', 'a')], [{ source: 'Notify[a]', target: 'File[/nope]', kind: 'before', declaredBy: 'File[/nope]' }]));
        expect(lines).toEqual(['err: Failed to apply catalog: Could not find dependency File[/nope] for File[/nope]']);
        expect(result.aborted?.code).toBe('APPLY_MISSING_TARGET');
    });

    it('skips dependents of a failure (transitively) and keeps going with the rest', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        const { lines, result } = run(registry, catalogOf([
            res('exec', 'fail', { command: '/bin/false' }), res('notify', 'dep'), res('notify', 'dep2'), res('notify', 'other')
        ], [before('Exec[fail]', 'Notify[dep]'), before('Notify[dep]', 'Notify[dep2]')]), { root });
        expect(lines).toEqual([
            "err: '/bin/false' returned 1 instead of one of [0]",
            "err: /Stage[main]/Main/Exec[fail]/returns: change from 'notrun' to ['0'] failed: '/bin/false' returned 1 instead of one of [0]",
            'notice: /Stage[main]/Main/Notify[dep]: Dependency Exec[fail] has failures: true',
            'warning: /Stage[main]/Main/Notify[dep]: Skipping because of failed dependencies',
            'warning: /Stage[main]/Main/Notify[dep2]: Skipping because of failed dependencies',
            'notice: other',
            "notice: /Stage[main]/Main/Notify[other]/message: defined 'message' as 'other'"
        ]);
        expect(result.status).toBe('failed');
        expect(result.resources.map(r => [r.resource.ref, r.failed, r.skipped])).toEqual([
            ['Exec[fail]', true, false], ['Notify[dep]', false, true], ['Notify[dep2]', false, true], ['Notify[other]', false, false]]);
    });

    it('refresh events: subscribe triggers a refreshonly exec, notify => Class reaches its contents', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        const marker = join(root, 'ran');
        const cat = catalogOf([res('file', '/f', { ensure: 'file', content: 'x' }), res('exec', 'reload', { command: `/bin/touch ${marker}`, refreshonly: true })], [notify('File[/f]', 'Exec[reload]')]);
        const first = run(registry, cat, { root });
        expect(first.lines).toContain("notice: /Stage[main]/Main/Exec[reload]: Triggered 'refresh' from 1 event");
        expect(existsSync(marker)).toBe(true);
        expect(run(registry, cat, { root }).lines).toEqual([]);
    });

    it('info lines as puppet apply --verbose prints them (scheduling refreshes, skipped containers)', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        const cat = catalogOf([res('file', '/f', { ensure: 'file' }), res('exec', 'reload', { command: '/bin/true', refreshonly: true }), res('exec', 'fail', { command: '/bin/false' })],
            [notify('File[/f]', 'Exec[reload]')]);
        const { lines } = run(registry, { ...cat, version: '42' }, { root, debug: true });
        expect(lines.filter(l => l.startsWith('info'))).toEqual([
            "info: Applying configuration version '42'",
            'info: /Stage[main]/Main/File[/f]: Scheduling refresh of Exec[reload]',
            // Class[Main] holds the failed exec: it is skipped and drops its events, so Stage[main] gets none.
            'info: Class[Main]: Unscheduling all events on Class[Main]'
        ]);
    });

    it('noop reports would-be changes and refreshes without changing anything', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        const cat = catalogOf([res('file', '/f', { ensure: 'file', content: 'x' }), res('exec', 'reload', { command: '/bin/true', refreshonly: true })], [notify('File[/f]', 'Exec[reload]')]);
        const { lines, result } = run(registry, cat, { root, noop: true });
        expect(lines).toEqual([
            "notice: /Stage[main]/Main/File[/f]/ensure: current_value 'absent', should be 'file' (noop)",
            "notice: /Stage[main]/Main/Exec[reload]: Would have triggered 'refresh' from 1 event",
            "notice: Class[Main]: Would have triggered 'refresh' from 2 events",
            "notice: Stage[main]: Would have triggered 'refresh' from 1 event"
        ]);
        expect(existsSync(join(root, 'f'))).toBe(false);
        expect(result.status).toBe('unchanged');
        expect(buildReport(result, 't').noopPending).toBe(true);
    });

    it('the noop metaparameter makes one resource noop', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        const { lines } = run(registry, catalogOf([res('file', '/n', { ensure: 'file', noop: true }), res('file', '/y', { ensure: 'file' })]), { root });
        expect(lines.slice(0, 2)).toEqual(["notice: /Stage[main]/Main/File[/n]/ensure: current_value 'absent', should be 'file' (noop)", 'notice: /Stage[main]/Main/File[/y]/ensure: created']);
    });

    it('file: mode, content drift, link and absent under a root', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        writeFileSync(join(root, 'c'), 'old');
        writeFileSync(join(root, 'gone'), 'x');
        const cat = catalogOf([
            res('file', '/c', { content: 'new', mode: '600' }), res('file', '/l', { ensure: 'link', target: '/c' }), res('file', '/gone', { ensure: 'absent' })]);
        expect(run(registry, cat, { root }).lines).toEqual([
            `notice: /Stage[main]/Main/File[/c]/content: content changed '{sha256}${sha('old')}' to '{sha256}${sha('new')}'`,
            "notice: /Stage[main]/Main/File[/c]/mode: mode changed '0644' to '0600'",
            'notice: /Stage[main]/Main/File[/l]/ensure: created',
            'notice: /Stage[main]/Main/File[/gone]/ensure: removed'
        ]);
        expect(readFileSync(join(root, 'c'), 'utf8')).toBe('new');
        expect(run(registry, cat, { root }).lines).toEqual([]);
    });

    it('writes a valid Report model; Sensitive values never reach logs, reports or diffs', () => {
        const { registry } = newRegistry();
        const root = tempRoot();
        const { result, lines } = run(registry, catalogOf([res('notify', 'secret', { message: new PSensitive('hunter2') }, ['message']), res('file', '/s', { ensure: 'file', content: new PSensitive('hunter2') }, ['content'])]), { root, debug: true });
        expect(lines.join('\n')).not.toContain('hunter2');
        expect(lines).toContain('notice: Sensitive [value redacted]');
        const index = modelRegistry().byPackageName('report');
        if (!index) throw new Error('no report package');
        const text = encodeJson({ index, root: asModelObject(buildReport(result, 'test')) });
        expect(text).not.toContain('hunter2');
        const decoded = decodeJson(text, 'report.json', { kind: 'report' });
        expect((decoded.root.resourceStatuses as unknown[]).length).toBe(2);
        const again = run(registry, catalogOf([res('notify', 'secret', { message: new PSensitive('other') }, ['message'])]), { root }).result;
        const other = { index, root: asModelObject(buildReport(again, 'test')) };
        const diff = toDiffModel(diffModels(decoded, other, diffProfileFor('Report')), { model: decoded, file: 'a' }, { model: other, file: 'b' });
        expect(formatDiffText(diff)).not.toMatch(/hunter2|other'/);
    });
});

function sha(s: string): string {
    return createHash('sha256').update(s).digest('hex');
}

describe('modelc apply', () => {
    const fixture = join(import.meta.dirname, '../fixtures/apply/catalogs/046-resource-defaults.json');

    it('applies under --root, prints Puppet lines, writes the report; a second run changes nothing', async () => {
        const root = tempRoot();
        mkdirSync(join(root, 'etc'));
        const report = join(root, 'report.json');
        const first = await runCli('apply', fixture, '--root', root, '--report', report);
        expect(first.code).toBe(0);
        expect(first.out.split('\n')[0]).toBe('Notice: /Stage[main]/Main/File[/etc/top.conf]/ensure: created');
        expect((await runCli('validate', report, '--kind', 'report')).code).toBe(0);
        const second = await runCli('apply', fixture, '--root', root);
        expect(second.out.split('\n').filter(l => l.includes('/Stage[main]') && !l.includes('Notify['))).toEqual([]);
    });

    it('accepts our Catalog model', async () => {
        const root = tempRoot();
        const model = join(import.meta.dirname, '../fixtures/apply/catalog-model.json');
        const r = await runCli('apply', model, '--root', root, '--noop');
        expect(r.err).toBe('');
        expect(r.out.split('\n').slice(0, 3)).toEqual([
            "Notice: /Stage[main]/Main/Notify[second]/message: current_value 'absent', should be 'second' (noop)",
            "Notice: /Stage[main]/Main/File[/x]/ensure: current_value 'absent', should be 'file' (noop)",
            "Notice: Class[Main]: Would have triggered 'refresh' from 2 events"
        ]);
    });

    it('reports a missing root and a malformed catalog as located diagnostics', async () => {
        const bad = await runCli('apply', fixture, '--root', '/no/such/dir');
        expect(bad.code).toBe(1);
        expect(bad.err).toBe('/no/such/dir: error APPLY_BAD_ROOT: --root /no/such/dir is not a directory\n');
        const root = tempRoot();
        const file = join(root, 'c.json');
        writeFileSync(file, '{"resources": 3}');
        const r = await runCli('apply', file, '--root', root);
        expect(r.err).toBe(`${file}: error APPLY_CATALOG_FORMAT: a Puppet catalog needs a "resources" array (at /resources)\n`);
    });
});
