/**
 * Records a hand-written lookup case (a directory in the fixtures' layout: case.yaml with node,
 * facts, trusted and queries) as a fixture: each query run through real Puppet (oracle/lookup),
 * its stdout kept verbatim in expected.json as run.ts --record keeps it.
 *
 *   node test/tools/hiera-fuzz/record-case.ts CASE_DIR FIXTURE_NAME
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { Query } from './scenario.ts';

const ORACLE = process.env.ORACLE_DIR ?? '/work/shared/oracle';
const REPO = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
const [src, name] = process.argv.slice(2);
if (!src || !name) {
    console.error('usage: record-case.ts CASE_DIR FIXTURE_NAME');
    process.exit(2);
}
const spec = parse(readFileSync(join(src, 'case.yaml'), 'utf8')) as { node: string; facts?: string; trusted?: string; queries: Query[] };
const dest = join(REPO, 'test/fixtures/bindings/hiera/lookup', name);
rmSync(dest, { recursive: true, force: true });
// check-cases.ts keeps the oracle's outputs in CASE_DIR/.oracle/: not part of the fixture.
cpSync(src, dest, { recursive: true, filter: p => !p.split('/').includes('.oracle') });
const members = spec.queries.map(q => {
    const a = ['.', q.key, '--node', spec.node];
    if (spec.facts) a.push('--facts', spec.facts);
    if (spec.trusted) a.push('--trusted', spec.trusted);
    if (q.merge) a.push('--merge', q.merge);
    if (q.type) a.push('--type', q.type);
    if (q.default !== undefined) a.push('--default', JSON.stringify(q.default));
    if (q.compile) a.push('--compile');
    if (q.explain) a.push('--explain');
    const r = spawnSync(join(ORACLE, 'lookup'), a, { cwd: dest, encoding: 'utf8' });
    if (r.status === 2) throw new Error(`oracle usage error for ${q.name}: ${r.stderr}`);
    const text = r.stdout;
    const body = q.explain && !text.startsWith('{') ? JSON.stringify(text) : text.trimEnd().replace(/\n/g, '\n  ');
    return `  ${JSON.stringify(q.name)}: ${body}`;
});
writeFileSync(join(dest, 'expected.json'), `{\n${members.join(',\n')}\n}\n`);
console.log(`recorded ${src} as ${dest}`);
