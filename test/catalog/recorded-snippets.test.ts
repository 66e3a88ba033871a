import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, normalizedResult } from '../../src/catalog/index.js';

interface Recorded {
    readonly source: string;
    readonly message: string | null;
    readonly notices?: string[];
    /** The warnings Puppet logged, in order (recorded where the harness found them). */
    readonly warnings?: string[];
    /** The catalog's resource order, when it has more than Class[main], Class[Settings] and Stage[main]. */
    readonly resource_order?: string[];
    /** Run with Debian's puppetlabs-stdlib as modules/stdlib (skipped where it is not installed). */
    readonly stdlib?: boolean;
}

const STDLIB = '/usr/share/puppet/modules.available/puppetlabs-stdlib';

/** One-line manifests (assert_type mismatches, Type(value) conversions) and what real Puppet 7.23 said for each. */
const load = (file: string): Recorded[] => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'catalog', file), 'utf8')) as Recorded[];
const cases = [...load('type-mismatches.json'), ...load('type-conversions.json'), ...load('operators.json'), ...load('function-arguments.json'), ...load('language-snippets.json'),
    ...load('builtin-functions.json'), ...load('function-signatures.json'), ...load('evaluation-order.json'), ...load('stdlib-functions.json'),
    ...load('builtin-edges.json'), ...load('pcore-types.json'), ...load('stdlib-parsehocon.json'), ...load('stdlib-hocon-include.json')];
const services = createCatalogServices();
const root = mkdtempSync(join(tmpdir(), 'modelc-mismatch-'));

describe('type mismatch messages and conversions are Puppet\'s', () => {
    const runnable = cases.map((c, i) => [c, i] as const).filter(([c]) => !c.stdlib || existsSync(STDLIB));
    test.each(runnable.map(([c, i]) => [c.source, i] as const))('%s', (source, i) => {
        const dir = join(root, `m${i}`);
        mkdirSync(join(dir, 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'manifests', 'site.pp'), `${source}\n`);
        if (cases[i].stdlib) {
            mkdirSync(join(dir, 'modules'), { recursive: true });
            symlinkSync(STDLIB, join(dir, 'modules', 'stdlib'));
        }
        const out = JSON.parse(jsonText(normalizedResult(services.compile(dir, 'production', { node: 'testnode.example.com', facts: new Map() })))) as Output;
        expect(withoutAddresses(out.error?.message ?? null)).toBe(withoutAddresses(cases[i].message));
        if (cases[i].notices) expect(out.notices.map(withoutAddresses)).toEqual(cases[i].notices.map(withoutAddresses));
        if (cases[i].warnings) expect(out.logs.filter(l => l.level === 'warning').map(l => l.message)).toEqual(cases[i].warnings);
        if (cases[i].resource_order) expect(out.resource_order).toEqual(cases[i].resource_order);
    });
});

interface Output {
    readonly error?: { message: string };
    readonly notices: string[];
    readonly logs: Array<{ level: string; message: string }>;
    readonly resource_order?: string[];
}

/**
 * Ruby's default inspect of an object (Puppet's `#<Puppet::Resource::Type:0x...>` naming the code
 * that set an overridden parameter, a block's `#<...PuppetProc:0x... file:line>`, a type object in
 * a NoMethodError) carries the object's memory address, which differs from run to run: the
 * address alone is left out of the comparison.
 */
function withoutAddresses<S extends string | null>(message: S): S {
    return (message === null ? null : message.replace(/(#<[A-Z][\w:]*:)0x[0-9a-f]{16}/g, '$10x')) as S;
}

/**
 * ERB templates with Ruby code (inline_template) and what Puppet 7.23 printed. A Ruby syntax
 * error's message quotes the Ruby source ERB generates, which we do not generate: only its first
 * line (file, line and the parser's complaint) is compared.
 */
const erbCases = load('erb-templates.json');
const erbDifferences = readFileSync(join(import.meta.dirname, 'erb-known-differences.txt'), 'utf8').split('\n')
    .filter(l => l.trim() !== '' && !l.startsWith('#')).map(l => l.split(/ {2,}/)[0]);
const differs = (source: string): boolean => erbDifferences.some(d => source.includes(d));
describe('ERB templates render as in Puppet', () => {
    test.each(erbCases.filter(c => !differs(c.source)).map(c => [c.source, erbCases.indexOf(c)] as const))('%s', (source, i) => checkErb(source, i));
    test.fails.each(erbCases.filter(c => differs(c.source)).map(c => [c.source, erbCases.indexOf(c)] as const))('known difference: %s', (source, i) => checkErb(source, i));
    test('every known difference names a snippet', () => {
        expect(erbDifferences.filter(d => !erbCases.some(c => c.source.includes(d)))).toEqual([]);
    });
});

function checkErb(source: string, i: number): void {
    {
        const dir = join(root, `erb${i}`);
        mkdirSync(join(dir, 'manifests'), { recursive: true });
        writeFileSync(join(dir, 'manifests', 'site.pp'), `${source}\n`);
        const out = JSON.parse(jsonText(normalizedResult(services.compile(dir, 'production', { node: 'testnode.example.com', facts: new Map() })))) as { error?: { message: string }; notices: string[] };
        const expected = erbCases[i].message;
        const actual = out.error?.message ?? null;
        if (expected !== null && expected.startsWith('(erb):')) expect(actual?.split('\n')[0]).toBe(expected.split('\n')[0]);
        else expect(actual).toBe(expected);
        if (erbCases[i].notices) expect(out.notices).toEqual(erbCases[i].notices);
    }
}
