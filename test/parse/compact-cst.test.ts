import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AstNode } from 'langium';
import { describe, expect, test } from 'vitest';
import { locatingOperator, operatorLeaf, parsePuppet } from '../../src/parse/index.js';
import { allNodes } from '../../src/parse/lowering/walk.js';

// `compact: true` (what the compiler parses with) keeps each node's position in place of its CST
// (for clean code the fast parser builds no CST at all, see position-recorder.ts): everything a
// reader of positions asks must be what the full CST answers, and the findings the same.
function sources(): Array<readonly [string, string]> {
    const out: Array<readonly [string, string]> = [];
    for (const sub of ['golden', 'arm8']) {
        const dir = join(import.meta.dirname, '..', 'fixtures', 'parse', sub);
        for (const f of readdirSync(dir).filter(f => /\.e?pp$/.test(f)).sort()) out.push([`${sub}/${f}`, join(dir, f)]);
    }
    // The catalog fixtures' manifests: among them heredocs whose checkers parse text of their own
    // in the middle of the compact parse.
    const catalog = join(import.meta.dirname, '..', 'fixtures', 'catalog');
    for (const c of readdirSync(catalog).sort()) {
        const dir = join(catalog, c, 'manifests');
        if (existsSync(dir)) for (const f of readdirSync(dir).filter(f => f.endsWith('.pp')).sort()) out.push([`catalog/${c}/${f}`, join(dir, f)]);
    }
    // Modules' manifests as Debian packages them (every 11th file of the parse corpus, when installed).
    const script = join(import.meta.dirname, '..', '..', '..', 'shared', 'conformance', 'parse', 'corpus.sh');
    if (existsSync(script)) {
        const listed = spawnSync('bash', [script, '--no-install'], { encoding: 'utf8' });
        const files = listed.status === 0 ? listed.stdout.split('\n').filter(f => f.endsWith('.pp') && existsSync(f)) : [];
        files.filter((_, i) => i % 11 === 0).forEach(f => out.push([f, f]));
    }
    return out;
}

/** Every position fact of every node, one line each. */
function positions(root: AstNode): string[] {
    const nodes = allNodes(root);
    const index = new Map(nodes.map((n, i) => [n, i]));
    return nodes.map(n => {
        const cst = n.$cstNode;
        if (!cst) return `${n.$type} -`;
        const op = locatingOperator(n);
        const leaf = op === undefined ? undefined : operatorLeaf(cst, n, op);
        const at = (c: { range: { start: { line: number; character: number } } }): string => `${c.range.start.line}:${c.range.start.character}`;
        return `${n.$type} ${cst.offset}+${cst.length} ${at(cst)} ${JSON.stringify(cst.text)}${leaf ? ` op@${leaf.offset} ${at(leaf)}` : ''} ${cst.astNode === n ? 'own' : `of #${index.get(cst.astNode) ?? '?'}`}`;
    });
}

describe('compact parses keep every position of the full CST', () => {
    test.each(sources())('%s', (_name, path) => {
        const text = readFileSync(path, 'utf8');
        const epp = path.endsWith('.epp');
        const full = parsePuppet(text, path, { epp });
        const compact = parsePuppet(text, path, { epp, compact: true });
        expect(compact.diagnostics).toEqual(full.diagnostics);
        expect(positions(compact.ast)).toEqual(positions(full.ast));
    });
});
