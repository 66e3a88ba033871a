import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createCatalogServices } from '../../src/catalog/index.js';
import { compileCase, parseTyped } from './conformance-cases.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'catalog', 'ruby-plugins');
const services = createCatalogServices();
const compile = (env: string): unknown => parseTyped(compileCase({ name: env, dir: join(FIXTURES, env), node: 'web01.example.com', settings: [], classes: [] }, services));
const expected = (env: string): unknown => parseTyped(readFileSync(join(FIXTURES, env, 'expected.json'), 'utf8'));

describe('modules\' Ruby functions and types (fixtures recorded from Puppet 7.23)', () => {
    for (const env of ['v1', 'v2', 'mismatch', 'arity', 'badparam', 'load-path', 'load-error', 'undefined-variable']) {
        test(env, () => { expect(compile(env)).toEqual(expected(env)); });
    }

    test('two versions of one module\'s Ruby function and type compile side by side in one process', () => {
        // Interleaved: each environment keeps its own classes, constants, functions and types.
        for (const env of ['v1', 'v2', 'v1', 'v2']) expect(compile(env)).toEqual(expected(env));
    });
});

/** Environments written on the fly: plugin code modelc refuses or cannot run is a located input error. */
describe('plugin code modelc does not run is a located error', () => {
    const root = mkdtempSync(join(tmpdir(), 'modelc-ruby-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const env = (name: string, files: Record<string, string>): string => {
        const dir = join(root, name);
        for (const [path, text] of Object.entries(files)) {
            mkdirSync(dirname(join(dir, path)), { recursive: true });
            writeFileSync(join(dir, path), text);
        }
        return dir;
    };
    const fn = (body: string): Record<string, string> => ({
        'manifests/site.pp': "notice(demo::run('x'))\n",
        'modules/demo/lib/puppet/functions/demo/run.rb': `Puppet::Functions.create_function(:'demo::run') do\n  def run(x)\n${body}\n  end\nend\n`
    });
    const cases: Array<[string, Record<string, string>, RegExp]> = [
        ['system', fn("    system('rm -rf /')"), /^modules\/demo\/lib\/puppet\/functions\/demo\/run\.rb:3:\d+: error RUBY_FORBIDDEN: system is not allowed/],
        ['backticks', fn('    `id`'), /run\.rb:3:\d+: error RUBY_FORBIDDEN: backticks is not allowed/],
        ['file write', fn("    File.write('/tmp/x', 'y')"), /run\.rb:3:\d+: error RUBY_FORBIDDEN: File\.write is not allowed/],
        ['file read outside', fn("    File.read('/etc/passwd')"), /run\.rb:3:\d+: error RUBY_FORBIDDEN: File\.read of \/etc\/passwd is not allowed/],
        ['dir glob outside', fn("    Dir.glob(['/etc/**/*.conf'])"), /run\.rb:3:\d+: error RUBY_FORBIDDEN: Dir\.glob of \/etc\/\*\*\/\*\.conf is not allowed/],
        ['runaway loop', fn('    loop { x = x }'), /run\.rb:3:\d+: error RUBY_LIMIT: step limit/],
        ['runaway recursion', fn('    run(x)'), /run\.rb:3:\d+: error RUBY_LIMIT: stack level too deep/],
        ['undef', fn('    undef foo'), /run\.rb:3:\d+: error RUBY_UNSUPPORTED: undef is not supported/],
        ['syntax', fn('    x = (1'), /run\.rb:4:\d+: error RUBY_SYNTAX: syntax error/]
    ];
    for (const [name, files, message] of cases) {
        test(name, () => {
            const dir = env(name.replace(/\W/g, '-'), files);
            expect(() => compileCase({ name, dir, node: 'web01.example.com', settings: [], classes: [] }, services)).toThrow(message);
        });
    }
});
