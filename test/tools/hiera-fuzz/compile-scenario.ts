/**
 * Compile scenarios: the same generated Hiera environments, with a site.pp that reads them the
 * ways a catalog does: automatic class parameter lookup, lookup() with a type, merge and
 * default, a lambda default, an options hash (default_value, default_values_hash, override,
 * value_type), several names, and the hiera(), hiera_array() and hiera_hash() functions.
 */
import { parse, stringify } from 'yaml';
import type { Rng } from './rng.ts';
import { generateScenario, type GenerateOptions, type Scenario } from './scenario.ts';

const ENV_KEYS = ['common_str', 'common_int', 'message', 'packages', 'ports', 'users', 'settings', 'flag', 'mixed', 'profile::base::motd', 'profile::web::vhosts', 'ntp::servers', 'dotted.root', 'settings.a', 'users.alice', 'packages.0'];
const MISSING = ['no_such_key', 'mod_c::x', 'profile::nothing'];

function q(s: string): string {
    return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function pick(rng: Rng, keys: readonly string[]): string {
    return rng.chance(0.15) ? rng.pick(MISSING) : rng.pick(keys);
}

/** A Puppet expression that reads Hiera, and what it exercises. */
function lookupExpression(rng: Rng, keys: readonly string[], tags: Set<string>): string {
    const key = pick(rng, keys);
    const dflt = (): string => rng.pick(["'dflt'", '42', '[]', '{}', 'undef', "['a']", "{'a' => 1}"]);
    const merge = (): string => rng.pick(["'first'", "'unique'", "'hash'", "'deep'", "{'strategy' => 'deep', 'knockout_prefix' => '--', 'sort_merged_arrays' => true}", 'undef']);
    const type = (): string => rng.pick(['Any', 'Data', 'String', 'Array', 'Hash', 'Optional[String]', 'Array[String]', 'Integer', 'Variant[String, Integer]', 'NotUndef', 'Scalar']);
    const kind = rng.weighted({ plain: 3, full: 3, lambda: 2, names: 1, hashOpts: 3, keyOpts: 2, hiera: 1, hieraArray: 1, hieraHash: 1 });
    tags.add(`compile.${kind}`);
    switch (kind) {
        case 'plain': return `lookup(${q(key)}${rng.chance(0.7) ? `, undef, undef, ${dflt()}` : ''})`;
        case 'full': return `lookup(${q(key)}, ${type()}, ${merge()}${rng.chance(0.8) ? `, ${dflt()}` : ''})`;
        case 'lambda': return `lookup(${q(key)}${rng.chance(0.5) ? `, ${type()}` : ''}) |$k| { "no value for \${k}" }`;
        case 'names': return `lookup([${q(pick(rng, keys))}, ${q(key)}], undef, undef, ${dflt()})`;
        case 'hashOpts': {
            const opts = [`'name' => ${q(key)}`];
            if (rng.chance(0.5)) opts.push(`'merge' => ${merge()}`);
            if (rng.chance(0.7)) opts.push(`'default_value' => ${dflt()}`);
            if (rng.chance(0.3)) opts.push(`'value_type' => ${type()}`);
            if (rng.chance(0.2)) opts.push(`'default_values_hash' => {${q(key)} => 'from dvh'}`);
            if (rng.chance(0.2)) opts.push(`'override' => {${q(key)} => 'overridden'}`);
            return `lookup({${opts.join(', ')}})`;
        }
        case 'keyOpts': {
            const opts: string[] = [];
            if (rng.chance(0.6)) opts.push(`'default_value' => ${dflt()}`);
            if (rng.chance(0.4)) opts.push(`'merge' => ${merge()}`);
            if (rng.chance(0.3)) opts.push(`'value_type' => ${type()}`);
            return `lookup(${q(key)}, {${opts.join(', ')}})`;
        }
        case 'hiera': return `hiera(${q(key)}${rng.chance(0.7) ? `, ${dflt()}` : ''})`;
        case 'hieraArray': return `hiera_array(${q(key)}${rng.chance(0.7) ? ', []' : ''})`;
        case 'hieraHash': return `hiera_hash(${q(key)}${rng.chance(0.7) ? ', {}' : ''})`;
    }
    return `lookup(${q(key)})`;
}

/** A module class whose parameters come from automatic parameter lookup. */
function moduleClass(mod: string, rng: Rng): string {
    const typed = rng.chance(0.4);
    const params = [
        `${typed ? 'Array ' : ''}$list = []`,
        `${typed ? 'Hash ' : ''}$conf = {}`,
        `$msg = 'class default'`,
        `$extra = undef`
    ];
    return `class ${mod}(\n  ${params.join(',\n  ')},\n) {\n  notice("${mod}: list=\${list} conf=\${conf} msg=\${msg} extra=\${extra}")\n}\n`;
}

export function generateCompileScenario(name: string, rng: Rng, opts: GenerateOptions): Scenario {
    const sc = generateScenario(name, rng.fork(), opts);
    const modules = [...sc.files.keys()].map(f => /^modules\/([^/]+)\//.exec(f)?.[1]).filter((m): m is string => m !== undefined);
    const mods = [...new Set(modules)];
    const keys = [...ENV_KEYS, ...mods.flatMap(m => [`${m}::name`, `${m}::list`, `${m}::conf`, `${m}::msg`])];
    const lines: string[] = [];
    for (const mod of mods) sc.files.set(`modules/${mod}/manifests/init.pp`, moduleClass(mod, rng));
    const n = rng.int(3, 9);
    for (let i = 0; i < n; i++) {
        if (mods.length > 0 && rng.chance(0.2)) {
            const mod = rng.pick(mods);
            if (rng.chance(0.5)) lines.push(`include ${mod}`);
            else lines.push(`class { '${mod}': ${rng.chance(0.5) ? "msg => 'given'" : ''} }`);
            sc.tags.add('compile.class-params');
            continue;
        }
        const expr = lookupExpression(rng, keys, sc.tags);
        lines.push(rng.chance(0.3) ? `$v${i} = ${expr}\nnotice("v${i}: \${v${i}}")` : `notice(${expr})`);
    }
    if (opts.wide && rng.chance(0.5)) classesFromHiera(sc, rng, mods, lines);
    if (opts.wide && rng.chance(0.5)) scopedLookups(sc, rng, mods, keys, lines);
    sc.files.set('manifests/site.pp', `${lines.join('\n')}\n`);
    sc.queries.length = 0;
    return sc;
}

/** The environment's hiera.yaml when it is a version 5 file with a hierarchy (levels may be added to it). */
function versionFiveConfig(sc: Scenario): { version: 5; defaults?: { datadir?: string }; hierarchy: unknown[] } | undefined {
    const text = sc.files.get('hiera.yaml');
    if (text === undefined) return undefined;
    let config: { version?: unknown; defaults?: { datadir?: string }; hierarchy?: unknown[] } | null;
    try {
        config = parse(text) as typeof config;
    } catch {
        return undefined;
    }
    return config?.version === 5 && Array.isArray(config.hierarchy) ? config as { version: 5; defaults?: { datadir?: string }; hierarchy: unknown[] } : undefined;
}

/**
 * Classes named in Hiera data and included from it (hiera_include, lookup(...).include): two
 * levels of a `classes` key added to a version 5 environment hierarchy, maybe with lookup_options.
 */
function classesFromHiera(sc: Scenario, rng: Rng, mods: readonly string[], lines: string[]): void {
    const config = versionFiveConfig(sc);
    if (!config) return;
    sc.tags.add('compile.hiera-include');
    const datadir = config.defaults?.datadir ?? 'data';
    const pool = [...mods, ...(rng.chance(0.2) ? ['no_such_class'] : [])];
    const levels = [{ name: 'classes node', data_hash: 'yaml_data', path: 'classes/node.yaml' }, { name: 'classes common', data_hash: 'yaml_data', path: 'classes/common.yaml' }];
    const at = rng.int(0, config.hierarchy.length);
    config.hierarchy.splice(at, 0, ...levels);
    sc.files.set('hiera.yaml', stringify(config));
    const write = (file: string, withOptions: boolean): void => {
        const data: Record<string, unknown> = { classes: rng.sample(pool, rng.int(0, pool.length)) };
        if (withOptions) data.lookup_options = { classes: { merge: rng.pick(['unique', 'first', 'deep']) } };
        sc.files.set(`${datadir}/classes/${file}`, stringify(data));
    };
    write('node.yaml', false);
    if (rng.chance(0.8)) write('common.yaml', rng.chance(0.4));
    lines.push(rng.pick([
        "hiera_include('classes')",
        "hiera_include('classes', [])",
        "lookup('classes', Array[String], 'unique', []).include",
        "include lookup('classes', { 'default_value' => [] })",
        "lookup('classes', { 'merge' => 'unique', 'default_value' => [] }).each |$c| { include $c }"
    ]));
}

/**
 * Lookups made from a node block, a class or after a top-scope assignment, with a hierarchy level
 * interpolating a variable set there (`%{scope_var}` as the calling scope sees it, or `%{::scope_var}`):
 * Hiera resolves paths and data in the scope the lookup is made from.
 */
function scopedLookups(sc: Scenario, rng: Rng, mods: readonly string[], keys: readonly string[], lines: string[]): void {
    const config = versionFiveConfig(sc);
    if (!config) return;
    const form = rng.pick(['node', 'class', 'top'] as const);
    sc.tags.add(`compile.scope-${form}`);
    const variable = rng.pick(['scope_var', '::scope_var']);
    config.hierarchy.splice(rng.int(0, config.hierarchy.length), 0, { name: 'scoped', data_hash: 'yaml_data', path: `scoped/%{${variable}}.yaml` });
    sc.files.set('hiera.yaml', stringify(config));
    const data: Record<string, unknown> = {};
    for (const k of rng.sample([...keys.filter(k => !k.includes('.')), ...mods.map(m => `${m}::msg`)], rng.int(2, 5))) data[k] = `scoped ${k}`;
    sc.files.set(`${config.defaults?.datadir ?? 'data'}/scoped/web.yaml`, stringify(data));
    const body: string[] = [];
    for (let i = 0; i < rng.int(1, 4); i++) {
        if (mods.length > 0 && rng.chance(0.3)) body.push(`include ${rng.pick(mods)}`);
        else body.push(`notice(lookup(${q(rng.pick(Object.keys(data)))}, undef, undef, 'dflt'))`);
    }
    const inner = `  $scope_var = 'web'\n${body.map(l => `  ${l}`).join('\n')}`;
    if (form === 'node') lines.push(`node default {\n${inner}\n}`);
    else if (form === 'class') lines.push(`class scoped_wrap {\n${inner}\n}\ninclude scoped_wrap`);
    else lines.push(...inner.split('\n').map(l => l.trim()));
}
