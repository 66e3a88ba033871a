/**
 * Scenes for what the earlier generator did not produce: references stored as parameters and
 * read back (`Type['t']['param']`, a define's or class's parameter, `Class['c']['x']`), type
 * expressions with arguments of every kind (right and wrong counts and kinds), collectors with
 * override blocks against resource defaults, containment chains (contain/include/require and
 * arrows between classes), string formats of numbers and collections (sprintf, String() with
 * formats, numeric edges), resource titles made by iteration functions, defined() with every kind
 * of argument and match variables across scopes. Each observes through notice() or the catalog.
 */
import type { Program } from './program.ts';

/** A reference stored as a parameter (declared, defaulted, a resource default) and read back. */
export function storedRefs(p: Program): void {
    const r = p.rng;
    const t = p.name('sr');
    p.use('cat.stored-ref');
    const target = r.pick([`Notify['${t}-b']`, `Class['${t}c']`, `Class['main']`, `[Notify['${t}-b'], Class['${t}c']]`, `{ 'k' => Notify['${t}-b'] }`, `[[Notify['${t}-b']]]`,
        `Resource['notify', '${t}-b']`, `Notify`, `Class`, `[Class, 'a']`]);
    const show = (v: string): string => r.pick([`notice(${v})`, `notice("v=\${${v.replace(/^\$/, '')}}")`, `notice(String(${v}))`, `notice(type(${v}))`, `notice([${v}])`,
        `notice(${v} =~ Type[Resource])`]);
    const lines = [`notify { '${t}-b': }`, `class ${t}c($x = ${r.chance(0.5) ? target : "'plain'"}) { ${show('$x')} }`];
    const form = r.weighted({ param: 3, define: 3, klass: 2, defaults: 1 });
    if (form === 'param') lines.push(`notify { '${t}-a': message => ${target} }`, `$${t}v = Notify['${t}-a']['message']`, show(`$${t}v`));
    if (form === 'define') {
        lines.push(`define ${t}d($x = undef) { ${show('$x')} }`, `${t}d { '${t}-q': x => ${target} }`);
        if (r.chance(0.5)) lines.push(`notice(${t.charAt(0).toUpperCase() + t.slice(1)}d['${t}-q']['x'])`);
    }
    if (form === 'klass') lines.push(`class { '${t}c': x => ${target} }`, `notice(Class['${t}c']['x'])`);
    if (form === 'defaults') lines.push(`Notify { message => ${target} }`, `notify { '${t}-m': }`, `notice(Notify['${t}-m']['message'])`);
    if (form !== 'klass') lines.push(`include ${t}c`);
    if (r.chance(0.3)) lines.push(`notify { '${t}-r': require => ${r.pick([`Class['${t}c']`, `Class['main']`, `[Notify['${t}-b'], Class['${t}c']]`])} }`);
    p.emit(lines, ['top']);
}

const TYPE_ARGS = ["1", "'a'", 'Integer', '[Integer]', '[1, 2]', '{}', "{'a' => Integer}", 'undef', 'default', '1.5', 'true', '/x/', "'ruby'", 'String[1]', "Enum['a']",
    "[]", "'Foo'", "Optional['a']"];
const PARAMETERIZED = ['Integer', 'Float', 'String', 'Enum', 'Pattern', 'Regexp', 'Array', 'Hash', 'Tuple', 'Struct', 'Optional', 'NotUndef', 'Variant', 'Type', 'Iterable',
    'Iterator', 'Sensitive', 'Collection', 'Boolean', 'Callable', 'Init', 'Object', 'Error', 'Timestamp', 'Timespan', 'SemVer', 'Class', 'Resource', 'Notify', 'Any', 'Scalar',
    'CatalogEntry', 'Data', 'Numeric'];

/** `T[args]` with one to three arguments of any kind: Puppet's access operator accepts or refuses each. */
export function typeAccess(p: Program): void {
    const r = p.rng;
    p.use('expr.type-access');
    const n = r.weighted({ one: 5, two: 3, three: 1 });
    const args = Array.from({ length: n === 'one' ? 1 : n === 'two' ? 2 : 3 }, () => r.pick(TYPE_ARGS));
    p.emit([`notice(${r.pick(PARAMETERIZED)}[${args.join(', ')}])`]);
}

/** A collector with an override block beside resource defaults, `+>` appends and realize(). */
export function collectorOverrides(p: Program): void {
    const r = p.rng;
    const t = p.name('co');
    p.use('cat.collector-override');
    const lines: string[] = [];
    if (r.chance(0.5)) lines.push(`Notify { message => 'default ${t}' ${r.chance(0.4) ? ", tag => ['dt']" : ''} }`);
    lines.push(`${r.chance(0.6) ? '@' : ''}notify { ['${t}-1', '${t}-2']: tag => ['${t}'${r.chance(0.3) ? ", 'x'" : ''}]${r.chance(0.5) ? `, message => 'own'` : ''} }`);
    const query = r.pick([`tag == '${t}'`, `title == '${t}-1'`, `title != '${t}-1' and tag == '${t}'`, `message == 'own'`, '', `tag == 'dt'`]);
    const block = r.pick([`{ message => 'over' }`, `{ message +> 'more' }`, `{ tag +> 'added' }`, `{ withpath => true }`, '']);
    lines.push(`Notify <| ${query} |> ${block}`);
    if (r.chance(0.3)) lines.push(`realize(Notify['${t}-2'])`);
    if (r.chance(0.3)) lines.push(`Notify['${t}-1'] { message => 'ref override' }`);
    p.emit(lines, ['top', 'class', 'node']);
}

/** Classes contained, included and required by each other, with arrows between them. */
export function containment(p: Program): void {
    const r = p.rng;
    const [a, b, c] = [p.name('ca'), p.name('cb'), p.name('cc')];
    p.use('cat.containment');
    const how = (): string => r.pick(['contain', 'include', 'require']);
    p.def(`class ${a} {\n  ${how()} ${b}\n  notify { '${a}-n': }\n}`);
    p.def(`class ${b} {\n  ${r.chance(0.5) ? `${how()} ${c}` : `notice('${b}')`}\n  notify { '${b}-n': }\n}`);
    p.def(`class ${c} {\n  notify { '${c}-n': }\n}`);
    p.includable.push(a, b, c);
    const lines = [`${r.pick(['include', 'contain', 'require'])} ${a}`];
    const arrow = r.pick(['->', '~>', '<-', '<~']);
    if (r.chance(0.6)) lines.push(`Class['${r.pick([a, b, c])}'] ${arrow} ${r.pick([`Class['${c}']`, `Notify['${a}-n']`, `[Class['${b}'], Notify['${c}-n']]`])}`);
    if (r.chance(0.3)) lines.push(`include ${c}`);
    p.emit(lines, ['top', 'class', 'node']);
}

const FORMATS = ['%d', '%5d', '%-5d|', '%+d', '%x', '%#x', '%o', '%#o', '%b', '%e', '%.2e', '%f', '%.3f', '%08.2f', '%g', '%.10g', '%s', '%p', '%10s|', '%-10s|',
    '%.2s', '%X', '%c', '%%'];
const NUMBERS = ['0', '1', '-1', '42', '-42', '255', '3.14159', '-0.5', '1e20', '1.0e-5', '9223372036854775807', '-9223372036854775808', '0.1', '100.0', '2.5', '-2.5', '1e100',
    "'12'", "'abc'", '[1, 2]', "{ 'a' => 1 }", 'true', 'undef'];

/** sprintf and String() formats of numbers, strings and collections; integer arithmetic at the edges. */
export function formats(p: Program): void {
    const r = p.rng;
    p.use('expr.formats');
    const lines: string[] = [];
    const form = r.weighted({ sprintf: 3, string: 3, arith: 3 });
    if (form === 'sprintf') lines.push(`notice(sprintf('${r.pick(FORMATS)} ${r.pick(FORMATS)}', ${r.pick(NUMBERS)}, ${r.pick(NUMBERS)}))`);
    if (form === 'string') {
        const f = r.pick(FORMATS).replace('|', '');
        lines.push(`notice(String(${r.pick(NUMBERS)}, '${f}'))`);
    }
    if (form === 'arith') {
        const a = r.pick(['7', '-7', '9223372036854775807', '-9223372036854775808', '7.5', '-7.5', '0', '2', '0x10', '1e3']);
        const b = r.pick(['2', '-2', '3', '-3', '0', '1', '0.5', '-1', '2.0', '9223372036854775807']);
        // A shift by a huge count exhausts Ruby's memory: shifts take small counts.
        const op = r.pick(['/', '%', '*', '+', '-', '<<', '>>']);
        lines.push(`notice(${a} ${op} ${op === '<<' || op === '>>' ? r.pick(['1', '-1', '3', '64', '0']) : b})`);
    }
    p.emit(lines);
}

/** Resources whose titles come from each/map/filter/reduce/slice/with results. */
export function iteratedTitles(p: Program): void {
    const r = p.rng;
    const t = p.name('it');
    p.use('cat.iterated-titles');
    const source = r.pick([`['a', 'b', 'c']`, `{ 'x' => 1, 'y' => 2 }`, '[1, 2, 3, 4]', '3', `['a', ['b', 'c']]`, '[]']);
    const titles = r.pick([
        `${source}.map |$v| { "${t}-\${v}" }`,
        `${source}.filter |$v| { $v != 'b' }.map |$v| { "${t}-\${v}" }`,
        `[${source}.reduce('${t}') |$m, $v| { "\${m}-\${v}" }]`,
        `${source}.slice(2).map |$s| { "${t}-\${s}" }`,
        `with(${source}) |$v| { ["${t}-\${v}"] }`,
        `flatten([${source}]).map |$i, $v| { "${t}-\${i}" }`
    ]);
    // The source in a variable: a statement cannot start with a hash literal.
    const lines = [`$${t}s = ${source}`, `$${t}t = ${titles.split(source).join(`$${t}s`)}`, `notify { $${t}t: message => "title \${title}" }`];
    if (r.chance(0.5)) lines.push(`$${t}s.each |$k, $v = 'none'| { notice("${t} \${k} \${v}") }`);
    p.emit(lines);
}

/** defined() with type names, references, variables, classes and arrays of them. */
export function definedKinds(p: Program): void {
    const r = p.rng;
    const t = p.name('df');
    p.use('expr.defined');
    p.def(`class ${t}c { }`);
    p.def(`define ${t}d { }`);
    const lines = [`notify { '${t}-n': }`, `$${t}v = 1`];
    if (r.chance(0.5)) lines.push(`include ${t}c`);
    const arg = r.pick([`'notify'`, `Notify`, `Notify['${t}-n']`, `Notify['nope']`, `'$${t}v'`, `'$nope'`, `'${t}c'`, `Class['${t}c']`, `Class[${t}c]`, `'${t}d'`,
        `${t.charAt(0).toUpperCase() + t.slice(1)}d`, `'${t}d', 'notify'`, `Resource['notify', '${t}-n']`, `Type[Notify['${t}-n']]`, `'::${t}c'`, `'nosuch'`, `''`, `'$::${t}v'`]);
    lines.push(`notice(defined(${arg}))`);
    p.emit(lines, ['top', 'class', 'node']);
}

/** Match variables set in one scope and read in nested ones (lambdas, case, selectors, classes). */
export function regexScopes(p: Program): void {
    const r = p.rng;
    const t = p.name('rx');
    p.use('expr.regex-scope');
    const lines = [`if '${t}-42-x' =~ /(\\w+)-(\\d+)/ {`, `  notice("outer \${1} \${2}")`];
    const inner = r.pick([
        `  [1].each |$i| { notice("lambda \${1} \${2}") }`,
        `  case 'q9' { /q(\\d)/: { notice("case \${0} \${1}") } default: { } }`,
        `  $s = 'z7' ? { /z(\\d)/ => "sel \${1}", default => 'none' }\n  notice($s)`,
        `  if 'no' =~ /x/ { } else { notice("else \${1}") }`,
        `  ['ab'].each |$v| { if $v =~ /(b)/ { notice("nested \${1}") } notice("after \${1}") }`
    ]);
    lines.push(inner, `  notice("again \${1}")`, '}', `notice("outside \${1}")`);
    p.emit(lines);
}
