import { describe, expect, it } from 'vitest';
import {
    ArgumentError, ClassicResource, DevError, newtype, PuppetError, ResourceError, sym, type ClassicType, type LogMessage
} from '../../src/apply/index.js';
import { ValueCollection } from '../../src/apply/dsl/value-collection.js';
import { ABSENT } from '../../src/apply/dsl/values.js';
import { catalogOf, messages, newRegistry, res, run, runEnv } from './helpers.js';

/** The base type of type-dsl.md §5. */
function dsltest(): ClassicType {
    return newtype('dsltest', t => {
        t.ensurable();
        t.newparam('name', p => {
            p.isnamevar();
            p.validate(v => { if (/\s/.test(String(v))) throw new ArgumentError('name must not contain spaces'); });
            p.munge(v => String(v).toLowerCase());
        });
        t.newproperty('color', p => {
            p.newvalues('red', 'green', /^#[0-9a-f]{6}$/);
            p.aliasvalue('verde', 'green');
        });
        t.newproperty('size', p => {
            p.newvalue(/^\d+$/);
            p.munge(v => BigInt(String(v)));
        });
        t.newproperty('members', { arrayMatching: 'all' }, p => {
            p.insync(function (is) { return Array.isArray(is) && [...is].map(String).sort().join() === [...this.shouldArray].map(String).sort().join(); });
        });
        t.newproperty('tags2', { arrayMatching: 'all' });
        t.newproperty('single');
        t.newparam('mode', p => { p.newvalues('fast', 'slow'); p.defaultto('fast'); });
        t.newparam('force', { boolean: true }, p => { p.newvalues('true', 'false'); p.defaultto('false'); });
        t.validate(r => { if (r.get('size') !== undefined && r.get('color') === undefined) throw new ArgumentError('size requires color'); });
        t.autorequire('file', () => ['/etc/a', '/etc/b']);
    });
}

const make = (attrs: Record<string, unknown>): ClassicResource => ClassicResource.create(dsltest(), attrs);
const failure = (fn: () => unknown): { cls: string; message: string } => {
    try {
        fn();
    } catch (e) {
        return { cls: (e as { rubyClass?: string }).rubyClass ?? (e as Error).name, message: (e as Error).message };
    }
    return { cls: 'none', message: '' };
};

describe('classic type DSL (type-dsl.md §5)', () => {
    it('D01 literals munge to Symbols, name is munged', () => {
        const r = make({ name: 'A', color: 'red' });
        expect(r.get('name')).toBe('a');
        expect(r.get('color')).toBe(sym('red'));
    });

    it.each([
        { id: 'D02 undeclared value', attrs: { name: 'a', color: 'blue' }, message: 'Parameter color failed on Dsltest[a]: Invalid value "blue". Valid values are red, green. Valid values match /^#[0-9a-f]{6}$/.' },
        { id: 'D06 validate block', attrs: { name: 'a b' }, message: 'Parameter name failed on Dsltest[a b]: name must not contain spaces' },
        { id: 'D07 only a regex declared', attrs: { name: 'a', size: 'big', color: 'red' }, message: 'Parameter size failed on Dsltest[a]: Invalid value "big". Valid values match /^\\d+$/.' },
        { id: 'D10 type-level validate', attrs: { name: 'a', size: '42' }, message: 'Validation of Dsltest[a] failed: size requires color' },
        { id: 'D12 boolean param without aliases', attrs: { name: 'a', force: 'yes' }, message: 'Parameter force failed on Dsltest[a]: Invalid value "yes". Valid values are true, false.' },
        { id: 'D18 unknown attribute', attrs: { name: 'a', nope: 1 }, message: "no parameter named 'nope'" },
        { id: 'D20 bad ensure', attrs: { name: 'a', ensure: 'bogus' }, message: 'Parameter ensure failed on Dsltest[a]: Invalid value "bogus". Valid values are present, absent.' }
    ])('$id', c => {
        expect(failure(() => make(c.attrs)).message).toBe(c.message);
    });

    it('D03 a regex match stays a String; D04 an alias gives its target', () => {
        expect(make({ name: 'a', color: '#ff00aa' }).get('color')).toBe('#ff00aa');
        expect(make({ name: 'a', color: 'verde' }).get('color')).toBe(sym('green'));
    });

    it('D05 literals win over regexes', () => {
        const vc = new ValueCollection();
        vc.newvalue(/./);
        vc.newvalue('foo');
        expect(vc.match('foo')?.name).toBe(sym('foo'));
        expect(vc.munge('foo')).toBe(sym('foo'));
        expect(vc.munge('bar')).toBe('bar');
    });

    it('D08 each property value is validated, then munged', () => {
        expect(make({ name: 'a', size: '42', color: 'red' }).get('size')).toBe(42n);
    });

    it('D09 parameters validate then munge, storing the munged value', () => {
        const calls: string[] = [];
        const t = newtype('dslorder', b => {
            b.newparam('name', { namevar: true });
            b.newparam('x', p => { p.validate(v => { calls.push(`validate ${String(v)}`); }); p.munge(v => { calls.push(`munge ${String(v)}`); return `m-${String(v)}`; }); });
        });
        const r = ClassicResource.create(t, { name: 'a', x: 'x' });
        expect(calls).toEqual(['validate x', 'munge x']);
        expect(r.get('x')).toBe('m-x');
    });

    it('D11 defaults; D12 boolean predicate', () => {
        const r = make({ name: 'a' });
        expect(r.get('mode')).toBe(sym('fast'));
        expect(r.get('force')).toBe(sym('false'));
        expect(r.is('force')).toBe(false);
        const f = make({ name: 'a', force: true });
        expect(f.get('force')).toBe(sym('true'));
        expect(f.is('force')).toBe(true);
    });

    it('D13 array_matching all compares whole arrays in order', () => {
        const r = make({ name: 'a', tags2: ['x', 'y'] });
        const spec = dsltest().attr('tags2');
        const p = r.type.attr('tags2') ?? spec;
        if (!p) throw new Error('no tags2');
        expect([r.insync(p, ['x', 'y']), r.insync(p, ['y', 'x']), r.insync(p, ['x']), r.insync(p, 'x')]).toEqual([true, false, false, false]);
    });

    it('D14 array_matching first: should reads the first value, any value matches', () => {
        const r = make({ name: 'a', single: ['x', 'y'] });
        const p = r.type.attr('single');
        if (!p) throw new Error('no single');
        expect(r.get('single')).toBe('x');
        expect([r.insync(p, 'x'), r.insync(p, 'y'), r.insync(p, 'z')]).toEqual([true, true, false]);
    });

    it('D15 property_matches? stringifies only the desired value', () => {
        const one = make({ name: 'a', single: 1 });
        const p = one.type.attr('single');
        if (!p) throw new Error('no single');
        expect([one.insync(p, 1), one.insync(p, '1')]).toEqual([true, true]);
        const str = make({ name: 'a', single: '1' });
        expect(str.insync(p, 1)).toBe(false);
    });

    it('D16 a custom insync; D17 no should is in sync', () => {
        const r = make({ name: 'a', members: ['b', 'a'] });
        const members = r.type.attr('members');
        const single = r.type.attr('single');
        if (!members || !single) throw new Error('missing');
        expect(r.insync(members, ['a', 'b'])).toBe(true);
        expect(r.insync(single, 'x')).toBe(true);
    });

    it('D19 a nil value', () => {
        const r = make({ name: 'a' });
        expect(failure(() => r.set('color', null)).message).toBe('Got nil value for color');
    });

    it('D20 ensure defaults to present only when managed', () => {
        expect(make({ name: 'a' }).get('ensure')).toBeUndefined();
        expect(make({ name: 'a', color: 'red' }).get('ensure')).toBe(sym('present'));
    });

    it('D21 change messages', () => {
        const r = make({ name: 'a', color: 'red', ensure: 'present' });
        const color = r.type.attr('color');
        const ensure = r.type.attr('ensure');
        if (!color || !ensure) throw new Error('missing');
        expect(r.changeToS(color, ABSENT, sym('red'))).toBe("defined 'color' as 'red'");
        expect(r.changeToS(color, 'green', ABSENT)).toBe("undefined 'color' from 'green'");
        expect(r.changeToS(color, 'green', sym('red'))).toBe("color changed 'green' to 'red'");
        expect(r.changeToS(ensure, ABSENT, sym('present'))).toBe('created');
        expect(r.changeToS(ensure, sym('present'), ABSENT)).toBe('removed');
    });

    it('D22 two key attributes without title patterns', () => {
        const t = newtype('dsltwo', b => { b.newparam('a', { namevar: true }); b.newparam('b', { namevar: true }); });
        expect(failure(() => ClassicResource.create(t, { title: 'x' }))).toEqual({ cls: 'Puppet::DevError', message: 'you must specify title patterns when there are two or more key attributes' });
    });

    it('D23 title patterns are positional; the first match wins; explicit values win', () => {
        const t = newtype('dslpat', b => {
            b.newparam('a', { namevar: true });
            b.newparam('b', { namevar: true });
            b.titlePatterns([[/^(.*):(.*)$/, [['a'], ['b']]], [/^(.*)$/, [['a']]]]);
        });
        const xy = ClassicResource.create(t, { title: 'x:y' });
        expect([xy.get('a'), xy.get('b')]).toEqual(['x', 'y']);
        expect(ClassicResource.create(t, { title: 'x:y', b: 'z' }).get('b')).toBe('z');
        const plain = ClassicResource.create(t, { title: 'xy' });
        expect([plain.get('a'), plain.get('b')]).toEqual(['xy', undefined]);
        expect(xy.uniquenessKey()).toEqual(['x', 'y']);
    });

    it.each([
        { id: 'duplicate property', fn: () => newtype('dsldup', b => { b.newproperty('x'); b.newproperty('x'); }), message: 'Class dsldup already has a property named x' },
        { id: 'alias of a nonexistent value', fn: () => newtype('dslalias', b => b.newproperty('x', p => { p.newvalues('a'); p.aliasvalue('b', 'c'); })), message: 'Cannot alias nonexistent value c' },
        { id: 'defaultto nil', fn: () => newtype('dslnil', b => b.newparam('x', p => p.defaultto(null))), message: 'Either a default value or block must be provided' },
        { id: 'bad array_matching', fn: () => newtype('dslam', b => b.newproperty('x', { arrayMatching: 'some' })), message: "Supported values for Property#array_matching are 'first' and 'all'" }
    ])('D24 $id', c => {
        expect(failure(c.fn).message).toBe(c.message);
    });

    it.each([
        { id: 'munge raising a RuntimeError', hook: 'munge', raise: () => { throw new Error('oops'); }, message: 'Parameter x failed on Dslmunge[a]: Munging failed for value 1 in class x: oops' },
        { id: 'validate raising a RuntimeError', hook: 'validate', raise: () => { throw new Error('oops'); }, message: 'Parameter x failed on Dslmunge[a]: Validate method failed for class x: oops' },
        { id: 'validate calling fail', hook: 'validate', raise: () => { throw new PuppetError('bad x 1'); }, message: 'Parameter x failed on Dslmunge[a]: bad x 1' }
    ])('D25 $id', c => {
        const t = newtype('dslmunge', b => {
            b.newparam('name', { namevar: true });
            b.newparam('x', p => { if (c.hook === 'munge') p.munge(c.raise); else p.validate(c.raise); });
        });
        const f = failure(() => ClassicResource.create(t, { name: 'a', x: 1 }));
        expect(f).toEqual({ cls: 'Puppet::ResourceError', message: c.message });
    });

    it('D26 a custom validate replaces the newvalues check', () => {
        const t = newtype('dslcustom', b => { b.newparam('name', { namevar: true }); b.newparam('x', p => { p.newvalues('a'); p.validate(() => undefined); }); });
        expect(ClassicResource.create(t, { name: 'a', x: 'zzz' }).get('x')).toBe('zzz');
    });

    const featured = (): ClassicType => newtype('dslfeat', b => {
        b.feature('manages_x', 'x support', { methods: ['special_x'] });
        b.feature('flagged', 'flag');
        b.newparam('name', { namevar: true });
        b.newproperty('x', { requiredFeatures: 'manages_x' });
        b.newproperty('y', p => { p.newvalue('plain'); p.newvalue('special', { requiredFeatures: ['flagged'] }); });
        b.provide({ name: 'basic', create: () => ({ name: 'basic' }) });
        b.provide({ name: 'fancy', methods: ['special_x'], create: () => ({ name: 'fancy' }) });
    });

    it('D27 an attribute whose required feature the provider lacks is dropped; methods give the feature', () => {
        const logs: LogMessage[] = [];
        const r = ClassicResource.create(featured(), { name: 'a', x: 'v', provider: 'basic' }, runEnv(logs));
        expect(r.get('x')).toBeUndefined();
        expect(messages(logs, 'debug')).toEqual(['Provider basic does not support features manages_x; not managing attribute x']);
        expect(ClassicResource.create(featured(), { name: 'a', x: 'v', provider: 'fancy' }).get('x')).toBe('v');
    });

    it('D28 a value with required features the provider lacks', () => {
        expect(failure(() => ClassicResource.create(featured(), { name: 'a', y: 'special', provider: 'basic' })).message)
            .toBe("Parameter y failed on Dslfeat[a]: Provider basic must have features 'flagged' to set 'y' to 'special'");
        expect(failure(() => newtype('dslfeat2', b => { b.feature('f'); b.feature('f'); })).message).toBe('Feature f is already defined');
    });

    it('D29 autorequire links only resources in the catalog', () => {
        const { registry } = newRegistry();
        registry.addClassicType(dsltest());
        const r = make({ name: 'a' });
        expect(r.autoRelations()).toEqual([{ kind: 'autorequire', type: 'file', titles: ['/etc/a', '/etc/b'] }]);
        const { lines } = run(registry, catalogOf([res('dsltest', 'a'), res('file', '/etc/a', { ensure: 'absent' })]), { debug: true });
        expect(lines.some(l => l.includes('Could not find'))).toBe(false);
    });

    it('D30 a failing pre_run_check is logged per resource and aborts the run', () => {
        const { registry } = newRegistry();
        registry.newtype('dslpre', b => {
            b.newparam('name', { namevar: true });
            b.preRunCheck(r => { if (r.title === 'bad') throw new PuppetError('not ready'); });
        });
        const { lines, result } = run(registry, catalogOf([res('dslpre', 'ok'), res('dslpre', 'bad')]));
        expect(lines).toEqual(['err: /Stage[main]/Main/Dslpre[bad]: not ready', 'err: Failed to apply catalog: Some pre-run checks failed']);
        expect(result.aborted?.code).toBe('APPLY_PRE_RUN_CHECK');
    });

    it('several default providers: the first is used, with Puppet\'s warning; an unknown provider is rejected', () => {
        const t = newtype('dslprov', b => {
            b.newparam('name', { namevar: true });
            b.provide({ name: 'a', isDefault: true, create: () => ({ name: 'a' }) });
            b.provide({ name: 'b', isDefault: true, create: () => ({ name: 'b' }) });
        });
        const logs: LogMessage[] = [];
        expect(ClassicResource.create(t, { name: 'x' }, runEnv(logs)).providerSpec?.name).toBe('a');
        expect(messages(logs, 'warning')).toEqual(['Found multiple default providers for dslprov: a, b; using a']);
        expect(failure(() => ClassicResource.create(t, { name: 'x', provider: 'c' })).message).toBe('Parameter provider failed on Dslprov[x]: Invalid value "c". Valid values are a, b.');
    });

    it('errors carry the Ruby classes Puppet raises', () => {
        expect(new DevError('x').rubyClass).toBe('Puppet::DevError');
        expect(new ResourceError('x').rubyClass).toBe('Puppet::ResourceError');
    });
});
