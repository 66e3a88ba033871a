/**
 * Errors a manifest can make, dropped into an otherwise working program: duplicate
 * declarations, unknown variables under strict_variables, wrong types and arguments, unknown
 * names, fail(), reassignment, missing references, arithmetic faults, syntax errors.
 */
import type { Program } from './program.ts';

export function errors(p: Program): void {
    const r = p.rng;
    p.use('error');
    const t = p.name('err');
    const kind = r.weighted({
        dupResource: 3, strict: 3, strictError: 1, wrongArgs: 2, unknownFunction: 1, unknownType: 1, fail: 1, missingParam: 1, unknownParam: 2,
        dupClass: 1, reassign: 1, missingTarget: 1, realizeMissing: 1, divZero: 1, selectorNoMatch: 1, badAccess: 1, syntax: 1, overrideConflict: 1,
        dupDefine: 1, badTitle: 1, badMeta: 1
    });
    switch (kind) {
        case 'dupResource': {
            p.use('error.duplicate-resource');
            const d = p.pickDeclared('real', 'notify');
            const title = d && r.chance(0.6) ? d.title : `${t}-dup`;
            if (title === `${t}-dup`) p.emit([`notify { '${title}': }`]);
            p.emit([r.pick([`notify { '${title}': message => 'again' }`, `notify { 'alias-${t}': name => '${title}' }`, `notify { ['${t}-x', '${title}']: }`])]);
            return;
        }
        case 'strict':
            p.use('error.strict-variables');
            p.settings.push('strict_variables=true');
            p.emit([r.pick([`notice($${t})`, `notice("\${${t}}")`, `notice($nosuch::${t})`, `$${t}b = $${t}[0]`, `notify { '${t}': message => $${t} }`])]);
            return;
        case 'strictError':
            p.use('error.strict-variables');
            p.settings.push(r.pick(['strict=error', 'strict=off']));
            p.emit([r.pick([`notice($${t})`, `$${t}h = { 'a' => 1, 'a' => 2 }`, `notice("\\q")`, `notice(${t}::nope)`])]);
            return;
        case 'wrongArgs':
            p.use('error.type-mismatch');
            p.emit([r.pick([`notice(join())`, `notice(size(1))`, `notice(split('a'))`, `notice('x'.upcase(1))`, `notice([1].map |$a, $b, $c| { 1 })`,
                `notice(sprintf())`, `notice(assert_type(Integer))`, `notice(Integer('x'))`, `notice(length(1, 2))`, `notice(include())`])]);
            return;
        case 'unknownFunction':
            p.use('error.unknown-function');
            p.emit([`notice(${t}_nosuch(1))`]);
            return;
        case 'unknownType':
            p.use('error.unknown-type');
            p.emit([r.pick([`${t}_nosuch { 'x': }`, `notice(Nosuch${t}['x'])`, `Nosuch${t} { tag => 'a' }`, `Nosuch${t} <| |>`])]);
            return;
        case 'fail':
            p.use('error.fail');
            p.emit([`fail("boom \${${r.pick(['title', 'name', 'module_name'])}}")`]);
            return;
        case 'missingParam': {
            p.use('error.type-mismatch');
            const d = p.name('req');
            p.def(`define ${d} (String $must, Integer $n = 1) {\n  notify { "${d}-\${title}": message => $must }\n}`);
            p.emit([r.pick([`${d} { 'a': }`, `${d} { 'a': must => 1 }`, `${d} { 'a': must => 'x', n => 'y' }`])]);
            return;
        }
        case 'unknownParam':
            p.use('error.no-parameter');
            p.emit([r.pick([`notify { '${t}': nosuch => 1 }`, `file { '/tmp/${t}': content => 'x', bogus => true }`, `notify { '${t}': * => { 'nosuch' => 1 } }`,
                `notify { '${t}': message => 1, * => { 'message' => 2 } }`, `notify { '${t}': message => 1, message => 2 }`])]);
            return;
        case 'dupClass': {
            p.use('error.duplicate-class');
            const c = p.name('dc');
            p.def(`class ${c} ($p = 1) {\n  notice("${c} \${p}")\n}`);
            p.emit([r.pick([`class { '${c}': }\nclass { '${c}': }`, `include ${c}\nclass { '${c}': p => 2 }`, `class { '${c}': }\ninclude ${c}`])]);
            return;
        }
        case 'reassign':
            p.use('error.reassign');
            p.emit([r.pick([`$${t} = 1\n$${t} = 2`, `$trusted = 1`, `$facts = {}`, `$${t} = 1\nif true { $${t} = 3 }`, `$0 = 'x'`])]);
            return;
        case 'missingTarget':
            p.use('error.unknown-resource');
            p.emit([r.pick([`notify { '${t}': require => Notify['ghost'] }`, `Notify['ghost'] -> Notify['${t}']\nnotify { '${t}': }`, `notify { '${t}': before => Class['ghost'] }`])]);
            return;
        case 'realizeMissing':
            p.use('error.unknown-resource');
            p.emit([r.pick([`realize(Notify['ghost-${t}'])`, `Notify['ghost-${t}'] { message => 1 }`])]);
            return;
        case 'divZero':
            p.use('expr.arith');
            p.emit([r.pick([`notice(1 / 0)`, `notice(1 % 0)`, `notice(9223372036854775807 + 1)`, `notice(-9223372036854775808 - 1)`, `notice(1.0 / 0)`,
                `notice(2 ** 64)`, `notice(0x7fffffffffffffff * 2)`, `notice(18446744073709551616)`])]);
            return;
        case 'selectorNoMatch':
            p.use('expr.selector');
            p.emit([`$${t} = 'q' ? { 'a' => 1 }`]);
            return;
        case 'badAccess':
            p.emit([r.pick([`notice([1, 2][5, 1, 1])`, `notice('abc'['x'])`, `notice(1[0])`, `notice({ 'a' => 1 }['a', 'b'])`, `notice(Integer[1, 2, 3])`, `notice(String[-1])`])]);
            return;
        case 'syntax':
            p.use('error.syntax');
            p.emit([r.pick([`notify { '${t}' message => 1 }`, `notice(1 +)`, `$x = [1, 2`, `class { 'x': } }`, `notify { '${t}': message => @(E)\n  no end\n`,
                `if true { notice(1) } else if false { notice(2) }`, `notice("\${1.0}")`, `define ${t}($name) { }`, `class ${t}($title) { }`])]);
            return;
        case 'overrideConflict': {
            p.use('error.override');
            const a = p.name('oc');
            p.def(`class ${a} {\n  notify { '${a}': message => 'orig' }\n}\nclass ${a}b {\n  Notify['${a}'] { message => 'not subclass' }\n}`);
            p.emit([`include ${a}\ninclude ${a}b`]);
            return;
        }
        case 'dupDefine':
            p.use('mo.duplicate-definition');
            p.def(r.pick([`class ${t} { }\nclass ${t} { }`, `define ${t} { }\nclass ${t} { }`, `define ${t} { }\ndefine ${t} { }`, `function ${t}() { 1 }\nfunction ${t}() { 2 }`]));
            p.emit([r.pick([`include ${t}`, `notice('dd')`])]);
            return;
        case 'badTitle':
            p.use('cat.resource');
            p.emit([r.pick([`notify { '': }`, `notify { 1: }`, `notify { [['a']]: }`, `notify { undef: }`, `file { 'relative/path': }`, `notify { ${t}: message => default }`])]);
            return;
        case 'badMeta':
            p.use('cat.metaparams');
            p.emit([r.pick([`notify { '${t}': require => 'notaref' }`, `notify { '${t}': before => 'Notify[x' }`, `notify { '${t}': stage => 'main' }`,
                `notify { '${t}': tag => 'bad tag!' }`, `notify { '${t}': loglevel => 'loud' }`, `notify { '${t}': audit => 'all' }`])]);
            return;
    }
}
