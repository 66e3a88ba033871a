import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AstNode, CstNode } from 'langium';
import { describe, expect, test } from 'vitest';
import { puppetServices, PuppetLexer } from '../../src/parse/index.js';
import { allNodes } from '../../src/parse/lowering/walk.js';
import { FastPuppetParser } from '../../src/parse/services/fast-parser.js';

// The fast parser must build exactly what Langium's parser builds (AST, CST, container links)
// for every input it accepts: parse.ts only falls back to Langium's parser on errors.
const svc = puppetServices();
const lexer = svc.parser.Lexer as PuppetLexer;
const fast = new FastPuppetParser(lexer.definition, svc.Grammar, svc.shared.AstReflection, (o, image) => lexer.valueAt(o) ?? image);

function sources(): Array<readonly [string, string]> {
    const out: Array<readonly [string, string]> = [];
    for (const sub of ['golden', 'arm8']) {
        const dir = join(import.meta.dirname, '..', 'fixtures', 'parse', sub);
        for (const f of readdirSync(dir).filter(f => /\.e?pp$/.test(f)).sort()) {
            out.push([`${sub}/${f}`, join(dir, f)]);
        }
    }
    const script = join(import.meta.dirname, '..', '..', '..', 'shared', 'conformance', 'parse', 'corpus.sh');
    if (existsSync(script)) {
        const listed = spawnSync('bash', [script, '--no-install'], { encoding: 'utf8' });
        const files = listed.status === 0 ? listed.stdout.split('\n').filter(f => f.endsWith('.pp') && existsSync(f)) : [];
        // Every 7th file keeps the run short while covering each module package.
        files.filter((_, i) => process.env['MODELC_FAST_PARSER_FULL'] === '1' || i % 7 === 0).forEach(f => out.push([f, f]));
    }
    return out;
}

type Loose = Record<string, unknown>;

function isNode(v: unknown): v is AstNode {
    return typeof v === 'object' && v !== null && typeof (v as { $type?: unknown }).$type === 'string';
}

/** A canonical rendering of an AST with its CST: every semantic and structural fact in one string. */
function render(node: AstNode, grammarIds: Map<unknown, number>): string {
    const lines: string[] = [];
    const gid = (g: unknown): string => {
        if (g === undefined) {
            return '-';
        }
        // Infix rules get synthetic grammar elements (no $containerProperty) built by each parser.
        const synthetic = g as { $containerProperty?: string; feature?: string; $container?: { cardinality?: string } };
        if (synthetic.$containerProperty === undefined && synthetic.feature !== undefined) {
            return `infix-${synthetic.feature}${synthetic.$container?.cardinality ?? ''}`;
        }
        if (!grammarIds.has(g)) {
            grammarIds.set(g, grammarIds.size);
        }
        return String(grammarIds.get(g));
    };
    const cst = (c: CstNode | undefined, depth: number): void => {
        if (!c) {
            lines.push(`${' '.repeat(depth)}no cst`);
            return;
        }
        const content = (c as { content?: CstNode[] }).content;
        const own = (c as { _astNode?: AstNode })._astNode;
        lines.push(`${' '.repeat(depth)}${content ? 'C' : 'L'} ${c.offset}-${c.end} ${c.hidden} g${gid(c.grammarSource)} ${own ? own.$type : ''}`);
        content?.forEach(child => cst(child, depth + 1));
    };
    const ast = (n: AstNode, depth: number): void => {
        lines.push(`${' '.repeat(depth)}${n.$type} @${n.$containerProperty ?? ''}[${n.$containerIndex ?? ''}] cst ${n.$cstNode?.offset}-${n.$cstNode?.end}`);
        for (const key of Object.keys(n).filter(k => !k.startsWith('$')).sort()) {
            const v = (n as unknown as Loose)[key];
            if (Array.isArray(v)) {
                lines.push(`${' '.repeat(depth + 1)}${key}: [${v.length}]`);
                v.forEach(item => (isNode(item) ? ast(item, depth + 2) : lines.push(`${' '.repeat(depth + 2)}${JSON.stringify(item)}`)));
            } else if (isNode(v)) {
                expect(v.$container).toBe(n);
                lines.push(`${' '.repeat(depth + 1)}${key}:`);
                ast(v, depth + 2);
            } else {
                lines.push(`${' '.repeat(depth + 1)}${key} = ${JSON.stringify(v)}`);
            }
        }
    };
    ast(node, 0);
    cst(node.$cstNode, 0);
    return lines.join('\n');
}

describe('fast parser', () => {
    const cases = sources();

    test('there are inputs', () => {
        // The golden and ARM-8 fixtures alone; the module corpus adds to them when it is installed.
        expect(cases.filter(([name]) => !name.startsWith('/')).length).toBeGreaterThan(30);
    });

    test.each(cases)('%s: same AST and CST as Langium\'s parser', (_name, file) => {
        const text = readFileSync(file, 'utf8');
        lexer.eppMode = file.endsWith('.epp');
        const reference = svc.parser.LangiumParser.parse(text);
        expect(reference.parserErrors).toEqual([]);
        lexer.eppMode = file.endsWith('.epp');
        const ours = fast.parseTokens(text, lexer.tokenize(text));
        expect(ours.errors).toEqual([]);
        const ids = new Map<unknown, number>();
        expect(render(ours.value as AstNode, ids)).toBe(render(reference.value, ids));
        // The node list the checks reuse is the tree's pre-order walk.
        const walked = allNodes(ours.value as AstNode);
        expect(ours.nodes.length).toBe(walked.length);
        expect(ours.nodes.every((n, i) => n === walked[i])).toBe(true);
    });

    test('a syntax error is reported, not recovered', () => {
        lexer.eppMode = false;
        const text = 'foo { \'a\': b => }';
        expect(fast.parseTokens(text, lexer.tokenize(text)).errors.length).toBeGreaterThan(0);
    });
});
