import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hieraYamlOf, readConnectionInfo, readDeviceConfig } from '../../src/apply/index.js';
import { isUserError } from '../../src/common/index.js';
import { PluginRuntime, SchemaRegistry, type PluginHost } from '../../src/ruby/index.js';
import { parseTypeString } from '../../src/types/index.js';
import { runCli } from '../cli/run-cli.js';

/**
 * What `modelc resource` does beyond the recorded comparison with Puppet
 * (test/cli/resource-command.test.ts): module Ruby refused host access, the output forms Puppet
 * 7.23 cannot print (--to_json; --to_yaml of Resource API types, where the gem 1.8.16 dumps a
 * string and crashes on a listing), exit codes, the device.conf and credentials readers, and the
 * compile side's view of Resource API types.
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'apply', 'resource');
const MODULES = join(FIXTURES, 'modules');
const scratch = mkdtempSync(join(tmpdir(), 'modelc-ral-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('modelc resource: outputs and exit codes of its own', () => {
    it.each([
        {
            id: '--to_json merges the listing into one object (the gem\'s ResourceShim#to_json per resource)',
            args: ['--to_json', 'demo_pkg'],
            out: '{"php-gem":{"package":"php","manager":"gem","ensure":"present","version":"1.0"},"php-yum":{"package":"php","manager":"yum","ensure":"present","version":"8.2"},"rake-gem":{"package":"rake","manager":"gem","ensure":"present"}}\n',
            code: 0
        },
        {
            id: '--to_yaml of a Resource API listing is one Hiera document (the gem\'s to_hierayaml under the type key)',
            args: ['--to_yaml', 'demo_key'],
            out: "---\ndemo_key:\n  alpha:\n    ensure: present\n    value: one\n    size: 1\n    enabled: true\n    strict_flag: true\n    created: '2020-01-01'\n"
                + '  beta:\n    ensure: present\n    value: two/three\n    size: 22\n    enabled: false\n    created: \'2021-02-03\'\n',
            code: 0
        },
        { id: 'a classic resource of a module with --to_json', args: ['--to_json', 'demo_gadget', 'large'], out: '{"large":{"ensure":"present","provider":"memory","size":"10"}}\n', code: 0 },
        { id: '--to_yaml with --to_json is refused', args: ['--to_yaml', '--to_json', 'demo_key'], err: `${MODULES}: error APPLY_RESOURCE: --to_yaml and --to_json cannot be combined\n`, code: 1 },
        { id: 'a missing type is a usage error', args: [], err: "error: missing required argument 'type'\n", code: 64 }
    ])('$id', async c => {
        const r = await runCli('resource', '--modulepath', MODULES, ...c.args);
        if (c.out !== undefined) expect(r.out).toBe(c.out);
        if (c.err !== undefined) expect(r.err).toBe(c.err);
        expect(r.code).toBe(c.code);
    });

    it('module Ruby that reaches the host is a located error, not a run', async () => {
        const r = await runCli('resource', '--modulepath', MODULES, 'demo_host');
        const file = relative(process.cwd(), join(MODULES, 'demo/lib/puppet/provider/demo_host/demo_host.rb'));
        expect(r.err).toBe(`${file}:5:1: error RUBY_FORBIDDEN: File.read of /etc/hosts is not allowed: plugin code may read only the environment's files\n`);
        expect(r.code).toBe(1);
    });

    it('a change that fails prints Puppet\'s errors and exits 1 (Puppet itself exits 0)', async () => {
        const r = await runCli('resource', '--root', scratch, 'file', '/missing/dir/x', 'ensure=file');
        expect(r.err).toContain("Error: /File[/missing/dir/x]/ensure: change from 'absent' to 'file' failed: Could not set 'file' on ensure: No such file or directory @ rb_sysopen - /missing/dir/x");
        expect(r.out).toBe("file { '/missing/dir/x':\n  ensure   => 'absent',\n  provider => 'posix',\n}\n");
        expect(r.code).toBe(1);
    });

    it('a multi-line title is a YAML block key, as Psych writes it', () => {
        expect(hieraYamlOf('demo', [{ kind: 'classic', type: 'demo', title: 'line one\nline two', params: [['ensure', 'present'], ['path', '/x']] }]))
            .toBe('---\ndemo:\n  ? |-\n    line one\n    line two\n  : ensure: present\n    path: "/x"\n');
    });
});

describe('device.conf and connection info', () => {
    const write = (name: string, text: string): string => {
        const path = join(scratch, name);
        writeFileSync(path, text);
        return path;
    };

    it.each([
        { id: 'sections, directives and comments', text: '# c\n[a.example]\ntype t\nurl file:///x\n\n[b]\n  debug\n', devices: { 'a.example': { type: 't', url: 'file:///x', line: 2 }, b: { line: 6 } } },
        { id: 'an invalid line, at its real line', text: '[a]\ntype t\nbogus line\n', error: ':3:1: error APPLY_DEVICE_CONFIG: Invalid entry at (line: 3): bogus line' },
        { id: 'a directive before any section', text: 'type t\n', error: ':1:1: error APPLY_DEVICE_CONFIG: Invalid entry at (line: 1): type t' },
        { id: 'a duplicate device', text: '[a]\n[a]\n', error: ':2:1: error APPLY_DEVICE_CONFIG: Duplicate device found at (line: 2), already found at (line: 1)' }
    ])('$id', c => {
        const path = write('device.conf', c.text);
        if (c.devices) {
            expect(Object.fromEntries([...readDeviceConfig(path)].map(([k, v]) => [k, { ...(v.type ? { type: v.type } : {}), ...(v.url ? { url: v.url } : {}), line: v.line }]))).toEqual(c.devices);
        } else {
            let message = '';
            try { readDeviceConfig(path); } catch (e) { message = isUserError(e) ? e.message : String(e); }
            expect(message).toBe(`${path}${c.error}`);
        }
    });

    it.each([
        { id: 'JSON', text: '{"host": "h", "port": 22, "tls": true}', value: { host: 'h', port: 22n, tls: true } },
        { id: 'HOCON fields, unquoted, with = and comments', text: '# creds\nhost = switch.example.com // the switch\nuser: admin\nratio: 0.5\n', value: { host: 'switch.example.com', user: 'admin', ratio: 0.5 } },
        { id: 'nested objects, dotted keys and arrays', text: 'a { b: 1 }\nc.d: "x y"\nlist: [1, "two"]\n', value: { a: { b: 1n }, c: { d: 'x y' }, list: [1n, 'two'] } },
        { id: 'an include is refused where it stands', text: 'host: h\ninclude "other.conf"\n', error: ':2:1: error APPLY_DEVICE_CONFIG: HOCON includes are not supported' },
        { id: 'a substitution is refused where it stands', text: 'host: ${HOST}\n', error: ':1:7: error APPLY_DEVICE_CONFIG: HOCON substitutions are not supported' }
    ])('credentials: $id', c => {
        const path = write('creds.conf', c.text);
        const plain = (v: unknown): unknown => (v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)])) : Array.isArray(v) ? v.map(plain) : v);
        if (c.value) {
            expect(plain(readConnectionInfo(`file://${path}`))).toEqual(c.value);
        } else {
            let message = '';
            try { readConnectionInfo(`file://${path}`); } catch (e) { message = e instanceof Error ? e.message : String(e); }
            expect(message).toBe(`${path}${c.error}`);
        }
    });
});

describe('Resource API types on the compile side', () => {
    it('register_type gives the compiler the attribute names by behaviour and the title patterns', () => {
        const host: PluginHost = { environment: 'production', parseType: t => parseTypeString(t), callFunction: () => null, log: () => undefined, setting: () => undefined, fact: () => undefined, warnOnce: () => undefined, puppetStack: () => [] };
        const registry = new SchemaRegistry();
        const rt = new PluginRuntime([{ name: 'demo', dir: join(MODULES, 'demo') }], host, registry, MODULES);
        expect(rt.findType('demo_key')).toEqual({ name: 'demo_key', properties: ['ensure', 'value', 'size', 'enabled', 'strict_flag'], parameters: ['name', 'created'], namevars: ['name'] });
        const pkg = rt.findType('demo_pkg');
        expect(pkg?.namevars).toEqual(['package', 'manager']);
        expect(pkg?.titlePatterns?.map(([re, attrs]) => [re.exec('php-yum')?.slice(1), attrs])).toEqual([[['php', 'yum'], [['package'], ['manager']]], [['php-yum'], [['package']]]]);
    });

    it('a catalog of module Resource API and classic types is the one Puppet compiles (composite namevars from the title)', async () => {
        const r = await runCli('compile', join(FIXTURES, 'env'), '--node', 'n1.example.com', '--basemodulepath', MODULES);
        expect(r.err).toBe('');
        expect(JSON.parse(r.out)).toEqual(JSON.parse(readFileSync(join(FIXTURES, 'expected', 'compile.json'), 'utf8')));
    });
});
