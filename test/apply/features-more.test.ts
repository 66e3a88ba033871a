import { describe, expect, it } from 'vitest';
import { mungeCliValue, toHieraYaml, toJson, toManifest, validateTypeDefinition, type ProviderContext, type ResourceApiRun, type ResourceHash } from '../../src/apply/index.js';
import { formatForDisplay } from '../../src/apply/inspect.js';
import { parseTypeString } from '../../src/types/index.js';
import { PSensitive } from '../../src/values/index.js';
import { catalogOf, newRegistry, res, run, runEnv, typeSystem } from './helpers.js';

const def = validateTypeDefinition({ name: 'typename', desc: 'd', attributes: {
    name: { type: 'String', desc: 'n', behaviour: 'namevar' }, attr: { type: 'String', desc: 'a' }, attr_ro: { type: 'String', desc: 'r', behaviour: 'read_only' },
    size: { type: 'Optional[Integer]', desc: 's' } } }, typeSystem).definition;

describe('puppet resource output (features.md §17)', () => {
    it('to_manifest comments read_only attributes out and omits the lone namevar and undef', () => {
        expect(toManifest(def, 'title', { name: 'title', attr: 'value', attr_ro: 'fixed', size: null })).toBe("typename { 'title': \n  attr => 'value',\n# attr_ro => 'fixed', # Read Only\n}");
        expect(toManifest(def, 't', { name: 't', size: 5n })).toBe("typename { 't': \n  size => 5,\n}");
    });

    it('to_json and to_hierayaml', () => {
        expect(toJson(def, 'title', { name: 'title', attr: 'value', attr_ro: 'fixed' })).toBe('{"title":{"attr":"value","attr_ro":"fixed"}}');
        expect(toHieraYaml(def, 'title', { name: 'title', attr: 'value', attr_ro: 'fixed' })).toBe('  title:\n    attr: value\n    attr_ro: fixed\n');
    });

    it('instances lists every resource with one get; a resource applied later asks get again, as in the gem', () => {
        const { registry, logs } = newRegistry();
        let gets = 0;
        registry.registerType({ name: 'typename', desc: 'd', attributes: { name: { type: 'String', desc: 'n', behaviour: 'namevar' }, attr: { type: 'String', desc: 'a' } } },
            () => ({ get: (): ResourceHash[] => { gets++; return [{ name: 'a', attr: 'x' }, { name: 'b', attr: 'y' }]; }, set: () => undefined }));
        const r = registry.type('typename')?.startRun(runEnv(logs)) as ResourceApiRun;
        expect(r.instances().map(i => toManifest(def, i.title, i.values))).toEqual(["typename { 'a': \n  attr => 'x',\n}", "typename { 'b': \n  attr => 'y',\n}"]);
        r.instantiate(res('typename', 'c', { attr: 'z' })).evaluate({ log: () => undefined });
        expect(gets).toBe(2);
    });
});

describe('puppet resource munging of strings (features.md §5.3)', () => {
    const m = (type: string, v: unknown): unknown => mungeCliValue('pfx', parseTypeString(type), v as never);
    it.each([
        ['Boolean', 'true', true], ['Boolean', 'false', false], ['Boolean', 'yes', 'yes'],
        ['Integer', '-12', -12n], ['Float', '1.5', 1.5], ['Float', '1', 1n], ['Integer', '1.5', 1.5], ['Numeric', '2', 2n],
        ['Optional[Integer]', '3', 3n], ['Array[Integer]', ['1', '2'], [1n, 2n]], ['Array[Integer]', ['1', 'x'], ['1', 'x']],
        ['Variant[Boolean, String, Integer]', '1', 1n], ['Variant[Boolean, String, Integer]', 'true', true], ['Variant[Boolean, String, Integer]', '1.1', '1.1'],
        ['Variant[Integer, Float]', '1', 1n], ['Hash[String, Integer]', new Map([['a', '1']]), new Map([['a', '1']])], ['String', 'x', 'x']
    ])('%s %s', (type, value, expected) => {
        expect(m(type, value)).toEqual(expected);
    });

    it('an ambiguous Variant is an error (the gem\'s typos fixed)', () => {
        expect(() => m("Variant[Integer, Enum['2', '3', 'a']]", '2')).toThrow(`pfx "2" is not unambiguously convertible to Variant[Integer, Enum['2', '3', 'a']]`);
        expect(() => m('Variant[Integer, Numeric]', '1')).toThrow('is not unambiguously convertible');
    });
});

describe('more runtime behaviours', () => {
    const COMPOSITE = { name: 'software', desc: 'd', title_patterns: [{ pattern: '^(?<package>.*[^-])-(?<manager>.*)$', desc: 'p-m' }, { pattern: '^(?<package>.*)$', desc: 'p' }],
        attributes: { ensure: { type: 'Enum[present, absent]', desc: 'e' }, package: { type: 'String', desc: 'p', behaviour: 'namevar' }, manager: { type: 'String', desc: 'm', behaviour: 'namevar' } } };

    it.each([
        { id: 'no title', row: { package: 'php', manager: 'yum', ensure: 'present' }, line: 'software[php-yum]#get has not provided a title attribute.' },
        { id: 'a title that does not match', row: { title: 'php-gem', package: 'php', manager: 'yum', ensure: 'present' },
            line: 'software[php-yum]#get has provided a title attribute which does not match all namevars.\nNamevars which do not match: [:manager]\nReturned parsed title hash:  {:package=>"php", :manager=>"gem"}\nExpected hash:               {:package=>"php", :manager=>"yum"}' }
    ])('composite title strict check: $id', c => {
        const { registry } = newRegistry();
        registry.registerType(COMPOSITE, () => ({ get: () => [c.row as ResourceHash], set: () => undefined }));
        expect(run(registry, catalogOf([res('software', 'php-yum', { ensure: 'present' })])).lines).toEqual([`warning: ${c.line}`]);
    });

    it('defaults are copied for every resource, so a provider mutating one cannot change another', () => {
        const { registry } = newRegistry();
        const seen: unknown[] = [];
        registry.registerType({ name: 'listy', desc: 'd', attributes: { ensure: { type: 'Enum[present, absent]', desc: 'e' }, name: { type: 'String', desc: 'n', behaviour: 'namevar' },
            items: { type: 'Array[String]', desc: 'i', default: ['a'] } } },
        () => ({ get: () => [], set: (_c: ProviderContext, changes) => { for (const ch of changes.values()) { const items = ch.should?.items as string[]; seen.push([...items]); items.push('mutated'); } } }));
        run(registry, catalogOf([res('listy', 'x', { ensure: 'present' }), res('listy', 'y', { ensure: 'present' })]));
        expect(seen).toEqual([['a'], ['a']]);
    });

    it('auto-relations expand array attributes and mixed constant lists, dropping undef', () => {
        const { registry } = newRegistry();
        registry.registerType({ name: 'rel', desc: 'd', attributes: { name: { type: 'String', desc: 'n', behaviour: 'namevar' }, t: { type: 'Optional[Array[String]]', desc: 't' }, o: { type: 'Optional[String]', desc: 'o' } },
            autobefore: { notify: ['x', '$t', '$o'] } }, () => ({ get: () => [], set: () => undefined }));
        const inst = registry.type('rel')?.startRun(runEnv([])).instantiate(res('rel', 'r', { t: ['/a', '/b'] }));
        expect(inst?.autoRelations()).toEqual([{ kind: 'autobefore', type: 'notify', titles: ['x', '/a', '/b'] }]);
    });

    it('canonicalize cannot unwrap a Sensitive value', () => {
        const { registry } = newRegistry();
        const received: unknown[] = [];
        registry.registerType({ name: 'sec', desc: 'd', features: ['canonicalize'], attributes: { ensure: { type: 'Enum[present, absent]', desc: 'e' }, name: { type: 'String', desc: 'n', behaviour: 'namevar' },
            pw: { type: 'Sensitive[String]', desc: 'p' } } },
        () => ({ get: () => [], set: (_c, ch) => { for (const c of ch.values()) received.push(c.should?.pw); },
            canonicalize: (_c, rs) => rs.map(r => ({ ...r, ...(r.pw instanceof PSensitive ? { pw: r.pw.value } : {}) })) }));
        const { lines } = run(registry, catalogOf([res('sec', 'a', { ensure: 'present', pw: 'hunter2' }, ['pw'])]), { debug: true });
        expect(lines.join('\n')).not.toContain('hunter2');
        expect(received[0]).toBeInstanceOf(PSensitive);
    });

    it.each([
        ['a string', 'x', "'x'"], ['an integer', 5n, '5'], ['a boolean', true, 'true'], ['an array', ['a', 1n], "['a', 1]"],
        ['a hash', new Map<string, unknown>([['k', 1n], ['j', 's']]), "{\n  'k' => 1,\n  'j' => 's'\n}"], ['undef', null, "'absent'"], ['a Sensitive', new PSensitive('s'), '[redacted]']
    ])('change messages show %s as Puppet does', (_id, value, text) => {
        expect(formatForDisplay(value as never)).toBe(text);
    });

    it('custom_generate adds the provider\'s resources to the catalog, in the generator\'s container', () => {
        const { registry } = newRegistry();
        const type = { name: 'gen', desc: 'd', features: ['custom_generate'], attributes: { ensure: { type: 'Enum[present, absent]', desc: 'e' }, name: { type: 'String', desc: 'n', behaviour: 'namevar' } } };
        registry.registerType(type, () => ({ get: () => [{ name: 'g', ensure: 'present' }], set: () => undefined,
            generate: (_c, title) => [{ type: 'notify', title: `${title}-1` }, { type: 'Notify', title: `${title}-2`, parameters: { message: 'two' } }] }));
        expect(run(registry, catalogOf([res('gen', 'g', { ensure: 'present' })])).lines).toEqual([
            'notice: g-1', "notice: /Stage[main]/Main/Notify[g-1]/message: defined 'message' as 'g-1'",
            'notice: two', "notice: /Stage[main]/Main/Notify[g-2]/message: defined 'message' as 'two'"]);
        const bare = newRegistry().registry;
        bare.registerType(type, () => ({ get: () => [], set: () => undefined }));
        expect(run(bare, catalogOf([res('gen', 'g', { ensure: 'present' })])).lines).toEqual(['err: Failed to apply catalog: No generate method found within the types provider']);
    });
});
