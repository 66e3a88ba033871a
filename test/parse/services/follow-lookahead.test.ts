import { createToken, NonTerminal, Option, Repetition, Rule, Terminal, type IProduction, type TokenType } from 'chevrotain';
import { describe, expect, test } from 'vitest';
import { FollowAnalysis } from '../../../src/parse/services/follow-lookahead.js';

// Two-token decisions with FOLLOW (follow-lookahead.ts) on small grammars: a decision is made
// only where the sequences that enter an optional or loop and those that pass it by differ within
// two tokens, counting what can follow the rule wherever it is called.

const tok = (name: string): TokenType => createToken({ name, pattern: new RegExp(name.replace(/[[\]{}();,]/g, c => `\\${c}`)) });
const [ID, COMMA, SEMI, LB, RB, LS, RS, A, B, C] = ['ID', ',', ';', '{', '}', '[', ']', 'A', 'B', 'C'].map(tok);
const t = (type: TokenType): Terminal => new Terminal({ terminalType: type });

/** `item: ID` and `body: item (',' item)* ','?` called from `block: '{' body (';' body)* ';'? '}'` and `list: '[' body ']'`. */
function grammar(): { rules: Rule[]; body: Rule } {
    const item = new Rule({ name: 'item', definition: [t(ID)] });
    const call = (r: Rule, idx = 1): NonTerminal => new NonTerminal({ nonTerminalName: r.name, referencedRule: r, idx });
    const body = new Rule({
        name: 'body',
        definition: [call(item), new Repetition({ idx: 1, definition: [t(COMMA), call(item, 2)] }), new Option({ idx: 1, definition: [t(COMMA)] })]
    });
    const block = new Rule({
        name: 'block',
        definition: [t(LB), call(body), new Repetition({ idx: 1, definition: [t(SEMI), call(body, 2)] }), new Option({ idx: 1, definition: [t(SEMI)] }), t(RB)]
    });
    const list = new Rule({ name: 'list', definition: [t(LS), call(body), t(RS)] });
    return { rules: [block, list, body, item], body };
}

describe('two-token decisions with FOLLOW', () => {
    const { rules, body } = grammar();
    const analysis = new FollowAnalysis(rules);
    const idx = (x: TokenType): number => x.tokenTypeIdx as number;

    test('a separated list ending its rule: another item after a comma, else the trailing comma', () => {
        const loop = analysis.optional(body, 'Repetition', 1);
        expect(loop).toBeDefined();
        expect(loop?.(idx(COMMA), idx(ID))).toBe(true);
        // What follows body anywhere it is called: ';' and '}' in a block, ']' in a list.
        for (const after of [SEMI, RB, RS]) expect(loop?.(idx(COMMA), idx(after))).toBe(false);
        expect(loop?.(idx(SEMI), idx(ID))).toBe(false);
        const trailing = analysis.optional(body, 'Option', 1);
        expect(trailing?.(idx(COMMA), idx(RS))).toBe(true);
        expect(trailing?.(idx(RB), idx(ID))).toBe(false);
    });

    test.each([
        ['(A B)? A C: two tokens tell', [new Option({ idx: 1, definition: [t(A), t(B)] }), t(A), t(C)], true],
        ['(A B)? A B: the same two tokens both ways', [new Option({ idx: 1, definition: [t(A), t(B)] }), t(A), t(B)], false],
        ['(A B C)? A B: two tokens are not enough', [new Option({ idx: 1, definition: [t(A), t(B), t(C)] }), t(A), t(B)], false],
        ['(A)? at the end of a rule that its caller follows with A', [new Option({ idx: 1, definition: [t(A)] })], false]
    ] as const)('%s', (_name, definition: readonly IProduction[], decided) => {
        const r = new Rule({ name: 'r', definition: [...definition] });
        const top = new Rule({ name: 'top', definition: [new NonTerminal({ nonTerminalName: 'r', referencedRule: r }), t(A)] });
        const decide = new FollowAnalysis([top, r]).optional(r, 'Option', 1);
        expect(decide !== undefined).toBe(decided);
        if (decided) {
            expect(decide?.(idx(A), idx(B))).toBe(true);
            expect(decide?.(idx(A), idx(C))).toBe(false);
        }
    });
});
