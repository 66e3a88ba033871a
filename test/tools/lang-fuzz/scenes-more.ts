/**
 * Scenes for rules the first generator did not reach: destructuring assignment (arrays, nested
 * arrays, hashes, a class's variables, wrong sizes), string and array access with every kind of
 * key (numeric strings, slices, floats, undef), heredocs checked by their syntax (json, data+json,
 * base64; static and interpolated text, valid or not) and resource defaults set twice or inside
 * a lambda. Each observes its values through notice().
 */
import type { Program } from './program.ts';

/** `[$a, $b] = ...` from an array, a nested array, a hash or a class reference; sometimes the wrong size. */
export function destructure(p: Program): void {
    const r = p.rng;
    const [a, b, c] = [p.name('da'), p.name('db'), p.name('dc')];
    p.use('expr.destructure');
    const form = r.weighted({ array: 3, nested: 2, hash: 2, klass: 2, wrong: 1 });
    const lines: string[] = [];
    if (form === 'array') lines.push(`[$${a}, $${b}] = ${r.pick(['[1, 2]', "['x', [3]]", '[undef, {}]'])}`);
    if (form === 'nested') lines.push(`[$${a}, [$${b}, $${c}]] = [1, ${r.pick(['[2, 3]', "['b', 'c']", '[2]'])}]`);
    if (form === 'hash') lines.push(`[$${a}, $${b}] = { '${a}' => 1, ${r.chance(0.8) ? `'${b}' => 2` : "'other' => 2"} }`);
    if (form === 'klass') {
        const cls = p.name('dcls');
        p.def(`class ${cls}($${a} = 'pa') {\n  $${b} = "body \${${a}}"\n}`);
        lines.push(`include ${cls}`, `[$${a}, ${r.chance(0.85) ? `$${b}` : `$${c}`}] = Class[${cls}]`);
        p.use('cat.class');
    }
    if (form === 'wrong') lines.push(`[$${a}, $${b}] = ${r.pick(['[1]', '1', "'ab'", '[1, 2, 3]'])}`);
    lines.push(`notice($${a}, $${b})`);
    p.emit(lines, ['top', 'class', 'node']);
}

/** `$s[...]` and `$a[...]` with integer, negative, numeric-string, array, float and undef keys. */
export function slices(p: Program): void {
    const r = p.rng;
    const v = p.name('sl');
    p.use('expr.access');
    const subject = r.pick(["'abcdef'", "'é-ü'", '[1, 2, 3, 4]', "['a', 'b']", "''", '[]']);
    const key = (): string => r.weighted({ int: 6, neg: 3, str: 2, arr: 1, float: 0.5, bad: 0.5 }) === 'int' ? r.pick(['0', '1', '3', '10'])
        : r.pick(['-1', '-2', '-10', "'1'", "'-1'", '[1, 2]', '1.0', "'x'", 'undef']);
    const keys = Array.from({ length: r.weighted({ one: 3, two: 3, three: 0.2 }) === 'one' ? 1 : r.chance(0.95) ? 2 : 3 }, key);
    p.emit([`$${v} = ${subject}`, `notice($${v}[${keys.join(', ')}])`]);
}

/** Heredocs with a syntax: Puppet checks static text when it parses and interpolated text when it is evaluated. */
export function syntaxHeredoc(p: Program): void {
    const r = p.rng;
    const v = p.name('hs');
    const x = p.name('hx');
    p.use('expr.heredoc-syntax');
    const syntax = r.pick(['json', 'data+json', 'base64', 'json+data', 'yaml']);
    const body = syntax === 'base64'
        ? r.pick(['aGVsbG8=', 'aGVsbG8', 'aGVs bG8=', 'aGVsbG9=', '@@@@', ''])
        : r.pick(['{"a": 1, "b": [true, null]}', '[1, 2,]', '{"a": 1,}', '"text"', '1 2', '{"k": "$X"}', 'NaN', '[01]', '/* c */ [1]', '{"a":\n  [1,\n   2]\n}', '']);
    const interpolated = body.includes('$X') || r.chance(0.3);
    const tag = interpolated ? '"END"' : 'END';
    const text = body.replace('$X', `\${${x}}`);
    const lines = [`$${x} = ${r.pick(["'v'", '1', "'q\"'"])}`, `$${v} = @(${tag}:${syntax})`, ...text.split('\n').map(l => `  ${l}`), '  | END', `notice($${v})`];
    p.emit(lines);
}

/** A type's default set in a lambda (it stays with the enclosing scope), or set twice in one scope. */
export function defaultsTwice(p: Program): void {
    const r = p.rng;
    const t = p.name('dt');
    p.use('cat.defaults');
    const lines = r.chance(0.6)
        ? [`[1].each |$i| { Notify { message => "from lambda \${i}" } }`, `notify { '${t}-n': }`]
        : [`Notify { message => 'one' }`, `notify { '${t}-a': }`, `Notify { ${r.pick(['message', 'tag'])} => 'two' }`, `notify { '${t}-b': }`];
    p.emit(lines, ['class', 'define', 'node']);
}
