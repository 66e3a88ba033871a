import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

/** House rule (issue 10): no source file over 600 lines, so each file holds one concern. */

const root = resolve(import.meta.dirname, '../..');
const limit = 600;

function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
        const path = join(dir, e.name);
        if (e.isDirectory()) return sources(path);
        return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
    });
}

function lineCount(text: string): number {
    if (text === '') return 0;
    return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** `src/**\/*.ts` files over the limit, as `path (N lines)`. */
function oversized(dir: string, max: number): string[] {
    return sources(dir)
        .map(path => ({ path: relative(root, path), lines: lineCount(readFileSync(path, 'utf8')) }))
        .filter(f => f.lines > max)
        .map(f => `${f.path} (${f.lines} lines)`)
        .sort();
}

describe('file size', () => {
    test.each([
        ['', 0], ['a', 1], ['a\n', 1], ['a\nb', 2], ['a\nb\n', 2], ['\n\n', 2]
    ])('lineCount(%j) = %i', (text, n) => {
        expect(lineCount(text)).toBe(n);
    });

    test('the check sees files over a limit (this test file is over 10 lines)', () => {
        expect(oversized(import.meta.dirname, 10)).toContain(`test/architecture/file-size.test.ts (${lineCount(readFileSync(import.meta.filename, 'utf8'))} lines)`);
    });

    test(`no file in src/ is over ${limit} lines`, () => {
        expect(oversized(join(root, 'src'), limit)).toEqual([]);
    });
});
