import type { StoredJson, StoredReport } from './model.js';

type JsonObject = { readonly [key: string]: StoredJson };

function object(v: StoredJson | undefined): JsonObject {
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

function list(v: StoredJson | undefined): StoredJson[] {
    return Array.isArray(v) ? v : [];
}

function text(v: StoredJson | undefined): string | null {
    return v === undefined || v === null ? null : String(v);
}

/** The run's end: its start plus the `time` metric's `total`, as Puppet's PuppetDB report processor takes it. */
function endTime(start: string, metrics: JsonObject): string {
    const total = list(object(metrics.time).values).find(v => Array.isArray(v) && v[0] === 'total');
    const seconds = Array.isArray(total) && typeof total[2] === 'number' ? total[2] : 0;
    const t = Date.parse(start);
    return Number.isNaN(t) ? start : new Date(t + seconds * 1000).toISOString();
}

/**
 * An agent's report (Puppet's report format 12) in PuppetDB's `store report` wire format,
 * version 8: metrics flattened to {category, name, value}, resource statuses to resources with
 * their events (desired/previous values as new/old), the run's start and end times.
 */
export function toPuppetDbReport(r: StoredReport): JsonObject {
    const rep = r.report;
    const metrics = object(rep.metrics);
    const start = text(rep.time) ?? r.receivedAt;
    return {
        certname: r.node, environment: r.environment,
        puppet_version: text(rep.puppet_version) ?? '', report_format: typeof rep.report_format === 'number' ? rep.report_format : 12,
        configuration_version: text(rep.configuration_version) ?? '',
        start_time: start, end_time: endTime(start, metrics), producer_timestamp: r.receivedAt, producer: 'modelc',
        transaction_uuid: text(rep.transaction_uuid), catalog_uuid: text(rep.catalog_uuid), code_id: text(rep.code_id), job_id: text(rep.job_id),
        cached_catalog_status: text(rep.cached_catalog_status), status: text(rep.status),
        noop: rep.noop === true, noop_pending: rep.noop_pending === true, corrective_change: rep.corrective_change === true, type: 'agent',
        metrics: Object.entries(metrics).flatMap(([category, m]) => list(object(m).values).flatMap(v => (Array.isArray(v) ? [{ category, name: String(v[0]), value: v[2] ?? null }] : []))),
        logs: list(rep.logs).map(l => {
            const o = object(l);
            return { file: text(o.file), line: typeof o.line === 'number' ? o.line : null, level: text(o.level), message: text(o.message), source: text(o.source), tags: list(o.tags), time: text(o.time) };
        }),
        resources: Object.values(object(rep.resource_statuses)).map(s => {
            const o = object(s);
            return {
                resource_type: text(o.resource_type), resource_title: text(o.title), timestamp: text(o.time), skipped: o.skipped === true,
                file: text(o.file), line: typeof o.line === 'number' ? o.line : null, containment_path: list(o.containment_path), corrective_change: o.corrective_change === true,
                events: list(o.events).map(e => {
                    const ev = object(e);
                    return {
                        status: text(ev.status), timestamp: text(ev.time), property: text(ev.property), name: text(ev.name),
                        new_value: ev.desired_value ?? null, old_value: ev.previous_value ?? null, message: text(ev.message), corrective_change: ev.corrective_change === true
                    };
                })
            };
        })
    };
}
