import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ParsedFileCache } from '../../src/parse/index.js';

const dir = mkdtempSync(join(tmpdir(), 'modelc-filecache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string): string {
    const path = join(dir, `f${n++}.pp`);
    writeFileSync(path, text);
    return path;
}

describe('ParsedFileCache', () => {
    test('a parse is kept per file and options; other options parse again', () => {
        const cache = new ParsedFileCache();
        const path = file('$a = 1\n');
        const a = cache.parse(path);
        expect(cache.parse(path).result).toBe(a.result);
        expect(cache.parse(path, { epp: true }).result).not.toBe(a.result);
        expect(cache.parse(path, { display: 'other.pp' }).result).not.toBe(a.result);
        expect(cache.stats()).toEqual({ reads: 1, parses: 3, hits: 1 });
    });

    test('errors in the code are part of the kept result', () => {
        const cache = new ParsedFileCache();
        const path = file('notify {');
        const first = cache.parse(path).result.diagnostics;
        expect(first.some(d => d.severity === 'error')).toBe(true);
        expect(cache.parse(path).result.diagnostics).toBe(first);
    });

    test('a decode rule that throws leaves nothing cached', () => {
        const cache = new ParsedFileCache();
        const path = file('$b = 2\n');
        expect(() => cache.parse(path, { decode: () => { throw new Error('refused'); } })).toThrow('refused');
        expect(cache.parse(path).result.diagnostics).toEqual([]);
    });

    test('derive builds once per unchanged file and key', () => {
        const cache = new ParsedFileCache();
        const path = file('text');
        let built = 0;
        const build = (t: string): string => { built++; return t.toUpperCase(); };
        expect(cache.derive(path, 'up', build)).toBe('TEXT');
        expect(cache.derive(path, 'up', build)).toBe('TEXT');
        expect(built).toBe(1);
        writeFileSync(path, 'changed!');
        cache.refresh();
        expect(cache.derive(path, 'up', build)).toBe('CHANGED!');
        expect(built).toBe(2);
    });

    test('exists and once answer from memory within a generation', () => {
        const cache = new ParsedFileCache();
        const path = join(dir, 'later.pp');
        expect(cache.exists(path)).toBe(false);
        writeFileSync(path, '');
        expect(cache.exists(path)).toBe(false);
        let computed = 0;
        expect(cache.once('k', () => ++computed)).toBe(1);
        expect(cache.once('k', () => ++computed)).toBe(1);
        cache.refresh();
        expect(cache.exists(path)).toBe(true);
        expect(cache.once('k', () => ++computed)).toBe(2);
    });
});
