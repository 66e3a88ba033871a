/**
 * Scenes about expressions: conditionals with match variables, iteration that builds
 * resources, heredocs, interpolation, the type system, numbers, Sensitive, undef, scopes and
 * functions written in Puppet. Each observes its values through notice() and notify resources.
 */
import type { Program } from './program.ts';
import { arith, floatLit, intLit, scalar, stringLit, typeCase, value, word } from './values.ts';

/** case / selector / if / unless on a value, with regex captures used inside and after. */
export function conditionals(p: Program): void {
    const r = p.rng;
    const v = p.name('s');
    p.use('expr.case', 'expr.regex');
    const subject = r.pick(["'web-42'", "'db'", "'Web-7'", '42', "'cache-x'", '[1, 2]', 'undef', '3.0', "'DB'"]);
    const lines = [`$${v} = ${subject}`];
    const form = r.weighted({ case: 3, selector: 2, if: 3, unless: 1 });
    if (form === 'case') {
        lines.push(`case $${v} {\n  /^(\\w+)-(\\d+)$/: { notice("case \${1} \${2} \${0}") notify { "${v}-\${2}": message => $1 } }\n` +
            `  'db', 'cache-x': { notice('listed') }\n  ${r.pick(['Integer', 'Numeric', 'Array[Integer]', 'Undef', "/^(?i:web)-(.*)$/"])}: { notice("typed \${1}") }\n` +
            `${r.chance(0.7) ? "  default: { notice('default') }\n" : ''}}`);
    } else if (form === 'selector') {
        p.use('expr.selector');
        lines.push(`$${v}_sel = $${v} ? {\n  /^web-(\\d+)/ => "w\${1}",\n  ${r.pick(['Integer', "'db'", 'Undef', '[1, 2]', 'Float'])} => 'matched',\n` +
            `${r.chance(0.8) ? "  default => 'other',\n" : ''}}\nnotice($${v}_sel)`);
    } else if (form === 'if') {
        p.use('expr.if');
        lines.push(`if $${v} =~ /(\\d+)/ {\n  notice("digits \${1}")\n} elsif $${v} ${r.pick(["== 'DB'", "in ['db', 'x']", '=~ String', "!~ /z/"])} {\n  notice('elsif')\n} else {\n  notice('else', $0)\n}`);
        if (r.chance(0.4)) lines.push(`notice("after \${1}")`);
    } else {
        p.use('expr.if');
        lines.push(`unless $${v} ${r.pick(['', "=~ /web/", '== undef'])} {\n  notice('unless body')\n} else {\n  notice('unless else')\n}`);
    }
    if (r.chance(0.3)) lines.push(`notice(if $${v} { 'truthy' } else { 'falsy' })`);
    p.emit(lines);
}

/** each/map/filter/reduce/with/slice/step building resources and values. */
export function iteration(p: Program): void {
    const r = p.rng;
    const a = p.name('arr');
    const h = p.name('h');
    p.use('func.iteration');
    const lines = [`$${a} = ${r.pick(["['a', 'b', 'c']", '[1, 2, 3, 4]', "['x', 1, undef, [2]]", '[]', "['web01', 'db01']"])}`,
        `$${h} = ${r.pick(["{ 'one' => 1, 'two' => 2 }", "{ 'a' => { 'port' => 80 }, 'b' => { 'port' => 443 } }", '{}', "{ 1 => 'x', 'k' => [1] }"])}`];
    const ops = [
        `$${a}.each |$i, $v| { notify { "${a}-\${i}": message => $v } }`,
        `$${a}.each |$v| { notice("v \${v}") }`,
        `$${h}.each |$k, $v| { notify { "${h}-\${k}": message => $v } }`,
        `$${h}.each |$pair| { notice($pair) }`,
        `notice($${a}.map |$v| { "<\${v}>" })`,
        `notice($${a}.map |$i, $v| { $i })`,
        `notice($${h}.map |$k, $v| { [$k, $v] })`,
        `notice($${h}.filter |$k, $v| { $v =~ Integer })`,
        `notice($${a}.filter |$v| { $v =~ String })`,
        `notice($${a}.reduce |$m, $v| { "\${m}\${v}" })`,
        `notice($${a}.reduce(0) |$m, $v| { $m + 1 })`,
        `notice($${h}.reduce({}) |$m, $kv| { $m + { $kv[0] => 'r' } })`,
        `with(1, 'two') |$x, $y| { notice("with \${x} \${y}") }`,
        `$${a}.slice(2) |$x, $y| { notice("slice \${x} \${y}") }`,
        `notice($${a}.slice(2))`,
        `Integer[1, 3].each |$n| { notify { "${a}-int-\${n}": } }`,
        `3.each |$n| { notice($n) }`,
        `$${a}.each |$v| { if $v == 'b' { next() } notice("n \${v}") }`,
        `notice($${a}.map |$v| { if $v == 2 { break() } $v })`,
        `notice($${a}.reverse_each.map |$v| { $v })`,
        `notice(1.step(10, 3).map |$v| { $v })`,
        `notice($${a}.any |$v| { $v == 'a' }, $${a}.all |$v| { $v != undef })`,
        `$${h}.each |$k, $v| { notify { "${h}-p-\${k}": message => $v['port'] } }`,
        `notice($${a}.map |$x, $y, $z| { 1 })`,
        `notice($${a}.each |$v| { 1 })`,
        `$${a}.each |String $v| { notice($v) }`
    ];
    lines.push(...r.sample(ops, r.int(1, 3)));
    p.emit(lines);
}

/** Heredocs: tags, interpolation, escapes, margins, trimming, syntax tags. */
export function heredocs(p: Program): void {
    const r = p.rng;
    const v = p.name('hd');
    p.use('expr.heredoc');
    const margin = r.pick(['', '  ', '    ']);
    const tag = r.pick(['END', '"END"', '"END"/tn', '"END"/L', 'END/t', '"END"/$', 'END:json', '"END":json']);
    const end = r.pick(['END', '-END', '|END', '|-END', '| END']);
    const body = r.pick([['line one ${x}', 'line two $x', '\\tTab\\n', 'last'], ['{"a": 1}'], ['keep $ dollar', '\\$x escaped', 'trailing \\', 'cont'], ['']]);
    const endLine = end.startsWith('|') ? `${margin}${end}` : end;
    const lines = [`$x = ${stringLit(r)}`, `$${v} = @(${tag})\n${body.map(l => `${end.startsWith('|') ? margin : ''}${l}`).join('\n')}\n${endLine}`];
    lines.push(r.pick([`notify { '${v}': message => $${v} }`, `notice($${v})`, `notice(@(X))\n  inline ${'${x}'}\n  | X`]));
    p.emit(lines);
}

/** String interpolation with variables, access, method calls, expressions and escapes. */
export function interpolation(p: Program): void {
    const r = p.rng;
    const v = p.name('iv');
    p.use('expr.interpolation', 'expr.string');
    const lines = [`$${v} = ${r.pick(["'abc'", "'Mixed Case'", '42', '[1, 2]', "''"])}`, `$${v}a = ['x', 'y', 'z']`, `$${v}h = { 'k' => { 'j' => 'deep' }, 'n' => 3 }`];
    const parts = [
        `\${${v}}`, `$${v}`, `\${${v}.upcase}`, `\${${v}a[0]}`, `\${${v}a[-1]}`, `\${${v}a[1, 2]}`, `\${${v}h['k']['j']}`, `\${${v}h[n]}`,
        `\${${v}a.length}`, `\${${v}}s`, `$${v}s`, `\${${v}a}`, `\${${v}h}`, `\\\${${v}}`, `\${${v}a.join('-')}`, `\${${v}h.keys}`,
        `\${[1, 2].map |$x| { $x * 2 }}`, `\${1 + 2}`, `\${${v} =~ /b/}`, `$${v}a[1]`, `\${::${v}}`, `\${$${v}}`, `\${${v}.size}`,
        `\${${v}a.map |$e| { $e.upcase }.join}`, `\${"nested \${${v}}"}`, `\${${v}h['missing']}`, `\${${v}.capitalize}`, `\${${v}a[5]}`,
        `%{${v}}`, `\${${v}h.dig('k', 'j')}`, `\${${v}a.filter |$e| { $e != 'y' }}`, `\${${v}.split('')}`
    ];
    const s = r.sample(parts, r.int(2, 5)).join(' ');
    lines.push(r.chance(0.5) ? `notice("${s}")` : `notify { '${v}': message => "${s}" }`);
    p.emit(lines);
}

/** The type system: =~, assert_type (with and without a block), type(), aliases, case on types, typed function parameters. */
export function types(p: Program): void {
    const r = p.rng;
    p.use('types.match', 'types.builtin');
    const tc = typeCase(r);
    const lines: string[] = [];
    const f = r.weighted({ match: 3, assert: 3, infer: 2, func: 2, alias: 2, case: 1 });
    if (f === 'match') lines.push(`notice(${tc.good} =~ ${tc.type}, ${tc.bad} =~ ${tc.type}, ${tc.good} !~ ${tc.type})`);
    if (f === 'assert') {
        p.use('types.assert');
        lines.push(r.pick([`notice(assert_type(${tc.type}, ${tc.good}))`, `notice(assert_type(${tc.type}, ${tc.bad}) |$e, $a| { "mismatch \${e} \${a}" })`,
            `assert_type(${tc.type}, ${r.chance(0.7) ? tc.good : tc.bad})`, `notice(assert_type('${tc.type.replace(/'/g, '"')}', ${tc.good}))`]));
    }
    if (f === 'infer') lines.push(`notice(type(${tc.good}), type(${tc.good}, generalized), type(${value(r)}, detailed))`);
    if (f === 'func') {
        p.use('func.puppet', 'types.params');
        const fn = p.name('fn');
        p.def(`function ${fn}(${tc.type} $x, ${r.pick(['String $s = "d"', 'Optional[Integer] $i = undef', '*$rest'])}) >> ${r.pick(['Any', 'String', 'Array', 'Scalar'])} {\n  "\${x}"\n}`);
        lines.push(`notice(${fn}(${r.chance(0.85) ? tc.good : tc.bad}))`);
        if (r.chance(0.2)) lines.push(`notice(${fn}())`);
    }
    if (f === 'alias') {
        p.use('types.alias');
        const a = `Al${p.name('t')}`;
        p.def(`type ${a} = ${tc.type}`);
        lines.push(`notice(${tc.good} =~ ${a}, ${a})`);
        if (r.chance(0.5)) lines.push(`$${a.toLowerCase()} = assert_type(${a}, ${r.chance(0.8) ? tc.good : tc.bad})`);
    }
    if (f === 'case') lines.push(`case ${tc.good} {\n  ${tc.type}: { notice('is type') }\n  default: { notice('not type') }\n}`);
    p.emit(lines);
}

/** Numbers: radix literals, 64-bit edges, float forms, mixed arithmetic, conversions. */
export function numbers(p: Program): void {
    const r = p.rng;
    p.use('expr.arith');
    const n = r.int(1, 3);
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(r.chance(0.7) ? `notice(${arith(r)})` : `notify { '${p.name('num')}': message => ${r.chance(0.5) ? arith(r) : r.pick([intLit(r), floatLit(r)])} }`);
    if (r.chance(0.2)) lines.push(`notice("\${${floatLit(r)}}")`);
    p.emit(lines);
}

/** Sensitive values in parameters, strings, notices, unwrap and type checks. */
export function sensitive(p: Program): void {
    const r = p.rng;
    const v = p.name('sec');
    p.use('types.sensitive');
    const lines = [`$${v} = Sensitive(${r.pick(["'s3cret'", '42', "['a', 'b']", "{ 'k' => 'v' }"])})`];
    lines.push(...r.sample([`notify { '${v}': message => $${v} }`, `notice($${v})`, `notice($${v}.unwrap)`, `notice("in \${${v}}")`,
        `notice($${v} =~ Sensitive[String], $${v} =~ Sensitive)`, `file { '/tmp/${v}': content => $${v} }`, `notice([$${v}])`,
        `notice(Sensitive.new('x'))`, `notice($${v}.unwrap |$x| { "got \${x}" })`, `notify { '${v}2': message => [$${v}, 1] }`], r.int(1, 3)));
    p.emit(lines);
}

/** undef: absent parameters, explicit undef beating a default, in collections, comparisons, strings, unknown variables. */
export function undefs(p: Program): void {
    const r = p.rng;
    const v = p.name('u');
    p.use('cat.undef');
    const lines = [`$${v} = undef`];
    lines.push(...r.sample([`notify { '${v}': message => $${v} }`, `notice($${v} == undef, $${v} =~ Undef, "[\${${v}}]")`, `notice([$${v}, 1], { 'a' => $${v} })`,
        `notify { '${v}a': message => [$${v}, 1] }`, `notify { '${v}h': message => { 'a' => $${v}, 'b' => 1 } }`, `notice($${v}nope)`, `notice("x\${${v}nope}y")`,
        `if $${v} { notice('t') } else { notice('f') }`, `notice($${v} == '', $${v} == false, !$${v})`, `notice({ 'a' => 1 }['b'], [1][3])`,
        `notice(undef in [undef], 'a' in undef)`, `notice($${v}.lest || { 'lest' }, $${v}.then |$x| { 'then' })`, `notice(${scalar(r)} == undef)`], r.int(1, 3)));
    if (r.chance(0.4)) {
        const c = p.name('uc');
        p.def(`class ${c} (Optional[String] $a = 'dflt', $b = 'dflt') {\n  notice("${c} [\${a}] [\${b}]")\n  notify { '${c}': message => $a }\n}`);
        lines.push(`class { '${c}': ${r.pick(['a => undef', 'b => undef', 'a => undef, b => undef', ''])} }`);
    }
    p.emit(lines);
}

/** Scopes: top, node and class variables, qualified names, shadowing, $facts/$trusted/$server_facts. */
export function scopes(p: Program): void {
    const r = p.rng;
    const v = p.name('sv');
    const c = p.name('sc');
    p.use('cat.scope');
    p.def(`class ${c} {\n  $${v} = 'class'\n  $own = 'own'\n  notice($${v}, $::${v}, $own)\n}`);
    const lines = [`$${v} = 'top'`];
    lines.push(...r.sample([`include ${c}`, `notice($${c}::own)`, `include ${c}\nnotice($${c}::own, $${c}::${v})`, `notice($${c}::nosuch)`,
        `notice($trusted['certname'], $facts, $server_facts['environment'], $environment)`, `notice($::${v}, $${v})`, `notice($settings::environment)`,
        `notice($title, $name)`, `notice($nosuch::var)`], r.int(1, 3)));
    p.emit(lines, ['top', 'node', 'class']);
}

/** Collections: concatenation, merge, removal, access, slicing, destructuring, in, comparisons. */
export function collections(p: Program): void {
    const r = p.rng;
    p.use('expr.collections');
    const exprs = [
        `[1, 2] + [3]`, `[1, 2] + 3`, `[1, [2]] << [3]`, `{ 'a' => 1 } + { 'b' => 2, 'a' => 3 }`, `[1, 2, 3, 2] - [2]`, `{ 'a' => 1, 'b' => 2 } - ['a']`,
        `[1, 2, 3][1, 5]`, `[1, 2, 3][-2, 2]`, `'hello'[1, 3]`, `'hello'[-3, -1]`, `{ 'a' => 1 }['a']`, `[[1, 2], [3]][0][1]`, `'b' in ['a', 'b']`,
        `'B' in 'abc'`, `'el' in 'hello'`, `/l+/ in ['hello']`, `Integer in [1, 'a']`, `[1, 2] == [1, 2]`, `{ 'a' => 1 } == { 'A' => 1 }`, `'A' == 'a'`,
        `[1, 2] < [1, 3]`, `'a' < 'B'`, `${value(r)} == ${value(r)}`, `[${value(r)}, ${value(r)}]`, `*[1, 2]`, `{ 'a' => 1 } + [['b', 2]]`, `[1] * 2`
    ];
    const lines: string[] = [];
    if (r.chance(0.3)) {
        const a = p.name('da');
        lines.push(`[$${a}, $${a}b] = ${r.pick(['[1, 2]', '[1, [2, 3]]', '[1]', "{ '" + a + "' => 'x', '" + a + "b' => 'y' }"])}`, `notice($${a}, $${a}b)`);
        p.use('expr.unary');
    }
    lines.push(`notice(${r.sample(exprs, r.int(1, 3)).join(', ')})`);
    p.emit(lines);
}

/** Puppet-language functions: defaults, captures-rest, return types, return(), recursion, calls as methods. */
export function functions(p: Program): void {
    const r = p.rng;
    const f = p.name('pf');
    p.use('func.puppet');
    p.def(`function ${f}(${r.pick(['Integer $a, String $b = "d"', '$a, *$rest', 'Variant[Integer, String] $a', 'Integer[0] $a'])}) >> ${r.pick(['Any', 'String', 'Integer', 'Variant[String, Integer]'])} {\n` +
        `  ${r.pick(['if $a == 0 { return(\'zero\') }', '', `if $a =~ Integer and $a > 0 { return(${f}($a - 1)) }`])}\n  "${f}-\${a}"\n}`);
    const arg = r.pick(['1', '0', "'s'", '3', "'1'", '-1', word(r) === 'alpha' ? '' : '2']);
    p.emit([r.pick([`notice(${f}(${arg}))`, `notice(${arg === '' ? 1 : arg}.${f})`, `notify { '${f}': message => ${f}(${arg}, 'x') }`])]);
}

export function valueDump(p: Program): void {
    const r = p.rng;
    p.use('expr.string');
    p.emit([`notice(${Array.from({ length: r.int(1, 3) }, () => value(r)).join(', ')})`]);
}

