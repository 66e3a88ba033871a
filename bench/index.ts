import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCodecBench } from './codec-bench.js';

/**
 * `npm run bench`: every benchmark, printed as throughput and, where real Puppet is installed,
 * as a ratio beside it. Benchmarks only report; nothing here asserts a time. Each stage keeps
 * its benchmark in `bench/<stage>.ts` exporting a `run…Bench()` function, found here by name.
 */
async function main(): Promise<void> {
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
}

await main();
