import type { ClassicResource } from '../dsl/resource.js';
import { newtype, type ClassicType } from '../dsl/type.js';
import { ABSENT, toS, type DslValue } from '../dsl/values.js';
import { runSystemCommand } from './system-command.js';
import { readDb } from './system-db.js';

function root(r: ClassicResource): string {
    return r.env?.root ?? '/';
}

function flag(r: ClassicResource, name: string, option: string): string[] {
    const v = r.get(name);
    if (v === undefined) return [];
    return [option, Array.isArray(v) ? v.map(toS).join(',') : toS(v)];
}

/** `group`, read from /etc/group under the root; changes go through groupadd/groupmod/groupdel. */
export function groupType(): ClassicType {
    return newtype('group', t => {
        t.desc('Manage groups.');
        t.ensurable();
        t.newparam('name', { namevar: true });
        t.newproperty('gid', p => p.munge(v => toS(v)));
        t.newproperty('members', { arrayMatching: 'all' });
        for (const n of ['system', 'allowdupe', 'auth_membership', 'forcelocal', 'provider', 'attribute_membership', 'ia_load_module', 'attributes']) t.newparam(n);
        t.provide({
            name: 'groupadd',
            isDefault: true,
            create: r => {
                const entry = (): ReturnType<typeof readDb>[number] | undefined => readDb(root(r), '/etc/group').find(e => e.name === r.title);
                return {
                    name: 'groupadd',
                    exists: () => entry() !== undefined,
                    create: () => runSystemCommand(r, ['groupadd', ...flag(r, 'gid', '-g'), ...(r.is('system') ? ['-r'] : []), r.title]),
                    destroy: () => runSystemCommand(r, ['groupdel', r.title]),
                    get: (prop: string): DslValue => {
                        const e = entry();
                        if (!e) return ABSENT;
                        if (prop === 'gid') return String(e.id);
                        if (prop === 'members') return (e.fields[3] ?? '').split(',').filter(m => m !== '');
                        return ABSENT;
                    },
                    set: (prop: string, value: DslValue) => runSystemCommand(r, prop === 'gid' ? ['groupmod', '-g', toS(value), r.title] : ['gpasswd', '-M', (Array.isArray(value) ? value : [value]).map(toS).join(','), r.title])
                };
            }
        });
    });
}

/** `user`, read from /etc/passwd under the root; changes go through useradd/usermod/userdel. */
export function userType(): ClassicType {
    return newtype('user', t => {
        t.desc('Manage users.');
        t.ensurable();
        t.newparam('name', { namevar: true });
        t.newproperty('uid', p => p.munge(v => toS(v)));
        t.newproperty('gid', p => p.munge(v => toS(v)));
        t.newproperty('groups', { arrayMatching: 'all' }, p => p.insync(function (is) {
            const want = this.shouldArray.map(toS).sort();
            return Array.isArray(is) && want.every(g => is.map(toS).includes(g));
        }));
        t.newproperty('home');
        t.newproperty('shell');
        t.newproperty('comment');
        t.newproperty('password', p => p.sensitive());
        for (const n of ['managehome', 'system', 'purge_ssh_keys', 'provider', 'membership', 'expiry', 'allowdupe', 'forcelocal',
            'password_max_age', 'password_min_age', 'password_warn_days', 'roles', 'auths', 'profiles', 'keys', 'attributes', 'iterations', 'salt', 'loginclass', 'project', 'role_membership', 'profile_membership', 'key_membership', 'auth_membership', 'attribute_membership', 'ia_load_module']) {
            t.newparam(n);
        }
        t.provide({
            name: 'useradd',
            isDefault: true,
            create: r => {
                const entry = (): ReturnType<typeof readDb>[number] | undefined => readDb(root(r), '/etc/passwd').find(e => e.name === r.title);
                const groupsOf = (): string[] => readDb(root(r), '/etc/group').filter(g => (g.fields[3] ?? '').split(',').includes(r.title)).map(g => g.name);
                return {
                    name: 'useradd',
                    exists: () => entry() !== undefined,
                    create: () => runSystemCommand(r, ['useradd', ...flag(r, 'uid', '-u'), ...flag(r, 'gid', '-g'), ...flag(r, 'groups', '-G'),
                        ...flag(r, 'home', '-d'), ...flag(r, 'shell', '-s'), ...flag(r, 'comment', '-c'), ...(r.is('managehome') ? ['-m'] : []), ...(r.is('system') ? ['-r'] : []), r.title]),
                    destroy: () => runSystemCommand(r, ['userdel', r.title]),
                    get: (prop: string): DslValue => {
                        const e = entry();
                        if (!e) return ABSENT;
                        switch (prop) {
                            case 'uid': return String(e.id);
                            case 'gid': return e.fields[3];
                            case 'comment': return e.fields[4];
                            case 'home': return e.fields[5];
                            case 'shell': return e.fields[6];
                            case 'groups': return groupsOf();
                            default: return ABSENT;
                        }
                    },
                    set: (prop: string, value: DslValue) => {
                        const option = { uid: '-u', gid: '-g', groups: '-G', home: '-d', shell: '-s', comment: '-c', password: '-p' }[prop] ?? `--${prop}`;
                        const arg = Array.isArray(value) ? value.map(toS).join(',') : toS(value);
                        runSystemCommand(r, ['usermod', option, arg, r.title], r.isSensitive(prop) ? [arg] : []);
                    }
                };
            }
        });
    });
}
