import { join } from 'node:path';
import { primeSignatures } from '../catalog/index.js';
import type { CliIo } from './io.js';

/**
 * What the CLI's startup snapshot runs before it is taken (scripts/build-snapshot.mjs passes
 * `scripts/warmup/`): the snapshot then holds the bytecode of the code those commands run and the
 * parser's lookahead for the constructs they meet, instead of compiling both again in every
 * process. `site/` is a small environment of our own that uses the language broadly (typed class
 * parameters, defines, iteration, conditionals, virtual resources and collectors, relationships,
 * heredocs, EPP and ERB templates, Puppet-language and Ruby functions, a Ruby type, Hiera data
 * with module data and automatic parameter lookup, ARM-8 bindings); `corpus/` is manifests in
 * the usual shapes of modules, only parsed. Nothing of any user's site is in it: what it warms is
 * the code, not answers, and a compile keeps no state between runs apart from caches keyed by
 * file (the services are built per run), so the real command starts as if nothing had run.
 *
 * None of the commands may load a package file through require() (msgpack output, schema
 * validation of a model file, XMI): Node cannot start from a snapshot whose module loader ran at
 * build time (the build tries the snapshot once and keeps none that does not start).
 */
function commands(dir: string): string[][] {
    const site = join(dir, 'site');
    const node = ['--node', 'warm.example.com', '--facts', join(site, 'facts.yaml')];
    return [
        ['parse', join(dir, 'corpus')],
        ['compile', site, ...node],
        ['compile', site, ...node, '--no-bindings', '--format', 'puppet'],
        ['compile', site, ...node, '--no-bindings', '--format', 'json'],
        ['lookup', site, 'warm::ports', ...node],
        ['lookup', site, 'warm::params::package', ...node, '--explain']
    ];
}

/**
 * Runs every command of `commands` on the warm-up directory `dir` through `main`, output
 * discarded. A command that fails is an error: the snapshot would silently warm less than it
 * should.
 */
export async function warmUp(main: (argv: readonly string[], io: CliIo) => Promise<number>, dir: string): Promise<void> {
    for (const args of commands(dir)) {
        let err = '';
        const code = await main(['node', 'modelc', ...args], { out: () => undefined, err: s => { err += s; } });
        if (code !== 0) throw new Error(`modelc ${args.join(' ')} exited with ${code}: ${err.trim()}`);
    }
    // What no site of the warm-up calls would otherwise be parsed in the process that first does.
    primeSignatures();
}
