import { describe, expect, test } from 'vitest';
import { parsePuppet } from '../../src/parse/index.js';
import { completionContext, siteAt } from '../../src/lsp/index.js';
import type { Program } from '../../generated/langium/ast.js';

/**
 * What the name under the cursor (`¦`) stands for: the index the server's definition,
 * references, hover and highlights search by. Names resolve the way Puppet autoloads them.
 */
const SITES: ReadonlyArray<readonly [string, string, { role: string; kind: string; name: string } | undefined]> = [
    ['include of a class', 'include prof¦ile::base', { role: 'reference', kind: 'class', name: 'profile::base' }],
    ['include list, quoted', "include a, 'b::¦c'", { role: 'reference', kind: 'class', name: 'b::c' }],
    ['contain() call', "contain('Pro¦file::X')", { role: 'reference', kind: 'class', name: 'profile::x' }],
    ['class resource title', "class { 'ap¦t': }", { role: 'reference', kind: 'class', name: 'apt' }],
    ['Class reference', "Class['a::¦b'] -> Package['x']", { role: 'reference', kind: 'class', name: 'a::b' }],
    ['inherits', 'class a::b inherits a::pa¦rams { }', { role: 'reference', kind: 'class', name: 'a::params' }],
    ['class definition', 'class a::¦b($x = 1) { }', { role: 'definition', kind: 'class', name: 'a::b' }],
    ['nested class gets its namespace', 'class a { class ¦b { } }', { role: 'definition', kind: 'class', name: 'a::b' }],
    ['define use', "a::vho¦st { 'x': port => 1 }", { role: 'reference', kind: 'define', name: 'a::vhost' }],
    ['resource reference of a define', "A::Vho¦st['x']", { role: 'reference', kind: 'type', name: 'a::vhost' }],
    ['type alias definition', 'type A::P¦ort = Integer[1, 65535]', { role: 'definition', kind: 'type', name: 'a::port' }],
    ['function call', 'a::f¦n(1)', { role: 'reference', kind: 'function', name: 'a::fn' }],
    ['statement call', 'not¦ice 1', { role: 'reference', kind: 'function', name: 'notice' }],
    ['parameter', 'class a(Integer $p¦ort = 1) { }', { role: 'definition', kind: 'variable', name: 'a::port' }],
    ['parameter use', 'class a(Integer $port = 1) { notice($po¦rt) }', { role: 'reference', kind: 'variable', name: 'a::port' }],
    ['class variable used before its assignment', 'class a { notice($x¦) $x = 1 }', { role: 'reference', kind: 'variable', name: 'a::x' }],
    ['qualified variable', 'notice($a::params::u¦pdate)', { role: 'reference', kind: 'variable', name: 'a::params::update' }],
    ['top-scope variable', 'class a { notice($::os¦family) }', { role: 'reference', kind: 'variable', name: '::osfamily' }],
    ['unknown variable is top scope', 'class a { notice($fa¦cts) }', { role: 'reference', kind: 'variable', name: '::facts' }],
    ['lambda parameter is local to its lambda', 'class a { [1].each |$i| { notice($¦i) } }', { role: 'reference', kind: 'variable', name: 'i@a@19' }],
    ['epp() template path', "epp('prof¦ile/vhost.epp', {})", { role: 'reference', kind: 'template', name: 'profile/vhost.epp' }],
    ['lookup() key', "lookup('ntp::ser¦vers')", { role: 'reference', kind: 'hiera', name: 'ntp::servers' }],
    ['an ARM-8 binding\'s name is a lookup key', "bindings default { bind Integer, 'ntp::ser¦vers' to 1 }", { role: 'reference', kind: 'hiera', name: 'ntp::servers' }],
    ['an ARM-8 class type', 'bindings default { bind Array[class n¦tp] to [] }', { role: 'reference', kind: 'class', name: 'ntp' }],
    ['a literal names nothing', "notice('plain ¦text')", undefined]
];

describe('sites: what a name stands for', () => {
    test.each(SITES)('%s', (_, marked, expected) => {
        const offset = marked.indexOf('¦');
        const text = marked.replace('¦', '');
        const parsed = parsePuppet(text, 'x.pp');
        expect(parsed.diagnostics.filter(d => d.severity === 'error')).toEqual([]);
        const site = siteAt(parsed.ast as Program, offset);
        expect(site && { role: site.role, kind: site.kinds[0], name: site.name }).toEqual(expected);
    });
});

const CONTEXTS: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
    ['attributes after a title', "file { '/x': ", { kind: 'attribute', type: 'file', prefix: '' }],
    ['attributes after another attribute', "file { '/x':\n  ensure => file,\n  mo", { kind: 'attribute', type: 'file', prefix: 'mo' }],
    ['a define\'s attributes', "profile::vhost { 'x': po", { kind: 'attribute', type: 'profile::vhost', prefix: 'po' }],
    ['a class resource\'s parameters', "class { 'apt':\n  upd", { kind: 'attribute', type: 'class', title: 'apt', prefix: 'upd' }],
    ['not in a value', "file { '/x': ensure => fi", { kind: 'any', prefix: 'fi' }],
    ['not a resource body', 'if $x { ', { kind: 'any', prefix: '' }],
    ['class names after include', 'include prof', { kind: 'class', prefix: 'prof' }],
    ['class names in a class resource', "class { 'ap", { kind: 'class', prefix: 'ap' }],
    ['variables', 'notice($wor', { kind: 'variable', prefix: 'wor' }],
    ['Hiera keys in lookup()', "lookup('ntp::", { kind: 'hiera', prefix: 'ntp::' }],
    ['anything at statement start', 'class a {\n  pack', { kind: 'any', prefix: 'pack' }]
];

describe('completion context from the text before the cursor', () => {
    test.each(CONTEXTS)('%s', (_, before, expected) => {
        expect(completionContext(before)).toMatchObject(expected);
    });
});
