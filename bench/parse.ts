import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parsePuppet, parserFallbacks } from '../src/parse/index.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root, from both bench/ (tsx) and dist/bench/ (compiled). */
const root = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');
const conformance = join(root, '..', 'shared', 'conformance', 'parse');
const oracle = join(root, '..', 'shared', 'oracle', 'parse-bench.rb');

interface Source { readonly file: string; readonly text: string }

/** The public corpus when installed, else the golden fixtures (a much smaller sample). */
function loadSources(): { sources: Source[]; corpus: boolean; list?: string } {
    const script = join(conformance, 'corpus.sh');
    if (existsSync(script)) {
        const out = spawnSync('bash', [script, '--no-install'], { encoding: 'utf8' });
        const files = out.status === 0 ? out.stdout.split('\n').filter(f => f.endsWith('.pp') && existsSync(f)) : [];
        if (files.length > 0) {
            const list = join(mkdtempSync(join(tmpdir(), 'modelc-bench-')), 'files.txt');
            writeFileSync(list, files.join('\n') + '\n');
            return { sources: files.map(file => ({ file, text: readFileSync(file, 'utf8') })), corpus: true, list };
        }
    }
    const dir = join(root, 'test', 'fixtures', 'parse', 'golden');
    const files = readdirSync(dir).filter(f => f.endsWith('.pp')).map(f => join(dir, f));
    return { sources: files.map(file => ({ file, text: readFileSync(file, 'utf8') })), corpus: false };
}

function pass(sources: readonly Source[], engine: 'fast' | 'langium' = 'fast'): number {
    const t = performance.now();
    for (const s of sources) {
        parsePuppet(s.text, s.file, { validate: false, engine });
    }
    return (performance.now() - t) / 1000;
}

function best(runs: number, sources: readonly Source[], engine: 'fast' | 'langium'): number {
    let min = Infinity;
    for (let i = 0; i < runs; i++) {
        min = Math.min(min, pass(sources, engine));
    }
    return min;
}

/** Real Puppet's in-process racc parse of the same files (best of its runs), if installed. */
function puppetLinesPerSecond(list: string | undefined): number | undefined {
    if (!list || !existsSync(oracle) || spawnSync('puppet', ['--version']).status !== 0) {
        return undefined;
    }
    const out = spawnSync('ruby', [oracle, list], { encoding: 'utf8', timeout: 600_000 });
    const rates = [...out.stdout.matchAll(/parse only \(racc, no validation\) run \d+: [\d.]+ s\s+(\d+) lines\/s/g)].map(m => Number(m[1]));
    return rates.length > 0 ? Math.max(...rates) : undefined;
}

/** Prints our parse throughput, cold and warm, and the ratio to real Puppet's parser. */
export function runParseBench(): void {
    const { sources, corpus, list } = loadSources();
    const lines = sources.reduce((n, s) => n + (s.text.match(/\n/g)?.length ?? 0), 0);
    const fallbacksBefore = parserFallbacks();
    const cold = pass(sources);
    // Best of several passes: on a shared machine single passes vary with the load.
    const warm = best(10, sources, 'fast');
    const fallbacks = (parserFallbacks() - fallbacksBefore) / 11;
    const ours = lines / warm;
    // Langium's own parser on the same input: what the fast parser replaces for clean files.
    const langium = best(3, sources, 'langium');
    const what = corpus ? `public corpus, ${sources.length} files` : `golden fixtures only (corpus not installed), ${sources.length} files`;
    console.log(`parse (${what}, ${lines} lines):`);
    console.log(`  cold (first pass, parser construction included): ${cold.toFixed(3)} s  ${Math.round(lines / cold)} lines/s`);
    console.log(`  warm (best of 10): ${warm.toFixed(3)} s  ${Math.round(ours)} lines/s`
        + `  (${fallbacks} of ${sources.length} files with errors went to Langium's parser)`);
    console.log(`  Langium's parser alone, warm (best of 3): ${langium.toFixed(3)} s  ${Math.round(lines / langium)} lines/s`
        + `  (fast parser ${(langium / warm).toFixed(2)}x faster)`);
    const puppet = puppetLinesPerSecond(list);
    if (puppet !== undefined) {
        console.log(`  puppet 7 racc parse: ${puppet} lines/s  ratio ${(ours / puppet).toFixed(2)}x (target >= 3x)`);
    } else {
        console.log('  puppet 7 racc parse: not measured (puppet-agent or corpus not installed)');
    }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
    runParseBench();
}
