import { describe, expect, test } from 'vitest';
import { buildInfixTree, type Precedence } from '../../../src/parse/services/infix-tree.js';
import { mulberry32 } from '../../reliability/harness.js';

// The one-pass operator-stack build must give exactly the tree of Langium's constructInfix
// (split at the loosest operator: the last one of a left-associative level, the first of a
// right-associative one), which is written here the way Langium writes it.
function reference(parts: unknown[], operators: string[], precedence: ReadonlyMap<string, Precedence>): unknown {
    if (parts.length < 2) return parts[0];
    let lowestIdx = 0;
    let lowestValue = -1;
    operators.forEach((op, i) => {
        const p = precedence.get(op) ?? { precedence: Infinity, rightAssoc: false };
        if (p.precedence > lowestValue) { lowestValue = p.precedence; lowestIdx = i; } else if (p.precedence === lowestValue && !p.rightAssoc) lowestIdx = i;
    });
    return {
        $type: 'E', $cstNode: undefined,
        left: reference(parts.slice(0, lowestIdx + 1), operators.slice(0, lowestIdx), precedence),
        operator: operators[lowestIdx],
        right: reference(parts.slice(lowestIdx + 1), operators.slice(lowestIdx + 1), precedence)
    };
}

const LEVELS = new Map<string, Precedence>([
    ['*', { precedence: 1, rightAssoc: false }], ['/', { precedence: 1, rightAssoc: false }],
    ['+', { precedence: 2, rightAssoc: false }], ['-', { precedence: 2, rightAssoc: false }],
    ['=', { precedence: 3, rightAssoc: true }], ['+=', { precedence: 3, rightAssoc: true }],
    ['and', { precedence: 4, rightAssoc: false }]
]);
const OPS = [...LEVELS.keys(), 'unknown'];

describe('buildInfixTree', () => {
    test('matches the recursive split on random operator chains', () => {
        const rnd = mulberry32(99);
        for (let round = 0; round < 500; round++) {
            const n = 1 + Math.floor(rnd() * 12);
            const parts = Array.from({ length: n }, (_, i) => `p${i}`);
            const operators = Array.from({ length: n - 1 }, () => OPS[Math.floor(rnd() * OPS.length)] as string);
            expect(buildInfixTree({ $type: 'E', parts, operators }, LEVELS)).toEqual(reference(parts, operators, LEVELS));
        }
    });

    test('a 100,000-term chain is built without recursion', () => {
        const n = 100_000;
        const tree = buildInfixTree({ $type: 'E', parts: Array.from({ length: n }, () => 1), operators: Array.from({ length: n - 1 }, () => '+') }, LEVELS);
        let depth = 0;
        for (let t = tree as { left?: unknown }; t.left !== undefined; t = t.left as { left?: unknown }) depth++;
        expect(depth).toBe(n - 1);
    });
});
