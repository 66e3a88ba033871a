import { describe, expect, test } from 'vitest';
import { ParamTable, TagSet } from '../../src/catalog/params.js';

// The compact tables stand in for Map and Set: every sequence of operations the compiler uses
// must leave them as a Map or Set would be (contents and order), below and above the size at
// which they turn into one.
function random(seed: number): () => number {
    let s = seed;
    return () => {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return s / 0x7fffffff;
    };
}

describe('ParamTable behaves as a Map', () => {
    test.each([1, 2, 3, 4, 5, 6, 7, 8])('random operations, seed %i', seed => {
        const rnd = random(seed);
        const table = new ParamTable<number>();
        const map = new Map<string, number>();
        // Few names for small tables, many to cross into a hash table.
        const names = seed % 2 === 0 ? 6 : 40;
        for (let i = 0; i < 400; i++) {
            const name = `p${Math.floor(rnd() * names)}`;
            const op = rnd();
            if (op < 0.6) {
                table.set(name, i);
                map.set(name, i);
            } else if (op < 0.8) {
                expect(table.delete(name)).toBe(map.delete(name));
            } else if (op < 0.85) {
                table.clear();
                map.clear();
            } else {
                expect(table.get(name)).toBe(map.get(name));
                expect(table.has(name)).toBe(map.has(name));
            }
            expect(table.size).toBe(map.size);
        }
        expect([...table]).toEqual([...map]);
        expect([...table.keys()]).toEqual([...map.keys()]);
        expect([...table.values()]).toEqual([...map.values()]);
        const seen: Array<[string, number]> = [];
        table.forEach((v, k) => seen.push([k, v]));
        expect(seen).toEqual([...map]);
    });

    test.each([
        ['distinct names', ['a', 1, 'b', 2, 'c', 3]],
        ['a name given twice keeps its first place and its last value', ['a', 1, 'b', 2, 'a', 3, 'c', 4]],
        ['three times', ['x', 1, 'x', 2, 'y', 3, 'x', 4]],
        ['more than a small table holds', Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `n${i % 23}` : i))]
    ] as Array<[string, Array<string | number>]>)('fill: %s, as set in turn', (_name, flat) => {
        const filled = new ParamTable<number>();
        filled.fill([...flat]);
        const map = new Map<string, number>();
        for (let i = 0; i < flat.length; i += 2) map.set(flat[i] as string, flat[i + 1] as number);
        expect([...filled]).toEqual([...map]);
    });
});

describe('TagSet behaves as a Set', () => {
    test.each([1, 2, 3, 4, 5, 6])('random operations, seed %i', seed => {
        const rnd = random(seed);
        const tags = new TagSet();
        const set = new Set<string>();
        const other = new TagSet();
        const otherSet = new Set<string>();
        const names = seed % 2 === 0 ? 8 : 30;
        const pick = (): string => `t${Math.floor(rnd() * names)}`;
        for (let i = 0; i < 300; i++) {
            const op = rnd();
            if (op < 0.4) {
                const t = pick();
                tags.add(t);
                set.add(t);
            } else if (op < 0.6) {
                const list = Array.from({ length: Math.floor(rnd() * 5) }, pick);
                tags.addList(list, rnd() < 0.5 && tags.size === 0);
                for (const t of list) set.add(t);
            } else if (op < 0.7) {
                const t = pick();
                other.add(t);
                otherSet.add(t);
            } else if (op < 0.8) {
                tags.addAll(other);
                for (const t of otherSet) set.add(t);
            } else {
                const t = pick();
                expect(tags.has(t)).toBe(set.has(t));
            }
            expect(tags.size).toBe(set.size);
        }
        expect([...tags]).toEqual([...set]);
        expect([...tags.ordered()]).toEqual([...set]);
        // A set sharing another's list is not changed by additions to the other.
        expect([...other]).toEqual([...otherSet]);
    });

    test('a change to a set in a catalog is counted, one outside it is not', () => {
        const inCatalog = new TagSet();
        inCatalog.add('a');
        inCatalog.seal();
        const fresh = new TagSet();
        const before = TagSet.changes;
        fresh.add('x');
        fresh.addList(['y', 'z']);
        inCatalog.add('a');
        expect(TagSet.changes).toBe(before);
        inCatalog.add('b');
        expect(TagSet.changes).toBeGreaterThan(before);
    });
});
