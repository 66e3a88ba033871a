import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runRubyProgram as run } from './run-program.js';

/**
 * Plugin-style Ruby (classes, modules, keyword arguments, super, class variables, retry,
 * exception classes, yield, Struct, case/when, format, method_missing, lambdas, Hash defaults)
 * against the values real Ruby 3.1 gives for the same programs (test/fixtures/ruby).
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'ruby');
const programs = readFileSync(join(DIR, 'programs.rb.txt'), 'utf8').replace(/^(#.*\n)+/, '').split(/^----\n/m);
const expected = readFileSync(join(DIR, 'programs.expected.txt'), 'utf8').trimEnd().split('\n');

describe('the Ruby interpreter runs plugin-style code as Ruby 3.1 does', () => {
    test('every program has a recorded value', () => { expect(expected.length).toBe(programs.length); });
    programs.forEach((src, i) => {
        test(`program ${i + 1}: ${src.split('\n')[0]}`, () => { expect(run(src)).toBe(expected[i]); });
    });
});
