import { PRegexp } from '../../values/index.js';
import type { DslProviderRegistry } from './providers.js';
import type { ResourceApiRegistry } from './resource-api.js';

/**
 * The type DSL the Ruby front end drives (`Puppet::Type.newtype`), as interfaces: the apply
 * stage's TypeRegistry/TypeBuilder/AttributeBuilder satisfy them (one registry, two front ends,
 * test/apply/ruby-type-dsl.test.ts checks it), and SchemaRegistry below is the compile-time
 * implementation the catalog uses when no apply registry is handed in (the layers allow the
 * catalog below apply only).
 */
export interface DslAttributeOptions {
    readonly namevar?: boolean;
    readonly boolean?: boolean;
    readonly requiredFeatures?: string | readonly string[];
    readonly arrayMatching?: string;
    readonly parent?: 'boolean';
}

type DslValueName = string | symbol | boolean | RegExp;

export interface DslAttributeBuilder {
    desc(text: string): unknown;
    isnamevar(): unknown;
    isrequired(): unknown;
    newvalues(...names: DslValueName[]): unknown;
    newvalue(name: DslValueName, options?: object, block?: (value: unknown) => void): unknown;
    aliasvalue(alias: string, existing: string): unknown;
    defaultto(value: ((resource: unknown) => unknown) | string | number | bigint | boolean | symbol | readonly unknown[] | null | undefined): unknown;
    validate(fn: (value: unknown) => void): unknown;
    munge(fn: (value: unknown) => unknown): unknown;
    unmunge(fn: (value: unknown) => unknown): unknown;
    sensitive(): unknown;
}

export type DslTitlePattern = readonly [RegExp, readonly (readonly [string])[]];

export interface DslTypeBuilder {
    readonly type: { readonly attributes: ReadonlyArray<{ readonly name: string }> };
    desc(text: string): unknown;
    newparam(name: string, options: DslAttributeOptions, body: (p: DslAttributeBuilder) => void): unknown;
    newproperty(name: string, options: DslAttributeOptions, body: (p: DslAttributeBuilder) => void): unknown;
    newmetaparam(name: string, options: DslAttributeOptions, body: (p: DslAttributeBuilder) => void): unknown;
    ensurable(body?: (p: DslAttributeBuilder) => void): unknown;
    validate(fn: (resource: unknown) => void): unknown;
    autorequire(type: string, fn: (resource: unknown) => unknown): unknown;
    autobefore(type: string, fn: (resource: unknown) => unknown): unknown;
    autosubscribe(type: string, fn: (resource: unknown) => unknown): unknown;
    autonotify(type: string, fn: (resource: unknown) => unknown): unknown;
    feature(name: string, doc?: string, options?: { methods?: readonly string[] }): unknown;
    titlePatterns(patterns: readonly DslTitlePattern[]): unknown;
}

/** What the compiler reads of a type: its attribute names and namevars. */
export interface DslTypeSchema {
    readonly name: string;
    readonly properties: readonly string[];
    readonly parameters: readonly string[];
    readonly namevars: readonly string[];
    /** The type's own title patterns (`self.title_patterns`), when it declares any. */
    readonly titlePatterns?: readonly DslTitlePattern[];
}

export interface DslTypeRegistry extends ResourceApiRegistry, DslProviderRegistry {
    newtype(name: string, body: (t: DslTypeBuilder) => void): unknown;
    schema(name: string): DslTypeSchema | undefined;
}

interface SchemaAttribute {
    readonly name: string;
    readonly kind: 'param' | 'property' | 'metaparam';
    namevar: boolean;
}

const chain = <T>(self: T): T => self;

/** The attribute bodies as far as a compilation needs them: names and namevars (hooks are apply's). */
class SchemaAttributeBuilder implements DslAttributeBuilder {
    constructor(private readonly attr: SchemaAttribute) {}
    desc(): this { return chain(this); }
    isnamevar(): this { this.attr.namevar = true; return this; }
    isrequired(): this { return this; }
    newvalues(): this { return this; }
    newvalue(): this { return this; }
    aliasvalue(): this { return this; }
    defaultto(): this { return this; }
    validate(): this { return this; }
    munge(): this { return this; }
    unmunge(): this { return this; }
    sensitive(): this { return this; }
}

class SchemaTypeBuilder implements DslTypeBuilder {
    readonly type: { attributes: SchemaAttribute[] } = { attributes: [] };
    desc(): this { return this; }
    newparam(name: string, options: DslAttributeOptions, body: (p: DslAttributeBuilder) => void): this { return this.add('param', name, options, body); }
    newproperty(name: string, options: DslAttributeOptions, body: (p: DslAttributeBuilder) => void): this { return this.add('property', name, options, body); }
    newmetaparam(name: string, options: DslAttributeOptions, body: (p: DslAttributeBuilder) => void): this { return this.add('metaparam', name, options, body); }
    ensurable(body?: (p: DslAttributeBuilder) => void): this { return this.add('property', 'ensure', {}, body); }
    validate(): this { return this; }
    autorequire(): this { return this; }
    autobefore(): this { return this; }
    autosubscribe(): this { return this; }
    autonotify(): this { return this; }
    feature(): this { return this; }
    patterns: readonly DslTitlePattern[] | undefined;
    titlePatterns(patterns: readonly DslTitlePattern[]): this { this.patterns = patterns; return this; }

    private add(kind: SchemaAttribute['kind'], name: string, options: DslAttributeOptions, body?: (p: DslAttributeBuilder) => void): this {
        const attr: SchemaAttribute = { name, kind, namevar: options.namevar === true };
        body?.(new SchemaAttributeBuilder(attr));
        const at = this.type.attributes.findIndex(a => a.name === name);
        if (at >= 0) this.type.attributes.splice(at, 1, attr);
        else this.type.attributes.push(attr);
        return this;
    }
}

/** A compile-time registry of one environment's Ruby types (their attribute names and namevars). */
/**
 * A Resource API type without title_patterns: the gem's own pattern, %r{(.*)}m, gives the title to
 * the first namevar. Only with several namevars does that differ from Puppet's default (the part
 * is then a parameter of the catalog's resource and of its uniqueness key); undefined otherwise.
 */
export function resourceApiOwnTitlePatterns(namevars: readonly string[]): Array<readonly [RegExp, ReadonlyArray<readonly [string]>]> | undefined {
    return namevars.length > 1 ? [[/(.*)/s, [[namevars[0]]]]] : undefined;
}

export class SchemaRegistry implements DslTypeRegistry {
    private readonly types = new Map<string, DslTypeSchema>();

    newtype(name: string, body: (t: DslTypeBuilder) => void): DslTypeSchema {
        const b = new SchemaTypeBuilder();
        body(b);
        const attrs = b.type.attributes;
        const schema: DslTypeSchema = {
            name,
            properties: attrs.filter(a => a.kind === 'property').map(a => a.name),
            parameters: attrs.filter(a => a.kind === 'param').map(a => a.name),
            namevars: attrs.filter(a => a.kind === 'param' && (a.namevar || a.name === 'name')).map(a => a.name),
            ...(b.patterns ? { titlePatterns: b.patterns } : {})
        };
        this.types.set(name.toLowerCase(), schema);
        return schema;
    }

    schema(name: string): DslTypeSchema | undefined {
        return this.types.get(name.toLowerCase());
    }

    /**
     * `Puppet::ResourceApi.register_type` as the compiler needs it: attribute names by behaviour
     * (properties are the plain and init_only attributes) and the title patterns' captures.
     * Validating the definition is the apply stage's registry's work.
     */
    registerResourceApiType(definition: Record<string, unknown>): void {
        const name = String(definition.name ?? '');
        const attrs = definition.attributes;
        if (name === '' || typeof attrs !== 'object' || attrs === null) return;
        const entries = Object.entries(attrs as Record<string, { behaviour?: unknown; behavior?: unknown }>)
            .map(([n, o]) => ({ n, b: typeof o === 'object' && o !== null ? String(o.behaviour ?? o.behavior ?? '') : '' }));
        const patterns = Array.isArray(definition.title_patterns) ? definition.title_patterns as Array<{ pattern?: { source?: unknown } }> : undefined;
        const titlePatterns = patterns?.flatMap(p => {
            const source = p?.pattern?.source;
            if (typeof source !== 'string') return [];
            const re = new PRegexp(source).regexp;
            const names = [...source.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map(m => [m[1]] as const);
            return [[re, names] as const];
        });
        const namevars = entries.filter(e => e.b === 'namevar').map(e => e.n);
        const ownPattern = patterns === undefined ? resourceApiOwnTitlePatterns(namevars) : undefined;
        this.types.set(name.toLowerCase(), {
            name,
            properties: entries.filter(e => e.b === '' || e.b === 'init_only').map(e => e.n),
            parameters: entries.filter(e => e.b === 'namevar' || e.b === 'parameter' || e.b === 'read_only').map(e => e.n),
            namevars,
            ...(titlePatterns ?? ownPattern ? { titlePatterns: titlePatterns ?? ownPattern } : {})
        });
    }

    /** Transports matter only where resources are applied. */
    registerResourceApiTransport(): void {
        return undefined;
    }
}
