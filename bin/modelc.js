#!/usr/bin/env node
// Launcher. The compiled CLI (dist/, built by `npm run build`) needs Node 24, which `npm install`
// puts into node_modules/node; under an older `node` first on the PATH this re-executes itself
// with that Node. Keep this file plain JavaScript that Node 18+ can load.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REQUIRED_MAJOR = 24;
const here = fileURLToPath(import.meta.url);

/** The Node binary of the `node` npm package installed beside modelc (hoisted or not). */
function projectNode() {
    const candidates = [join(dirname(here), '..', 'node_modules', 'node', 'bin', 'node')];
    try {
        candidates.push(join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node'));
    } catch {
        // not resolvable from here: only the first candidate
    }
    return candidates.find(p => existsSync(p));
}

if (Number(process.versions.node.split('.')[0]) >= REQUIRED_MAJOR) {
    // Node's on-disk compile cache (shared with the CLI's worker thread) saves re-compiling modelc's
    // modules at every start.
    const { enableCompileCache } = await import('node:module');
    enableCompileCache?.();
    const { launch } = await import('../dist/src/cli/launch.js');
    await launch(process.argv);
} else {
    const node = process.env.MODELC_REEXEC ? undefined : projectNode();
    if (!node) {
        process.stderr.write(`modelc: error CLI_NODE_VERSION: modelc needs Node ${REQUIRED_MAJOR}; this is Node ${process.versions.node} and no Node ${REQUIRED_MAJOR} was found in node_modules/node (run \`npm install\`)\n`);
        process.exit(1);
    }
    const child = spawn(node, [here, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, MODELC_REEXEC: '1' } });
    // The child gets the signals a terminal sends to the whole group by itself; forward the others.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => { child.kill(signal); });
    child.on('exit', (code, signal) => {
        if (signal) {
            process.removeAllListeners(signal);
            process.kill(process.pid, signal);
        }
        process.exitCode = code ?? 1;
    });
}
