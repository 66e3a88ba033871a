/** Upper bounds (seconds) of the compile-time histogram's buckets. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function labels(l: Readonly<Record<string, string>>): string {
    const parts = Object.entries(l).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
    return parts.length ? `{${parts.join(',')}}` : '';
}

/**
 * The server's counters for operators, written in Prometheus' text format at `/metrics`:
 * requests by endpoint and status, compile times (a histogram), compiles by environment and
 * outcome, and gauges read when scraped (queue depth, threads compiling).
 */
export class ServeMetrics {
    private readonly requests = new Map<string, number>();
    private readonly compiles = new Map<string, number>();
    private readonly cacheHits = new Map<string, number>();
    private readonly parses = new Map<string, number>();
    private readonly bucketCounts = BUCKETS.map(() => 0);
    private compileCount = 0;
    private compileSum = 0;
    private readonly started = Date.now();

    constructor(private readonly gauges: () => Readonly<Record<string, number>>) {}

    request(endpoint: string, status: number): void {
        const key = labels({ endpoint, status: String(status) });
        this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    }

    compiled(environment: string, ok: boolean, millis: number, cacheHits = 0, parses = 0): void {
        const env = labels({ environment });
        this.cacheHits.set(env, (this.cacheHits.get(env) ?? 0) + cacheHits);
        this.parses.set(env, (this.parses.get(env) ?? 0) + parses);
        const key = labels({ environment, result: ok ? 'ok' : 'error' });
        this.compiles.set(key, (this.compiles.get(key) ?? 0) + 1);
        const seconds = millis / 1000;
        BUCKETS.forEach((b, i) => { if (seconds <= b) this.bucketCounts[i]++; });
        this.compileCount++;
        this.compileSum += seconds;
    }

    text(): string {
        const out: string[] = [];
        const family = (name: string, type: string, help: string): void => { out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`); };
        family('modelc_serve_requests_total', 'counter', 'HTTP requests by endpoint and status');
        for (const [k, v] of this.requests) out.push(`modelc_serve_requests_total${k} ${v}`);
        family('modelc_serve_compiles_total', 'counter', 'catalog compiles by environment and result');
        for (const [k, v] of this.compiles) out.push(`modelc_serve_compiles_total${k} ${v}`);
        family('modelc_serve_environment_cache_hits_total', 'counter', 'manifests and templates a compile took parsed from its thread\'s environment cache, by environment');
        for (const [k, v] of this.cacheHits) out.push(`modelc_serve_environment_cache_hits_total${k} ${v}`);
        family('modelc_serve_environment_parses_total', 'counter', 'files parsed (first use, or changed on disk), by environment');
        for (const [k, v] of this.parses) out.push(`modelc_serve_environment_parses_total${k} ${v}`);
        family('modelc_serve_compile_seconds', 'histogram', 'time to compile a catalog, queueing excluded');
        BUCKETS.forEach((b, i) => out.push(`modelc_serve_compile_seconds_bucket{le="${b}"} ${this.bucketCounts[i]}`));
        out.push(`modelc_serve_compile_seconds_bucket{le="+Inf"} ${this.compileCount}`);
        out.push(`modelc_serve_compile_seconds_sum ${this.compileSum}`, `modelc_serve_compile_seconds_count ${this.compileCount}`);
        for (const [name, value] of Object.entries(this.gauges())) {
            family(`modelc_serve_${name}`, 'gauge', name.replace(/_/g, ' '));
            out.push(`modelc_serve_${name} ${value}`);
        }
        family('modelc_serve_uptime_seconds', 'gauge', 'seconds since the server started');
        out.push(`modelc_serve_uptime_seconds ${(Date.now() - this.started) / 1000}`);
        return `${out.join('\n')}\n`;
    }
}
