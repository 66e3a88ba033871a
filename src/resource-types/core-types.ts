import type { ResourceTypeSchema } from './schema.js';

/**
 * Builds the schema of a type the apply stage applies. `attrs` lists the attributes in definition
 * order (the order Puppet's type files declare them); a trailing `*` marks a property.
 */
function applied(name: string, namevar: string, attrs: string): ResourceTypeSchema {
    const attributes = attrs.split(/\s+/).filter(a => a !== '').map(a =>
        a.endsWith('*') ? { name: a.slice(0, -1), kind: 'property' as const } : { name: a, kind: 'param' as const });
    return { name, namevar, applied: true, attributes };
}

/** A type the compiler accepts but the apply stage does not apply (containers, server-side types). */
function compileOnly(name: string, namevar: string, params: string): ResourceTypeSchema {
    const attributes = params.split(/\s+/).filter(a => a !== '').map(a => ({ name: a, kind: 'param' as const }));
    return { name, namevar, applied: false, attributes };
}

/**
 * The core resource types Puppet 7 still ships (others, like `host`, moved to modules), as data:
 * the compiler checks resources against them and the apply stage's type definitions must agree
 * with them (apply checks its own definitions against this table when it builds them).
 */
export const CORE_RESOURCE_TYPES: readonly ResourceTypeSchema[] = [
    applied('notify', 'name', 'message* name withpath'),
    applied('file', 'path', 'path ensure* content* source mode* owner* group* target* force replace backup checksum checksum_value ignore links max_files purge recurse recurselimit selinux_ignore_defaults show_diff sourceselect validate_cmd validate_replacement source_permissions seltype selrole seluser selrange ctime* mtime* type* provider staging_location'),
    applied('exec', 'command', 'command returns* path cwd environment creates onlyif unless refresh user group umask tries try_sleep provider timeout logoutput refreshonly'),
    applied('user', 'name', 'ensure* name uid* gid* groups* home* shell* comment* password* managehome system purge_ssh_keys provider membership expiry* allowdupe forcelocal password_max_age* password_min_age* password_warn_days* roles auths profiles keys attributes iterations salt loginclass project role_membership profile_membership key_membership auth_membership attribute_membership ia_load_module'),
    applied('group', 'name', 'ensure* name gid* members* system allowdupe auth_membership forcelocal provider attribute_membership ia_load_module attributes'),
    applied('package', 'name', 'name ensure* install_options uninstall_options source provider configfiles responsefile adminfile allowcdrom category description flavor instance platform root status vendor reinstall_on_refresh mark package_settings command enable_only install_only allow_virtual'),
    applied('service', 'name', 'name ensure* enable* hasrestart hasstatus restart start stop status pattern provider binary path flags manifest timeout control logonaccount logonpassword'),
    compileOnly('stage', 'name', ''),
    compileOnly('schedule', 'name', 'range periodmatch period repeat weekday'),
    compileOnly('resources', 'name', 'purge unless_system_user unless_uid'),
    compileOnly('tidy', 'path', 'recurse max_files matches backup age size type rmdirs'),
    compileOnly('filebucket', 'name', 'server port path'),
    compileOnly('whit', 'name', ''),
    compileOnly('component', 'name', '')
];

const byName = new Map(CORE_RESOURCE_TYPES.map(t => [t.name, t]));

/** The schema of a core type, by name in any case; undefined for defined types and unknown names. */
export function coreResourceType(name: string): ResourceTypeSchema | undefined {
    return byName.get(name.toLowerCase());
}
