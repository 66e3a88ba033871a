import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { modelcCommand, puppetOracle, reports, root } from './compare.js';
import { medianTiming, ratio, timeProcess, type Timing } from './process-time.js';

/**
 * The cold start of the CLI (issue 16: ≤ 0.2 s CPU for the example's web01): `modelc compile
 * examples/site --node web01.example.com --facts …` as a whole process per run, as users run it
 * (the `modelc` command, bin/modelc, with the startup snapshot when `npm run build` made one),
 * beside `node -e 0` (what starting Node alone costs), `node bin/modelc.js` (a second Node
 * process in front), the same without the snapshot, and real
 * Puppet. With bindings the example also runs two python3 provider programs (the ENC and the
 * `inventory:` scheme); they are measured alone, with the arguments and request modelc gives
 * them, so modelc's own share shows.
 */
const RUNS = Math.max(5, Number(process.env.BENCH_COLD_RUNS ?? 11));

interface ColdRow { readonly label: string; readonly timing: Timing; readonly status: number }

function measure(label: string, command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): ColdRow {
    const runs = Array.from({ length: RUNS }, () => timeProcess(command, args, options.cwd, options));
    return { label, timing: medianTiming(runs), status: runs[0].status };
}

export function runColdStartBench(): void {
    const site = join(root, 'examples', 'site');
    const facts = join(root, 'examples', 'facts', 'web01.example.com.yaml');
    const bin = join(root, 'bin', 'modelc.js');
    const run = (args: readonly string[], env?: NodeJS.ProcessEnv): [string, readonly string[], { env?: NodeJS.ProcessEnv }] => [modelcCommand, args, { env }];
    const node = 'web01.example.com';
    const compile = ['compile', site, '--node', node, '--facts', facts];
    const providers = join(site, 'bindings');
    const request = JSON.stringify({ uri: 'inventory:/owners', node, environment: 'production', facts: parseYaml(readFileSync(facts, 'utf8')) as unknown });
    const rows: ColdRow[] = [
        measure('node -e 0', process.execPath, ['-e', '0']),
        measure('modelc compile --no-bindings', ...run([...compile, '--no-bindings'])),
        measure('  as node bin/modelc.js compile', process.execPath, [bin, ...compile, '--no-bindings']),
        measure('  without the snapshot (MODELC_NO_SNAPSHOT=1)', ...run([...compile, '--no-bindings'], { MODELC_NO_SNAPSHOT: '1' })),
        measure('modelc compile (bindings, 2 providers)', ...run(compile)),
        measure('  without the snapshot (MODELC_NO_SNAPSHOT=1)', ...run(compile, { MODELC_NO_SNAPSHOT: '1' })),
        measure('  provider: python3 enc.py (alone)', 'python3', ['enc.py', node], { cwd: providers }),
        measure('  provider: python3 inventory.py (alone)', 'python3', ['inventory.py', 'inventory:/owners'], { cwd: providers, input: request })
    ];
    const oracle = puppetOracle();
    if (oracle) rows.push(measure('real Puppet 7 (oracle/compile, no bindings)', oracle, [site, '--node', node, '--facts', facts]));
    const failed = rows.filter(r => r.status !== 0);
    const byLabel = (l: string): Timing | undefined => rows.find(r => r.label === l)?.timing;
    const providersMs = (byLabel('  provider: python3 enc.py (alone)')?.cpuMs ?? 0) + (byLabel('  provider: python3 inventory.py (alone)')?.cpuMs ?? 0);
    const withBindings = byLabel('modelc compile (bindings, 2 providers)');
    const noBindings = byLabel('modelc compile --no-bindings');
    console.log(`cold start: \`modelc compile examples/site --node ${node} --facts …\`, one whole process per run (medians of ${RUNS}; CPU = user+sys, ms)`);
    console.log(`  ${'run'.padEnd(48)} ${'CPU'.padStart(7)} ${'wall'.padStart(7)}`);
    for (const r of rows) console.log(`  ${r.label.padEnd(48)} ${r.timing.cpuMs.toFixed(0).padStart(7)} ${r.timing.wallMs.toFixed(0).padStart(7)}${r.status !== 0 ? `  (exit ${r.status})` : ''}`);
    if (withBindings) console.log(`  ${'modelc with bindings, less the providers'.padEnd(48)} ${(withBindings.cpuMs - providersMs).toFixed(0).padStart(7)}`);
    const puppet = oracle ? byLabel('real Puppet 7 (oracle/compile, no bindings)') : undefined;
    console.log(`  target: ≤ 200 ms CPU (--no-bindings: ${noBindings ? noBindings.cpuMs.toFixed(0) : 'n/a'} ms${puppet ? `, ${ratio(puppet.cpuMs, noBindings?.cpuMs)} faster than Puppet` : ''})`);
    if (failed.length) console.log(`  FAILED: ${failed.map(r => r.label.trim()).join(', ')}`);
    reports.coldStart = { runs: RUNS, rows: rows.map(r => ({ label: r.label.trim(), cpuMs: r.timing.cpuMs, wallMs: r.timing.wallMs, status: r.status })), providersCpuMs: providersMs };
}
