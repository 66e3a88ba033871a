import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCodecBench } from './codec-bench.js';
import { comparisons, reports } from './compare.js';

/**
 * `npm run bench`: every benchmark, printed as throughput and, where real Puppet is installed,
 * as a ratio beside it. Benchmarks only report; nothing here asserts a time. Each stage keeps
 * its benchmark in `bench/<stage>.ts` exporting a `run…Bench()` function, found here by name.
 * `--json` (`node dist/bench/index.js --json` after a build, so no build output comes first): the
 * tables go to stderr and stdout gets one JSON document of the modelc-vs-Puppet comparisons (CPU
 * and wall, cold and warm, per case), for machines.
 */
async function main(): Promise<void> {
    const json = process.argv.includes('--json');
    if (json) console.log = console.error;
    runCodecBench();
    const here = dirname(fileURLToPath(import.meta.url));
    const modules = readdirSync(here).filter(f => f.endsWith('.js') && f !== 'index.js' && f !== 'codec-bench.js').sort();
    for (const file of modules) {
        const mod = await import(pathToFileURL(join(here, file)).href) as Record<string, unknown>;
        for (const [name, fn] of Object.entries(mod)) {
            if (/^run\w*Bench$/.test(name) && typeof fn === 'function') {
                console.log('');
                await (fn as () => Promise<void> | void)();
            }
        }
    }
    if (json) process.stdout.write(JSON.stringify({ comparisons, ...reports }, null, 2) + '\n');
}

await main();
