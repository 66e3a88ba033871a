import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Frame, Interpreter, inspect, ObjectClass, parseRuby, RObject, RubyError } from '../../src/ruby/index.js';
import { RUBY_LIBRARIES } from '../../src/ruby/puppet/ruby-libraries.js';

/**
 * The Ruby standard-library classes written in the Ruby subset (Gem::Version, Pathname),
 * line by line against what Ruby 3.1.2 gives (test/fixtures/ruby/NAME.rb.txt and NAME.expected.txt).
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'ruby');
const sources = [...new Map([...RUBY_LIBRARIES.values()].map(l => [l.file, l.source])).entries()];

function run(src: string): string {
    const it = new Interpreter({ self: new RObject(ObjectClass, 'main'), dynamic: () => undefined });
    for (const [file, source] of sources) it.runBody(parseRuby(source), new Frame(null, it.topContext(file)));
    try {
        return inspect(it.runBody(parseRuby(src), new Frame(null, it.topContext('program.rb'))));
    } catch (e) {
        if (e instanceof RubyError) return `${e.cls.name}: ${e.message} (line ${e.line})`;
        throw e;
    }
}

for (const name of ['gem-version', 'pathname']) {
    const lines = readFileSync(join(DIR, `${name}.rb.txt`), 'utf8').split('\n').filter(l => l.trim() !== '' && !l.startsWith('#'));
    const expected = readFileSync(join(DIR, `${name}.expected.txt`), 'utf8').trimEnd().split('\n');
    describe(`${name} behaves as Ruby 3.1's`, () => {
        test('every line has a recorded value', () => { expect(expected.length).toBe(lines.length); });
        lines.forEach((src, i) => {
            test(src, () => { expect(run(src)).toBe(expected[i]); });
        });
    });
}
