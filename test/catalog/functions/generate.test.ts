import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, normalizedResult } from '../../../src/catalog/index.js';

/**
 * generate() runs a command at compile time. Real Puppet 7.23 runs it (recorded: `generate('/bin/echo', 'hi')`
 * gave "hi\n"); modelc refuses unless the host allows it with the setting allow_generate=true,
 * after Puppet's own checks on the command path.
 */
const services = createCatalogServices();
const root = mkdtempSync(join(tmpdir(), 'modelc-generate-'));

function compile(source: string, settings: Record<string, string>): { error?: { message: string; line: number }; notices: string[] } {
    const dir = mkdtempSync(join(root, 'c'));
    mkdirSync(join(dir, 'manifests'));
    writeFileSync(join(dir, 'manifests', 'site.pp'), `${source}\n`);
    const result = services.compile(dir, 'production', { node: 'testnode.example.com', facts: new Map(), settings: new Map(Object.entries(settings)) });
    return JSON.parse(jsonText(normalizedResult(result))) as { error?: { message: string; line: number }; notices: string[] };
}

describe('generate()', () => {
    test('runs the command when the host allows it, as Puppet does', () => {
        expect(compile("notice(generate('/bin/echo', 'hi'))", { allow_generate: 'true' }).notices).toEqual(['hi\n']);
    });

    test('is refused otherwise, with a located error naming the command', () => {
        const out = compile("notice('x')\nnotice(generate('/bin/echo', 'hi'))", {});
        expect(out.error?.message).toBe("Evaluation Error: Error while evaluating a Function Call, generate(): running '/bin/echo' at compile time is refused; the setting allow_generate=true allows it (file: manifests/site.pp, line: 2, column: 8) on node testnode.example.com");
        expect(out.error?.line).toBe(2);
    });

    test('a failing command is reported as Puppet reports it (recorded)', () => {
        expect(compile("notice(generate('/bin/false'))", { allow_generate: 'true' }).error?.message)
            .toBe("Evaluation Error: Error while evaluating a Function Call, Failed to execute generator /bin/false: Execution of '/bin/false' returned 1:  (file: manifests/site.pp, line: 1, column: 8) on node testnode.example.com");
    });

    test.each([
        ["generate('echo', 'hi')", 'Generators must be fully qualified'],
        ["generate('/bin/e cho')", 'Generators can only contain alphanumerics, file separators, and dashes'],
        ["generate('/bin/../bin/echo')", "Can not use generators with '..' in them."]
    ])('%s fails Puppet\'s checks before anything runs', (call, message) => {
        expect(compile(`notice(${call})`, { allow_generate: 'true' }).error?.message).toContain(`Function Call, ${message} (file:`);
    });
});
