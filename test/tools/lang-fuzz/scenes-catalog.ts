/**
 * Scenes about the catalog: classes (typed parameters, inheritance, containment, stages),
 * defines, resource forms, defaults, overrides, virtual and exported resources and collectors,
 * relationships, tags and modules. Each adds definitions and statement blocks to a Program.
 */
import type { Program } from './program.ts';
import { indent, sq } from './program.ts';
import { stringLit, typeCase, value, word } from './values.ts';

const PARAM_NAMES = ['port', 'host', 'opts', 'mode', 'items', 'flag', 'label', 'size', 'owner', 'extra'];

/** `Type['title']` for a resource (define names capitalized per segment). */
export function ref(type: string, title: string): string {
    return `${cap(type)}[${sq(title)}]`;
}

export function cap(type: string): string {
    return type.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('::');
}

/** A class with typed parameters and defaults (some naming earlier parameters), declared. */
export function classParams(p: Program): void {
    const r = p.rng;
    const c = p.name('cls');
    p.use('cat.class', 'types.params');
    const names = r.sample(PARAM_NAMES, r.int(1, 4));
    const params = names.map((n, i) => {
        const tc = typeCase(r);
        const refPrev = i > 0 && r.chance(0.3);
        const dflt = refPrev ? `"${n}-\${${names[i - 1]}}"` : r.chance(0.8) ? tc.good : undefined;
        const type = refPrev ? r.pick(['String', '', 'Any']) : r.chance(0.9) ? tc.type : '';
        return { n, tc, dflt, type, refPrev };
    });
    const decl = params.map(q => `${q.type === '' ? '' : `${q.type} `}$${q.n}${q.dflt === undefined ? '' : ` = ${q.dflt}`}`);
    const body = [`notify { '${c}-main': message => [${params.map(q => `$${q.n}`).join(', ')}] }`];
    if (r.chance(0.5)) body.push(`notice("${c}: ${params.map(q => `\${${q.n}}`).join(' ')}")`);
    if (r.chance(0.3)) body.push(`$derived = "${c}-\${${names[0]}}"`);
    p.def(`class ${c} (\n${indent(decl.map(d => `${d},`))}\n) {\n${indent(body)}\n}`);
    const allDefaults = params.every(q => q.dflt !== undefined);
    const lines: string[] = [];
    if (allDefaults && r.chance(0.5)) {
        lines.push(`${r.pick(['include', 'include', 'contain', 'require'])} ${c}`);
        p.includable.push(c);
    } else {
        const given = params.filter(q => q.dflt === undefined || r.chance(0.4)).map(q => {
            const v = q.refPrev ? stringLit(r) : r.chance(0.08) ? q.tc.bad : r.chance(0.05) ? 'undef' : q.tc.good;
            return `${q.n} => ${v},`;
        });
        if (r.chance(0.03)) given.push('nosuchparam => 1,');
        lines.push(`class { '${c}':${given.length === 0 ? '' : `\n${indent(given)}\n`}}`);
        if (r.chance(0.05)) lines.push(`include ${c}`);
    }
    p.declared.push({ type: 'notify', title: `${c}-main`, tags: [c], mode: 'real' });
    if (r.chance(0.5)) {
        lines.push(`notice($${c}::${r.pick(names)}${r.chance(0.2) ? ', $derived' : ''})`);
        p.use('cat.scope');
    }
    p.emit(lines);
}

/** A base class, a subclass reading its variables and overriding its resource, maybe a third level. */
export function inherits(p: Program): void {
    const r = p.rng;
    const base = p.name('base');
    const mid = p.name('mid');
    p.use('cat.inherits', 'cat.override', 'cat.scope');
    const baseParams = r.chance(0.4) ? `(String $bp = '${word(r)}') ` : '';
    p.def(`class ${base} ${baseParams}{\n  $v = ${stringLit(r)}\n  $list = ['x', 'y']\n  notify { '${base}-n': message => 'orig', tag => ['bt'] }\n` +
        `  notify { '${base}-m': }\n}`);
    const midParam = r.chance(0.5) ? `(String $p = "\${${base}::v}-p") ` : '';
    const over = r.pick([
        `Notify['${base}-n'] { message => "over \${v}" }`,
        `Notify['${base}-n'] { tag +> ['dt'], message => undef }`,
        `Notify['${base}-n'] { message +> ['more'] }`,
        `Notify['${base}-m'] { message => $list }`,
        `Notify['${base}-n', '${base}-m'] { loglevel => 'warning' }`,
        `Notify <| title == '${base}-m' |> { message => 'collected' }`
    ]);
    const midBody = [`notice("${mid}: \${v} \${${base}::v} \${list[1]}${midParam === '' ? '' : ' ${p}'}")`, over];
    if (r.chance(0.3)) midBody.push(`$v = 'shadow'\nnotice($v, $${base}::v)`);
    p.def(`class ${mid} ${midParam}inherits ${base} {\n${indent(midBody)}\n}`);
    let entry = mid;
    if (r.chance(0.3)) {
        const leaf = p.name('leaf');
        p.def(`class ${leaf} inherits ${mid} {\n  Notify['${base}-m'] { message => "leaf \${v}" }\n  notice($${mid}::v)\n}`);
        entry = leaf;
    }
    const lines: string[] = [];
    if (r.chance(0.2)) lines.push(`include ${base}`);
    lines.push(r.chance(0.7) ? `include ${entry}` : `class { '${entry}': }`);
    if (r.chance(0.1)) lines.push(`notify { 'x-${base}': }\nNotify['${base}-n'] { message => 'not a subclass' }`);
    p.declared.push({ type: 'notify', title: `${base}-n`, tags: [base, 'bt'], mode: 'real' });
    p.emit(lines);
    p.includable.push(entry);
}

/** A define with defaults naming $title, $name and other parameters, and its instances in every resource form. */
export function defines(p: Program): string {
    const r = p.rng;
    const d = p.name('def');
    p.use('cat.define', 'cat.resource');
    const extra = r.chance(0.3) ? `\n  if $n > 1 { file { "/tmp/${d}-\${title}": ensure => file, content => $msg } }` : '';
    const required = r.chance(0.2);
    p.def(`define ${d} (\n  String $msg = "m-\${title}",\n  $other = "\${msg}/\${name}",\n  Integer $n = 1,\n${required ? '  $req,\n' : ''}) {\n` +
        `  notify { "${d}-\${title}": message => "\${msg} \${other} \${n}" }\n  notice("${d} \${title} \${name}")${extra}\n}`);
    const req = required ? ' req => 1,' : '';
    const forms: Array<() => [string, string[]]> = [
        () => [`${d} { 'a':${req} }`, ['a']],
        () => [`${d} { ['b', 'c']: n => 2,${req} }`, ['b', 'c']],
        () => [`${d} {\n  default: n => 5,${req};\n  'e':;\n  'f': msg => 'y';\n}`, ['e', 'f']],
        () => [`$${d}_h = { 'msg' => 'splat', 'n' => 7${required ? ", 'req' => 2" : ''} }\n${d} { 'g': * => $${d}_h }`, ['g']],
        () => [`${d} { 'h': name => 'hn',${req} }`, ['h']],
        () => [`${cap(d)} { 'i': msg => ${stringLit(r)},${req} }`, ['i']],
        () => [`${d} { 'j': n => ${r.pick(["'3'", '3.0', '0x3'])},${req} }`, ['j']],
        () => [`${d} { 'k':${required && r.chance(0.7) ? req : ''} }`, ['k']]
    ];
    const lines: string[] = [];
    for (const f of r.sample(forms, r.int(1, 3))) {
        const [text, titles] = f();
        lines.push(text);
        for (const t of titles) {
            p.declared.push({ type: d, title: t, tags: [d], mode: 'real' });
            p.declared.push({ type: 'notify', title: `${d}-${t}`, tags: [d], mode: 'real' });
        }
    }
    if (lines.some(l => l.includes('* =>'))) p.use('expr.unary');
    p.emit(lines);
    return d;
}

/** Resource defaults in one scope, resources and a define instance declared there and in an included class. */
export function defaults(p: Program): void {
    const r = p.rng;
    p.use('cat.defaults');
    const t = p.name('dflt');
    const lines: string[] = [];
    const dline = r.pick([`Notify { message => 'from default', tag => '${t}' }`, `Notify { loglevel => 'err' }`,
        `File { mode => '0644', owner => 'root' }`, `Notify { message => ['a', 'b'] }`]);
    const before = r.chance(0.2);
    if (!before) lines.push(dline);
    lines.push(`notify { '${t}-1': }`, `notify { '${t}-2': message => 'own' }`);
    lines.push(`file { '/tmp/${t}': ensure => file }`);
    if (before) lines.push(dline);
    if (r.chance(0.5)) {
        const inner = p.name('inc');
        p.def(`class ${inner} {\n  notify { '${inner}-n': }\n  file { '/tmp/${inner}': ensure => file }\n}`);
        lines.push(`include ${inner}`);
        p.use('cat.include');
    }
    if (r.chance(0.4)) {
        const d = p.name('dd');
        p.def(`define ${d} {\n  notify { "${d}-\${title}": }\n}`);
        lines.push(`${d} { 'x': }`);
    }
    if (r.chance(0.3)) lines.push(`Notify { tag => 'second' }`);
    p.declared.push({ type: 'notify', title: `${t}-1`, tags: [t], mode: 'real' });
    p.emit(lines);
}

/** Collector and reference overrides (`=>`, `+>`, undef) of resources other scenes declared. */
export function overrides(p: Program): void {
    const r = p.rng;
    const target = p.pickDeclared('real', 'notify');
    if (!target) return;
    p.use('cat.override', 'cat.collector');
    const q = r.pick([`title == ${sq(target.title)}`, `tag == ${sq(target.tags[0] ?? 'x')}`, `title != 'zz'`, `message == 'orig'`]);
    const body = r.pick([`message => 'overridden'`, `tag +> 'added'`, `message => undef`, `loglevel => 'alert', withpath => true`, `message +> ['plus']`]);
    const form = r.pick([`Notify <| ${q} |> { ${body} }`, `Notify <| ${q} |> { ${body} }`, `${ref('notify', target.title)} { ${body} }`]);
    p.emit([form]);
}

/** Virtual and exported resources, realized by realize() and collectors with every query form. */
export function virtuals(p: Program): void {
    const r = p.rng;
    const v = p.name('v');
    p.use('cat.virtual', 'cat.collector');
    const lines = [`@notify { '${v}-a': message => 'va', tag => ['${v}t'] }`, `@notify { ['${v}-b', '${v}-c']: tag => '${v}t2' }`];
    const realizers = [
        `realize(Notify['${v}-a'])`, `realize([Notify['${v}-b'], Notify['${v}-c']])`, `Notify <| tag == '${v}t2' |>`,
        `Notify <| title == '${v}-c' or title == '${v}-a' |>`, `Notify <| message == 'va' |>`, `Notify <| |>`,
        `Notify <| tag != '${v}t' |>`, `Notify <| (tag == '${v}t' or tag == '${v}t2') and title != '${v}-b' |>`,
        `Notify['${v}-a'].realize`, `realize(Notify['${v}-a'], Notify['${v}-b'])`, `Notify <| title == '${v.toUpperCase()}-A' |>`
    ];
    lines.push(...r.sample(realizers, r.int(1, 2)));
    if (r.chance(0.3)) {
        lines.push(`@user { '${v}u': uid => 1001, groups => ['adm', 'web'] }`, r.pick([`User <| groups == 'adm' |>`, `User <| uid == 1001 |>`, `User <| groups == 'nope' |>`]));
    }
    if (r.chance(0.3)) {
        lines.push(`@@notify { '${v}-ex': tag => 'exp' }`, r.pick([`Notify <<| tag == 'exp' |>>`, `Notify <<| |>>`, '']));
        p.use('cat.exported');
    }
    if (r.chance(0.3)) {
        const d = p.name('vdef');
        p.def(`define ${d} ($m = 'dm') {\n  notify { "${d}-\${title}": message => $m }\n}`);
        lines.push(`@${d} { 'vd': m => 'virt' }`, r.pick([`${cap(d)} <| title == 'vd' |>`, `${cap(d)} <| |> { m => 'coll' }`, `realize(${cap(d)}['vd'])`, '']));
    }
    if (r.chance(0.3)) lines.push(`Notify <| tag == '${v}t' |> { message => 'realized and overridden' }`);
    p.emit(lines.filter(l => l !== ''));
}

/** Relationships: chains (arrays, collectors, inline declarations, classes) and metaparameters. */
export function relationships(p: Program): void {
    const r = p.rng;
    p.use('cat.relationships');
    const pool = p.declared.filter(d => d.mode === 'real');
    const refOf = (): string => {
        if (pool.length === 0 || r.chance(0.2)) {
            const t = p.name('rel');
            p.emit([`notify { '${t}': }`]);
            pool.push({ type: 'notify', title: t, tags: [], mode: 'real' });
            return ref('notify', t);
        }
        const d = r.pick(pool);
        return ref(d.type, d.title);
    };
    const side = (): string => r.weighted({
        one: 6, array: 2, collector: 1, klass: p.includable.length > 0 ? 1 : 0, missing: 0.15
    }) === 'one' ? refOf() : sideOther();
    const sideOther = (): string => r.pick([
        `[${refOf()}, ${refOf()}]`, `Notify <| title == 'nomatch' or tag == 'bt' |>`,
        p.includable.length > 0 ? `Class[${sq(r.pick(p.includable))}]` : refOf(), `Notify['missing-target']`
    ]);
    const op = (): string => r.pick(['->', '~>', '<-', '<~', '->']);
    const lines: string[] = [];
    const form = r.weighted({ chain: 4, inline: 1, meta: 3 });
    if (form === 'chain') lines.push(r.chance(0.3) ? `${side()} ${op()} ${side()} ${op()} ${side()}` : `${side()} ${op()} ${side()}`);
    else if (form === 'inline') {
        const a = p.name('in');
        lines.push(`notify { '${a}': } ${op()} notify { '${a}b': message => 'inline' }${r.chance(0.5) ? ` -> ${side()}` : ''}`);
    } else {
        p.use('cat.metaparams');
        const t = p.name('meta');
        const metas = r.sample(['before', 'require', 'notify', 'subscribe'], r.int(1, 2)).map(m => `${m} => ${r.chance(0.4) ? `[${refOf()}, ${refOf()}]` : r.chance(0.1) ? `'${refOf()}'` : refOf()}`);
        lines.push(`notify { '${t}':\n${indent(metas.map(m => `${m},`))}\n}`);
        if (r.chance(0.3)) lines.push(`Notify['${t}'] { require +> ${refOf()} }`);
    }
    for (const pc of p.includable) if (lines.some(l => l.includes(`Class['${pc}']`)) && r.chance(0.5)) lines.unshift(`include ${pc}`);
    p.emit(lines);
}

/** Run stages with staged classes, and containment through contain/include/require. */
export function stagesAndContainment(p: Program): void {
    const r = p.rng;
    const inner = p.name('inner');
    const outer = p.name('outer');
    p.use('cat.include');
    p.def(`class ${inner} {\n  notify { '${inner}-n': }\n  notice('${inner} body')\n}`);
    const how = r.pick(['contain', 'include', 'require']);
    p.def(`class ${outer} {\n  ${how} ${inner}\n  notify { '${outer}-n': }\n  notice('${outer} body')\n}`);
    p.declared.push({ type: 'notify', title: `${inner}-n`, tags: [inner], mode: 'real' });
    if (r.chance(0.5)) {
        p.use('cat.stages');
        const st = r.pick(['pre', 'post', 'setup']);
        const lines = [`stage { '${st}': ${r.pick(['before', 'require'])} => Stage['main'] }`, `class { '${outer}': stage => ${r.chance(0.5) ? `'${st}'` : st} }`];
        if (r.chance(0.3)) lines.push(`Stage['${st}'] -> Stage['main']`);
        if (r.chance(0.2)) lines.push(`class { '${inner}': stage => 'main' }`);
        p.emit(lines, ['top', 'node']);
        return;
    }
    const lines = [`include ${outer}`];
    if (r.chance(0.4)) lines.push(`Class['${outer}'] -> Notify['${inner}-n']`);
    if (r.chance(0.3)) lines.push(`notice(defined(Class['${inner}']), defined('${outer}'), defined(Notify['${outer}-n']))`);
    p.emit(lines);
    p.includable.push(outer);
}

/** Tags: tag(), tagged(), the tag metaparameter, class and define names as tags, collectors by tag. */
export function tags(p: Program): void {
    const r = p.rng;
    const c = p.name('tg');
    p.use('cat.tags');
    p.def(`class ${c} {\n  tag ${r.pick(["'custom'", "'custom', 'other'", "['custom', 'x::y']"])}\n  notify { '${c}-n': tag => ['explicit'] }\n` +
        `  notice(tagged('custom'), tagged('${c}'), tagged('explicit'), tagged('Custom'))\n}`);
    const lines = [`include ${c}`];
    if (r.chance(0.5)) lines.push(`notify { '${c}-after': tag => 'custom' }`);
    lines.push(r.pick([`Notify <| tag == 'custom' |> { message => 'tagged' }`, `Notify <| tag == '${c}' |> { message => 'by class' }`,
        `notice(tagged('${c}'))`, `Notify <| tag == 'explicit' and title == '${c}-n' |> { tag +> 'more' }`]));
    p.declared.push({ type: 'notify', title: `${c}-n`, tags: [c, 'explicit'], mode: 'real' });
    p.emit(lines);
}

/** A module in the autoload layout: init.pp, a subclass, a define, a type alias, a function. */
export function moduleLayout(p: Program): void {
    const r = p.rng;
    const m = p.name('mod');
    p.use('mo.autoload', 'cat.module_name', 'types.alias', 'func.autoload');
    p.files.set(`modules/${m}/manifests/init.pp`, `class ${m} (String $greeting = 'hi') {\n  notice("\${module_name} \${greeting}")\n  include ${m}::sub\n}\n`);
    p.files.set(`modules/${m}/manifests/sub.pp`, `class ${m}::sub {\n  notify { '${m}-sub': message => $${m}::greeting }\n  notice($caller_module_name)\n}\n`);
    p.files.set(`modules/${m}/manifests/thing.pp`,
        `define ${m}::thing (${cap(m)}::Port $port = 80) {\n  notify { "thing-\${title}": message => "\${caller_module_name} \${module_name} \${port}" }\n}\n`);
    p.files.set(`modules/${m}/types/port.pp`, `type ${cap(m)}::Port = Integer[1, 65535]\n`);
    p.files.set(`modules/${m}/functions/double.pp`, `function ${m}::double(Numeric $x) >> Numeric {\n  $x * 2\n}\n`);
    const lines = [r.chance(0.5) ? `include ${m}` : `class { '${m}': greeting => ${stringLit(r)} }`];
    lines.push(`${m}::thing { 'a': port => ${r.pick(['8080', '1', '0', "'80'"])} }`);
    lines.push(`notice(${m}::double(${r.pick(['21', '1.5', "'x'"])}), 7 =~ ${cap(m)}::Port)`);
    if (r.chance(0.3)) lines.push(`notice(${cap(m)}::Port)`);
    p.declared.push({ type: 'notify', title: `${m}-sub`, tags: [m], mode: 'real' });
    p.emit(lines);
}

/** Resource expression forms on core types: title arrays, several bodies, Resource[], splat, values of every kind. */
export function resourceForms(p: Program): void {
    const r = p.rng;
    const t = p.name('rf');
    p.use('cat.resource', 'cat.core-types');
    const lines = [r.pick([
        `file { ['/tmp/${t}a', '/tmp/${t}b']: ensure => ${r.pick(['file', 'directory', "'present'"])}, mode => ${r.pick(["'0644'", '644', "'u=rw'"])} }`,
        `notify { '${t}-1': message => ${value(r)};\n  '${t}-2': message => ${value(r)} }`,
        `Resource['notify'] { '${t}-1': message => ${value(r)} }`,
        `$${t}_attrs = { 'message' => ${value(r)}, 'loglevel' => 'info' }\nnotify { '${t}-1': * => $${t}_attrs }`,
        `exec { '${t}-1': command => '/bin/true', path => ['/bin', '/usr/bin'], refreshonly => true }`,
        `package { '${t}-1': ensure => ${r.pick(["'1.2.3'", 'latest', 'installed', 'absent'])} }\nservice { '${t}-1': ensure => running, enable => true }`,
        `user { '${t}-1': ensure => present, uid => ${r.pick(['1001', "'1001'"])}, groups => ['a', 'b'] }\ngroup { '${t}-1': gid => 1001 }`,
        `notify { '${t}-1': message => ${value(r)}, tag => ${r.pick(["'t1'", "['t1', 't2']", "'Upper'"])} }`,
        `notify { '${t}-1': name => '${t}-named', message => 'n' }`
    ])];
    if (lines[0].includes(`'${t}-1'`) && lines[0].startsWith('notify')) p.declared.push({ type: 'notify', title: `${t}-1`, tags: [], mode: 'real' });
    if (r.chance(0.3)) lines.push(`notice(${r.pick([`Notify['${t}-1']`, `Notify['${t}-1'] == Notify["${t}-1"]`, `Resource['notify', '${t}-1']`, `Notify[${t}-1]`])})`);
    p.emit(lines);
}
