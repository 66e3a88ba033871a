import { describe, expect, it } from 'vitest';
import { decodeJson, encodeJson } from '../../src/model/index.js';
import { catalogOf, newRegistry, res, run } from './helpers.js';

const APT_KEY = {
    name: 'apt_key', desc: 'Manages apt keys.',
    features: ['canonicalize'],
    title_patterns: [{ pattern: /^(?<id>.*)$/s, desc: 'the id' }],
    attributes: {
        ensure: { type: 'Enum[present, absent]', desc: 'e', default: 'present' },
        id: { type: 'Variant[Pattern[/\\A(0x)?[0-9a-fA-F]{8}\\Z/], Pattern[/\\A(0x)?[0-9a-fA-F]{16}\\Z/], Pattern[/\\A(0x)?[0-9a-fA-F]{40}\\Z/]]', desc: 'the id', behaviour: 'namevar' },
        source: { type: 'Optional[String]', desc: 's', behaviour: 'parameter' },
        options: { type: 'Optional[Hash[String, Integer]]', desc: 'o', default: new Map([['retries', 3n]]) },
        created: { type: 'Optional[String]', desc: 'c', behaviour: 'read_only' },
        password: { type: 'Optional[String]', desc: 'p', sensitive: true }
    },
    autorequire: { file: '$source', package: 'apt' }
};

describe('definitions are serializable models (metamodel/resource-api.emfatic)', () => {
    it('round-trips a type and a transport through EMF-JSON, validated by the schema', () => {
        const { registry } = newRegistry('dev');
        const def = registry.registerType(APT_KEY);
        registry.registerTransport({ name: 'nexus', desc: 'd', connection_info: { host: { type: 'String', desc: 'h' }, port: { type: 'Integer', desc: 'p', default: 443n } } });
        const text = encodeJson(registry.exportDefinitions());
        const model = decodeJson(text, 'defs.json', { kind: 'resource-api' });
        const { registry: compiler } = newRegistry('dev');
        compiler.importDefinitions(model.root);
        expect(compiler.definition('apt_key')).toEqual(def);
        expect(compiler.listTransports()).toEqual(registry.listTransports());
        expect(encodeJson(compiler.exportDefinitions())).toBe(text);
    });

    it('a registry loaded from the model validates resources without any provider code', () => {
        const { registry } = newRegistry();
        registry.registerType(APT_KEY);
        const { registry: compiler } = newRegistry();
        compiler.importDefinitions(decodeJson(encodeJson(registry.exportDefinitions()), 'defs.json').root);
        const schema = compiler.schema('apt_key');
        expect(schema).toMatchObject({ name: 'apt_key', properties: ['ensure', 'options', 'password'], parameters: ['id', 'source', 'created'], namevars: ['id'] });
        // The title patterns reach the compiler too: it fills namevars from titles as Puppet does.
        expect(schema?.titlePatterns?.map(([re, attrs]) => [re.exec('0x12345678')?.[1], attrs])).toEqual([['0x12345678', [['id']]]]);
        expect(run(compiler, catalogOf([res('apt_key', 'xyz')])).lines).toEqual([
            // Puppet's describer normalizes the Variant of Patterns into one Pattern (what assert_type says for it in Puppet 7.23).
            "err: Parameter id failed on Apt_key[xyz]: apt_key.id expects a match for Pattern[/\\A(0x)?[0-9a-fA-F]{8}\\Z/, /\\A(0x)?[0-9a-fA-F]{16}\\Z/, /\\A(0x)?[0-9a-fA-F]{40}\\Z/], got 'xyz'"]);
        // Applying needs the provider, which only the agent side registers.
        expect(run(compiler, catalogOf([res('apt_key', '0x12345678')])).lines).toEqual([
            'err: /Stage[main]/Main/Apt_key[0x12345678]: Could not evaluate: provider class Puppet::Provider::AptKey::AptKey not found in puppet/provider/apt_key/apt_key']);
    });
});

describe('compile-time validation against the same definitions', () => {
    it.each([
        { id: 'a valid resource', r: res('apt_key', '0x12345678', { source: '/k' }), message: undefined },
        { id: 'an unknown attribute', r: res('apt_key', '0x12345678', { nope: 1n }), message: "no parameter named 'nope'" },
        { id: 'a read_only attribute', r: res('apt_key', '0x12345678', { created: 'x' }), message: 'Parameter created failed on Apt_key[0x12345678]: Attempting to set `created` read_only attribute value to `x`' },
        { id: 'a core type value', r: res('file', 'relative'), message: "Parameter path failed on File[relative]: File paths must be fully qualified, not 'relative' (file: site.pp, line: 1)" },
        { id: 'a defined type (not a resource type)', r: res('Foo::Bar', 'x', { anything: 1n }), message: undefined }
    ])('$id', c => {
        const { registry } = newRegistry();
        registry.importDefinitions(decodeJson(encodeJson((() => { const r = newRegistry().registry; r.registerType(APT_KEY); return r.exportDefinitions(); })()), 'defs.json').root);
        expect(registry.validateResource(c.r)).toBe(c.message);
    });
});
