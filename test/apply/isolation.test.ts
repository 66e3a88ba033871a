import { describe, expect, it } from 'vitest';
import { createApplyServices, SimpleProvider, type ProviderContext, type ResourceHash } from '../../src/apply/index.js';
import { catalogOf, res, run } from './helpers.js';

/** Two versions of one module: v1 has `size` as a String, v2 as an Integer plus a new `color`. */
const V1 = { name: 'widget', desc: 'v1', attributes: {
    ensure: { type: 'Enum[present, absent]', desc: 'e' }, name: { type: 'String', desc: 'n', behaviour: 'namevar' }, size: { type: 'String', desc: 's' } } };
const V2 = { name: 'widget', desc: 'v2', attributes: {
    ensure: { type: 'Enum[present, absent]', desc: 'e' }, name: { type: 'String', desc: 'n', behaviour: 'namevar' }, size: { type: 'Integer', desc: 's' },
    color: { type: 'Optional[String]', desc: 'c' } } };

/** A provider keeping its "system" per environment, recording which version served the call. */
function provider(version: string, created: string[]): () => SimpleProvider {
    return () => new class extends SimpleProvider {
        get(): ResourceHash[] { return []; }
        override create(_c: ProviderContext, name: unknown): void { created.push(`${version}:${String(name)}`); }
    }();
}

describe('per-environment registries (isolation.md)', () => {
    it('two environments hold two versions of one type side by side in one process', () => {
        const services = createApplyServices();
        const dev = services.registries.environment('dev');
        const prod = services.registries.environment('prod');
        const created: string[] = [];
        dev.registerType(V2, provider('v2', created));
        prod.registerType(V1, provider('v1', created));

        // Interleaved compiles/applies: each environment keeps its own definition and provider.
        expect(run(dev, catalogOf([res('widget', 'a', { ensure: 'present', size: 3n, color: 'red' })])).lines).toContain('notice: /Stage[main]/Main/Widget[a]/ensure: defined \'ensure\' as \'present\'');
        expect(run(prod, catalogOf([res('widget', 'a', { ensure: 'present', size: 'large' })])).lines).toContain('notice: /Stage[main]/Main/Widget[a]/ensure: defined \'ensure\' as \'present\'');
        expect(run(prod, catalogOf([res('widget', 'b', { ensure: 'present', size: 3n })])).lines)
            .toEqual(['err: Parameter size failed on Widget[b]: widget.size expects a String value, got Integer']);
        expect(run(prod, catalogOf([res('widget', 'c', { ensure: 'present', size: 'x', color: 'red' })])).lines)
            .toEqual(["err: no parameter named 'color'"]);
        expect(run(dev, catalogOf([res('widget', 'd', { ensure: 'present', size: 'x' })])).lines)
            .toEqual(['err: Parameter size failed on Widget[d]: widget.size expects an Integer value, got String']);
        expect(created).toEqual(['v2:a', 'v1:a']);
        expect(dev.definition('widget')?.desc).toBe('v2');
        expect(prod.definition('widget')?.desc).toBe('v1');
        expect(prod.schema('widget')?.properties).toEqual(['ensure', 'size']);
        expect(dev.schema('widget')?.properties).toEqual(['ensure', 'size', 'color']);
    });

    it('classic DSL types are per environment too', () => {
        const services = createApplyServices();
        const a = services.registries.environment('a');
        const b = services.registries.environment('b');
        a.newtype('gadget', t => { t.newparam('name', { namevar: true }); t.newparam('speed'); });
        expect(a.type('gadget')).toBeDefined();
        expect(b.type('gadget')).toBeUndefined();
        expect(a.type('notify')).not.toBe(b.type('notify'));
    });

    it('a reload builds a fresh registry and swaps it in', () => {
        const services = createApplyServices();
        const before = services.registries.environment('prod');
        before.registerType(V1, provider('v1', []));
        const after = services.registries.reload('prod');
        expect(after).not.toBe(before);
        expect(after.type('widget')).toBeUndefined();
        expect(services.registries.environment('prod')).toBe(after);
        expect(before.type('widget')).toBeDefined();
    });

    it('redefining a type in one environment replaces it with Puppet\'s info message', () => {
        const infos: string[] = [];
        const services = createApplyServices({ log: () => m => { infos.push(`${m.level}: ${m.message}`); } });
        const env = services.registries.environment('prod');
        env.registerType(V1);
        env.registerType(V2);
        expect(infos).toContain('info: Redefining widget in Puppet::Type');
        expect(env.definition('widget')?.desc).toBe('v2');
    });

    it('per-run state (get caches) is not shared between runs', () => {
        const services = createApplyServices();
        const env = services.registries.environment('prod');
        let gets = 0;
        env.registerType(V1, () => ({ get: (): ResourceHash[] => { gets++; return []; }, set: () => undefined }));
        run(env, catalogOf([res('widget', 'a', { ensure: 'absent' })]));
        run(env, catalogOf([res('widget', 'a', { ensure: 'absent' })]));
        expect(gets).toBe(2);
    });
});
