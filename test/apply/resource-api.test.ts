import { describe, expect, it } from 'vitest';
import { ForeignValue, SimpleProvider, type Changes, type Identity, type ProviderContext, type ResourceApiProvider, type ResourceHash } from '../../src/apply/index.js';
import { PSensitive } from '../../src/values/index.js';
import { catalogOf, newRegistry, res, run } from './helpers.js';

/** A provider over an in-memory system, recording every get and set call. */
class FakeProvider implements ResourceApiProvider {
    readonly gets: (Identity[] | undefined)[] = [];
    readonly sets: { changes: Changes; noop?: boolean }[] = [];
    constructor(public system: ResourceHash[], private readonly hooks: Partial<ResourceApiProvider> = {}) {}
    get(context: ProviderContext, names?: Identity[]): ResourceHash[] {
        this.gets.push(names);
        if (this.hooks.get) return this.hooks.get(context, names);
        return this.system.map(r => ({ ...r }));
    }
    set(context: ProviderContext, changes: Changes, options?: { noop: boolean }): void {
        this.sets.push({ changes, ...(options ? { noop: options.noop } : {}) });
        this.hooks.set?.(context, changes, options);
    }
    canonicalize(context: ProviderContext, resources: ResourceHash[]): ResourceHash[] {
        return this.hooks.canonicalize ? this.hooks.canonicalize(context, resources) : resources;
    }
    insync(context: ProviderContext, name: Identity, property: string, is: ResourceHash, should: ResourceHash): unknown {
        return this.hooks.insync?.(context, name, property, is, should);
    }
}

const BASIC = {
    name: 'basic', desc: 'a basic type',
    attributes: {
        ensure: { type: 'Enum[present, absent]', desc: 'e', default: 'present' },
        name: { type: 'String', desc: 'n', behaviour: 'namevar' },
        value: { type: 'Optional[String]', desc: 'v' },
        count: { type: 'Optional[Integer]', desc: 'c' },
        flag: { type: 'Boolean', desc: 'f', behaviour: 'parameter', default: false },
        created: { type: 'Optional[String]', desc: 'r', behaviour: 'read_only' }
    }
};

function setup(definition: Record<string, unknown>, provider: ResourceApiProvider): ReturnType<typeof newRegistry> {
    const r = newRegistry();
    r.registry.registerType(definition, () => provider);
    return r;
}

describe('Resource API runtime: get/set (features.md §8)', () => {
    it('passes one change per resource with is and should (all attributes, defaults included)', () => {
        const p = new FakeProvider([]);
        const { registry } = setup(BASIC, p);
        const { lines, result } = run(registry, catalogOf([res('basic', 'foo', { value: 'v' })]));
        expect(p.sets).toHaveLength(1);
        // The state the gem makes up for a resource get did not return has the symbol :absent (recorded: combo-create).
        expect([...p.sets[0].changes]).toEqual([['foo', { is: { title: 'foo', ensure: new ForeignValue('Symbol', ':absent') }, should: { ensure: 'present', name: 'foo', value: 'v', flag: false } }]]);
        expect(lines).toEqual(['notice: /Stage[main]/Main/Basic[foo]/ensure: defined \'ensure\' as \'present\'']);
        expect(result.resources.find(r => r.resource.ref === 'Basic[foo]')?.action).toBe('created');
    });

    it('reports property changes and calls set only when something is out of sync', () => {
        const p = new FakeProvider([{ name: 'foo', ensure: 'present', value: 'old', count: 1n }]);
        const { registry } = setup(BASIC, p);
        const { lines } = run(registry, catalogOf([res('basic', 'foo', { value: 'new', count: 1n })]));
        expect(lines).toEqual(["notice: /Stage[main]/Main/Basic[foo]/value: value changed 'old' to 'new'"]);
        p.system = [{ name: 'foo', ensure: 'present', value: 'new', count: 1n }];
        p.sets.length = 0;
        expect(run(registry, catalogOf([res('basic', 'foo', { value: 'new', count: 1n })])).lines).toEqual([]);
        expect(p.sets).toHaveLength(0);
    });

    it('calls get for every resource of a type without simple_get_filter, as the gem 1.8.16 does (no get cache in a catalog run)', () => {
        const p = new FakeProvider([{ name: 'a', ensure: 'present' }]);
        const { registry } = setup(BASIC, p);
        run(registry, catalogOf([res('basic', 'a'), res('basic', 'b'), res('basic', 'c')]));
        expect(p.gets).toEqual([undefined, undefined, undefined]);
    });

    it('with simple_get_filter calls get with each identity', () => {
        const p = new FakeProvider([{ name: 'a', ensure: 'present' }]);
        const { registry } = setup({ ...BASIC, features: ['simple_get_filter'] }, p);
        run(registry, catalogOf([res('basic', 'a'), res('basic', 'b')]));
        expect(p.gets).toEqual([['a'], ['b']]);
    });

    it('a failing get fails every resource of the type, the rest of the catalog goes on', () => {
        const p = new FakeProvider([], { get: () => { throw new Error('cannot list'); } });
        const { registry } = setup(BASIC, p);
        const { lines, result } = run(registry, catalogOf([res('basic', 'a'), res('basic', 'b'), res('notify', 'n')]));
        expect(lines.filter(l => l.startsWith('err'))).toEqual([
            'err: /Stage[main]/Main/Basic[a]: Could not evaluate: cannot list',
            'err: /Stage[main]/Main/Basic[b]: Could not evaluate: cannot list'
        ]);
        expect(p.gets).toHaveLength(2);
        expect(result.resources.find(r => r.resource.ref === 'Notify[n]')?.changes).toHaveLength(1);
    });

    it.each([
        { id: 'type mismatch', params: { count: 'x' }, error: 'Parameter count failed on Basic[a]: basic.count expects a value of type Undef or Integer, got String' },
        { id: 'read_only set', params: { created: '2017' }, error: 'Parameter created failed on Basic[a]: Attempting to set `created` read_only attribute value to `2017`' },
        { id: 'unknown attribute', params: { nope: 1n }, error: "no parameter named 'nope'" }
    ])('construction error: $id aborts the run with Puppet\'s message', c => {
        const { registry } = setup(BASIC, new FakeProvider([]));
        const { lines, result } = run(registry, catalogOf([res('basic', 'a', c.params)]));
        expect(lines).toEqual([`err: ${c.error}`]);
        expect(result.aborted?.code).toBe('APPLY_RESOURCE_FAILED');
        expect(result.aborted?.at).toEqual({ file: 'site.pp', line: 1, column: 1 });
    });

    it('missing mandatory parameters fail at construction, even for ensure => absent', () => {
        const def = { ...BASIC, attributes: { ...BASIC.attributes, param: { type: 'String', desc: 'p', behaviour: 'parameter' }, param2: { type: 'String', desc: 'p', behaviour: 'parameter' } } };
        const { registry } = setup(def, new FakeProvider([]));
        const { lines } = run(registry, catalogOf([res('basic', 'a', { ensure: 'absent' })]));
        expect(lines).toEqual(['err: Validation of Basic[a] failed: The following mandatory parameters were not provided:\n    *  param, \n    *  param2']);
    });

    it('missing mandatory properties fail when the resource is to be present', () => {
        const def = { ...BASIC, attributes: { ...BASIC.attributes, prop: { type: 'String', desc: 'p' } } };
        const { registry } = setup(def, new FakeProvider([]));
        expect(run(registry, catalogOf([res('basic', 'a', { ensure: 'present' })])).lines).toEqual([
            'err: /Stage[main]/Main/Basic[a]: Could not evaluate: The following mandatory attributes were not provided:\n    *  prop'
        ]);
        expect(run(registry, catalogOf([res('basic', 'b', { ensure: 'absent' })])).lines).toEqual([]);
    });

    it('without ensure and an absent resource there is nothing to manage', () => {
        const def = { ...BASIC, attributes: { ...BASIC.attributes, ensure: { type: 'Enum[present, absent]', desc: 'e' } } };
        const p = new FakeProvider([]);
        const { registry } = setup(def, p);
        const { lines } = run(registry, catalogOf([res('basic', 'a', { value: 'x' })]), { debug: true });
        expect(lines).toContain("debug: /Stage[main]/Main/Basic[a]: Nothing to manage: no ensure and the resource doesn't exist");
        expect(p.sets).toHaveLength(0);
    });

    it('init_only changes: strict error fails, warning warns, off is silent', () => {
        const def = { ...BASIC, attributes: { ...BASIC.attributes, image: { type: 'String', desc: 'i', behaviour: 'init_only' } } };
        for (const [strict, expected] of [
            ['error', 'err: /Stage[main]/Main/Basic[a]: Could not evaluate: Attempting to change `image` init_only attribute value from `old` to `new`'],
            ['warning', 'warning: Attempting to change `image` init_only attribute value from `old` to `new`'],
            ['off', undefined]
        ] as const) {
            const { registry } = setup(def, new FakeProvider([{ name: 'a', ensure: 'present', image: 'old' }]));
            const { lines } = run(registry, catalogOf([res('basic', 'a', { image: 'new' })]), { strict });
            expect(lines.find(l => l.includes('init_only'))).toBe(expected);
        }
    });

    it('schema problems in get results follow strict (features.md §10); a result without the namevar matches no resource', () => {
        const rows = [{ name: 'a', ensure: 'present', value: 15n, wibble: 1n }];
        const message = 'Provider returned data that does not match the Type Schema for `basic[a]`\n Unknown attribute:\n    * wibble\n\n Value type mismatch:\n    * value: 15 (expects a value of type Undef or String, got Integer)\n';
        const { registry } = setup(BASIC, new FakeProvider(rows));
        expect(run(registry, catalogOf([res('basic', 'a')]), { strict: 'warning' }).lines).toEqual([`warning: ${message}`]);
        const e = setup(BASIC, new FakeProvider(rows));
        expect(run(e.registry, catalogOf([res('basic', 'a')]), { strict: 'error' }).lines).toEqual([`err: /Stage[main]/Main/Basic[a]: Could not evaluate: ${message}`]);
        const missing = setup(BASIC, new FakeProvider([], { get: () => [{ ensure: 'present', value: 'x' } as ResourceHash] }));
        expect(run(missing.registry, catalogOf([res('basic', 'a')]), { strict: 'off' }).lines).toEqual([
            "notice: /Stage[main]/Main/Basic[a]/ensure: defined 'ensure' as 'present'"]);
    });
});

describe('SimpleProvider (features.md §13)', () => {
    class Recording extends SimpleProvider {
        readonly calls: string[] = [];
        constructor(private readonly rows: ResourceHash[]) { super(); }
        get(): ResourceHash[] { return this.rows; }
        override create(_c: ProviderContext, name: Identity, should: ResourceHash): void { this.calls.push(`create ${JSON.stringify(name)} ${JSON.stringify(should)}`); }
        override update(_c: ProviderContext, name: Identity, should: ResourceHash): void { this.calls.push(`update ${JSON.stringify(name)} ${should.value}`); }
        override delete(_c: ProviderContext, name: Identity): void { this.calls.push(`delete ${JSON.stringify(name)}`); }
    }

    it.each([
        { id: 'absent → present creates', rows: [], params: { value: 'v' }, calls: ['create "a" {"name":"a","value":"v","ensure":"present","flag":false}'] },
        { id: 'present → present updates', rows: [{ name: 'a', ensure: 'present', value: 'old' }], params: { value: 'v' }, calls: ['update "a" v'] },
        { id: 'present → absent deletes', rows: [{ name: 'a', ensure: 'present' }], params: { ensure: 'absent' }, calls: ['delete "a"'] },
        { id: 'absent → absent does nothing', rows: [], params: { ensure: 'absent' }, calls: [] }
    ])('$id', c => {
        const p = new Recording(c.rows);
        const { registry } = setup(BASIC, p);
        run(registry, catalogOf([res('basic', 'a', c.params)]));
        expect(p.calls).toEqual(c.calls);
    });

    it('logs Creating through the context and reports an unimplemented method as a failure', () => {
        class Lazy extends SimpleProvider {
            get(): ResourceHash[] { return []; }
        }
        const { registry } = setup(BASIC, new Lazy());
        const { lines } = run(registry, catalogOf([res('basic', 'a')]), { debug: true });
        expect(lines).toContain('debug: basic[a]: Creating: Start');
        expect(lines.some(l => /^err: basic\[a\]: Creating: Failed after \d+\.\d{6} seconds: Lazy has not implemented `create`$/.test(l))).toBe(true);
        expect(lines).toContain('err: /Stage[main]/Main/Basic[a]: Could not evaluate: Execution encountered an error');
    });

    it('passes composite names as a hash built from should, and rejects non-ensurable types', () => {
        const p = new Recording([]);
        const def = {
            name: 'software', desc: 'd', title_patterns: [{ pattern: '^(?<package>.*[^-])-(?<manager>.*)$', desc: 'p-m' }, { pattern: '^(?<package>.*)$', desc: 'p' }],
            attributes: { ensure: { type: 'Enum[present, absent]', desc: 'e' }, package: { type: 'String', desc: 'p', behaviour: 'namevar' }, manager: { type: 'String', desc: 'm', behaviour: 'namevar' } }
        };
        const { registry } = setup(def, p);
        run(registry, catalogOf([res('software', 'php-yum', { ensure: 'present' }), res('software', 'php', { ensure: 'present', manager: 'gem' })]));
        expect(p.calls).toEqual(['create {"package":"php","manager":"yum"} {"package":"php","manager":"yum","ensure":"present"}',
            'create {"package":"php","manager":"gem"} {"package":"php","manager":"gem","ensure":"present"}']);
        const noEnsure = setup({ name: 'plain', desc: 'd', attributes: { name: { type: 'String', desc: 'n', behaviour: 'namevar' }, v: { type: 'String', desc: 'v' } } }, new Recording([]));
        // As in Puppet the change is reported before flush calls set, which then fails.
        expect(run(noEnsure.registry, catalogOf([res('plain', 'a', { v: 'x' })])).lines).toEqual([
            "notice: /Stage[main]/Main/Plain[a]/v: v changed  to 'x'",
            'err: /Stage[main]/Main/Plain[a]: Could not evaluate: SimpleProvider cannot be used with a Type that is not ensurable']);
    });

    it('a title matching no pattern is an error', () => {
        const def = { name: 'composite', desc: 'd', title_patterns: [{ pattern: '^(?<a>[a-z]+):(?<b>[a-z]+)$', desc: 'a:b' }],
            attributes: { a: { type: 'String', desc: 'a', behaviour: 'namevar' }, b: { type: 'String', desc: 'b', behaviour: 'namevar' } } };
        const { registry } = setup(def, new FakeProvider([]));
        expect(run(registry, catalogOf([res('composite', 'php123')])).lines).toEqual(['err: No set of title patterns matched the title "php123".']);
    });
});

describe('features (features.md §9)', () => {
    it('canonicalize: manifest values are canonicalized before comparing, set gets canonical values', () => {
        const up = (rs: ResourceHash[]): ResourceHash[] => rs.map(r => ({ ...r, ...(typeof r.value === 'string' ? { value: r.value.toUpperCase() } : {}) }));
        const p = new FakeProvider([{ name: 'a', ensure: 'present', value: 'ABC' }], { canonicalize: (_c, rs) => up(rs) });
        const { registry } = setup({ ...BASIC, features: ['canonicalize'] }, p);
        expect(run(registry, catalogOf([res('basic', 'a', { value: 'abc' })])).lines).toEqual([]);
        expect(run(registry, catalogOf([res('basic', 'a', { value: 'xyz' })])).lines).toEqual(["notice: /Stage[main]/Main/Basic[a]/value: value changed 'ABC' to 'XYZ'"]);
        expect(p.sets[0].changes.get('a')?.should?.value).toBe('XYZ');
    });

    it.each([
        { strict: 'error' as const, line: 'err: /Stage[main]/Main/Basic[a]: Could not evaluate: basic[a]#get has not provided canonicalized values.\nReturned values:       {:name=>"a", :ensure=>"present", :value=>"abc"}\nCanonicalized values:  {:name=>"a", :ensure=>"present", :value=>"ABC"}' },
        { strict: 'warning' as const, line: 'warning: basic[a]#get has not provided canonicalized values.\nReturned values:       {:name=>"a", :ensure=>"present", :value=>"abc"}\nCanonicalized values:  {:name=>"a", :ensure=>"present", :value=>"ABC"}' },
        { strict: 'off' as const, line: undefined }
    ])('canonicalize idempotence check with strict=$strict', c => {
        const p = new FakeProvider([{ name: 'a', ensure: 'present', value: 'abc' }], { canonicalize: (_c, rs) => rs.map(r => ({ ...r, ...(typeof r.value === 'string' ? { value: r.value.toUpperCase() } : {}) })) });
        const { registry } = setup({ ...BASIC, features: ['canonicalize'] }, p);
        expect(run(registry, catalogOf([res('basic', 'a')]), { strict: c.strict }).lines.find(l => l.includes('canonicalized'))).toBe(c.line);
    });

    it.each([
        { id: 'false with a message', ret: [false, 'Adding missing members ["b"]'], line: 'notice: /Stage[main]/Main/Basic[a]/value: Adding missing members ["b"]' },
        { id: 'false', ret: false, line: "notice: /Stage[main]/Main/Basic[a]/value: value changed 'x' to 'y'" },
        { id: 'true', ret: true, line: undefined },
        { id: 'nil falls back to equality', ret: null, line: "notice: /Stage[main]/Main/Basic[a]/value: value changed 'x' to 'y'" },
        { id: 'a String is an error', ret: 'true', line: 'err: /Stage[main]/Main/Basic[a]/value: change from \'x\' to \'y\' failed: Custom insync for value returned a String with a value of "true" instead of true/false; insync? MUST return nil or the boolean true or false' }
    ])('custom_insync returning $id', c => {
        const p = new FakeProvider([{ name: 'a', ensure: 'present', value: 'x' }], { insync: (_c, _n, prop) => prop === 'value' ? c.ret : null });
        const { registry } = setup({ ...BASIC, features: ['custom_insync'] }, p);
        expect(run(registry, catalogOf([res('basic', 'a', { value: 'y' })])).lines.find(l => l.includes('Basic[a]'))).toBe(c.line);
    });

    it('custom_insync without an insync method fails the change of the first property compared (ensure), logged as Puppet\'s harness does', () => {
        const provider: ResourceApiProvider = { get: () => [{ name: 'a', ensure: 'present', value: 'x' }], set: () => undefined };
        const { registry } = setup({ ...BASIC, features: ['custom_insync'] }, provider);
        expect(run(registry, catalogOf([res('basic', 'a', { value: 'y' })])).lines).toEqual([
            'err: No insync? method defined in the provider; an insync? method must be defined if the custom_insync feature is defined for the type',
            "err: /Stage[main]/Main/Basic[a]/ensure: change from 'present' to 'present' failed: No insync? method defined in the provider; an insync? method must be defined if the custom_insync feature is defined for the type"]);
    });

    it('custom_insync on a type without properties uses the hidden trigger property', () => {
        const def = { name: 'hidden', desc: 'd', features: ['custom_insync'], attributes: {
            name: { type: 'String', desc: 'n', behaviour: 'namevar' }, force: { type: 'Boolean', desc: 'f', behaviour: 'parameter', default: false } } };
        const p = new FakeProvider([{ name: 'example' }], { insync: (_c, _n, _p, _is, should) => should.force !== true });
        const { registry } = setup(def, p);
        expect(run(registry, catalogOf([res('hidden', 'example', { force: true })])).lines).toEqual([
            'notice: /Stage[main]/Main/Hidden[example]/rsapi_custom_insync_trigger: Custom insync logic determined that this resource is out of sync']);
        expect(p.sets[0].changes.get('example')?.should).toEqual({ name: 'example', force: true });
        expect(run(registry, catalogOf([res('hidden', 'example')])).lines).toEqual([]);
    });

    it('supports_noop: as with the gem under Puppet, a noop run flushes nothing, so set is not called either way', () => {
        const p = new FakeProvider([]);
        const { registry } = setup({ ...BASIC, features: ['supports_noop'] }, p);
        expect(run(registry, catalogOf([res('basic', 'a')]), { noop: true }).lines).toEqual([
            "notice: /Stage[main]/Main/Basic[a]/ensure: current_value 'absent', should be 'present' (noop)",
            "notice: Class[Main]: Would have triggered 'refresh' from 1 event",
            "notice: Stage[main]: Would have triggered 'refresh' from 1 event"]);
        expect(p.sets).toHaveLength(0);
        run(registry, catalogOf([res('basic', 'a')]));
        expect(p.sets.map(s => s.noop)).toEqual([false]);
        const q = new FakeProvider([]);
        const plain = setup(BASIC, q);
        run(plain.registry, catalogOf([res('basic', 'a')]), { noop: true });
        expect(q.sets).toHaveLength(0);
    });

    it('autorequire with $attr references links resources present in the catalog', () => {
        const def = { ...BASIC, autorequire: { file: '$value', notify: ['n1', 'missing'] } };
        const { registry } = setup(def, new FakeProvider([]));
        const { lines } = run(registry, catalogOf([res('basic', 'a', { value: '/etc/x' }), res('notify', 'n1'), res('file', '/etc/x', { ensure: 'absent' })]));
        expect(lines.map(l => l.replace(/^notice: /, ''))).toEqual([
            "n1", "/Stage[main]/Main/Notify[n1]/message: defined 'message' as 'n1'", '/Stage[main]/Main/Basic[a]/ensure: defined \'ensure\' as \'present\'']);
    });

    it('Sensitive attributes stay wrapped for the provider and redacted in every log', () => {
        const def = { ...BASIC, attributes: { ...BASIC.attributes, secret: { type: 'Optional[Sensitive[String]]', desc: 's' } } };
        const p = new FakeProvider([{ name: 'a', ensure: 'present', secret: new PSensitive('old') }]);
        const { registry } = setup(def, p);
        const { lines, result } = run(registry, catalogOf([res('basic', 'a', { secret: 'hunter2' }, ['secret'])]), { debug: true });
        // The gem hands Puppet a plain hash, so the property is not marked sensitive: the Sensitive values redact themselves.
        expect(lines).toContain('notice: /Stage[main]/Main/Basic[a]/secret: secret changed Sensitive [value redacted] to Sensitive [value redacted]');
        expect(lines.join('\n')).not.toContain('hunter2');
        expect(JSON.stringify(result.resources.map(r => r.changes), (_k, v: unknown) => typeof v === 'bigint' ? String(v) : v)).not.toContain('hunter2');
        const should = p.sets[0].changes.get('a')?.should?.secret;
        expect(should).toBeInstanceOf(PSensitive);
    });
});
