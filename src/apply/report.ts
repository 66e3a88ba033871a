import { randomUUID } from 'node:crypto';
import { Report as R } from '../../generated/model/index.js';
import type { RichData } from '../model/index.js';
import type { ApplyResult } from './run/transaction.js';
import type { PropertyChange } from './run/harness.js';
import { PSensitive, PRegexp, type PuppetValue } from './values.js';

const REPORT_FORMAT = 12;

/** A timestamp as the Report model writes it: ISO-8601 with an explicit offset. */
function timestamp(d: Date): string {
    return d.toISOString().replace('Z', '+00:00');
}

/** Report values are rich data; a Sensitive value never reaches a report (it is redacted before). */
function data(v: PuppetValue | undefined): RichData {
    if (v === undefined || v === null) return null;
    if (v instanceof PSensitive) return '[redacted]';
    if (typeof v === 'bigint') return v as unknown as RichData;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    if (Array.isArray(v)) return v.map(data);
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), data(x)]));
    if (v instanceof PRegexp) return { __ptype: 'Regexp', __pvalue: v.source };
    return String(v);
}

function event(c: PropertyChange, time: Date): R.Event {
    return R.createEvent({
        name: c.event,
        property: c.property,
        previousValue: c.sensitive ? '[redacted]' : data(c.previous),
        desiredValue: c.sensitive ? '[redacted]' : data(c.desired),
        status: c.status,
        message: c.message,
        ...(c.sensitive ? { redacted: true } : {}),
        time: timestamp(time)
    });
}

function metric(name: string, label: string, value: number): R.Metric {
    return R.createMetric({ name, label, value });
}

/** The Report model of a run: per resource changes, events, status and timing; logs; metrics. */
export function buildReport(result: ApplyResult, toolVersion: string): R.Report {
    const statuses = result.resources.map(r => {
        const outOfSync = r.changes.length;
        const changed = r.changes.filter(c => c.status === 'success').length;
        return R.createResourceStatus({
            resource: r.resource.ref,
            resourceType: r.resource.ref.slice(0, r.resource.ref.indexOf('[')),
            title: r.resource.title,
            ...(r.resource.file ? { file: r.resource.file } : {}),
            ...(r.resource.line ? { line: r.resource.line } : {}),
            tags: [...r.resource.tags],
            containmentPath: [...r.containmentPath],
            ...(r.providerUsed ? { providerUsed: r.providerUsed } : {}),
            action: r.failed ? 'failed' : r.action,
            time: timestamp(r.time),
            evaluationTime: r.evaluationTime,
            changed: changed > 0,
            outOfSync: outOfSync > 0,
            failed: r.failed,
            skipped: r.skipped,
            changeCount: changed,
            outOfSyncCount: outOfSync,
            events: r.changes.map(c => event(c, r.time))
        });
    });
    const count = (p: (s: R.ResourceStatus) => boolean): number => statuses.filter(p).length;
    const events = result.resources.flatMap(r => r.changes);
    return R.createReport({
        host: result.catalog.name,
        environment: result.catalog.environment,
        time: timestamp(result.startTime),
        ...(result.catalog.version ? { configurationVersion: result.catalog.version } : {}),
        ...(result.catalog.catalogUuid ? { catalogUuid: result.catalog.catalogUuid } : {}),
        ...(result.catalog.codeId ? { codeId: result.catalog.codeId } : {}),
        transactionUuid: randomUUID(),
        reportFormat: REPORT_FORMAT,
        toolVersion,
        noop: result.options.noop,
        noopPending: events.some(e => e.status === 'noop'),
        status: result.status,
        transactionCompleted: result.aborted === undefined,
        resourceStatuses: statuses,
        logs: result.logs.map(l => R.createLogEntry({ level: l.level, message: l.message, source: l.source ?? 'Puppet', time: timestamp(l.time) })),
        metrics: [
            R.createMetricCategory({ name: 'resources', label: 'Resources', values: [
                metric('total', 'Total', statuses.length),
                metric('changed', 'Changed', count(s => s.changed === true)),
                metric('failed', 'Failed', count(s => s.failed === true)),
                metric('skipped', 'Skipped', count(s => s.skipped === true)),
                metric('out_of_sync', 'Out of sync', count(s => s.outOfSync === true))
            ] }),
            R.createMetricCategory({ name: 'events', label: 'Events', values: [
                metric('total', 'Total', events.length),
                metric('success', 'Success', events.filter(e => e.status === 'success').length),
                metric('failure', 'Failure', events.filter(e => e.status === 'failure').length),
                metric('noop', 'Noop', events.filter(e => e.status === 'noop').length)
            ] }),
            R.createMetricCategory({ name: 'changes', label: 'Changes', values: [metric('total', 'Total', events.filter(e => e.status === 'success').length)] }),
            R.createMetricCategory({ name: 'time', label: 'Time', values: [metric('total', 'Total', result.totalTime)] })
        ]
    });
}
