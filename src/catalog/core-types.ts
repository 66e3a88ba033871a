/**
 * The core resource types Puppet 7 still ships (others, like `host`, moved to modules): their
 * namevar and their parameters and properties, from Puppet's type definitions. A resource of
 * any other type must be a defined type; unknown parameters fail when the catalog is finished.
 */
export interface CoreType {
    readonly namevar: string;
    readonly attributes: ReadonlySet<string>;
}

export const METAPARAMS: ReadonlySet<string> = new Set([
    'noop', 'schedule', 'audit', 'loglevel', 'alias', 'tag', 'require', 'subscribe', 'before', 'notify', 'stage'
]);

export const RELATIONSHIP_PARAMS: ReadonlySet<string> = new Set(['require', 'subscribe', 'before', 'notify']);

function type(namevar: string, attrs: string): CoreType {
    return { namevar, attributes: new Set([namevar, ...attrs.split(/\s+/).filter(a => a !== '')]) };
}

const CORE: ReadonlyMap<string, CoreType> = new Map([
    ['notify', type('name', 'message withpath')],
    ['file', type('path', 'ensure backup recurse recurselimit max_files replace force ignore links purge sourceselect show_diff '
        + 'staging_location validate_cmd validate_replacement checksum checksum_value content ctime group mode mtime owner '
        + 'selinux_ignore_defaults seluser selrole seltype selrange source source_permissions target type provider')],
    ['exec', type('command', 'returns path user group cwd logoutput refresh environment umask timeout tries try_sleep onlyif unless '
        + 'creates refreshonly provider')],
    ['package', type('name', 'ensure command package_settings flavor source instance status adminfile responsefile configfiles category '
        + 'platform root vendor description allowcdrom enable_only install_only install_options uninstall_options allow_virtual '
        + 'reinstall_on_refresh mark provider')],
    ['service', type('name', 'enable ensure logonaccount logonpassword flags binary hasstatus hasrestart path pattern restart start status '
        + 'stop control manifest timeout provider')],
    ['user', type('name', 'ensure home uid gid comment shell password password_min_age password_max_age password_warn_days groups '
        + 'membership system allowdupe managehome expiry roles role_membership auths auth_membership profiles profile_membership keys '
        + 'key_membership project ia_load_module attributes attribute_membership salt iterations forcelocal purge_ssh_keys loginclass provider')],
    ['group', type('name', 'ensure gid members auth_membership allowdupe ia_load_module attributes attribute_membership system forcelocal provider')],
    ['stage', type('name', '')],
    ['schedule', type('name', 'range periodmatch period repeat weekday')],
    ['resources', type('name', 'purge unless_system_user unless_uid')],
    ['tidy', type('path', 'recurse max_files matches backup age size type rmdirs')],
    ['filebucket', type('name', 'server port path')],
    ['whit', type('name', '')],
    ['component', type('name', '')]
]);

export function coreType(name: string): CoreType | undefined {
    return CORE.get(name.toLowerCase());
}
