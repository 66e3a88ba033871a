import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { oneLine } from '../../src/common/index.js';

/**
 * `modelc apply CATALOG --modulepath modules` against what real `puppet apply` printed for the same
 * manifest: test/fixtures/apply/rsapi-apply/record.sh ran Puppet 7.23 with Debian's
 * ruby-puppet-resource-api 1.8.16 over the probe module (Resource API types with SimpleProvider,
 * plain, custom_insync, canonicalize, simple_get_filter, supports_noop ... providers) and saved the
 * oracle's catalog of each manifest beside the output. The probe providers keep no state: `get`
 * returns canned data and the change methods log what they were given, so every case starts from
 * the same system; modelc still runs under an empty --root so nothing can touch this host.
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'apply', 'rsapi-apply');
const MODULES = join(FIXTURES, 'modules');
const scratch = mkdtempSync(join(tmpdir(), 'modelc-rsapi-apply-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Case {
    readonly name: string;
    readonly flags: readonly string[];
    readonly manifest: string;
}

const cases: Case[] = readFileSync(join(FIXTURES, 'cases.tsv'), 'utf8').split('\n').filter(l => l.trim() !== '').map(l => {
    const [name, flags, manifest] = l.split('\t');
    return { name, flags: flags === '-' ? [] : flags.split(' '), manifest };
});

/**
 * Debug and info lines of `puppet apply`'s own machinery around the catalog run, which a catalog
 * applier has no counterpart of: the environment cache, the state file (state.yaml) being loaded,
 * pruned and stored, the default schedules it creates, and its transactions' object ids.
 */
const AGENT_MACHINERY = /^(?:Debug: (?:Found in cache|Caching environment|Evicting cache entry|Creating default schedules|Loaded state in|Finishing transaction \d+|Storing state|Pruned old state cache entries|Stored state in)|Info: Using environment )/;

/** Lines that may legitimately differ, made equal; each rule says why. */
function normalize(text: string): string[] {
    let lines = text.trimEnd().split('\n');
    // What Puppet printed before `Compiled catalog` is Facter resolving facts and the compile itself:
    // modelc applies the oracle's already compiled catalog.
    const compiled = lines.findIndex(l => l.startsWith('Notice: Compiled catalog for '));
    if (compiled >= 0) lines = lines.slice(compiled + 1);
    // After `Applied catalog` Puppet applies its settings catalog and stores the report: not the catalog's run.
    const applied = lines.findIndex(l => l.startsWith('Notice: Applied catalog in '));
    if (applied >= 0) lines = lines.slice(0, applied + 1);
    return lines
        .filter(l => !AGENT_MACHINERY.test(l))
        // Ruby's own interpreter warnings (Puppet loads a provider file twice for simple_get_filter) are not Puppet logs.
        .filter(l => !/^\S+\.rb:\d+: warning: /.test(l))
        // The config version is the time Puppet compiled the catalog, and the oracle's normalized
        // catalog leaves it out, so there is nothing to compare it with.
        .filter(l => !l.startsWith('Info: Applying configuration version '))
        // Run times; the recording's temporary environment, which the oracle's catalog names relative to it.
        .map(l => l.replace(/\d+\.\d+ seconds/g, 'N seconds').replace(/\/tmp\/modelc-rsapi-record\.[A-Za-z0-9]+\//g, ''));
}

interface Run {
    readonly code: number;
    /** stdout and stderr as one stream, as record.sh captured Puppet's. */
    readonly text: string;
    readonly out: string;
}

async function modelc(...args: string[]): Promise<Run> {
    let text = '';
    let out = '';
    const io: CliIo = {
        out: t => {
            const s = typeof t === 'string' ? t : Buffer.from(t).toString('latin1');
            text += s;
            out += s;
        },
        err: t => { text += t; }
    };
    const code = await main(['node', 'modelc', ...args], io);
    return { code, text, out };
}

/**
 * Recorded cases modelc does not match yet, each with the reason; `it.fails` turns into a failure
 * once the gap is closed, so the entry must then go.
 */
const KNOWN_GAPS = new Map<string, string>();

describe('modelc apply with the module\'s Resource API types prints what puppet apply prints', () => {
    const each = (c: Case): string => (KNOWN_GAPS.has(c.name) ? `${c.name} (known gap: ${KNOWN_GAPS.get(c.name)})` : c.name);
    const run = async (c: Case): Promise<void> => {
        const expected = (ext: string): string => readFileSync(join(FIXTURES, 'expected', `${c.name}.${ext}`), 'utf8');
        const code = Number(expected('rc').trim());
        const catalog = JSON.parse(expected('catalog.json')) as { error?: unknown };
        if (catalog.error) {
            // Puppet failed compiling the manifest (a title no title pattern matches), so there is no
            // catalog to apply: compile it with modelc over the same modules and expect the oracle's error.
            const env = join(scratch, c.name);
            mkdirSync(join(env, 'manifests'), { recursive: true });
            symlinkSync(MODULES, join(env, 'modules'));
            writeFileSync(join(env, 'manifests', 'site.pp'), `${c.manifest}\n`);
            const result = await modelc('compile', env, '--node', 'probe.example.com');
            expect(result.code).toBe(code);
            expect((JSON.parse(result.out) as { error?: unknown }).error).toEqual(catalog.error);
            return;
        }
        const root = join(scratch, c.name);
        mkdirSync(root, { recursive: true });
        const result = await modelc('apply', join(FIXTURES, 'expected', `${c.name}.catalog.json`), '--modulepath', MODULES, '--root', root, ...c.flags);
        // An aborted run ends with modelc's one-line user error `WHERE: error CODE: MESSAGE`, which
        // repeats the run's error log line; Puppet prints only the log line.
        const located = /^\S+: error [A-Z][A-Z0-9_]*: /m.exec(result.text);
        let text = result.text;
        if (located) {
            const message = text.slice(located.index + located[0].length).trimEnd();
            text = text.slice(0, located.index);
            // The diagnostic is one line: a message Puppet logs over several lines is joined (oneLine).
            const logged = /^Error: (?:Failed to apply catalog: )?([^\n]*(?:\n(?!\S+: |Error: |Warning: |Notice: )[^\n]*)*)/m.exec(text.slice(text.lastIndexOf('\nError: ') + 1));
            expect(oneLine(logged?.[1] ?? '')).toBe(message);
        }
        expect(normalize(text).join('\n')).toBe(normalize(expected('out')).join('\n'));
        expect(result.code).toBe(code);
    };
    for (const c of cases) {
        if (KNOWN_GAPS.has(c.name)) it.fails(each(c), () => run(c));
        else it(each(c), () => run(c));
    }
});

describe('the compile side of the recorded cases: what Puppet logged compiling the manifest', () => {
    // The type definition's warnings (a type or attribute without desc) are logged when the
    // compile autoloads the type, at the manifest, without a line.
    it.each(['def-no-docs'])('%s', async name => {
        const c = cases.find(x => x.name === name) as Case;
        const env = join(scratch, `compile-${name}`);
        mkdirSync(join(env, 'manifests'), { recursive: true });
        symlinkSync(MODULES, join(env, 'modules'));
        writeFileSync(join(env, 'manifests', 'site.pp'), `${c.manifest}\n`);
        const result = await modelc('compile', env, '--node', 'probe.example.com', '--format', 'normalized');
        expect(result.code).toBe(0);
        const logs = (text: string): unknown => (JSON.parse(text) as { logs?: unknown }).logs;
        expect(logs(result.out)).toEqual(logs(readFileSync(join(FIXTURES, 'expected', `${name}.catalog.json`), 'utf8')));
    });
});

describe('modelc apply: options of its own', () => {
    const catalog = (name: string): string => join(FIXTURES, 'expected', `${name}.catalog.json`);

    it.each([
        { name: 'basic-insync', code: 0 },
        { name: 'basic-create', code: 2 },
        { name: 'broken-get', code: 6 },
        { name: 'basic-failing-update', code: 4 },
        { name: 'basic-bad-enum', code: 1 }
    ])('--detailed-exitcodes: $name exits $code', async c => {
        const root = mkdtempSync(join(scratch, 'exit-'));
        expect((await modelc('apply', catalog(c.name), '--modulepath', MODULES, '--root', root, '--detailed-exitcodes')).code).toBe(c.code);
    });

    it('--help documents --modulepath and --detailed-exitcodes', async () => {
        const help = (await modelc('apply', '--help')).text;
        expect(help).toMatch(/--modulepath <dirs>\s+colon-separated module directories/);
        expect(help).toMatch(/--detailed-exitcodes\s+exit 2 when resources changed/);
    });

    it('module Ruby that cannot be loaded is a located error before anything is applied', async () => {
        const root = mkdtempSync(join(scratch, 'bad-'));
        const modules = join(root, 'modules');
        mkdirSync(join(modules, 'probe', 'lib', 'puppet', 'type'), { recursive: true });
        writeFileSync(join(modules, 'probe', 'lib', 'puppet', 'type', 'probe_basic.rb'), "require 'puppet/resource_api'\nPuppet::ResourceApi.register_type(\n");
        const result = await modelc('apply', catalog('basic-create'), '--modulepath', modules, '--root', root);
        expect(result.code).toBe(1);
        expect(result.text).toMatch(/probe_basic\.rb:\d+:\d+: error RUBY_[A-Z_]+: /);
        expect(result.text).not.toContain('Notice:');
    });
});

/**
 * The chain as users run it with ARM-8 bindings and the module's Resource API types: `modelc
 * bindings` → `modelc effective --values` → `modelc compile --effective` → `modelc apply`. The
 * bindings give the probe_basic resources their parameters (a type binding, an instance binding in
 * the node category), a notify its message (inject) and an order (bind dependency); real Puppet
 * applied the same catalog written out by hand (case chain-equivalent), and modelc must print what
 * it printed.
 */
describe('bindings → effective → compile → apply with Resource API types', () => {
    it('applies what puppet apply applies for the hand-written equivalent', async () => {
        const env = join(scratch, 'chain');
        mkdirSync(join(env, 'manifests'), { recursive: true });
        mkdirSync(join(env, 'bindings'), { recursive: true });
        symlinkSync(MODULES, join(env, 'modules'));
        writeFileSync(join(env, 'facts.yaml'), 'fqdn: probe.example.com\n');
        writeFileSync(join(env, 'bindings', 'default.pp'), `bindings default {
  bind parameters Probe_basic to { str => 'bound' }
  bind 'probe::greeting' to 'common'
  when node 'probe.example.com' {
    bind parameters Probe_basic['full'] to { int => 7 }
    bind 'probe::greeting' to 'node'
  }
  bind dependency Notify['n'] -> Probe_basic['fresh']
}
`);
        writeFileSync(join(env, 'manifests', 'site.pp'), "probe_basic { 'full': }\nprobe_basic { 'fresh': }\nnotify { 'n': message => inject('probe::greeting') }\n");
        const node = ['--node', 'probe.example.com'];
        const step = async (file: string, ...args: string[]): Promise<string> => {
            const r = await modelc(...args);
            expect({ code: r.code, text: r.text.slice(r.out.length) }, args.join(' ')).toEqual({ code: 0, text: '' });
            writeFileSync(join(env, file), r.out);
            return join(env, file);
        };
        const bindings = await step('bindings.json', 'bindings', env, ...node);
        const effective = await step('effective.json', 'effective', bindings, ...node, '--facts', join(env, 'facts.yaml'), '--values');
        const catalog = await step('catalog.json', 'compile', env, ...node, '--facts', join(env, 'facts.yaml'), '--effective', effective, '--format', 'json');
        const root = join(scratch, 'chain-root');
        mkdirSync(root);
        const applied = await modelc('apply', catalog, '--modulepath', MODULES, '--root', root);
        const expected = (ext: string): string => readFileSync(join(FIXTURES, 'expected', `chain-equivalent.${ext}`), 'utf8');
        expect(normalize(applied.text).join('\n')).toBe(normalize(expected('out')).join('\n'));
        expect(applied.code).toBe(Number(expected('rc').trim()));
    });
});
