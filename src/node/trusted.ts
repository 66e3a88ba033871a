import type { PuppetValue } from '../values/index.js';

/**
 * `$trusted` as a Puppet server builds it for an agent certificate: authenticated 'remote',
 * the certname, no extensions, no external data. `overrides` (a --trusted file) may replace
 * authenticated, certname, extensions and external; hostname and domain always follow the
 * certname in force (split at its first dot; no dot leaves domain undef), as Puppet's
 * TrustedInformation does.
 */
export function trustedFor(certname: string, overrides: ReadonlyMap<string, PuppetValue> = new Map()): Map<string, PuppetValue> {
    // Ruby's Hash#fetch: a key given with an empty value still replaces the default.
    const given = (k: string, otherwise: PuppetValue): PuppetValue => (overrides.has(k) ? overrides.get(k) ?? null : otherwise);
    const cn = given('certname', certname);
    const name = typeof cn === 'string' ? cn : certname;
    const dot = name.indexOf('.');
    return new Map<string, PuppetValue>([
        ['authenticated', given('authenticated', 'remote')],
        ['certname', name],
        ['extensions', given('extensions', new Map())],
        ['hostname', dot < 0 ? name : name.slice(0, dot)],
        ['domain', dot < 0 ? null : name.slice(dot + 1)],
        ['external', given('external', new Map())]
    ]);
}
