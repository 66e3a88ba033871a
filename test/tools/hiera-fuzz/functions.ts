/**
 * Hierarchy levels whose data come from functions written in Puppet: a module's data_hash,
 * lookup_key and data_dig functions (Hiera 5's custom backends), with the LookupContext calls
 * they make (not_found, interpolate, cache, cached_value, cache_has_key, environment_name,
 * module_name), and the ways such a level fails (a non-hash answer, an arity Puppet refuses,
 * fail(), an unknown function).
 */
import type { MapKey, V } from './emit.ts';
import type { Rng } from './rng.ts';
import { valueOf, type Shape, type ValueContext } from './values.ts';

/** A Puppet literal for a generated value (raw YAML scalars as their plain alternative). */
export function puppetLiteral(v: V, undef = 'undef'): string {
    switch (v.t) {
        case 'str': return `'${v.v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
        case 'int': return String(v.v);
        case 'float': return Number.isInteger(v.v) && Math.abs(v.v) < 1e15 ? `${v.v}.0` : String(v.v);
        case 'bool': return String(v.v);
        case 'null': return undef;
        case 'arr': return `[${v.items.map(x => puppetLiteral(x, undef)).join(', ')}]`;
        case 'map': return `{${v.entries.map(([k, x]) => `${keyLiteral(k)} => ${puppetLiteral(x, undef)}`).join(', ')}}`;
        case 'raw': return puppetLiteral(v.alt, undef);
    }
}

function keyLiteral(k: MapKey): string {
    return typeof k === 'string' ? puppetLiteral({ t: 'str', v: k }) : `'${k.raw}'`;
}

export interface FunctionWriter {
    readonly rng: Rng;
    readonly tags: Set<string>;
    write(path: string, text: string): void;
}

const SIG = {
    data_hash: 'Hash $options, Puppet::LookupContext $context',
    lookup_key: 'Variant[String, Numeric] $key, Hash $options, Puppet::LookupContext $context',
    data_dig: 'Array[Variant[String, Numeric]] $segments, Hash $options, Puppet::LookupContext $context'
} as const;
export type FunctionKind = keyof typeof SIG;

/** Some of `keys` with values, as Puppet (or, with undef 'nil', Ruby) literals. */
function pairs(rng: Rng, keys: Readonly<Record<string, Shape>>, ctx: ValueContext, prefix: string, undef = 'undef'): [string, string][] {
    return rng.sample(Object.keys(keys), rng.int(1, Math.min(5, Object.keys(keys).length))).map(k => [puppetLiteral({ t: 'str', v: `${prefix}${k}` }), puppetLiteral(valueOf(keys[k], ctx, undefined), undef)]);
}

function entries(rng: Rng, keys: Readonly<Record<string, Shape>>, ctx: ValueContext, prefix: string): string[] {
    return pairs(rng, keys, ctx, prefix).map(([k, v]) => `    ${k} => ${v},`);
}

/**
 * Writes `MOD::NAME` (kind's signature) into modules/MOD/functions and returns the level's
 * hiera.yaml entry keys (the function, maybe options).
 */
export function functionLevel(w: FunctionWriter, mod: string, name: string, kind: FunctionKind, keys: Readonly<Record<string, Shape>>, prefix: string, ctx: ValueContext, errors: number): Record<string, unknown> {
    const { rng } = w;
    const fn = `${mod}::${name}`;
    const entry: Record<string, unknown> = { [kind]: fn };
    if (rng.chance(0.4)) entry.options = { prefix: rng.pick(['p-%{facts.os.family}', 'plain', '%{trusted.certname}']), ...(rng.chance(0.3) ? { n: 3 } : {}) };
    const file = `modules/${mod}/functions/${name}.pp`;
    w.tags.add(`function.${kind}`);
    if (rng.chance(errors)) {
        const variant = rng.pick(['not-hash', 'arity', 'fail', 'unknown', 'bad-type']);
        w.tags.add(`function.bad.${variant}`);
        switch (variant) {
            case 'not-hash': w.write(file, `function ${fn}(${SIG[kind]}) {\n  [1, 2]\n}\n`); break;
            case 'arity': w.write(file, `function ${fn}(String $only) {\n  {}\n}\n`); break;
            case 'fail': w.write(file, `function ${fn}(${SIG[kind]}) {\n  fail("no data in \${context.environment_name}")\n}\n`); break;
            case 'unknown': entry[kind] = `${mod}::no_such_function`; break;
            case 'bad-type': w.write(file, `function ${fn}(${SIG[kind]}) {\n  ${kind === 'data_hash' ? `{ ${puppetLiteral({ t: 'str', v: `${prefix}${Object.keys(keys)[0]}` })} => Integer }` : 'Integer[1]'}\n}\n`); break;
        }
        return entry;
    }
    if (rng.chance(0.35)) {
        w.write(`modules/${mod}/lib/puppet/functions/${mod}/${name}.rb`, rubyFunction(rng, fn, kind, keys, ctx, prefix, errors));
        return entry;
    }
    const body: string[] = [];
    switch (kind) {
        case 'data_hash': {
            body.push('  {', ...entries(rng, keys, ctx, prefix));
            if (rng.chance(0.4)) body.push(`    ${puppetLiteral({ t: 'str', v: `${prefix}${rng.pick(Object.keys(keys))}` })} => "from \${context.environment_name} \${options['prefix']}",`);
            body.push('  }');
            break;
        }
        case 'lookup_key': {
            body.push('  case $key {');
            for (const [k, v] of pairs(rng, keys, ctx, prefix)) body.push(`    ${k}: { ${v} }`);
            const k = (): string => puppetLiteral({ t: 'str', v: `${prefix}${rng.pick(Object.keys(keys))}` });
            if (rng.chance(0.5)) body.push(`    ${k()}: { $context.interpolate(${puppetLiteral({ t: 'str', v: rng.pick(['%{facts.os.family}-i', "%{lookup('common_str')}", '%{trusted.certname}/%{::role}', "%{alias('packages')}"]) })}) }`);
            if (rng.chance(0.4)) body.push(`    ${k()}: {\n      unless $context.cache_has_key('n') { $context.cache('n', $key) }\n      "cached \${context.cached_value('n')} \${context.module_name}"\n    }`);
            if (rng.chance(0.3)) body.push(`    ${k()}: { "\${options['prefix']}-\${options['n']}" }`);
            if (rng.chance(0.3)) body.push(`    ${k()}: { ${rng.pick(['lookup', 'hiera'])}(${puppetLiteral({ t: 'str', v: rng.pick([...Object.keys(keys).map(x => `${prefix}${x}`), 'common_str', 'packages']) })}, ${rng.chance(0.5) ? "'nested default'" : 'undef'}) }`);
            if (rng.chance(0.3)) body.push(`    ${k()}: { if $options['uri'] == undef { $context.not_found() } else { "from \${options['uri']}" } }`);
            if (rng.chance(0.2)) body.push(`    'lookup_options': { { ${k()} => { 'merge' => '${rng.pick(['unique', 'deep', 'hash'])}' } } }`);
            body.push('    default: { $context.not_found() }', '  }');
            break;
        }
        case 'data_dig': {
            body.push('  $data = {', ...entries(rng, keys, ctx, prefix), '  }');
            body.push('  $found = $data.dig(*$segments)', '  if $found == undef { $context.not_found() } else { $found }');
            break;
        }
    }
    w.write(file, `function ${fn}(${SIG[kind]}) {\n${body.join('\n')}\n}\n`);
    return entry;
}

const RUBY_PARAMS = {
    data_hash: [['Hash', 'options'], ['Puppet::LookupContext', 'context']],
    lookup_key: [['Variant[String, Numeric]', 'key'], ['Hash', 'options'], ['Puppet::LookupContext', 'context']],
    data_dig: [['Array[Variant[String, Numeric]]', 'segments'], ['Hash', 'options'], ['Puppet::LookupContext', 'context']]
} as const;

/** The same kinds of function in Ruby (lib/puppet/functions/MOD/NAME.rb), as custom Hiera backends are mostly written. */
function rubyFunction(rng: Rng, fn: string, kind: FunctionKind, keys: Readonly<Record<string, Shape>>, ctx: ValueContext, prefix: string, errors: number): string {
    const params = RUBY_PARAMS[kind];
    const head = `Puppet::Functions.create_function(:'${fn}') do\n  dispatch :${kind} do\n${params.map(([t, n]) => `    param '${t}', :${n}\n`).join('')}  end\n\n  def ${kind}(${params.map(([, n]) => n).join(', ')})\n`;
    const body: string[] = [];
    const k = (): string => puppetLiteral({ t: 'str', v: `${prefix}${rng.pick(Object.keys(keys))}` });
    if (rng.chance(errors)) body.push(`    raise Puppet::Error, "no data for ${kind}"`);
    else if (kind === 'data_hash') {
        body.push('    {', ...pairs(rng, keys, ctx, prefix, 'nil').map(([a, b]) => `      ${a} => ${b},`));
        if (rng.chance(0.4)) body.push(`      ${k()} => "#{context.environment_name} #{options['prefix']}",`);
        body.push('    }');
    } else if (kind === 'lookup_key') {
        body.push('    case key');
        for (const [a, b] of pairs(rng, keys, ctx, prefix, 'nil')) body.push(`    when ${a} then ${b}`);
        if (rng.chance(0.5)) body.push(`    when ${k()} then context.interpolate(${puppetLiteral({ t: 'str', v: rng.pick(['%{facts.os.family}-r', "%{lookup('common_str')}", "%{alias('packages')}"]) })})`);
        if (rng.chance(0.4)) body.push(`    when ${k()}\n      context.cache('n', key) unless context.cache_has_key('n')\n      "cached #{context.cached_value('n')} #{context.module_name.inspect}"`);
        if (rng.chance(0.3)) body.push(`    when ${k()} then "#{options['prefix']}-#{options['n']}"`);
        if (rng.chance(0.25)) body.push(`    when ${k()} then call_function('lookup', ${puppetLiteral({ t: 'str', v: rng.pick(['common_str', 'packages', ...Object.keys(keys).map(x => `${prefix}${x}`)]) })}, nil, nil, 'nested default')`);
        body.push(`    else\n      context.explain { "no #{key} here" }\n      context.not_found\n    end`);
    } else {
        body.push('    data = {', ...pairs(rng, keys, ctx, prefix, 'nil').map(([a, b]) => `      ${a} => ${b},`), '    }');
        body.push('    found = segments.reduce(data) { |v, s| v.is_a?(Hash) || (v.is_a?(Array) && s.is_a?(Integer)) ? v[s] : nil }', '    context.not_found if found.nil?', '    found');
    }
    return `${head}${body.join('\n')}\n  end\nend\n`;
}
