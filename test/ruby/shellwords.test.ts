import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runRubyProgram as run } from './run-program.js';

/** Shellwords, which plugin code requires (stdlib's shell_join, shell_escape, shell_split), against what Ruby 3.1.2's shellwords gives (test/fixtures/ruby). */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'ruby');
const lines = readFileSync(join(DIR, 'shellwords.rb.txt'), 'utf8').split('\n').filter(l => l.trim() !== '' && !l.startsWith('#'));
const expected = readFileSync(join(DIR, 'shellwords.expected.txt'), 'utf8').trimEnd().split('\n');

describe('Shellwords behaves as Ruby 3.1\'s', () => {
    test('every line has a recorded value', () => { expect(expected.length).toBe(lines.length); });
    lines.forEach((src, i) => {
        test(src, () => { expect(run(src)).toBe(expected[i]); });
    });
});
