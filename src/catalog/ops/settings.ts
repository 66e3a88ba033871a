import type { PuppetValue } from '../../values/index.js';

/**
 * The settings Puppet's `settings` class holds as variables (`$settings::ssldir`), with the
 * defaults of Debian's puppet-agent 7 compiling as root. Only settings whose default depends
 * neither on the directories of a particular installation (vardir, confdir, codedir ...) nor on
 * the compiling host's name (certname, hostcert ...) are here: modelc has no such host.
 */
const SSLDIR = '/var/lib/puppet/ssl';
const CADIR = '/etc/puppet/puppetserver/ca';
const DEFAULTS: ReadonlyArray<readonly [string, PuppetValue]> = [
    ['always_retry_plugins', true], ['ca_port', 8140n], ['ca_server', 'puppet'], ['cacert', `${CADIR}/ca_crt.pem`], ['cadir', CADIR],
    ['certdir', `${SSLDIR}/certs`], ['digest_algorithm', 'sha256'], ['disable_warnings', []], ['environment_timeout', 0n], ['freeze_main', false],
    ['group', 'puppet'], ['hostcrl', `${SSLDIR}/crl.pem`], ['localcacert', `${SSLDIR}/certs/ca.pem`], ['masterport', 8140n], ['max_errors', 10n],
    ['max_warnings', 10n], ['node_terminus', 'plain'], ['noop', false], ['preferred_serialization_format', 'json'], ['privatedir', `${SSLDIR}/private`],
    ['privatekeydir', `${SSLDIR}/private_keys`], ['publickeydir', `${SSLDIR}/public_keys`], ['report', true], ['reports', 'store'],
    ['requestdir', `${SSLDIR}/certificate_requests`], ['rich_data', true], ['runinterval', 1800n], ['server', 'puppet'], ['serverport', 8140n],
    ['splay', false], ['ssldir', SSLDIR], ['storeconfigs', false], ['strict', 'warning'], ['strict_variables', false], ['tags', ''], ['user', 'puppet']
];

/** The settings variables of a compilation: the defaults, the given settings (typed as their defaults are), the environment. */
export function settingsVariables(environment: string, given: ReadonlyMap<string, string>): Map<string, PuppetValue> {
    const out = new Map<string, PuppetValue>(DEFAULTS);
    for (const [name, text] of given) {
        const d = out.get(name);
        out.set(name, typeof d === 'boolean' ? text === 'true' : typeof d === 'bigint' && /^-?\d+$/.test(text) ? BigInt(text) : text);
    }
    out.set('environment', environment);
    return out;
}
