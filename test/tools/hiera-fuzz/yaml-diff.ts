/**
 * YAML differential check without Puppet: random data documents (the hiera fuzzer's writer) and
 * a list of hand-picked snippets, read by Ruby's Psych (yaml-diff.rb, as yaml_data reads them)
 * and by modelc's Psych-compatible reader; prints the documents they disagree on.
 *
 *   node test/tools/hiera-fuzz/yaml-diff.ts [--seed 1] [--count 500] [--dir /tmp/yaml-diff]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DataTextError, formatFloat, parsePsychYaml, PBinary } from '../../../dist/src/values/index.js';
import { map, YamlWriter } from './emit.ts';
import { Rng } from './rng.ts';
import { valueOf, type ValueContext } from './values.ts';

const HERE = dirname(new URL(import.meta.url).pathname);
const { values: args } = parseArgs({
    options: { seed: { type: 'string', default: '1' }, count: { type: 'string', default: '300' }, dir: { type: 'string', default: '/tmp/yaml-diff' } }
});

const SNIPPETS = [
    'a: !ruby/object:Object {}', 'a: !!set {a, b}', 'a: !!omap [a: 1]', 'a: !!pairs [a: 1]', 'a: !!map {x: 1}', 'a: !!seq [1]', 'a: !ruby/hash:Foo {}',
    'a: !foo bar', 'a: !foo {x: 1}', 'a: !!binary aGVsbG8=', 'a: !!binary /w==', 'a: !!timestamp 2001-01-01', 'a: !!str [1]', 'a: !ruby/sym foo', 'a: !ruby/regexp /x/',
    'a: !!float 3', 'a: !!int 3.5', 'a: !!int 0x1F', 'a: !!bool yes', 'a: !!bool x', 'a: !!null x', 'a: !<tag:yaml.org,2002:str> 5', '? [a, b]\n: v', '[a, b]: v',
    '{a: 1}: v', 'a: !!int \'0o17\'', 'a: 0o17', "a: !!float '1e3'", 'a: !ruby/string:Foo x', 'a: !ruby/array:Foo [1]', 'a: !ruby/exception x',
    'a: 1_000', 'a: 1,000', 'a: 1:30', 'a: 190:20:30', 'a: 1:30.5', 'a: .5', 'a: 12.', 'a: 6.02e23', 'a: 1.0e+3', 'a: -.Inf', 'a: .NaN', 'a: 9223372036854775808',
    'a: 0b101', 'a: -0x1A', 'a: 0009', 'a: 08', 'a: 1_0.5', 'a: +12', 'a: ~', 'a: y', 'a: Off', 'a: :sym', "a: :'q s'", 'a: 12:30:00', 'a: 2001-12-14t21:59:43.10-05:00',
    'a: 2001-13-14', 'a: 2001-02-30', '- 1\n- 2', '', '---', '--- 5', 'just text', '# only comment', 'a: b: c', 'a: [1, 2', 'key:\n\t- tab', 'x: *undefined',
    'a: &x [1]\nb: *x\nc: <<', 'base: &b {a: 1}\nd:\n  <<: *b\n  c: 2', 'd:\n  <<: [{a: 1}, {a: 2, b: 3}]', 'a: |+\n  keep\n\n', 'a: >-\n  folded\n  text',
    'a: "\\x41\\n"', 'a: "caf\\u00e9"', "a: 'it''s'", 'a: "\\e\\N"', 'a: "\\q"', 'a: 1\na: 2', '%YAML 1.1\n---\na: 1', 'a: !!str', 'a:\n  - b\n - c', 'a: "x"y',
    'a: [a, b]: c', '<<: {a: 1}\nb: 2', 'a: !!binary |\n  aGVs\n  bG8=', 'a: 0.1.2', 'a: 1e3', 'a: 1E3', 'a: 1.5E-2', 'a: -0', 'a: 00', 'a: 0_7', 'a: 0x_1',
    'a:\tb', 'a: [1,\t2]', '- \tx', 'a: &x [1, *x]', 'a: &x {b: *x}', 'a: "\x01"', 'a: \x7f', '\ufeffa: 1'
];

function typedModelc(v: unknown): unknown {
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'bigint') return { i: v.toString() };
    if (typeof v === 'number') return { f: Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : formatFloat(v) };
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) return { a: v.map(typedModelc) };
    if (v instanceof Map) return { h: [...v].map(([k, x]) => [typedModelc(k), typedModelc(x)]) };
    // As yaml-diff.rb writes a binary string: its text when the bytes are UTF-8, else the bytes.
    if (v instanceof PBinary) {
        const text = new TextDecoder('utf-8', { fatal: true });
        try { return text.decode(v.bytes); } catch { return { bin: [...v.bytes] }; }
    }
    return { other: String((v as object).constructor.name) };
}

/** Ruby's Symbol values read as modelc keeps them (their names), so only real differences show. */
function normalizeRuby(v: unknown): unknown {
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if ('sym' in o) return o.sym;
    if ('a' in o) return { a: (o.a as unknown[]).map(normalizeRuby) };
    if ('h' in o) return { h: (o.h as unknown[][]).map(([k, x]) => [normalizeRuby(k), normalizeRuby(x)]) };
    return v;
}

function main(): void {
    const rng = new Rng(Number(args.seed));
    const docs: string[] = [...SNIPPETS];
    const writer = new YamlWriter(rng);
    const tags = new Set<string>();
    const ctx: ValueContext = { rng, format: 'yaml', keys: ['k'], interp: 0.05, badInterp: 0, tags };
    for (let i = 0; i < Number(args.count); i++) {
        const entries = Array.from({ length: rng.int(1, 5) }, (_, j) => [`k${j}`, valueOf(rng.pick(['scalar', 'array', 'hash', 'deep'] as const), ctx, rng.chance(0.3) ? '--' : undefined)] as const);
        docs.push(writer.document(map(entries)));
    }
    mkdirSync(args.dir, { recursive: true });
    const file = join(args.dir, 'docs.json');
    writeFileSync(file, JSON.stringify(docs));
    const r = spawnSync('ruby', [join(HERE, 'yaml-diff.rb'), file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const lines = r.stdout.trim().split('\n');
    let same = 0;
    const diffs: string[] = [];
    docs.forEach((doc, i) => {
        const ruby = JSON.parse(lines[i]) as { ok?: unknown; err?: string; message?: string };
        let mine: { ok?: unknown; err?: string; message?: string };
        try {
            mine = { ok: typedModelc(parsePsychYaml(doc).value) };
        } catch (e) {
            mine = e instanceof DataTextError ? { err: e.psychCause ?? 'DataTextError', message: e.detail } : { err: 'CRASH', message: String(e) };
        }
        const rubyView = ruby.ok !== undefined || !('err' in ruby) ? { ok: normalizeRuby(ruby.ok) } : { err: ruby.message };
        const mineView = mine.err === undefined ? { ok: mine.ok } : { err: mine.message };
        if (JSON.stringify(rubyView) === JSON.stringify(mineView)) { same++; return; }
        diffs.push(`--- ${JSON.stringify(doc)}\n  ruby:   ${JSON.stringify(ruby).slice(0, 300)}\n  modelc: ${JSON.stringify(mine).slice(0, 300)}`);
    });
    console.log(diffs.join('\n'));
    console.log(`${docs.length} documents: ${same} equal, ${diffs.length} differ`);
}

main();
