import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryFileSystemProvider, NodeFileSystemProvider, type FileSystemProvider } from '../../src/common/index.js';

const FILES: Array<[string, string]> = [
    ['hiera.yaml', 'version: 5\n'],
    ['data/common.yaml', 'a: 1\n'],
    ['data/nodes/web01.yaml', 'b: 2\n'],
    ['data/nodes/web02.json', '{}'],
    ['manifests/site.pp', 'node default {}\n']
];

/** The disk and memory providers answer every question alike for the same tree. */
function providers(): Array<[string, FileSystemProvider, string]> {
    const disk = mkdtempSync(join(tmpdir(), 'modelc-fs-'));
    for (const [rel, text] of FILES) {
        mkdirSync(join(disk, rel, '..'), { recursive: true });
        writeFileSync(join(disk, rel), text);
    }
    const root = '/nonexistent-modelc-fs/env';
    return [
        ['disk', new NodeFileSystemProvider(), disk],
        ['memory', new MemoryFileSystemProvider(FILES.map(([rel, text]) => [join(root, rel), text] as const)), root]
    ];
}

describe.each(providers())('FileSystemProvider (%s)', (_name, fs, root) => {
    it.each([
        ['a file', 'data/common.yaml', { isFile: true, isDirectory: false, size: 5 }],
        ['a directory', 'data/nodes', { isFile: false, isDirectory: true }],
        ['nothing', 'data/missing.yaml', undefined]
    ])('stat of %s', (_what, rel, expected) => {
        const st = fs.stat(join(root, rel));
        if (expected === undefined) expect(st).toBeUndefined();
        else expect(st).toMatchObject(expected);
    });

    it('reads text and bytes', () => {
        expect(fs.readText(join(root, 'hiera.yaml'))).toBe('version: 5\n');
        expect(Buffer.from(fs.readFile(join(root, 'data/nodes/web02.json'))).toString()).toBe('{}');
    });

    it('lists a directory', () => {
        expect(fs.readdir(join(root, 'data')).sort()).toEqual(['common.yaml', 'nodes']);
        expect(fs.readdir(root).sort()).toEqual(['data', 'hiera.yaml', 'manifests']);
    });

    it.each([
        ['data/nodes/*.yaml', ['data/nodes/web01.yaml']],
        ['data/**/*.{yaml,json}', ['data/common.yaml', 'data/nodes/web01.yaml', 'data/nodes/web02.json']],
        ['data/nodes/web0?.json', ['data/nodes/web02.json']],
        ['nowhere/*.yaml', []]
    ])('globs %s', (pattern, expected) => {
        expect(fs.glob(join(root, pattern)).sort()).toEqual(expected.map(rel => join(root, rel)));
    });

    it.each([
        ['a missing file', (): unknown => fs.readFile(join(root, 'nope.yaml')), 'ENOENT'],
        ['a directory read as a file', (): unknown => fs.readText(join(root, 'data')), 'EISDIR'],
        ['a missing directory listed', (): unknown => fs.readdir(join(root, 'nope')), 'ENOENT']
    ])('%s throws as node:fs does', (_what, f, code) => {
        expect(f).toThrow(expect.objectContaining({ code }) as Error);
    });
});
