import { describe, expect, test } from 'vitest';
import { coreTypes } from '../../src/apply/index.js';
import { CORE_RESOURCE_TYPES, coreResourceType, METAPARAMS } from '../../src/resource-types/index.js';

/** The shared schema is what the compiler checks resources against; apply must implement exactly it. */
describe('core resource type schema', () => {
    const applied = coreTypes();

    test('apply defines exactly the applied types of the schema', () => {
        expect(applied.map(t => t.name).sort()).toEqual(CORE_RESOURCE_TYPES.filter(t => t.applied).map(t => t.name).sort());
    });

    test.each(applied.map(t => [t.name, t] as const))('%s: same namevar, attributes, kinds and order', (name, t) => {
        const schema = coreResourceType(name);
        expect(t.keyAttributes()[0]).toBe(schema?.namevar);
        expect(t.attributes.filter(a => a.kind !== 'metaparam').map(a => [a.name, a.kind]))
            .toEqual(schema?.attributes.map(a => [a.name, a.kind]));
    });

    test.each([['File', 'file'], ['EXEC', 'exec'], ['whit', 'whit'], ['apt_key', undefined]])('lookup of %s is case-insensitive', (given, found) => {
        expect(coreResourceType(given)?.name).toBe(found);
    });

    test('no type lists a metaparameter as its own attribute', () => {
        for (const t of CORE_RESOURCE_TYPES) expect(t.attributes.filter(a => METAPARAMS.has(a.name)).map(a => `${t.name}.${a.name}`)).toEqual([]);
    });
});
