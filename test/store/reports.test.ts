import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openStore, toPuppetDbReport, type StoredReport } from '../../src/store/index.js';

/** An agent's report as `modelc serve` receives it (see the fixture's _comment for where it was recorded). */
const { _comment: _source, ...AGENT_REPORT } = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'agent-report-util01.json'), 'utf8')) as StoredReport['report'];
const REPORT: StoredReport = { node: 'util01.example.com', environment: 'production', receivedAt: '2026-11-25T04:50:15.000Z', report: AGENT_REPORT };

const dir = mkdtempSync(join(tmpdir(), 'modelc-store-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reports in the store', () => {
    test('SQLite keeps every report of a node, oldest first, as the agent sent it', () => {
        const store = openStore(`sqlite:${join(dir, 'reports.sqlite')}`);
        try {
            store.storeReport(REPORT);
            store.storeReport({ ...REPORT, receivedAt: '2026-11-25T05:00:00.000Z', report: { ...AGENT_REPORT, status: 'changed' } });
            store.storeReport({ ...REPORT, node: 'web01.example.com' });
            const kept = store.reports('util01.example.com');
            expect(kept.map(r => [r.receivedAt, r.report.status])).toEqual([['2026-11-25T04:50:15.000Z', 'unchanged'], ['2026-11-25T05:00:00.000Z', 'changed']]);
            expect(kept[0].report).toEqual(AGENT_REPORT);
            expect(store.reports('db01.example.com')).toEqual([]);
        } finally {
            store.close();
        }
    });

    test('PuppetDB gets the report in its store report v8 wire format', () => {
        const pdb = toPuppetDbReport(REPORT) as Record<string, unknown>;
        expect(Object.keys(pdb).sort()).toEqual([
            'cached_catalog_status', 'catalog_uuid', 'certname', 'code_id', 'configuration_version', 'corrective_change', 'end_time', 'environment', 'job_id',
            'logs', 'metrics', 'noop', 'noop_pending', 'producer', 'producer_timestamp', 'puppet_version', 'report_format', 'resources', 'start_time', 'status',
            'transaction_uuid', 'type'
        ]);
        expect([pdb.certname, pdb.environment, pdb.status, pdb.noop, pdb.noop_pending, pdb.report_format, pdb.configuration_version, pdb.type])
            .toEqual(['util01.example.com', 'production', 'unchanged', true, true, 12, String(AGENT_REPORT.configuration_version), 'agent']);
        const resources = pdb.resources as Array<Record<string, unknown>>;
        expect(resources).toHaveLength(Object.keys(AGENT_REPORT.resource_statuses as object).length);
        const group = resources.find(r => r.resource_type === 'Group' && r.resource_title === 'admins');
        expect(group?.events).toEqual([expect.objectContaining({ status: 'noop', property: 'ensure', old_value: 'absent', new_value: 'present', name: 'group_created' })]);
        expect(group?.containment_path).toEqual(['Stage[main]', 'Profile::Accounts', 'Group[admins]']);
        const metrics = pdb.metrics as Array<{ category: string; name: string; value: unknown }>;
        expect(metrics).toContainEqual({ category: 'resources', name: 'total', value: 17 });
        // The run ends at its start plus the time metric's total.
        const total = metrics.find(m => m.category === 'time' && m.name === 'total')?.value as number;
        expect(Date.parse(String(pdb.end_time)) - Date.parse(String(pdb.start_time))).toBe(Math.round(total * 1000));
        expect((pdb.logs as unknown[]).length).toBe((AGENT_REPORT.logs as unknown[]).length);
    });
});
