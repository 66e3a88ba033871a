/**
 * Checks hand-written lookup cases (directories in the fixtures' layout: case.yaml with node,
 * facts, trusted and queries) against real Puppet before they are recorded: each query runs through
 * the oracle (batched by ../oracle-batch.rb, outputs kept in CASE_DIR/.oracle/ until case.yaml or a
 * file changes) and through modelc in process; differing queries are printed with both outputs.
 *
 *   node test/tools/hiera-fuzz/check-cases.ts CASE_DIR... [--parallel 2] [--quiet]
 *
 * A case whose case.yaml says `expect: catalog` is a compile instead (oracle/compile against the
 * normalized catalog, as compile-run.ts compares them). A lookup case that passes is recorded with
 * record-case.ts; a compile case by copying it with the oracle's output as expected.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { compileOracleArgv, modelcCompile, oracleArgv, runModelc } from './compare.ts';
import type { Query } from './scenario.ts';

const HERE = dirname(new URL(import.meta.url).pathname);
const ORACLE = process.env.ORACLE_DIR ?? '/work/shared/oracle';
const { values: args, positionals } = parseArgs({
    allowPositionals: true,
    options: { parallel: { type: 'string', default: '2' }, quiet: { type: 'boolean', default: false } }
});

interface Spec { node: string; facts?: string; trusted?: string; expect?: string; queries?: Query[] }

/** A compile case as one query-like job: its output file is .oracle/catalog.out. */
const CATALOG: Query = { name: 'catalog', key: '' };

function queriesOf(spec: Spec): Query[] {
    return spec.expect === 'catalog' ? [CATALOG] : spec.queries ?? [];
}

/** Every file of the case (names and texts), so an edit anywhere re-runs the oracle. */
function fingerprint(dir: string): string {
    const parts: string[] = [];
    const walk = (d: string): void => {
        for (const e of readdirSync(d).sort()) {
            if (e === '.oracle') continue;
            const p = join(d, e);
            if (statSync(p).isDirectory()) walk(p);
            else parts.push(`${relative(dir, p)}\n${readFileSync(p, 'latin1')}`);
        }
    };
    walk(dir);
    return parts.join('\0');
}

const cases = positionals.map(p => resolve(p)).map(dir => ({ dir, spec: parse(readFileSync(join(dir, 'case.yaml'), 'utf8')) as Spec }));
const jobs: { tool: string; argv: string[]; out: string; cwd: string }[] = [];
for (const { dir, spec } of cases) {
    const fp = fingerprint(dir);
    const fpFile = join(dir, '.oracle', 'fingerprint');
    if (!existsSync(fpFile) || readFileSync(fpFile, 'latin1') !== fp) {
        rmSync(join(dir, '.oracle'), { recursive: true, force: true });
        mkdirSync(join(dir, '.oracle'), { recursive: true });
        writeFileSync(fpFile, fp, 'latin1');
    }
    for (const q of queriesOf(spec)) {
        const out = join(dir, '.oracle', `${q.name}.out`);
        if (existsSync(`${out}.rc`)) continue;
        jobs.push(q === CATALOG ? { tool: 'compile', argv: compileOracleArgv(spec), out, cwd: dir } : { tool: 'lookup', argv: oracleArgv(spec, q), out, cwd: dir });
    }
}
if (jobs.length > 0) {
    const file = join(cases[0]?.dir ?? '.', '.oracle', `jobs-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(jobs));
    const r = spawnSync('ruby', [join(HERE, '..', 'oracle-batch.rb'), file, args.parallel], { stdio: 'inherit', env: { ...process.env, ORACLE_DIR: ORACLE } });
    rmSync(file, { force: true });
    if (r.status !== 0) throw new Error(`oracle-batch failed (${r.status})`);
}
let equal = 0;
let differ = 0;
for (const { dir, spec } of cases) {
    for (const q of queriesOf(spec)) {
        const out = join(dir, '.oracle', `${q.name}.out`);
        const rc = readFileSync(`${out}.rc`, 'utf8').trim();
        const exp = rc === '2' || rc === 'killed' ? `oracle failure ${rc}: ${readFileSync(`${out}.err`, 'utf8')}` : readFileSync(out, 'utf8');
        const got = q === CATALOG ? modelcCompile(dir, spec) : runModelc(dir, spec, q);
        if (exp === got) { equal++; continue; }
        differ++;
        console.log(`--- ${relative(process.cwd(), dir)} ${q.name}`);
        if (!args.quiet) console.log(`puppet:\n${exp.trimEnd()}\nmodelc:\n${got.trimEnd()}`);
    }
}
console.log(`queries ${equal + differ}: ${equal} equal, ${differ} differ`);
