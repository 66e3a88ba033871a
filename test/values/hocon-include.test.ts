import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { HoconError, parseHocon, type PuppetValue } from '../../src/values/index.js';

/**
 * HOCON includes as ruby-hocon 1.3.1 (what Puppet's hocon_data and stdlib's parsehocon call)
 * performs them for a string: each case of fixtures/values/hocon-include/cases.txt with the value
 * or error the gem gave, recorded by test/tools/hocon/record.rb with the fixture directory as the
 * working directory (where file() is opened).
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'values', 'hocon-include');
interface Recorded {
    readonly source: string;
    readonly value?: unknown;
    readonly error?: { readonly class: string; readonly message: string };
}
const cases = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Recorded[];
const files = { cwd: DIR, read: (path: string): string | undefined => { try { return readFileSync(path, 'utf8'); } catch { return undefined; } } };

/** A parsed value as JSON reads it back (Integers as numbers, Hashes as objects in their order). */
function plain(v: PuppetValue): unknown {
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
    if (Array.isArray(v)) return v.map(plain);
    return typeof v === 'bigint' ? Number(v) : v;
}

const RUBY_CLASS: Record<HoconError['kind'], string> = {
    ConfigParseError: 'Hocon::ConfigError::ConfigParseError',
    UnresolvedSubstitutionError: 'Hocon::ConfigError::UnresolvedSubstitutionError',
    ConfigWrongTypeError: 'Hocon::ConfigError::ConfigWrongTypeError',
    NoMethodError: 'NoMethodError'
};

describe('HOCON includes read as ruby-hocon reads them', () => {
    test.each(cases.map(c => [c.source, c] as const))('%s', (_source, c) => {
        let got: Recorded;
        try {
            got = { source: c.source, value: plain(parseHocon(c.source.replaceAll('\\n', '\n'), files).value) };
        } catch (e) {
            if (!(e instanceof HoconError)) throw e;
            got = { source: c.source, error: { class: RUBY_CLASS[e.kind], message: e.message.split('\n')[0].replaceAll(DIR, '<DIR>') } };
        }
        expect(got).toEqual(c);
        if (c.value !== undefined) expect(JSON.stringify(got.value)).toBe(JSON.stringify(c.value));
    });
});
