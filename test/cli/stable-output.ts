/** What varies from run to run in a Report model: clock times, durations and the run's uuid. */
const VOLATILE = new Set(['time', 'transactionUuid', 'evaluationTime']);

/** A Report model (as JSON) without its volatile features, and without the timing metrics. */
export function stableReport(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(stableReport);
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    if (o.name === 'time' && Array.isArray(o.values)) return { name: o.name };
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
        if (VOLATILE.has(k)) continue;
        out[k] = k === 'message' && typeof x === 'string' ? x.replace(/in [\d.]+ seconds/, 'in N seconds') : stableReport(x);
    }
    return out;
}

/** apply's printed lines without the run's duration. */
export function stableApplyLines(out: string): string[] {
    return out.split('\n').filter(l => l !== '').map(l => l.replace(/Applied catalog in [\d.]+ seconds/, 'Applied catalog in N seconds'));
}
