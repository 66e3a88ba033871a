/**
 * Puppet language differential fuzzer: generates seeded programs (generate.ts), compiles each
 * with real Puppet 7.23 (../oracle-batch.rb --cases: one warm process, a fork per case running the oracle's compile) and with modelc
 * (dist/, in process), and compares the normalized outputs exactly (the JSON text, so 2 and 2.0
 * differ). Prints the differences grouped by their first differing part, and counts by feature.
 *
 *   node test/tools/lang-fuzz/run.ts --seed 1 --count 300 --dir /tmp/lf/r1 [--chunk 200]
 *        [--errors 0.25] [--only 3,17] [--show] [--no-oracle]
 *
 * Needs `npm run build` (MODELC_DIST=other/dist/src compares another build). Case directories and
 * Puppet's outputs stay in --dir, so a second run re-checks modelc only. The summary goes to
 * --dir/summary.json ({id: "equal" | signature}) for before/after counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate, type Generated } from './generate.ts';
import { canonical, firstDifference } from './compare.ts';

const HERE = dirname(new URL(import.meta.url).pathname);
const REPO = resolve(HERE, '../../..');

const { values: args } = parseArgs({
    options: {
        seed: { type: 'string', default: '1' },
        count: { type: 'string', default: '100' },
        dir: { type: 'string', default: '/tmp/lang-fuzz' },
        chunk: { type: 'string', default: '200' },
        errors: { type: 'string', default: '0.25' },
        only: { type: 'string' },
        show: { type: 'boolean', default: false },
        'no-oracle': { type: 'boolean', default: false }
    }
});

const seed = Number(args.seed);
const dir = resolve(args.dir);
const indexes = args.only ? args.only.split(',').map(Number) : Array.from({ length: Number(args.count) }, (_, i) => i);
const programs: Generated[] = indexes.map(i => generate(seed, i, Number(args.errors)));

mkdirSync(join(dir, 'cases'), { recursive: true });
for (const g of programs) {
    const caseDir = join(dir, 'cases', g.id);
    const meta = JSON.stringify({ features: g.features, settings: g.settings, node: g.node });
    // A case already written with the same text keeps its oracle output.
    const text = [...g.files].map(([f, t]) => `${f}\n${t}`).join('\n') + meta;
    if (existsSync(join(caseDir, 'source.txt')) && readFileSync(join(caseDir, 'source.txt'), 'utf8') === text) continue;
    rmSync(caseDir, { recursive: true, force: true });
    for (const [f, t] of g.files) {
        mkdirSync(dirname(join(caseDir, f)), { recursive: true });
        writeFileSync(join(caseDir, f), t);
    }
    writeFileSync(join(caseDir, 'source.txt'), text);
    writeFileSync(join(caseDir, 'meta.json'), meta);
    rmSync(join(caseDir, 'puppet.json'), { force: true });
}

// Real Puppet, for the cases without an output yet, in chunks (each chunk's outputs are kept).
const missing = programs.filter(g => !existsSync(join(dir, 'cases', g.id, 'puppet.json')));
if (missing.length > 0 && !args['no-oracle']) {
    const size = Number(args.chunk);
    for (let i = 0; i < missing.length; i += size) {
        const part = missing.slice(i, i + size);
        const inFile = join(dir, 'in.json');
        const outFile = join(dir, 'out.json');
        writeFileSync(inFile, JSON.stringify(part.map(g => ({ id: g.id, dir: join(dir, 'cases', g.id), node: g.node, settings: g.settings }))));
        const t0 = Date.now();
        const res = spawnSync('ruby', [join(REPO, 'test/tools/oracle-batch.rb'), '--cases', inFile, outFile], { stdio: ['ignore', 'inherit', 'inherit'] });
        if (res.status !== 0) throw new Error(`oracle-batch.rb failed (${res.status})`);
        // Each case's output is kept as Puppet's JSON text (its numbers exactly as written).
        const texts = splitTopLevel(readFileSync(outFile, 'utf8'));
        for (const g of part) writeFileSync(join(dir, 'cases', g.id, 'puppet.json'), texts.get(g.id) ?? JSON.stringify({ driver_error: 'missing' }));
        process.stderr.write(`puppet: ${Math.min(i + size, missing.length)}/${missing.length} (${((Date.now() - t0) / part.length / 1000).toFixed(2)} s a case)\n`);
    }
}

/** The text of each member of the batch output's top-level object (its values exactly as Ruby wrote them). */
function splitTopLevel(text: string): Map<string, string> {
    const parsed = JSON.parse(text, (_k, v: unknown, c?: { source?: string }) => (typeof v === 'number' ? JSON.rawJSON(c?.source ?? String(v)) : v)) as Record<string, unknown>;
    return new Map(Object.entries(parsed).map(([k, v]) => [k, JSON.stringify(v)]));
}

// modelc, in this process.
const dist = process.env.MODELC_DIST ?? join(REPO, 'dist', 'src');
const { createCatalogServices, jsonText, normalizedResult } = await import(join(dist, 'catalog', 'index.js')) as typeof import('../../../src/catalog/index.ts');
const services = createCatalogServices();

interface Row { g: Generated; sig: string | null; detail: string }
const rows: Row[] = [];
for (const g of programs) {
    const caseDir = join(dir, 'cases', g.id);
    if (!existsSync(join(caseDir, 'puppet.json'))) continue;
    const expected = canonical(readFileSync(join(caseDir, 'puppet.json'), 'utf8'));
    let actual: string;
    try {
        const settings = new Map(g.settings.map(s => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)] as [string, string]));
        actual = canonical(jsonText(normalizedResult(services.compile(caseDir, 'production', { node: g.node, facts: new Map(), settings }))));
    } catch (e) {
        actual = JSON.stringify({ modelc_crash: e instanceof Error ? `${e.message}\n${e.stack?.split('\n').slice(1, 5).join('\n')}` : String(e) });
    }
    writeFileSync(join(caseDir, 'modelc.json'), actual);
    if (expected === actual) rows.push({ g, sig: null, detail: '' });
    else rows.push({ g, ...firstDifference(JSON.parse(expected), JSON.parse(actual)) });
}

const equal = rows.filter(r => r.sig === null).length;
const groups = new Map<string, Row[]>();
for (const r of rows) if (r.sig !== null) groups.set(r.sig, [...(groups.get(r.sig) ?? []), r]);
for (const [sig, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`=== ${list.length}× ${sig}`);
    for (const r of list.slice(0, 3)) {
        console.log(`  ${r.g.id}: ${r.detail}`);
        if (args.show) console.log(readFileSync(join(dir, 'cases', r.g.id, 'manifests', 'site.pp'), 'utf8').replace(/^/gm, '    | '));
    }
}
const byFeature = new Map<string, [number, number]>();
for (const r of rows) {
    for (const f of r.g.features) {
        const c = byFeature.get(f) ?? [0, 0];
        c[r.sig === null ? 0 : 1] += 1;
        byFeature.set(f, c);
    }
}
console.log('\nfeature: equal / differ');
for (const [f, [e, d]] of [...byFeature].sort()) console.log(`  ${f.padEnd(28)} ${String(e).padStart(5)} / ${d}`);
console.log(`\n${rows.length} programs: ${equal} equal, ${rows.length - equal} differ`);
writeFileSync(join(dir, 'summary.json'), JSON.stringify(Object.fromEntries(rows.map(r => [r.g.id, r.sig ?? 'equal'])), null, 1));
