import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Frame, Interpreter, inspect, ObjectClass, parseRuby, RObject, RubyError } from '../../src/ruby/index.js';
import { digestConstants } from '../../src/ruby/puppet/digest.js';

/**
 * Byte strings (digests, `pack`/`unpack`, `Integer#chr` past 127, OpenSSL's PBKDF2), as stdlib's
 * fqdn_uuid and str2saltedpbkdf2 use them, against the values Ruby 3.1.2 gives
 * (test/fixtures/ruby/binary.rb.txt and binary.expected.txt).
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'ruby');
const programs = readFileSync(join(DIR, 'binary.rb.txt'), 'utf8').replace(/^(#.*\n)+/, '').split(/^----\n/m);
const expected = readFileSync(join(DIR, 'binary.expected.txt'), 'utf8').trimEnd().split('\n');

function run(src: string): string {
    const it = new Interpreter({ self: new RObject(ObjectClass, 'main'), dynamic: () => undefined, constants: new Map(digestConstants()) });
    try {
        return inspect(it.runBody(parseRuby(src), new Frame(null, it.topContext('program.rb'))));
    } catch (e) {
        if (e instanceof RubyError) return `${e.cls.name}: ${e.message} (line ${e.line})`;
        throw e;
    }
}

describe('byte strings as Ruby 3.1 has them', () => {
    test('every program has a recorded value', () => { expect(expected.length).toBe(programs.length); });
    programs.forEach((src, i) => {
        test(`program ${i + 1}`, () => { expect(run(src)).toBe(expected[i]); });
    });
});
