import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

/**
 * One node request for every command: the same --node/--facts/--trusted given to `compile`,
 * `lookup`, `bindings` and `effective` must give the same node name, `$trusted` and `$facts`.
 * Each command shows them its own way: the catalog's name and notices (compile), a Hiera value
 * interpolating them (lookup), the data file a Hiera level interpolated from them (bindings),
 * an ARM-8 binding evaluating them in the injector (effective, and lookup through the injector).
 */

const PROBE = "certname=%{trusted.certname} hostname=%{trusted.hostname} domain=%{trusted.domain} authenticated=%{trusted.authenticated} role=%{trusted.extensions.pp_role} enabled=%{facts.enabled} family=%{facts.os.family}";
const PUPPET_PROBE = "certname=${trusted['certname']} hostname=${trusted['hostname']} domain=${trusted['domain']} authenticated=${trusted['authenticated']} role=${trusted['extensions']['pp_role']} enabled=${facts['enabled']} family=${facts['os']['family']}";

const root = mkdtempSync(join(tmpdir(), 'modelc-node-request-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): string {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    return join(root, path);
}

const env = join(root, 'env');
write('env/hiera.yaml', [
    'version: 5', 'defaults:', '  datadir: data', '  data_hash: yaml_data', 'hierarchy:',
    '  - name: probe',
    `    path: "probe/${PROBE.replace(/ \w+=/g, '/').replace(/^certname=/, '')}.yaml"`,
    '  - name: common', '    path: common.yaml', ''
].join('\n'));
write('env/data/common.yaml', `probe: "${PROBE}"\n`);
write('env/manifests/site.pp', `notice("direct: ${PUPPET_PROBE}")\nnotice("hiera: \${lookup('probe')}")\n`);
write('env/bindings/default.pp', `bindings default {\n  bind String, 'probe_arm8' to "${PUPPET_PROBE}"\n}\n`);

interface Row {
    readonly name: string;
    readonly args: readonly string[];
    readonly node: string;
    /** What every command must see, in the probe's words. */
    readonly seen: string;
}

const ROWS: readonly Row[] = [
    {
        name: 'node given, plain YAML facts with on/off',
        args: ['--node', 'web01.example.com', '--facts', write('f1.yaml', 'clientcert: other.example.com\nenabled: on\nos:\n  family: Debian\n')],
        node: 'web01.example.com',
        seen: 'certname=web01.example.com hostname=web01 domain=example.com authenticated=remote role= enabled=true family=Debian'
    },
    {
        name: "node from the facts file's name, certname and extensions overridden",
        args: ['--facts', write('f2.yaml', 'name: db01.example.com\nvalues:\n  enabled: off\n  os:\n    family: RedHat\n'),
            '--trusted', write('t2.yaml', 'certname: db.internal\nextensions:\n  pp_role: db\n')],
        node: 'db01.example.com',
        seen: 'certname=db.internal hostname=db domain=internal authenticated=remote role=db enabled=false family=RedHat'
    },
    {
        name: 'node from the clientcert fact, JSON facts, dotless name, authenticated overridden',
        args: ['--facts', write('f3.json', '{"clientcert": "standalone", "enabled": true, "os": {"family": "Alpine"}}'),
            '--trusted', write('t3.json', '{"authenticated": "local"}')],
        node: 'standalone',
        seen: 'certname=standalone hostname=standalone domain= authenticated=local role= enabled=true family=Alpine'
    }
];

describe.each(ROWS)('$name', row => {
    // The probe level's data file exists only where the interpolated path points.
    const probeFile = posix.normalize(`probe/${row.seen.replace(/ \w+=/g, '/').replace(/^certname=/, '')}.yaml`);
    write(`env/data/${probeFile}`, 'probe_level: found\n');

    test('compile: the catalog is for the node; $trusted and $facts as seen', async () => {
        const r = await runCli('compile', env, ...row.args, '--format', 'normalized');
        expect([r.code, r.err.includes('Error')]).toEqual([0, false]);
        const catalog = JSON.parse(r.out) as { name: string; notices: string[] };
        expect(catalog.name).toBe(row.node);
        expect(catalog.notices).toEqual([`direct: ${row.seen}`, `hiera: ${row.seen}`]);
    });

    test('lookup: Hiera interpolates the same $trusted and $facts', async () => {
        const r = await runCli('lookup', env, 'probe', ...row.args);
        expect([r.code, JSON.parse(r.out)]).toEqual([0, row.seen]);
    });

    test('lookup through the injector: an ARM-8 binding evaluates the same', async () => {
        const r = await runCli('lookup', env, 'probe_arm8', ...row.args);
        expect([r.code, JSON.parse(r.out)]).toEqual([0, row.seen]);
    });

    test('bindings and effective: the same data file, node and values', async () => {
        const b = await runCli('bindings', env, ...row.args);
        expect(b.code, b.err).toBe(0);
        expect(b.out).toContain(`"data/${probeFile}"`);
        const file = write(`${row.node}.bindings.json`, b.out);
        // effective requires --node; the rest of the request is the same arguments.
        const nodeArgs = row.args.includes('--node') ? [] : ['--node', row.node];
        const e = await runCli('effective', file, ...nodeArgs, ...row.args, '--values');
        const model = JSON.parse(e.out) as { request: { node: string }; entries: Array<{ name: string; value?: unknown }> };
        expect(model.request.node).toBe(row.node);
        expect(model.entries.find(x => x.name === 'probe_arm8')?.value).toBe(row.seen);
    });
});

describe('unreadable node input is one located error, exit 1, nothing printed', () => {
    const list = write('list.yaml', '- a\n- b\n');
    const garbage = write('garbage.yaml', 'a: [1, 2\nb: }\n');
    const bindingsFile = join(root, 'n1.bindings.json');
    beforeAll(async () => { writeFileSync(bindingsFile, (await runCli('bindings', env, '--node', 'n1')).out); });
    const commands: ReadonlyArray<readonly [string, readonly string[]]> = [
        ['compile', ['compile', env]], ['lookup', ['lookup', env, 'probe']], ['bindings', ['bindings', env]],
        ['effective', ['effective', bindingsFile, '--node', 'n1']]
    ];
    const inputs: ReadonlyArray<readonly [string, readonly string[], RegExp]> = [
        ['a missing --facts path', ['--facts', join(root, 'absent.yaml')], /absent\.yaml: error NODE_INPUT_FILE: no such facts file\n$/],
        ['a directory as --trusted', ['--trusted', root], /: error NODE_INPUT_FILE: the trusted file is a directory\n$/],
        ['a list-shaped facts file', ['--facts', list], /list\.yaml: error NODE_INPUT_SHAPE: the facts file must hold a mapping, not a list\n$/],
        ['a garbage facts file', ['--facts', garbage], /garbage\.yaml:\d+:\d+: error NODE_INPUT_SYNTAX: not YAML: /]
    ];
    test.each(commands.flatMap(([c, args]) => inputs.map(([what, extra, message]) => [c, what, [...args, ...extra], message] as const)))(
        '%s with %s', async (_c, _what, args, message) => {
            const r = await runCli(...args);
            expect(r.code).toBe(1);
            expect(r.out).toBe('');
            expect(r.err).toMatch(message);
            expect(r.err.trim().split('\n')).toHaveLength(1);
        });
});
