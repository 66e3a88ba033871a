import { describe, expect, test } from 'vitest';
import { lineDiff } from '../../src/model/diff/index.js';

const lines = (n: number, f: (i: number) => string = i => `line ${i}`): string => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join('');

describe('lineDiff: unified hunks with three lines of context', () => {
    test.each([
        { name: 'equal texts', a: 'x\ny\n', b: 'x\ny\n', expected: [] },
        { name: 'one changed line', a: 'a\nb\nc\n', b: 'a\nB\nc\n', expected: ['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c'] },
        { name: 'from empty', a: '', b: 'x\n', expected: ['@@ -0,0 +1 @@', '+x'] },
        { name: 'to empty', a: 'x\n', b: '', expected: ['@@ -1 +0,0 @@', '-x'] },
        { name: 'final newline removed', a: 'x\n', b: 'x', expected: ['@@ -1 +1 @@', '-x', '+x', '\\ No newline at end of file'] }
    ])('$name', ({ a, b, expected }) => {
        expect(lineDiff(a, b)).toEqual(expected);
    });

    test('a one-line change in a 20,000-line file is one hunk of 7 lines, not the whole file', () => {
        const a = lines(20_000);
        const b = lines(20_000, i => i === 10_000 ? 'changed' : `line ${i}`);
        expect(lineDiff(a, b)).toEqual(['@@ -9997,7 +9997,7 @@', ' line 9997', ' line 9998', ' line 9999', '-line 10000', '+changed', ' line 10001', ' line 10002', ' line 10003']);
    });

    test('distant changes make separate hunks; near ones share one', () => {
        const a = lines(40);
        const b = lines(40, i => i === 5 || i === 8 || i === 30 ? `x${i}` : `line ${i}`);
        expect(lineDiff(a, b).filter(l => l.startsWith('@@'))).toEqual(['@@ -2,10 +2,10 @@', '@@ -27,7 +27,7 @@']);
    });
});
