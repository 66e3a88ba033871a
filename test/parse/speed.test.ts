import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parsePuppet } from '../../src/parse/index.js';

// A guard, not a benchmark (bench/parse.ts measures): one grammar refactor once made cold
// parsing 25x slower through DFA explosion. Budgets are ~10x above what this machine needs.
const dir = join(import.meta.dirname, '..', 'fixtures', 'parse', 'golden');
const sources = readdirSync(dir).filter(f => f.endsWith('.pp')).map(f => readFileSync(join(dir, f), 'utf8'));
const lines = sources.reduce((n, s) => n + s.split('\n').length, 0);

describe('parse speed guard', () => {
    test('cold first pass and warm throughput stay within budget', () => {
        const t0 = performance.now();
        for (const s of sources) {
            parsePuppet(s, 'speed.pp', { validate: false });
        }
        const cold = performance.now() - t0;
        expect(cold, `cold pass over ${lines} lines took ${cold.toFixed(0)} ms`).toBeLessThan(5000);
        const rounds = 20;
        const t1 = performance.now();
        for (let i = 0; i < rounds; i++) {
            for (const s of sources) {
                parsePuppet(s, 'speed.pp', { validate: false });
            }
        }
        const perSecond = (lines * rounds) / ((performance.now() - t1) / 1000);
        expect(perSecond, `warm ${perSecond.toFixed(0)} lines/s`).toBeGreaterThan(10_000);
    });
});
