/**
 * Scenes for language constructs the earlier scenes did not write: functions in a module's
 * functions/ folder with typed parameters and return types, return/next/break in functions and
 * lambdas, case and selector options that are types, regexps, arrays and hashes, the operators
 * on strings, arrays and hashes (in, =~ with types, <<, +, -, comparisons), heredocs two to a line
 * and inside interpolations with margins and escapes, unless with else (and the refused elsif),
 * resource references with several titles, Resource[...] and types made from strings,
 * assert_type, and `new` of every type with its conversion forms. Each observes through notice().
 */
import type { Program } from './program.ts';

const FN_PARAMS = ['Integer $x', 'Variant[Integer, String] $x', 'Integer[0, 10] $x', 'Optional[Numeric] $x = undef', 'Any $x, String $s = "d"', 'Integer $x, *$rest',
    'Array[Integer] $x', 'Numeric $x, Optional[String[1]] $s = undef'];
const FN_RETURNS = ['', ' >> Any', ' >> String', ' >> Integer', ' >> Variant[String, Integer]', ' >> Optional[Integer]', ' >> Array'];
const FN_BODIES = [
    'if $x =~ Integer and $x > 2 { return("big ${x}") }\n"small ${x}"',
    '[1, 2, 3, 4].each |$i| { if $i == 3 { return($i * 10) } }\n0',
    '$r = [1, 2, 3, 4].map |$i| { if $i == 2 { next(20) } $i }\n$r',
    '$r = [1, 2, 3, 4].filter |$i| { if $i == 3 { break() } true }\n$r.length',
    '$x ? { Integer => $x + 1, default => "other ${x}" }',
    'return()',
    'with($x) |$v| { if $v == 1 { next("one") } "not one" }',
    '$r = [3, 2, 1].reduce(0) |$m, $i| { if $i == 1 { break() } $m + $i }\n$r',
    'if $x == 0 { next(\'via next\') }\n"after ${x}"',
    'case $x { Integer[5]: { return(\'five+\') } default: { } }\n"${x}"'
];

/** A module's function with typed parameters and a return type, called right and wrong. */
export function moduleFunctions(p: Program): void {
    const r = p.rng;
    const m = p.name('lfm');
    p.use('func.module', 'func.return');
    const params = r.pick(FN_PARAMS);
    const ret = r.pick(FN_RETURNS);
    const body = r.pick(FN_BODIES).split('\n').map(l => `  ${l}`).join('\n');
    p.files.set(`modules/${m}/functions/calc.pp`, `function ${m}::calc(${params})${ret} {\n${body}\n}\n`);
    p.files.set(`modules/${m}/manifests/init.pp`, `class ${m} {\n  notice(${m}::calc(${r.pick(['1', '3'])}))\n}\n`);
    const arg = r.pick(['0', '1', '3', '7', "'s'", '[1, 2]', 'undef', '2.5', '1, 2', "1, 'x'", '']);
    const call = r.pick([`notice(${m}::calc(${arg}))`, `notice(${arg === '' || arg.includes(',') ? '1' : arg}.${m}::calc)`, `$v = ${m}::calc(${arg})\nnotice(type($v, generalized), $v)`,
        `include ${m}`, `notice([1, 3].map |$n| { ${m}::calc($n) })`]);
    p.emit([call]);
}

const LAMBDA_FLOW = [
    "notice([1, 2, 3, 4].map |$x| { if $x % 2 == 0 { next('even') } $x })",
    'notice([1, 2, 3, 4].each |$x| { if $x == 3 { break() } notice($x) })',
    'notice([1, 2, 3, 4].map |$x| { if $x == 3 { break() } $x * 2 })',
    'notice([1, 2, 3].filter |$x| { if $x == 2 { next(false) } true })',
    'notice({ a => 1, b => 2 }.map |$k, $v| { if $k == a { next() } "${k}=${v}" })',
    'notice([1, 2].map |$x| { [10, 20].map |$y| { if $y == 20 { break() } $x + $y } })',
    'notice(with(1) |$x| { next($x + 1); 99 })',
    'notice([1, 2, 3].reduce |$m, $x| { if $x == 3 { break() } $m + $x })',
    'notice(Integer[1, 5].each |$x| { if $x > 2 { break() } notice($x) })',
    "notice([1, 2, 3].any |$x| { if $x == 1 { next(false) } $x > 1 })",
    "notice('abc'.map |$c| { if $c == 'b' { next('B') } $c })",
    'break()',
    'next(1)',
    "notice([1].map |$x| { return('r') })",
    '[1, 2].each |$x| { if $x == 2 { return() } notice("ret ${x}") }\nnotice(\'after return\')'
];

/** return/next/break inside lambdas of the iteration functions, at the top and nested. */
export function lambdaFlow(p: Program): void {
    const r = p.rng;
    p.use('func.flow');
    p.emit(r.pick(LAMBDA_FLOW).split('\n'), r.chance(0.5) ? ['top', 'class', 'define', 'node'] : ['class', 'define']);
}

const SUBJECTS = ['1', "'abc'", '[1, 2]', "[1, 'a']", "{ 'a' => 1 }", '2.5', 'undef', 'true', "'B'", 'Integer', "['x', 'y', 'z']", "'42'", 'default'];
const OPTIONS = ['Integer', 'Integer[0, 1]', 'String[1, 2]', 'Numeric', '/^a(.)/', '/(\\d)/', "[1, 2]", "[Integer, String]", "[Integer, *]", "{ 'a' => Integer }", "{ 'a' => 1 }",
    "'ABC'", 'Array[Integer]', 'Tuple[Integer, Integer]', 'Hash', 'Undef', 'Boolean', 'Type', 'Type[Integer]', "*['b', 'B']", '/b/, /c/', 'Collection[2]', 'Scalar',
    "'1'", 'Enum[abc, xyz]', 'Optional[String]', 'Default'];

/** `case` and selectors whose options are types, regexps (with match variables), arrays, hashes and splats. */
export function typeCases(p: Program): void {
    const r = p.rng;
    const v = p.name('tc');
    p.use('expr.case-types');
    const subject = r.pick(SUBJECTS);
    const inCase = r.chance(0.5);
    // A selector option is one value: the option lists are case's alone.
    const opts = Array.from({ length: r.int(2, 4) }, () => r.pick(inCase ? OPTIONS : OPTIONS.filter(o => !o.includes(', /'))));
    const lines = [`$${v} = ${subject}`];
    if (inCase) {
        lines.push(`case $${v} {`);
        opts.forEach((o, i) => lines.push(`  ${o}: { notice("case ${i} \${0} \${1}") }`));
        if (r.chance(0.7)) lines.push(`  default: { notice('case default') }`);
        lines.push('}');
    } else {
        const arms = opts.map((o, i) => `${o} => "sel ${i} \${0}"`);
        if (r.chance(0.7)) arms.push(`default => 'sel default'`);
        lines.push(`notice($${v} ? { ${arms.join(', ')} })`);
    }
    p.emit(lines);
}

const OPERANDS = ["'abc'", "'b'", "'B'", "['a', 'b']", "[1, 2]", '[1, [2]]', "{ 'a' => 1 }", "{ 'b' => 2, 'a' => 3 }", '1', "'1'", '2.0', 'undef', 'Integer', '/b/',
    "['x', 2]", '[]', '{}', "'10'", "'9'", "[['k', 'v']]", 'String', 'true'];
const OPS = ['in', '=~', '!~', '<<', '+', '-', '==', '!=', '<', '>=', '*', '>>'];

/** The binary operators on strings, arrays and hashes: `in`, matches against types and strings, `<<`, `+`, `-`, comparisons. */
export function collectionOps(p: Program): void {
    const r = p.rng;
    p.use('expr.collection-ops');
    const op = r.pick(OPS);
    const left = r.pick(OPERANDS);
    const right = op === '=~' || op === '!~' ? r.pick(['Integer', 'Array[Integer]', 'String[2]', "'b'", "'^a'", '/B/', 'Hash[String, Integer]', 'Tuple[Integer, Array]',
        'Type', 'Variant[String, Array]', "Enum['abc']", 'Pattern[/c$/]', "'['", 'NotUndef', 'Data']) : r.pick(OPERANDS);
    const name = p.name('co');
    const lines = [`$${name} = (${left} ${op} ${right})`];
    lines.push(r.pick([`notice($${name})`, `notice(type($${name}, generalized), $${name})`, `notice("op \${${name}}")`]));
    if (r.chance(0.3)) {
        const again = r.pick(['<<', '+', 'in']);
        lines.push(again === 'in' ? `notice(${r.pick(OPERANDS)} in $${name})` : `notice($${name} ${again} ${r.pick(OPERANDS)})`);
    }
    p.emit(lines);
}

const HEREDOC_FORMS = [
    (v: string): string[] => [`$${v} = 'in'`, `notice(@("A"), @(B))`, `  first \${${v}}`, '  | A', '  second ${x}', '  |- B'],
    (v: string): string[] => [`$${v} = 'val'`, `notice(@("OUT"/L))`, `    out \${${v}} \\`, `      joined \${ [@(IN), 'z'].join(',') }`, '        inner', '        | IN', '    end', '    |- OUT'],
    (v: string): string[] => [`$${v} = [1, 2]`, `$${v}h = @("X"/tn$)`, `  \ta\\tb\\n\${${v}[0]} \\$ \$${v}`, '    deeper', '  | X', `notice($${v}h)`],
    (v: string): string[] => [`$${v} = { 'k' => 'v' }`, `notice(@("T"/u))`, `  \\u00e9 \${${v}['k']} \${${v}.keys}`, '  |-T'],
    (v: string): string[] => [`$${v} = 'w'`, `$${v}s = @("E":json)`, `  { "a": "\${${v}}" }`, '  | E', `notice($${v}s)`],
    (v: string): string[] => [`$${v} = 3`, `notice(@("M"))`, '   three', ' one', '  two ${' + v + ' + 1}', '  | M'],
    (v: string): string[] => [`$${v} = 'q'`, `notice("pre \${ @(I) } post")`, '  body', '  |- I', `notice('after')`],
    (v: string): string[] => [`$${v} = 'r'`, `notice(@("Y"/s))`, '  a\\sb\\\\c\\"d \\${' + v + '} \\q', '  | Y'],
    (v: string): string[] => [`notice(@(Z).split("\\n"))`, '  l1', '', '  l3', '  |-  Z']
];

/** Heredocs two on one line, inside an interpolation, with margins, trimming and escape flags. */
export function heredocsNested(p: Program): void {
    const r = p.rng;
    p.use('expr.heredoc-nested');
    p.emit(r.pick(HEREDOC_FORMS)(p.name('hd')), ['top', 'node']);
}

/** unless with else, the refused elsif, and if/elsif chains on values of every kind. */
export function unlessElsif(p: Program): void {
    const r = p.rng;
    const v = p.name('ue');
    p.use('expr.unless');
    const value = r.pick(['0', "''", 'undef', '[]', '{}', 'false', "'false'", '1', 'default', "'x'", 'Integer']);
    const form = r.weighted({ unless: 4, unlessElse: 3, elsif: 3, bad: 0.6, value: 2 });
    const lines = [`$${v} = ${value}`];
    if (form === 'unless') lines.push(`unless $${v} { notice('unless body') }`);
    if (form === 'unlessElse') lines.push(`unless $${v} { notice('unless body') } else { notice('unless else') }`);
    if (form === 'elsif') lines.push(`if $${v} == 1 { notice('one') } elsif $${v} =~ String { notice('string') } elsif !$${v} { notice('falsy') } else { notice('else') }`);
    if (form === 'bad') lines.push(`unless $${v} { notice('a') } elsif true { notice('b') }`);
    if (form === 'value') lines.push(`$${v}r = unless $${v} { 'u' } else { 'e' }`, `$${v}i = if $${v} { 'i' }`, `notice($${v}r, $${v}i)`);
    p.emit(lines);
}

/** References with several titles, Resource[...] with types and strings, and types made from strings. */
export function multiRefs(p: Program): void {
    const r = p.rng;
    const t = p.name('mr');
    p.use('cat.multi-ref');
    const lines = [`notify { ['${t}-a', '${t}-b', '${t}-c']: }`];
    const ref = r.pick([`Notify['${t}-a', '${t}-b']`, `Notify[['${t}-a', '${t}-b']]`, `Notify[['${t}-a'], '${t}-c']`, `Resource['notify', '${t}-a', '${t}-b']`,
        `Resource[Notify, '${t}-a']`, `Resource['Notify']['${t}-a']`, `Resource['notify']`, `Resource[notify]`, `Notify[]`, `Notify[[]]`, `Resource['${t}x']`,
        `Resource['class', '${t}c']`, `Class['${t}c', 'main']`, `Type['Integer']`, `Notify['${t}-a', ['${t}-b', ['${t}-c']]]`]);
    lines.push(`class ${t}c { }`, `include ${t}c`);
    const use = r.weighted({ notice: 3, arrow: 3, meta: 2, type: 2 });
    if (use === 'notice') lines.push(`notice(${ref})`);
    if (use === 'arrow') lines.push(`${ref} -> notify { '${t}-z': }`);
    if (use === 'meta') lines.push(`notify { '${t}-m': before => ${ref} }`);
    if (use === 'type') lines.push(r.pick([`notice(Type('${r.pick(['Integer[1, 2]', 'Notify', "Enum['a']", 'Array[String]', 'nosuch', 'Struct[{a => Integer}]', 'Resource["notify"]'])}'))`,
        `notice(Type.new('${r.pick(['Hash[String, Integer]', 'Foo::Bar', 'Integer[x]', "Pattern[/a/]"])}'))`, `notice(type(${ref}))`, `notice(${ref} =~ Type[Resource])`]));
    p.emit(lines, ['top', 'class', 'node']);
}

/** assert_type with a type or a type string, with and without the mismatch block. */
export function assertTypes(p: Program): void {
    const r = p.rng;
    p.use('types.assert-forms');
    const type = r.pick(['Integer', 'String[2]', "'Integer[1]'", 'Array[Integer]', 'Optional[String]', "'Nosuch'", 'Enum[a, b]', 'Type[Integer]', "'String'"]);
    const value = r.pick(['1', "'a'", "'abc'", '[1, 2]', "['x']", 'undef', '0', 'Integer', "'b'"]);
    const block = r.pick(['', ' |$expected, $actual| { "mismatch ${expected} ${actual}" }', ' |$e, $a| { notice("got ${a}"); 0 }', ' |$e| { 1 }']);
    p.emit([`notice(assert_type(${type}, ${value})${block})`]);
}

const CONVERSIONS = [
    "Integer('0x10')", "Integer('0b101')", "Integer('010')", "Integer('10', 8)", "Integer('ff', 16)", "Integer('1.5')", 'Integer(1.9)', 'Integer(-1.9)', 'Integer(true)',
    "Integer('12', 10, true)", "Integer('-12', 10, true)", "Integer.new('-0x1F')", "Integer(' 12')", "Integer('1_000')", "Integer('0o17')", "Integer('17', 2)",
    "Float('1e3')", 'Float(3)', "Float('abc')", 'Float(true)', "Float('0x10')", "Float('.5')", "Float('1.')",
    "Numeric('0x10')", "Numeric('1.5')", 'Numeric(true)', "Numeric('1e2')", "Numeric('x')",
    'String(1)', "String([1, 'a'])", "String({ 'a' => 1 })", "String(1, '%x')", 'String(undef)', 'String(1.0)', "String('a', '%p')", 'String(Integer)',
    "Boolean('yes')", "Boolean('No')", "Boolean('true')", 'Boolean(0)', 'Boolean(1.0)', "Boolean('x')", "Boolean('')", 'Boolean(undef)',
    "Array('abc')", "Array({ 'a' => 1 })", 'Array(1)', "Array('abc', true)", 'Array([1], true)', 'Array(undef)', 'Array(Integer[1, 3])', "Array({ 'a' => 1 }, true)",
    "Tuple[Integer, String]([1, 'a'])", "Array[Integer](['1', '2'])",
    'Hash([[1, 2], [3, 4]])', 'Hash([1, 2, 3, 4])', "Hash({ 'a' => 1 })", 'Hash([])', "Hash('abc')", 'Hash([1, 2, 3])', "Hash([['a', 1]], true)",
    "Struct[{ 'a' => Integer }]({ 'a' => 1 })", "Struct[{ 'a' => Integer }]({ 'a' => 'x' })",
    "Timespan('1-02:03:04')", 'Timespan(3600)', "Timespan({ 'hours' => 1, 'minutes' => 30 })", "Timespan('01:30', '%H:%M')", 'Timespan(1.5)', "Timespan('x')",
    "Timestamp('2020-01-01T00:00:00Z')", 'Timestamp(0)', "Timestamp('2020-01-01', '%Y-%m-%d')", 'Timestamp(1.5)', "Timestamp({ 'string' => '2021-02-03', 'format' => '%Y-%m-%d' })",
    "SemVer('1.2.3')", 'SemVer(1, 2, 3)', "SemVer({ 'major' => 1, 'minor' => 2, 'patch' => 3 })", "SemVer('1.2')", "SemVer('1.2.3-rc.1+b5')",
    "SemVerRange('>=1.0.0 <2.0.0')", "SemVerRange('1.x')", "SemVerRange(SemVer('1.0.0'), SemVer('2.0.0'))", "SemVerRange('~> 1.2')",
    "Binary('aGVsbG8=')", "Binary('hello', '%s')", 'Binary([104, 105])', "Binary('aGVsbG8', '%B')", "Binary('aGk=', '%r')", "Binary('!!', '%b')",
    "Regexp('a.c')", "Regexp('[')", "Sensitive('s')", "Optional[Integer]('3')", "Variant[Integer, Boolean]('yes')", "Init[Integer]('3')", "Integer[0, 10]('20')",
    "String[2]('a')", "Float[0.0, 1.0]('2.0')", "Type('Integer')", "Error('msg')", "Error('msg', 'kind', { 'a' => 1 }, 'code')", "Undef('x')", "Default('x')",
    "Scalar('1')", "Data('1')", "Enum['a', 'b']('a')", "Pattern[/a/]('a')", "Iterable('ab')", "Any(1)", "Collection([1])", "NotUndef[Integer]('4')",
    "Callable('x')", "Runtime('x')", "Object({ 'name' => 'X' })", "Type[Integer]('Integer')", "Init[String]('x', '%p')", "Init[Integer, 16]('ff')"
];

/** `T(...)` and `T.new(...)` for every type with its conversion forms. */
export function newForms(p: Program): void {
    const r = p.rng;
    p.use('types.new');
    const c = r.pick(CONVERSIONS);
    // `T.new(...)` is the same call as `T(...)`: a quarter of the calls use it.
    const expr = r.chance(0.25) ? c.replace(/^([A-Z][\w:]*(?:\[.*\])?)\(/, '$1.new(') : c;
    const v = p.name('nw');
    p.emit(r.pick([[`notice(${expr})`], [`$${v} = ${expr}`, `notice(type($${v}), $${v})`], [`notice(String(${expr}, '%p'))`]]));
}
