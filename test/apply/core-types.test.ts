import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PSensitive } from '../../src/values/index.js';
import { catalogOf, newRegistry, res, run, tempRoot } from './helpers.js';

describe('exec', () => {
    it.each([
        { id: 'creates skips when the file exists', params: { creates: '/done' }, runs: false },
        { id: 'creates runs when it does not', params: { creates: '/nope' }, runs: true },
        { id: 'onlyif that fails skips', params: { onlyif: '/bin/false' }, runs: false },
        { id: 'onlyif that succeeds runs', params: { onlyif: ['/bin/true', 'test -f done'] }, runs: true },
        { id: 'unless that succeeds skips', params: { unless: 'test -f done' }, runs: false },
        { id: 'refreshonly without events skips', params: { refreshonly: true }, runs: false }
    ])('$id', c => {
        const root = tempRoot();
        writeFileSync(join(root, 'done'), '');
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([res('exec', 'touch ran', { path: ['/usr/bin', '/bin'], ...c.params })]), { root });
        expect(lines).toEqual(c.runs ? ['notice: /Stage[main]/Main/Exec[touch ran]/returns: executed successfully'] : []);
    });

    it('runs in cwd under the root with the environment given; output is logged on failure', () => {
        const root = tempRoot();
        mkdirSync(join(root, 'work'));
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([
            res('exec', 'env', { command: 'echo "$GREETING" > out', cwd: '/work', environment: ['GREETING=hello'], path: '/bin:/usr/bin' }),
            res('exec', 'noisy', { command: 'echo oops; exit 3', path: '/bin', returns: [0n, 2n] })
        ]), { root });
        expect(readFileSync(join(root, 'work/out'), 'utf8')).toBe('hello\n');
        expect(lines.slice(1)).toEqual([
            'err: /Stage[main]/Main/Exec[noisy]/returns: oops',
            "err: 'echo oops; exit 3' returned 3 instead of one of [0,2]",
            "err: /Stage[main]/Main/Exec[noisy]/returns: change from 'notrun' to ['0', '2'] failed: 'echo oops; exit 3' returned 3 instead of one of [0,2]"
        ]);
    });

    it('a Sensitive command never reaches a log line', () => {
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([res('exec', 'secret', { command: new PSensitive('echo hunter2; exit 1'), path: '/bin' }, ['command'])]), { root: tempRoot(), debug: true });
        expect(lines.join('\n')).not.toContain('hunter2');
        expect(lines).toContain("err: '[command redacted]' returned 1 instead of one of [0]");
    });

    it('an unqualified command without a path is rejected like Puppet', () => {
        const { registry } = newRegistry();
        expect(run(registry, catalogOf([res('exec', 'app migrate')])).lines).toEqual([
            "err: Validation of Exec[app migrate] failed: 'app' is not qualified and no path was specified. Please qualify the command or specify a path. (file: site.pp, line: 1)"]);
    });

    it('a command not found fails only that resource', () => {
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([res('exec', 'nosuchcommand-xyz', { path: ['/bin'] }), res('notify', 'n')]), { root: tempRoot() });
        // As puppet apply printed it: the harness logs the exception, then the failed change.
        expect(lines.slice(0, 2)).toEqual([
            "err: Could not find command 'nosuchcommand-xyz'",
            "err: /Stage[main]/Main/Exec[nosuchcommand-xyz]/returns: change from 'notrun' to ['0'] failed: Could not find command 'nosuchcommand-xyz'"
        ]);
        expect(lines).toContain('notice: n');
    });

    it('a refresh that fails is reported, then its exception on the resource, as puppet apply prints it', () => {
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([
            res('exec', 't', { command: '/bin/true' }),
            res('exec', 'f2', { command: '/bin/true', refreshonly: true, returns: [3n] })
        ], [{ source: 'Exec[t]', target: 'Exec[f2]', kind: 'notify', declaredBy: 'Exec[f2]' }]), { root: tempRoot() });
        expect(lines.filter(l => l.startsWith('err:'))).toEqual([
            "err: /Stage[main]/Main/Exec[f2]: Failed to call refresh: '/bin/true' returned 0 instead of one of [3]",
            "err: /Stage[main]/Main/Exec[f2]: '/bin/true' returned 0 instead of one of [3]"
        ]);
    });
});

describe('file', () => {
    it('copies a local source (under the root) and checks it by checksum', () => {
        const root = tempRoot();
        mkdirSync(join(root, 'src'));
        writeFileSync(join(root, 'src/a'), 'data\n');
        const { registry } = newRegistry();
        const cat = catalogOf([res('file', '/copy', { source: '/src/a' }), res('file', '/bad', { source: '/src/none' })]);
        const { lines } = run(registry, cat, { root });
        expect(lines[0]).toMatch(/^notice: \/Stage\[main\]\/Main\/File\[\/copy\]\/ensure: defined content as '\{sha256\}[0-9a-f]{64}'$/);
        expect(lines[1]).toBe('err: /Stage[main]/Main/File[/bad]: Could not evaluate: Could not retrieve information from environment production source(s) file:/src/none');
        expect(readFileSync(join(root, 'copy'), 'utf8')).toBe('data\n');
        expect(run(registry, cat, { root }).lines.filter(l => l.includes('copy'))).toEqual([]);
    });

    it('validates paths and modes', () => {
        const { registry } = newRegistry();
        expect(run(registry, catalogOf([res('file', 'relative')])).lines).toEqual(["err: Parameter path failed on File[relative]: File paths must be fully qualified, not 'relative' (file: site.pp, line: 1)"]);
        expect(run(registry, catalogOf([res('file', '/x', { mode: 'u+rwx' })])).lines).toEqual(['err: Parameter mode failed on File[/x]: The file mode specification is invalid: "u+rwx" (file: site.pp, line: 1)']);
    });

    it('a trailing slash in the title is not part of the path', () => {
        const root = tempRoot();
        const { registry } = newRegistry();
        expect(run(registry, catalogOf([res('file', '/dir//', { ensure: 'directory' })]), { root }).lines).toEqual(['notice: /Stage[main]/Main/File[/dir//]/ensure: created']);
    });
});

describe('user, group, package, service report what they would do under a root', () => {
    // Nothing ran, so no change is reported as made: each is a noop with the command it would have run.
    it('reads the accounts below the root and reports the commands it would run', () => {
        const root = tempRoot();
        mkdirSync(join(root, 'etc'));
        writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\napp:x:2000:2000::/srv/app:/bin/sh\n');
        writeFileSync(join(root, 'etc/group'), 'root:x:0:\napp:x:2000:\n');
        const { registry } = newRegistry();
        const { lines } = run(registry, catalogOf([
            res('group', 'app', { ensure: 'present', gid: 2000n }),
            res('user', 'app', { ensure: 'present', uid: 2000n, shell: '/usr/sbin/nologin', password: 'secret' }, ['password']),
            res('user', 'bob', { ensure: 'present', uid: 3000n, managehome: true }),
            res('package', 'app', { ensure: '1.2.3-1', install_options: ['--no-install-recommends'] }),
            res('service', 'app', { ensure: 'running', enable: true })
        ]), { root, debug: true });
        expect(lines.join('\n')).not.toContain('secret');
        const shown = lines.filter(l => !l.startsWith('debug'));
        expect(shown).toEqual([
            `info: /Stage[main]/Main/User[app]: Would run: usermod -s /usr/sbin/nologin app (system tools are not used under --root ${root})`,
            "notice: /Stage[main]/Main/User[app]/shell: current_value '/bin/sh', should be '/usr/sbin/nologin' (noop)",
            `info: /Stage[main]/Main/User[app]: Would run: usermod -p [redacted] app (system tools are not used under --root ${root})`,
            'notice: /Stage[main]/Main/User[app]/password: current_value [redacted], should be [redacted] (noop)',
            `info: /Stage[main]/Main/User[bob]: Would run: useradd -u 3000 -m bob (system tools are not used under --root ${root})`,
            "notice: /Stage[main]/Main/User[bob]/ensure: current_value 'absent', should be 'present' (noop)",
            `info: /Stage[main]/Main/Package[app]: Would run: apt-get -q -y --no-install-recommends install app=1.2.3-1 (system tools are not used under --root ${root})`,
            "notice: /Stage[main]/Main/Package[app]/ensure: current_value 'absent', should be '1.2.3-1' (noop)",
            `info: /Stage[main]/Main/Service[app]: Would run: systemctl start app (system tools are not used under --root ${root})`,
            "notice: /Stage[main]/Main/Service[app]/ensure: current_value 'stopped', should be 'running' (noop)",
            "notice: Class[Main]: Would have triggered 'refresh' from 5 events",
            "notice: Stage[main]: Would have triggered 'refresh' from 1 event"
        ]);
    });
});

describe('the core types accept what the compiler accepts', () => {
    it.each(['notify', 'file', 'exec', 'user', 'group', 'package', 'service'])('%s', async name => {
        const { coreType } = await import('../../src/catalog/core-types.js');
        const { coreTypes, METAPARAMS } = await import('../../src/apply/index.js');
        const ours = coreTypes().find(t => t.name === name);
        const compiler = coreType(name);
        expect([...(compiler?.attributes ?? [])].filter(a => !ours?.attr(a) && !METAPARAMS.has(a))).toEqual([]);
    });
});
