import { describe, expect, it } from 'vitest';
import { ArgumentError, DevError, ProviderContext, toHieraYaml, type ResourceApiRun, type StrictMode, type Changes, type Identity, type ResourceApiProvider, type ResourceHash, type TypeDefinition } from '../../src/apply/index.js';
import { catalogOf, messages, newRegistry, res, run, runEnv } from './helpers.js';

/** A provider over an in-memory system, recording set calls; insync? may be scripted. */
class Provider implements ResourceApiProvider {
    readonly sets: Changes[] = [];
    constructor(private readonly system: ResourceHash[], private readonly insyncFn?: (property: string) => unknown) {}
    get(): ResourceHash[] {
        return this.system.map(r => ({ ...r }));
    }
    set(_context: ProviderContext, changes: Changes): void {
        this.sets.push(changes);
    }
    insync(_context: ProviderContext, _name: Identity, property: string): unknown {
        return this.insyncFn?.(property);
    }
}

const TYPE = {
    name: 'gap', desc: 'a type for the gaps',
    attributes: {
        ensure: { type: 'Enum[present, absent]', desc: 'e', default: 'present' },
        name: { type: 'String', desc: 'n', behaviour: 'namevar' },
        value: { type: 'Optional[String]', desc: 'v' },
        test_bool: { type: 'Boolean', desc: 'b', default: false },
        optional_bool: { type: 'Optional[Boolean]', desc: 'o' }
    }
};

function setup(provider: Provider, definition: Record<string, unknown> = TYPE): ReturnType<typeof newRegistry> {
    const r = newRegistry();
    r.registry.registerType(definition, () => provider);
    return r;
}

describe('Resource API gaps against the gem', () => {
    it("'true'/'false' strings for a Boolean are refused in a catalog run, converted only in CLI mode", () => {
        const refused = run(setup(new Provider([])).registry, catalogOf([res('gap', 'a', { test_bool: 'true' })]));
        expect(refused.lines).toHaveLength(1);
        expect(refused.lines[0]).toMatch(/^err: .*Parameter test_bool failed on Gap\[a\]: gap\.test_bool expects a Boolean value, got String$/);
        expect(refused.result.status).toBe('failed');
        const p = new Provider([]);
        const cli = run(setup(p).registry, catalogOf([res('gap', 'a', { test_bool: 'false', optional_bool: 'true' })]), { cli: true });
        expect(cli.result.status).toBe('changed');
        expect([...p.sets[0].values()][0].should).toMatchObject({ test_bool: false, optional_bool: true });
    });

    it('ensure => absent on an absent resource syncs nothing else and does not call set', () => {
        const p = new Provider([]);
        const { lines, result } = run(setup(p).registry, catalogOf([res('gap', 'a', { ensure: 'absent', value: 'x' })]));
        expect(lines).toEqual([]);
        expect(p.sets).toEqual([]);
        expect(result.resources.find(r => r.resource.ref === 'Gap[a]')?.changes).toEqual([]);
    });

    it("an error raised in the provider's insync? fails that property's change: change from 'X' to 'Y' failed", () => {
        const p = new Provider([{ name: 'a', ensure: 'present', value: 'FooBar' }], property => {
            if (property === 'value') throw new Error('insync broke');
            return undefined;
        });
        const def = { ...TYPE, features: ['custom_insync'] };
        const { lines, result } = run(setup(p, def).registry, catalogOf([res('gap', 'a', { value: 'RaiseError' })]));
        expect(lines).toContain("err: /Stage[main]/Main/Gap[a]/value: change from 'FooBar' to 'RaiseError' failed: insync broke");
        expect(p.sets).toEqual([]);
        expect(result.resources.find(r => r.resource.ref === 'Gap[a]')?.failed).toBe(true);
    });

    // The current value prints as get returned it, the desired Boolean quoted (the gem's :false symbol):
    // Puppet 7.23 with the gem prints `strict_flag changed true to 'false'` (test/fixtures/apply/resource).
    it('change messages quote values as the gem does', () => {
        const p = new Provider([{ name: 'a', ensure: 'present', test_bool: true }]);
        const { lines } = run(setup(p).registry, catalogOf([res('gap', 'a', { test_bool: false, optional_bool: true })]));
        expect(lines).toEqual([
            "notice: /Stage[main]/Main/Gap[a]/test_bool: test_bool changed true to 'false'",
            "notice: /Stage[main]/Main/Gap[a]/optional_bool: optional_bool changed  to 'true'"
        ]);
    });

    it('new ProviderContext(null) raises an ArgumentError', () => {
        const make = (): ProviderContext => new ProviderContext(null as unknown as TypeDefinition, () => undefined);
        expect(make).toThrow(ArgumentError);
        expect(make).toThrow('BaseContext requires definition to be a child of Puppet::ResourceApi::BaseTypeDefinition, not <NilClass>');
    });

    it('a multi-line title is a YAML block key in --to_yaml output', () => {
        const def = { name: 'gap', desc: 'd', attributes: [{ name: 'name', type: 'String', desc: 'n', behaviour: 'namevar' }, { name: 'value', type: 'String', desc: 'v' }] } as unknown as TypeDefinition;
        expect(toHieraYaml(def, 'line one\nline two', { name: 'line one\nline two', value: 'x' })).toBe('  ? |-\n    line one\n    line two\n  : value: x\n');
        expect(toHieraYaml(def, 'plain', { name: 'plain', value: 'x' })).toBe('  plain:\n    value: x\n');
    });

    it.each([
        ['error', 'throws'],
        ['warning', 'warning'],
        ['off', 'debug']
    ] as const)('listing all instances runs the schema checks: strict=%s %s', (strict: StrictMode, outcome) => {
        const { registry, logs } = newRegistry();
        registry.registerType(TYPE, () => new Provider([{ name: 'a', ensure: 'present', value: 5n, colour: 'red' }]));
        const r = registry.type('gap')?.startRun(runEnv(logs, { strict })) as ResourceApiRun;
        const expected = /^Provider returned data that does not match the Type Schema for `gap\[a\]`\n Unknown attribute:\n    \* colour\n\n Value type mismatch:\n    \* value: 5 \(expects a value of type Undef or String, got Integer\)/;
        if (outcome === 'throws') {
            expect(() => r.instances()).toThrow(DevError);
            expect(() => r.instances()).toThrow(expected);
            return;
        }
        expect(r.instances().map(i => i.title)).toEqual(['a']);
        expect(messages(logs, outcome)).toEqual([expect.stringMatching(expected)]);
    });

    it("resources { TYPE: purge => true } removes the instances the catalog does not manage", () => {
        const p = new Provider([{ name: 'kept', ensure: 'present', test_bool: false }, { name: 'stray', ensure: 'present' }, { name: 'other', ensure: 'present' }]);
        const { registry } = setup(p);
        const { lines, result } = run(registry, catalogOf([res('resources', 'gap', { purge: true }), res('gap', 'kept', { ensure: 'present' })]));
        expect(lines).toEqual(['notice: /Stage[main]/Main/Gap[stray]/ensure: undefined \'ensure\' from \'present\'', 'notice: /Stage[main]/Main/Gap[other]/ensure: undefined \'ensure\' from \'present\'']);
        expect(p.sets.map(c => [...c.keys()])).toEqual([['stray'], ['other']]);
        expect(result.status).toBe('changed');
        const notPurging = setup(new Provider([{ name: 'stray', ensure: 'present' }]));
        expect(run(notPurging.registry, catalogOf([res('resources', 'gap', { purge: false })])).lines).toEqual([]);
    });

    it.each([
        ['an unknown type', res('resources', 'nosuch', { purge: true }), "Could not find resource type 'nosuch'"],
        ['a type that cannot list its instances', res('resources', 'notify', { purge: true }), 'Purging resources of type notify is not supported, since they cannot be queried from the system']
    ])('resources purge of %s is an error', (_name, resource, message) => {
        const { result } = run(setup(new Provider([])).registry, catalogOf([resource]));
        expect(result.status).toBe('failed');
        expect(result.aborted?.message).toContain(message);
    });
});
