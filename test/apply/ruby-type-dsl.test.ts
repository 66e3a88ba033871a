import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ClassicType, SharedTypeSystem, TypeRegistry, type CatalogResource } from '../../src/apply/index.js';
import { PluginRuntime, type DslTypeRegistry, type PluginHost } from '../../src/ruby/index.js';
import { parseTypeString } from '../../src/types/index.js';

/**
 * One registry, two front ends: a module's Ruby `Puppet::Type.newtype` lands in the apply stage's
 * TypeRegistry (the one the TypeScript type DSL fills) as a ClassicType, with its values checked.
 */
const MODULES = join(import.meta.dirname, '..', 'fixtures', 'catalog', 'ruby-plugins', 'v1');
const host: PluginHost = {
    environment: 'production', parseType: (t, local) => parseTypeString(t, local),
    callFunction: () => null, log: () => undefined, setting: () => undefined
};

const resource = (params: Record<string, string>): CatalogResource => ({
    type: 'demo_thing', title: 'one', ref: 'Demo_thing[one]', parameters: new Map(Object.entries(params)), sensitiveParameters: new Set(), tags: []
});

describe('Ruby types in the apply stage\'s registry', () => {
    test('newtype defines a ClassicType whose values the agent side checks', () => {
        const registry = new TypeRegistry('production', new SharedTypeSystem(), () => undefined);
        const asDsl: DslTypeRegistry = registry;
        const rt = new PluginRuntime([{ name: 'demo', dir: join(MODULES, 'modules', 'demo') }], host, asDsl, MODULES);
        expect(rt.findType('demo_thing')?.namevars).toEqual(['name']);
        expect(registry.type('demo_thing')).toBeInstanceOf(ClassicType);
        expect(registry.schema('demo_thing')).toEqual({ name: 'demo_thing', properties: ['ensure', 'color'], parameters: ['name'], namevars: ['name'] });
        expect(registry.validateResource(resource({ color: 'red' }))).toBeUndefined();
        expect(registry.validateResource(resource({ color: 'green' }))).toMatch(/Invalid value "green"/);
    });
});
