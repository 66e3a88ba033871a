import { describe, expect, it } from 'vitest';
import { DevError, ResourceError, validateTypeDefinition, validateTransportDefinition } from '../../src/apply/index.js';
import { typeSystem } from './helpers.js';

const attrs = { name: { type: 'String', desc: 'n', behaviour: 'namevar' } };

interface Case {
    readonly id: string;
    readonly input: unknown;
    readonly error?: string;
    readonly errorClass?: typeof DevError | typeof ResourceError;
    readonly warnings?: readonly string[];
}

/** features.md §3: every registration check, in the gem's order, with its exact message. */
const cases: Case[] = [
    { id: 'A1 not a Hash', input: null, error: 'Puppet::ResourceApi::TypeDefinition must be a Hash, not `NilClass`' },
    { id: 'A1 a String', input: 'x', error: 'Puppet::ResourceApi::TypeDefinition must be a Hash, not `String`' },
    { id: 'A2 no name', input: { attributes: {} }, error: 'Puppet::ResourceApi::TypeDefinition must have a name' },
    // Fixed defect 1: the gem raises a Ruby KeyError here; this is the message it intended.
    { id: 'A3 no attributes (fixed KeyError)', input: { name: 'x' }, error: 'Puppet::ResourceApi::TypeDefinition must have `attributes`' },
    { id: 'A4 attributes not a hash', input: { name: 'x', attributes: 'a' }, error: '`x.attributes` must be a hash, not `String`' },
    { id: 'A5 desc and docs', input: { name: 'x', desc: 'a', docs: 'b', attributes: attrs }, error: '`x` has both `desc` and `docs`, prefer using `desc`' },
    { id: 'A6 no desc', input: { name: 'x', attributes: attrs }, warnings: ['`x` has no documentation, add it using a `desc` key'] },
    { id: 'A6 docs is accepted', input: { name: 'x', docs: 'd', attributes: attrs }, warnings: [] },
    { id: 'A7 reserved trigger', input: { name: 'x', desc: 'd', attributes: { rsapi_custom_insync_trigger: { type: 'String' } } },
        error: '`rsapi_custom_insync_trigger` cannot be specified as an attribute; it is reserved for propertyless types with the custom_insync feature' },
    { id: 'A8 attribute not a Hash', input: { name: 'x', desc: 'd', attributes: { a: 'String' } }, error: '`x.a` must be a Hash, not a String' },
    { id: 'A9 no type', input: { name: 'x', desc: 'd', attributes: { a: { desc: 'a' } } }, error: '`x.a` has no type' },
    { id: 'A10 no attribute desc', input: { name: 'x', desc: 'd', attributes: { a: { type: 'String' } } }, warnings: ['`x.a` has no documentation, add it using a `desc` key'] },
    { id: 'A11 type syntax error', input: { name: 'x', desc: 'd', attributes: { a: { type: 'Optional[String', desc: 'a' } } },
        error: 'The type of the `a` attribute `Optional[String` could not be parsed: Syntax error at end of input' },
    { id: 'A12 not a type', input: { name: 'x', desc: 'd', attributes: { a: { type: 'basic', desc: 'a' } } },
        error: 'The type of the `a` attribute `basic` is not recognised: The expression <basic> is not a valid type specification.' },
    { id: 'A13 behavior and behaviour', input: { name: 'x', desc: 'd', attributes: { a: { type: 'String', desc: 'a', behavior: 'namevar', behaviour: 'namevar' } } },
        error: "the 'a' attribute has both a `behavior` and a `behaviour`, only use one" },
    { id: 'A14 reserved title', input: { name: 'x', desc: 'd', attributes: { title: { type: 'String', desc: 't' } } }, error: 'must not define an attribute called `:title`' },
    { id: 'A14 reserved order (provider before noop)', input: { name: 'x', desc: 'd', attributes: { noop: { type: 'String', desc: 't' }, provider: { type: 'String', desc: 't' } } },
        error: 'must not define an attribute called `:provider`' },
    { id: 'A15 title_patterns not an array', input: { name: 'x', desc: 'd', attributes: attrs, title_patterns: {} }, error: '`:title_patterns` must be an array, not `Hash`' },
    { id: 'A16 bad ensure type', input: { name: 'x', desc: 'd', attributes: { ...attrs, ensure: { type: 'String', desc: 'e' } } },
        error: '`:ensure` attribute must have a type of: `Enum[present, absent]` or `Optional[Enum[present, absent]]`' },
    { id: 'A16 Enum[absent, present] passes', input: { name: 'x', desc: 'd', attributes: { ...attrs, ensure: { type: 'Enum[absent, present]', desc: 'e' } } }, warnings: [] },
    { id: 'A16 Optional ensure passes', input: { name: 'x', desc: 'd', attributes: { ...attrs, ensure: { type: 'Optional[Enum[present, absent]]', desc: 'e' } } }, warnings: [] },
    { id: 'A16 Variant with Undef passes', input: { name: 'x', desc: 'd', attributes: { ...attrs, ensure: { type: 'Variant[Enum[absent, present], Undef]', desc: 'e' } } }, warnings: [] },
    { id: 'A17 unknown feature', input: { name: 'x', desc: 'd', attributes: attrs, features: ['no such feature', 'canonicalize'] }, warnings: ['Unknown feature detected: ["no such feature"]'] },
    { id: 'B1 bad behaviour', input: { name: 'x', desc: 'd', attributes: { a: { type: 'String', desc: 'a', behaviour: 'bad' } } }, error: '`bad` is not a valid behaviour value', errorClass: ResourceError },
    // Fixed defect 2 (spec and ResourceTypeImpl agree): several namevars need title patterns.
    // The gem 1.8.16 accepts them (recorded: rsapi-apply def-two-namevars); the title goes to the first namevar.
    { id: 'two namevars without title_patterns are accepted', input: { name: 'x', desc: 'd', attributes: { a: { type: 'String', desc: 'a', behaviour: 'namevar' }, b: { type: 'String', desc: 'b', behaviour: 'namevar' } } },
        warnings: [] },
    { id: 'type not a String (gem crashes)', input: { name: 'x', desc: 'd', attributes: { a: { type: 5, desc: 'a' } } }, error: 'The type of the `a` attribute must be a String, not `Integer`' },
    { id: 'name need not be the namevar', input: { name: 'x', desc: 'd', attributes: { name: { type: 'String', desc: 'n' }, id: { type: 'String', desc: 'i', behaviour: 'namevar' } } }, warnings: [] }
];

describe('registerType checks (features.md §3)', () => {
    it.each(cases)('$id', c => {
        if (c.error !== undefined) {
            let thrown: unknown;
            try {
                validateTypeDefinition(c.input, typeSystem);
            } catch (e) {
                thrown = e;
            }
            expect(thrown).toBeInstanceOf(c.errorClass ?? DevError);
            expect((thrown as Error).message).toBe(c.error);
        } else {
            expect(validateTypeDefinition(c.input, typeSystem).warnings).toEqual(c.warnings);
        }
    });

    it('normalises the definition into serializable data (features default to [], behavior → behaviour)', () => {
        const { definition } = validateTypeDefinition({
            name: 'software', desc: 'd',
            title_patterns: [{ pattern: '^(?<package>.*[^-])-(?<manager>.*)$', desc: 'p-m' }, { pattern: /^(?<package>.*)$/, desc: 'p' }],
            attributes: {
                ensure: { type: 'Enum[present, absent]', desc: 'e', default: 'present' },
                package: { type: 'String', desc: 'p', behavior: 'namevar' },
                manager: { type: 'String', desc: 'm', behaviour: 'namevar' }
            },
            autorequire: { File: '$package', package: ['apt'] }
        }, typeSystem);
        expect(JSON.parse(JSON.stringify(definition))).toEqual({
            name: 'software', desc: 'd',
            attributes: [
                { name: 'ensure', type: 'Enum[present, absent]', desc: 'e', default: 'present' },
                { name: 'package', type: 'String', desc: 'p', behaviour: 'namevar' },
                { name: 'manager', type: 'String', desc: 'm', behaviour: 'namevar' }
            ],
            features: [],
            titlePatterns: [{ pattern: { source: '^(?<package>.*[^-])-(?<manager>.*)$' }, desc: 'p-m' }, { pattern: { source: '^(?<package>.*)$', flags: '' }, desc: 'p' }],
            autoRelations: [{ kind: 'autorequire', type: 'file', values: ['$package'] }, { kind: 'autorequire', type: 'package', values: ['apt'] }]
        });
    });
});

const info = { host: { type: 'String', desc: 'h' } };

describe('registerTransport checks (features.md §15.1)', () => {
    it.each([
        { id: 'not a Hash', input: [], error: 'requires a hash as schema, not `Array`' },
        { id: 'no name', input: { desc: 'd', connection_info: info }, error: 'requires a `:name`' },
        { id: 'no desc is an error', input: { name: 'n', connection_info: info }, error: 'requires `:desc`' },
        { id: 'no connection_info', input: { name: 'n', desc: 'd' }, error: 'requires `:connection_info`' },
        { id: 'connection_info not a hash', input: { name: 'n', desc: 'd', connection_info: [] }, error: '`:connection_info` must be a hash, not `Array`' },
        { id: 'connection_info_order not an array', input: { name: 'n', desc: 'd', connection_info: info, connection_info_order: {} }, error: '`:connection_info_order` must be an array, not `Hash`' },
        { id: 'attribute type not recognised', input: { name: 'n', desc: 'd', connection_info: { host: { type: 'garbage', desc: 'h' } } },
            error: 'The type of the `host` attribute `garbage` is not recognised: The expression <garbage> is not a valid type specification.' }
    ])('$id', c => {
        expect(() => validateTransportDefinition(c.input, typeSystem)).toThrow(c.error);
    });

    it('accepts reserved names and defaults connection_info_order to the keys', () => {
        const { definition } = validateTransportDefinition({ name: 'n', desc: 'd', connection_info: { title: { type: 'String', desc: 't' }, ensure: { type: 'String', desc: 'e' } } }, typeSystem);
        expect(definition.connectionInfoOrder).toEqual(['title', 'ensure']);
    });
});
