import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCodecBench } from './codec-bench.js';

/**
 * `npm run bench`: every benchmark, printed as throughput and, where real Puppet is installed,
 * as a ratio beside it. Benchmarks only report; nothing here asserts a time.
 */
async function main(): Promise<void> {
    runCodecBench();
    const here = dirname(fileURLToPath(import.meta.url));
    if (existsSync(join(here, 'parse.js'))) {
        const parse = await import(join(here, 'parse.js')) as { runParseBench?: () => Promise<void> | void };
        await parse.runParseBench?.();
    }
}

await main();
