/**
 * Models come back from the foreign tools they are written for: a Java program builds a Bindings
 * model with EMF's reflective API and saves XMI, and `modelc effective` answers from it; a Ruby
 * script loads modelc's RGen JSON with stock RGen, changes a value, saves it with RGen's own
 * serializer, and modelc reads the change. Needs the Debian packages of debian-tools.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { emfJars, ensurePackages, run, SKIP } from './debian-tools.js';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '../..');
const BINDINGS_ECORE = join(ROOT, 'generated/ecore/bindings.ecore');
const BINDINGS_RGEN_ECORE = join(ROOT, 'generated/ecore/bindings.rgen.ecore');
const MINIMAL = join(ROOT, 'test/fixtures/model/valid/bindings/minimal.json');

interface Entry { readonly name?: string; readonly value?: unknown }

/** The value `modelc effective --values` produced for KEY. */
async function effectiveValue(file: string, key: string): Promise<unknown> {
    const r = await runCli('effective', file, '--node', 'n1.example.com', '--values');
    expect(r.code, r.err).toBe(0);
    const entries = (JSON.parse(r.out) as { entries?: Entry[] }).entries ?? [];
    const entry = entries.find(e => e.name === key);
    expect(entry, `no entry ${key} in ${r.out.slice(0, 400)}`).toBeDefined();
    return entry?.value;
}

describe.skipIf(SKIP)('models edited by Java EMF and Ruby RGen come back into modelc', () => {
    let work = '';
    let classpath = '';
    beforeAll(() => {
        ensurePackages();
        work = mkdtempSync(join(tmpdir(), 'modelc-foreign-'));
        const jars = emfJars();
        const javac = run('javac', ['-nowarn', '-encoding', 'UTF-8', '-d', work, '-cp', jars.join(':'), join(HERE, 'java/MakeBindings.java')]);
        if (javac.status !== 0) throw new Error(`javac MakeBindings.java failed:\n${javac.stdout}${javac.stderr}`);
        classpath = [work, ...jars].join(':');
    }, 600_000);

    it('a Bindings model made with EMF and saved as XMI answers modelc effective', async () => {
        const xmi = join(work, 'made-by-emf.xmi');
        const value = { servers: ['0.pool.ntp.org', 'ntp "two"\\n'], port: 8123 };
        const java = run('java', ['-cp', classpath, 'MakeBindings', BINDINGS_ECORE, xmi, 'ntp::config', 'Hash', JSON.stringify(value)]);
        expect(java.status, java.stderr).toBe(0);
        expect(readFileSync(xmi, 'utf8')).toMatch(/^<\?xml/);
        expect(await effectiveValue(xmi, 'ntp::config')).toEqual(value);
        // validated like JSON: the model converts to the same canonical JSON as any other input.
        const converted = await runCli('convert', xmi, '--to', 'json');
        expect(converted.code, converted.err).toBe(0);
        expect(converted.out).toContain('"name": "java::made"');
    });

    it('a value changed by RGen in modelc\'s RGen JSON is what modelc reads back', async () => {
        const rgen = join(work, 'minimal.rgen.json');
        const converted = await runCli('convert', MINIMAL, '--to', 'rgen', '-o', rgen);
        expect(converted.code, converted.err).toBe(0);
        expect(await effectiveValue(rgen, 'apache::port')).toBe(8080);
        const edited = join(work, 'edited-by-rgen.json');
        const newValue = { port: 9090, path: 'C:\\new\\table', note: 'say "hi"\n' };
        const ruby = run('ruby', [join(HERE, 'ruby/rgen_edit.rb'), BINDINGS_RGEN_ECORE, rgen, edited,
            'ConstantProducerDescriptor', 'value', JSON.stringify(newValue), 'Binding', 'type', 'Hash[String, Data]']);
        expect(ruby.status, `${ruby.stdout}${ruby.stderr}`).toBe(0);
        // RGen's own serializer wrote it (its spacing, not ours).
        expect(readFileSync(edited, 'utf8')).toMatch(/^\[ \{ "_class": "LayeredBindings"/);
        expect(await effectiveValue(edited, 'apache::port')).toEqual(newValue);
        const validated = await runCli('validate', edited);
        expect(validated).toEqual({ code: 0, out: `${edited}: valid Bindings model (LayeredBindings)\n`, err: '' });
        expect(basename(edited)).toBe('edited-by-rgen.json');
    });
});
