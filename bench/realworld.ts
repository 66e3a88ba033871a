import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { compareCases, shared } from './compare.js';
import { medianTiming, timeProcess } from './process-time.js';

/**
 * The largest real-world case (third-party Forge modules as Debian packages them, with their Ruby
 * functions and types), compiled by modelc and by real Puppet, cold and warm (issue 11).
 */
const REALWORLD = join(shared, 'conformance', 'realworld');

interface RealCase { readonly name: string; readonly dir: string; readonly node: string; readonly modules: readonly string[]; readonly resources: number }

/** Where a module entry leads: the shared copy holds a file naming the module's directory, a checkout a symlink. */
function moduleTarget(dir: string, module: string): string {
    const p = join(dir, 'modules', module);
    try { return readFileSync(p, 'utf8').trim(); } catch { return p; }
}

function realCases(): RealCase[] {
    if (!existsSync(REALWORLD)) return [];
    return readdirSync(REALWORLD).filter(n => existsSync(join(REALWORLD, n, 'case.yaml'))).map(name => {
        const dir = join(REALWORLD, name);
        const y = parseYaml(readFileSync(join(dir, 'case.yaml'), 'utf8')) as { node?: string; modules?: string[] };
        const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { resources?: unknown[] };
        return { name, dir, node: y.node ?? 'web01.example.com', modules: y.modules ?? [], resources: expected.resources?.length ?? 0 };
    });
}

/** Copies the case into `work` with a real symlink per module, as Puppet and modelc read a checkout. */
function materialize(c: RealCase, work: string): string {
    const out = join(work, c.name);
    mkdirSync(join(out, 'modules'), { recursive: true });
    for (const entry of readdirSync(c.dir)) if (entry !== 'modules') cpSync(join(c.dir, entry), join(out, entry), { recursive: true });
    for (const m of c.modules) symlinkSync(moduleTarget(c.dir, m), join(out, 'modules', m));
    return out;
}

export function runRealworldBench(): void {
    const largest = realCases().sort((a, b) => b.resources - a.resources)[0];
    if (!largest) {
        console.log(`real-world bench skipped: no cases under ${REALWORLD}`);
        return;
    }
    const missing = largest.modules.map(m => moduleTarget(largest.dir, m)).filter(t => !existsSync(t));
    if (missing.length) {
        console.log(`real-world bench skipped: the Debian module packages are not installed (missing ${missing[0]}; run ${REALWORLD}/install.sh)`);
        return;
    }
    const work = mkdtempSync(join(tmpdir(), 'modelc-bench-realworld-'));
    try {
        const dir = materialize(largest, work);
        compareCases('realworld', `largest real-world case (${largest.name}, by resources in Puppet's catalog)`,
            [{ label: largest.name, dir, node: largest.node, facts: join(dir, 'facts.yaml'), classes: [] }], true);
        // The floor under every cold modelc figure: starting Node itself.
        const node = medianTiming(Array.from({ length: 3 }, () => timeProcess(process.execPath, ['-e', '0'])));
        console.log(`  for scale: \`node -e 0\` costs ${node.cpuMs.toFixed(0)} ms CPU, ${node.wallMs.toFixed(0)} ms wall here`);
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}
