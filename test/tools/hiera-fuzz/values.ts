/**
 * Data values for generated Hiera data files: scalars of every YAML type Psych reads, arrays and
 * hashes drawn from small pools (so merges overlap), knockout entries and interpolations.
 */
import { arr, int, map, str, type MapKey, type V } from './emit.ts';
import type { Rng } from './rng.ts';

export type Format = 'yaml' | 'json' | 'hocon';
export type Shape = 'scalar' | 'string' | 'array' | 'hash' | 'deep' | 'any';

export interface ValueContext {
    readonly rng: Rng;
    readonly format: Format;
    /** Keys that interpolations may look up (`lookup('k')`, `alias('k')`). */
    readonly keys: readonly string[];
    /** Probability of an interpolation inside a generated string. */
    readonly interp: number;
    /** Probability of an interpolation that fails (unknown method, alias not alone, ...). */
    readonly badInterp: number;
    /** Feature tags collected while generating. */
    readonly tags: Set<string>;
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'ntp1', 'ntp2', 'web', 'db', 'x', 'y', 'z', 'Value', 'two words', 'a:b', 'path/to'];
const HASH_KEYS = ['a', 'b', 'c', 'name', 'port', 'opts', 'list', 'dotted.key', 'k1', 'k2'];

/** YAML scalars as Psych reads them, with what JSON/HOCON files write instead. */
const RAW_SCALARS: readonly [string, V, string][] = [
    ['0755', int(493), 'yaml.octal'], ['0o17', int(15), 'yaml.octal'], ['0x1F', int(31), 'yaml.hex'], ['0b101', int(5), 'yaml.binary-int'],
    ['1_000', int(1000), 'yaml.underscore'], ['1,000', int(1000), 'yaml.comma'], ['+12', int(12), 'yaml.sign'], ['-0', int(0), 'yaml.sign'],
    ['1:30', int(90), 'yaml.sexagesimal'], ['190:20:30', int(685230), 'yaml.sexagesimal'], ['1:30.5', { t: 'float', v: 90.5 }, 'yaml.sexagesimal'],
    ['1e3', str('1e3'), 'yaml.exp'], ['1.0e+3', { t: 'float', v: 1000 }, 'yaml.exp'], ['1.5E-2', { t: 'float', v: 0.015 }, 'yaml.exp'], ['6.02e23', str('x'), 'yaml.exp'],
    ['.5', { t: 'float', v: 0.5 }, 'yaml.float'], ['12.', { t: 'float', v: 12 }, 'yaml.float'], ['1.10', { t: 'float', v: 1.1 }, 'yaml.float'], ['-1.25', { t: 'float', v: -1.25 }, 'yaml.float'],
    ['.inf', str('inf'), 'yaml.inf'], ['-.Inf', str('-inf'), 'yaml.inf'], ['.nan', str('nan'), 'yaml.nan'],
    ['yes', { t: 'bool', v: true }, 'yaml.yes-no'], ['No', { t: 'bool', v: false }, 'yaml.yes-no'], ['on', { t: 'bool', v: true }, 'yaml.yes-no'], ['OFF', { t: 'bool', v: false }, 'yaml.yes-no'],
    ['y', str('y'), 'yaml.yes-no'], ['n', str('n'), 'yaml.yes-no'],
    ['~', { t: 'null' }, 'yaml.null'], ['NULL', { t: 'null' }, 'yaml.null'],
    ['!!str 123', str('123'), 'yaml.tag'], ['!!int "42"', int(42), 'yaml.tag'], ['!!float 3', { t: 'float', v: 3 }, 'yaml.tag'], ['!!bool yes', { t: 'bool', v: true }, 'yaml.tag'],
    ['!!null ""', { t: 'null' }, 'yaml.tag'], ['!!binary aGVsbG8gd29ybGQ=', str('hello world'), 'yaml.binary'], ['!!binary /w==', str('bin'), 'yaml.binary'],
    ['!!str', str(''), 'yaml.tag'],
    [':sym', str('sym'), 'yaml.symbol'], [':"quoted sym"', str('qs'), 'yaml.symbol'], ['!ruby/symbol foo', str('foo'), 'yaml.symbol'],
    ['2001-12-14', str('2001-12-14'), 'yaml.date'], ['2001-12-14 21:59:43.10 -5', str('ts'), 'yaml.timestamp'], ['2001-12-14t21:59:43.10-05:00', str('ts'), 'yaml.timestamp'],
    ['"2001-12-14"', str('2001-12-14'), 'yaml.date-quoted'],
    ['!ruby/object:Object {}', str('obj'), 'yaml.ruby-object'], ['!!set {a, b}', str('set'), 'yaml.set'], ['!!omap [a: 1]', str('omap'), 'yaml.omap'],
    ['"caf\\u00e9 \\t tab"', str('café \t tab'), 'yaml.escape'], ["'it''s'", str("it's"), 'yaml.escape'], ['"\\x41\\n"', str('A\n'), 'yaml.escape'],
    ['>-\n  folded\n  text', str('folded text'), 'yaml.folded'], ['|+\n  keep\n\n', str('keep\n\n'), 'yaml.literal'],
    ['12:30:00', int(45000), 'yaml.sexagesimal'], ['0.1.2', str('0.1.2'), 'yaml.version'], ['1.2.3', str('1.2.3'), 'yaml.version'],
    ['=', str('='), 'yaml.value-key'], ['<<', str('<<'), 'yaml.merge-word'], ['- item', str('x'), 'yaml.dash'],
    ['0009', int(9), 'yaml.leading-zero'], ['08', str('08'), 'yaml.leading-zero'], ['-0x1A', int(-26), 'yaml.hex'],
    ['1_0.5', { t: 'float', v: 10.5 }, 'yaml.underscore'], ['9223372036854775808', str('big'), 'yaml.bigint'], ['123456789012345678901234567890', str('big'), 'yaml.bigint']
];

/** Interpolation expressions that normally succeed. */
function goodInterpolation(ctx: ValueContext): string {
    const { rng } = ctx;
    const key = (): string => rng.pick(ctx.keys);
    const q = (s: string): string => (rng.chance(0.7) ? `'${s}'` : `"${s}"`);
    const choice = rng.weighted({
        facts: 6, topvar: 4, trusted: 3, lookup: 4, hiera: 2, literal: 2, scope: 2, missing: 2, dig: 2, quoted: 1, env: 2, empty: 1, spaces: 1, whole: 1, subkey: 2, modkey: 1
    });
    ctx.tags.add(`interp.${choice}`);
    switch (choice) {
        case 'facts': return `%{facts.${rng.pick(['os.family', 'os.name', 'os.release.major', 'role', 'networking.domain', 'networking.fqdn', 'num_fact', 'bool_fact', 'null_fact'])}}`;
        case 'topvar': return `%{${rng.pick(['::role', 'role', '::datacenter', 'datacenter', '::num_fact', '::clientcert', '::os.family', 'os.release.full'])}}`;
        case 'trusted': return `%{trusted.${rng.pick(['certname', 'hostname', 'domain', 'authenticated', 'extensions.pp_role', 'extensions.pp_environment'])}}`;
        case 'lookup': return `%{lookup(${q(key())})}`;
        case 'hiera': return `%{hiera(${q(key())})}`;
        case 'literal': return `%{literal(${q(rng.pick(['%', '%{x}', 'lit', '']))})}`;
        case 'scope': return `%{scope(${q(rng.pick(['role', '::datacenter', 'facts.os.family', 'trusted.certname', 'nope']))})}`;
        case 'missing': return `%{${rng.pick(['facts.no_such', '::no_such', 'no_such', 'trusted.extensions.nope', 'facts.os.nope.deeper'])}}`;
        case 'dig': return `%{facts.${rng.pick(['list_fact.0', 'list_fact.1', 'list_fact.7', 'services.0', 'os.release'])}}`;
        case 'quoted': return `%{facts."dotted.fact"}`;
        case 'env': return rng.pick(['%{environment}', '%{::environment}', '%{server_facts.environment}', '%{facts.environment}']);
        case 'empty': return rng.pick(['%{}', '%{::}', "%{''}", '%{""}']);
        case 'spaces': return `%{ ${rng.pick(['facts.role', "lookup('common_str')", '::role'])} }`;
        case 'whole': return rng.pick(['%{facts}', '%{facts.list_fact}', '%{trusted.extensions}', '%{facts.os}']);
        case 'subkey': return `%{lookup(${q(rng.pick(['settings.a', 'settings.opts.k1', 'packages.0', 'users.alice', 'mod_a::conf.a', 'settings."dotted.key"']))})}`;
        case 'modkey': return `%{lookup(${q(rng.pick(['mod_a::name', 'mod_b::list', 'mod_c::x']))})}`;
    }
    return '';
}

/** Interpolations that fail in Puppet (or succeed in surprising ways). */
function badInterpolation(ctx: ValueContext): string {
    const { rng } = ctx;
    const choice = rng.pick(['unknown', 'alias-part', 'self', 'syntax', 'emptykey', 'noquote', 'nested', 'methodspace', 'unclosed']);
    ctx.tags.add(`interp-bad.${choice}`);
    switch (choice) {
        case 'unknown': return `%{${rng.pick(['upcase', 'strict', 'dig', 'Lookup'])}('x')}`;
        case 'alias-part': return `pre %{alias('${rng.pick(ctx.keys)}')}`;
        case 'self': return "%{lookup('loop_a')}";
        case 'syntax': return rng.pick(['%{facts..os}', '%{facts.os.}', "%{facts.'un}", '%{.x}']);
        case 'emptykey': return rng.pick(["%{lookup('')}", "%{alias('')}"]);
        case 'noquote': return rng.pick(['%{lookup(common_str)}', '%{hiera()}']);
        case 'nested': return "%{lookup('%{facts.role}')}";
        case 'methodspace': return "%{lookup ('common_str')}";
        case 'unclosed': return '%{facts.role';
    }
    return '';
}

export function interpolatedString(ctx: ValueContext): V {
    const { rng } = ctx;
    if (rng.chance(ctx.badInterp)) return str(badInterpolation(ctx));
    if (rng.chance(0.12)) {
        ctx.tags.add('interp.alias');
        return str(`%{alias('${rng.pick([...ctx.keys, 'missing_key'])}')}`);
    }
    const n = rng.int(1, 2);
    let s = rng.chance(0.5) ? `${rng.pick(WORDS)}-` : '';
    for (let i = 0; i < n; i++) s += goodInterpolation(ctx) + (rng.chance(0.4) ? rng.pick(['/', ' ', '.', '']) : '');
    return str(s);
}

export function scalar(ctx: ValueContext, allowRaw = true): V {
    const { rng } = ctx;
    if (rng.chance(ctx.interp)) return interpolatedString(ctx);
    if (allowRaw && ctx.format === 'yaml' && rng.chance(0.12)) {
        const [yaml, alt, tag] = rng.pick(RAW_SCALARS);
        ctx.tags.add(tag);
        return { t: 'raw', yaml, alt };
    }
    switch (rng.weighted({ word: 6, int: 2, float: 1, bool: 1, null: 0.5, multiline: 0.4, empty: 0.3, numstr: 0.5 })) {
        case 'word': return str(rng.pick(WORDS));
        case 'int': return int(rng.pick([0, 1, 2, 42, 8080, -3, 10]));
        case 'float': return { t: 'float', v: rng.pick([1.5, 0.25, 2.0, -0.5, 1e20, 3.14159]) };
        case 'bool': return { t: 'bool', v: rng.chance(0.5) };
        case 'null': return { t: 'null' };
        case 'multiline': return str('line one\nline two\n');
        case 'empty': return str('');
        case 'numstr': return str(rng.pick(['42', '1.5', 'true', '0755', '2020-01-02', '1.2.3', 'ff']));
    }
    return str('x');
}

export function arrayValue(ctx: ValueContext, knockout: string | undefined): V {
    const { rng } = ctx;
    const n = rng.int(0, 4);
    const items: V[] = [];
    for (let i = 0; i < n; i++) {
        if (knockout !== undefined && rng.chance(0.15)) {
            ctx.tags.add('knockout.array');
            items.push(str(rng.chance(0.3) ? knockout : `${knockout}${rng.pick(WORDS.slice(0, 6))}`));
        } else if (rng.chance(0.08)) {
            items.push(hashValue(ctx, 0, knockout));
        } else if (rng.chance(0.05)) {
            items.push(arr([scalar(ctx, false)]));
        } else {
            items.push(rng.chance(0.8) ? str(rng.pick(WORDS.slice(0, 8))) : scalar(ctx));
        }
    }
    return arr(items);
}

export function hashValue(ctx: ValueContext, depth: number, knockout: string | undefined): V {
    const { rng } = ctx;
    const keys = rng.sample(HASH_KEYS, rng.int(0, 4));
    const entries: [MapKey, V][] = keys.map(k => {
        if (knockout !== undefined && rng.chance(0.1)) {
            ctx.tags.add('knockout.hash');
            return [k, str(knockout)];
        }
        if (knockout !== undefined && rng.chance(0.05)) {
            ctx.tags.add('knockout.key');
            return [`${knockout}${k}`, scalar(ctx, false)];
        }
        if (depth > 0 && rng.chance(0.4)) return [k, hashValue(ctx, depth - 1, knockout)];
        if (rng.chance(0.25)) return [k, arrayValue(ctx, knockout)];
        return [k, scalar(ctx)];
    });
    if (ctx.format === 'yaml' && rng.chance(0.04)) {
        ctx.tags.add('yaml.non-string-key');
        entries.push([{ raw: rng.pick(['1', 'true', '~', '2.5', '[a, b]', ':symkey']) }, str('v')]);
    }
    return map(entries);
}

/** A value of the given shape (shapes keep a key's values mergeable across levels). */
export function valueOf(shape: Shape, ctx: ValueContext, knockout: string | undefined): V {
    switch (shape) {
        case 'scalar': return scalar(ctx);
        case 'string': return ctx.rng.chance(0.6) ? interpolatedString(ctx) : scalar(ctx);
        case 'array': return arrayValue(ctx, knockout);
        case 'hash': return hashValue(ctx, 0, knockout);
        case 'deep': return hashValue(ctx, 2, knockout);
        case 'any': return valueOf(ctx.rng.pick(['scalar', 'array', 'hash', 'deep'] as const), ctx, knockout);
    }
}
