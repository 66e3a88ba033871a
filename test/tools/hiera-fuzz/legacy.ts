/**
 * --legacy: Puppet 4's data provider settings added to a generated scenario: environment.conf's
 * `environment_data_provider` and a module's metadata.json `data_provider` (none, hiera, function,
 * or an unknown name), the legacy `environment::data` / `MODULE::data` functions (Puppet language
 * or Ruby), and module metadata Puppet may refuse (fields missing). Drawn from the scenario's name,
 * so the scenarios of a seed stay the same with and without it, but for these files.
 */
import { Rng } from './rng.ts';
import type { Scenario } from './scenario.ts';

const ENV_KEYS = ['common_str', 'message', 'packages', 'users', 'settings', 'profile::web::vhosts', 'ntp::servers', 'mod_a::name'];
const MODULE_KEYS = ['name', 'list', 'conf', 'msg'];

function seedOf(name: string): number {
    let h = 7;
    for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return h;
}

/** A Puppet hash literal of some keys, each with a value naming where it came from. */
function hashLiteral(rng: Rng, keys: readonly string[], from: string): string {
    const entries = rng.sample(keys, rng.int(1, keys.length)).map(k => {
        const v = rng.pick([`'${from} ${k}'`, `['${from}', '${k}']`, `{ '${from}' => '${k}', 'n' => ${rng.int(0, 9)} }`]);
        return `'${k}' => ${v}`;
    });
    return `{ ${entries.join(', ')} }`;
}

function rubyHashLiteral(rng: Rng, keys: readonly string[], from: string): string {
    return `{ ${rng.sample(keys, rng.int(1, keys.length)).map(k => `'${k}' => ${rng.pick([`'${from} ${k}'`, `['${from}', '${k}']`])}`).join(', ')} }`;
}

function provider(rng: Rng, errors: number): string {
    return rng.chance(errors) ? 'bogus' : rng.pick(['function', 'function', 'hiera', 'none']);
}

export function addLegacyProviders(sc: Scenario, errors: number): void {
    const rng = new Rng(seedOf(sc.name));
    const modules = [...new Set([...sc.files.keys()].map(f => /^modules\/([^/]+)\//.exec(f)?.[1]).filter((m): m is string => m !== undefined))];
    if (rng.chance(0.6)) {
        const p = provider(rng, errors);
        sc.tags.add(`legacy.env.${p}`);
        sc.files.set('environment.conf', `environment_data_provider = ${p}\n`);
        if (p === 'function') {
            if (rng.chance(0.7)) {
                sc.files.set('functions/environment/data.pp', `function environment::data() {\n  $h = ${hashLiteral(rng, ENV_KEYS, 'env fn')}\n  $h\n}\n`);
            } else if (rng.chance(0.8)) {
                sc.tags.add('legacy.env.ruby');
                sc.files.set('lib/puppet/functions/environment/data.rb', `Puppet::Functions.create_function(:'environment::data') do\n  def data\n    ${rubyHashLiteral(rng, ENV_KEYS, 'env rb')}\n  end\nend\n`);
            } else sc.tags.add('legacy.env.missing-function');
        }
    }
    for (const mod of modules) {
        if (!rng.chance(0.6)) continue;
        const p = provider(rng, errors);
        sc.tags.add(`legacy.module.${p}`);
        const complete = !rng.chance(Math.max(errors, 0.1));
        if (!complete) sc.tags.add('legacy.module.incomplete-metadata');
        const meta: Record<string, unknown> = { name: `me-${mod}`, version: '1.0.0', data_provider: p };
        if (complete) Object.assign(meta, { author: 'me', license: 'Apache-2.0', source: 'https://example.com', dependencies: [] });
        sc.files.set(`modules/${mod}/metadata.json`, `${JSON.stringify(meta, null, 2)}\n`);
        if (p === 'function') {
            const keys = [...MODULE_KEYS.map(k => `${mod}::${k}`), ...(rng.chance(0.3) ? ['common_str'] : [])];
            sc.files.set(`modules/${mod}/functions/data.pp`, `function ${mod}::data() {\n  $h = ${hashLiteral(rng, keys, `${mod} fn`)}\n  $h\n}\n`);
        }
    }
}
