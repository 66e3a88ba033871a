import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelcCommand, reports, root } from './compare.js';
import { timeProcess } from './process-time.js';

/**
 * `modelc compile examples/site --nodes-dir FACTS --out-dir OUT --jobs N` over generated nodes of
 * the example (issue 16: ≥ 100 nodes/s per core): the four example nodes' facts, renamed
 * (web01 → web01-n0005.example.com, ...), so every node is a new certname the ENC and Hiera
 * know nothing of. Measured without ARM-8 bindings (`--no-bindings`: Hiera 5 alone) and with
 * them, where each node runs the example's two provider programs (python3 enc.py and
 * inventory.py): their CPU is reported apart from modelc's own.
 *
 * BENCH_BATCH_NODES (default 1000) and BENCH_BATCH_JOBS (default: one per core) change the run;
 * the run with bindings takes the first BENCH_BATCH_BINDINGS_NODES of them (default 100: each node
 * starts two python3 programs, which cost far more than its compile).
 */
function generatedNodes(dir: string, count: number): string {
    const out = join(dir, 'facts');
    mkdirSync(out, { recursive: true });
    const examples = join(root, 'examples', 'facts');
    const templates = readdirSync(examples).filter(f => f.endsWith('.yaml')).sort().map(f => {
        const host = f.split('.')[0];
        return { host, text: readFileSync(join(examples, f), 'utf8') };
    });
    for (let i = 0; i < count; i++) {
        const t = templates[i % templates.length];
        const name = `${t.host}-n${String(i).padStart(4, '0')}`;
        // Every place the host name appears (certname, fqdn, hostname, networking) gets the new one.
        writeFileSync(join(out, `${name}.example.com.yaml`), t.text.replaceAll(t.host, name));
    }
    return out;
}

interface BatchRow {
    readonly bindings: boolean;
    readonly nodes: number;
    readonly jobs: number;
    readonly failed: number;
    /** The whole `modelc` process and the programs it ran (user+sys), and wall. */
    readonly totalCpuMs: number;
    readonly wallMs: number;
    /** The batch itself as modelc's summary reports it: its process's CPU, and that of the programs it ran. */
    readonly batchCpuMs?: number;
    readonly childCpuMs?: number;
}

function summaryNumbers(stdout: string): { failed?: number; batchCpuMs?: number; childCpuMs?: number } {
    const done = /compiled (\d+) of (\d+) nodes/.exec(stdout);
    const cpu = /([\d.]+) s CPU, [\d.]+ nodes\/s per core/.exec(stdout);
    const children = /programs it ran[^:]*: ([\d.]+) s CPU/.exec(stdout);
    return {
        ...(done ? { failed: Number(done[2]) - Number(done[1]) } : {}),
        ...(cpu ? { batchCpuMs: Number(cpu[1]) * 1000 } : {}),
        ...(children ? { childCpuMs: Number(children[1]) * 1000 } : {})
    };
}

export function runBatchBench(): void {
    const nodes = Math.max(1, Number(process.env.BENCH_BATCH_NODES ?? 1000));
    const withBindings = Math.min(nodes, Math.max(0, Number(process.env.BENCH_BATCH_BINDINGS_NODES ?? 100)));
    const jobs = Math.max(1, Number(process.env.BENCH_BATCH_JOBS ?? availableParallelism()));
    const dir = mkdtempSync(join(tmpdir(), 'modelc-bench-batch-'));
    const rows: BatchRow[] = [];
    try {
        const facts = generatedNodes(dir, nodes);
        // The run with bindings: the first nodes only, in their own directory.
        const bindingsFacts = join(dir, 'facts-bindings');
        mkdirSync(bindingsFacts);
        for (const f of readdirSync(facts).sort().slice(0, withBindings)) writeFileSync(join(bindingsFacts, f), readFileSync(join(facts, f)));
        const site = join(root, 'examples', 'site');
        console.log(`many nodes: \`modelc compile examples/site --nodes-dir\` over ${nodes} generated nodes of the example (the first ${withBindings} with bindings), --jobs ${jobs}`);
        console.log('  (CPU = user+sys; modelc = the modelc process, start-up included; per core = nodes per CPU second;');
        console.log('   programs = the ENC and bindings providers each node runs, python3 here)');
        for (const bindings of withBindings > 0 ? [false, true] : [false]) {
            const out = join(dir, `out-${bindings ? 'bindings' : 'hiera'}`);
            const count = bindings ? withBindings : nodes;
            const t = timeProcess(modelcCommand, ['compile', site, '--nodes-dir', bindings ? bindingsFacts : facts, '--out-dir', out,
                '--jobs', String(jobs), ...(bindings ? [] : ['--no-bindings'])], undefined, { timeoutMs: 3_600_000 });
            const s = summaryNumbers(t.stdout);
            const row: BatchRow = { bindings, nodes: count, jobs, failed: s.failed ?? count, totalCpuMs: t.cpuMs, wallMs: t.wallMs, ...s };
            rows.push(row);
            const own = t.cpuMs - (s.childCpuMs ?? 0);
            const perCore = (ms: number | undefined): string => (ms === undefined || ms <= 0 ? 'n/a' : (count * 1000 / ms).toFixed(0));
            console.log(`  ${bindings ? 'with bindings   ' : '--no-bindings   '} modelc ${(own / 1000).toFixed(2)} s CPU = ${perCore(own)} nodes/s per core`
                + ` (the batch alone ${s.batchCpuMs === undefined ? 'n/a' : (s.batchCpuMs / 1000).toFixed(2)} s = ${perCore(s.batchCpuMs)} nodes/s per core);`
                + ` programs ${s.childCpuMs === undefined ? 'n/a' : `${(s.childCpuMs / 1000).toFixed(2)} s`} CPU;`
                + ` wall ${(t.wallMs / 1000).toFixed(2)} s = ${(count * 1000 / t.wallMs).toFixed(0)} nodes/s${row.failed ? `; ${row.failed} FAILED` : ''}`);
        }
        console.log(`  load average at the end: ${loadavg().map(x => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
        reports.batch = rows;
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
