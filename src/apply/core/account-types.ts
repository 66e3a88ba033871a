import type { ClassicResource } from '../dsl/resource.js';
import { newtype, type ClassicType } from '../dsl/type.js';
import { ABSENT, toS, type DslValue } from '../dsl/values.js';
import type { RunEnvironment } from '../run/harness.js';
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

/** Puppet's uid/gid munge: a numeric string is an Integer; a name stays a name. */
function numericId(v: DslValue): DslValue {
    if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
    if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
    return v;
}

/** An id field of the account databases as the providers report it (an Integer when numeric). */
function idField(text: string | undefined): DslValue {
    return text !== undefined && /^-?\d+$/.test(text) ? BigInt(text) : text ?? ABSENT;
}

/** The names in an account database below the root (the providers' `instances`). */
function names(env: RunEnvironment, file: '/etc/passwd' | '/etc/group'): string[] {
    return readDb(env.root, file).map(e => e.name);
}

/** `group`, read from /etc/group under the root; changes go through groupadd/groupmod/groupdel. */
export function groupType(): ClassicType {
    return newtype('group', t => {
        t.desc('Manage groups.');
        t.feature('manages_members', 'For directories where membership is an attribute of groups not users.', { methods: ['members_insync?', 'members_to_s'] });
        t.ensurable();
        t.newparam('name', { namevar: true });
        t.newproperty('gid', p => p.munge(numericId));
        t.newproperty('members', { arrayMatching: 'all', requiredFeatures: 'manages_members' });
        for (const n of ['system', 'allowdupe', 'auth_membership', 'forcelocal', 'provider', 'attribute_membership', 'ia_load_module', 'attributes']) t.newparam(n);
        t.provide({
            name: 'groupadd',
            isDefault: true,
            features: ['system_groups'],
            instances: env => names(env, '/etc/group'),
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
                        if (prop === 'gid') return idField(e.fields[2]);
                        if (prop === 'members') return (e.fields[3] ?? '').split(',').filter(m => m !== '');
                        return ABSENT;
                    },
                    set: (prop: string, value: DslValue) => runSystemCommand(r, prop === 'gid' ? ['groupmod', '-g', toS(value), r.title] : ['gpasswd', '-M', (Array.isArray(value) ? value : [value]).map(toS).join(','), r.title])
                };
            }
        });
    });
}

/** The days-since-1970 of /etc/shadow's expiry field as Puppet's useradd shows it (YYYY-MM-DD). */
function expiryDate(days: string | undefined): DslValue {
    if (days === undefined || !/^\d+$/.test(days)) return ABSENT;
    return new Date(Number(days) * 86400000).toISOString().slice(0, 10);
}

/** A password-age field of /etc/shadow: its number, -1 when empty (what getspnam reports). */
function ageField(text: string | undefined): DslValue {
    return text !== undefined && /^-?\d+$/.test(text) ? BigInt(text) : -1n;
}

/** `user`, read from /etc/passwd and /etc/shadow under the root; changes go through useradd/usermod/userdel. */
export function userType(): ClassicType {
    return newtype('user', t => {
        t.desc('Manage users.');
        t.feature('manages_passwords', 'The provider can modify user passwords, by accepting a password hash.');
        t.feature('manages_password_age', 'The provider can set age requirements and restrictions for passwords.');
        t.feature('manages_expiry', 'The provider can manage the expiry date for a user.');
        t.feature('manages_shell', 'The provider allows for setting shell and validates if possible');
        t.ensurable();
        t.newparam('name', { namevar: true });
        t.newproperty('uid', p => p.munge(numericId));
        t.newproperty('gid', p => p.munge(numericId));
        t.newproperty('groups', { arrayMatching: 'all' }, p => p.insync(function (is) {
            const want = this.shouldArray.map(toS).sort();
            return Array.isArray(is) && want.every(g => is.map(toS).includes(g));
        }));
        t.newproperty('home');
        t.newproperty('shell', { requiredFeatures: 'manages_shell' });
        t.newproperty('comment');
        t.newproperty('password', { requiredFeatures: 'manages_passwords' }, p => p.sensitive());
        for (const n of ['managehome', 'system', 'purge_ssh_keys', 'provider', 'membership']) t.newparam(n);
        t.newproperty('expiry', { requiredFeatures: 'manages_expiry' });
        for (const n of ['allowdupe', 'forcelocal']) t.newparam(n);
        for (const n of ['password_max_age', 'password_min_age', 'password_warn_days']) t.newproperty(n, { requiredFeatures: 'manages_password_age' }, p => p.munge(numericId));
        for (const n of ['roles', 'auths', 'profiles', 'keys', 'attributes', 'iterations', 'salt', 'loginclass', 'project', 'role_membership', 'profile_membership', 'key_membership', 'auth_membership', 'attribute_membership', 'ia_load_module']) {
            t.newparam(n);
        }
        t.provide({
            name: 'useradd',
            isDefault: true,
            features: ['allows_duplicates', 'manages_expiry', 'manages_homedir', 'manages_password_age', 'manages_passwords', 'manages_shell', 'system_users'],
            instances: env => names(env, '/etc/passwd'),
            create: r => {
                const entry = (): ReturnType<typeof readDb>[number] | undefined => readDb(root(r), '/etc/passwd').find(e => e.name === r.title);
                const shadow = (): readonly string[] | undefined => readDb(root(r), '/etc/shadow').find(e => e.name === r.title)?.fields;
                const groupsOf = (): string[] => readDb(root(r), '/etc/group').filter(g => (g.fields[3] ?? '').split(',').includes(r.title)).map(g => g.name);
                const fromShadow = (prop: string, s: readonly string[] | undefined): DslValue => {
                    if (!s) return ABSENT;
                    switch (prop) {
                        case 'password': return s[1] ?? ABSENT;
                        case 'password_min_age': return ageField(s[3]);
                        case 'password_max_age': return ageField(s[4]);
                        case 'password_warn_days': return ageField(s[5]);
                        default: return expiryDate(s[7]);
                    }
                };
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
                            case 'uid': return idField(e.fields[2]);
                            case 'gid': return idField(e.fields[3]);
                            case 'comment': return e.fields[4];
                            case 'home': return e.fields[5];
                            case 'shell': return e.fields[6];
                            case 'groups': return groupsOf();
                            case 'password': case 'password_min_age': case 'password_max_age': case 'password_warn_days': case 'expiry': return fromShadow(prop, shadow());
                            default: return ABSENT;
                        }
                    },
                    set: (prop: string, value: DslValue) => {
                        const option = { uid: '-u', gid: '-g', groups: '-G', home: '-d', shell: '-s', comment: '-c', password: '-p', expiry: '-e' }[prop];
                        const arg = Array.isArray(value) ? value.map(toS).join(',') : toS(value);
                        if (option === undefined) {
                            const age = { password_min_age: '-m', password_max_age: '-M', password_warn_days: '-W' }[prop] ?? `--${prop}`;
                            runSystemCommand(r, ['chage', age, arg, r.title]);
                            return;
                        }
                        runSystemCommand(r, ['usermod', option, arg, r.title], r.isSensitive(prop) ? [arg] : []);
                    }
                };
            }
        });
    });
}
