import type { RubyRegexSource } from '../ruby-regex.js';
import type { PuppetValue } from '../values.js';

/**
 * A Resource API type definition after registration: plain, JSON-serializable data (the compiler
 * loads it without running provider code; metamodel/resource-api.emfatic is its model).
 */
export type Behaviour = 'namevar' | 'parameter' | 'read_only' | 'init_only';

export const BEHAVIOURS: readonly Behaviour[] = ['namevar', 'parameter', 'read_only', 'init_only'];

export interface AttributeDefinition {
    readonly name: string;
    /** A Puppet data type expression, e.g. `Enum[present, absent]`. */
    readonly type: string;
    readonly desc?: string;
    readonly default?: PuppetValue;
    /** Absent means an ordinary property. */
    readonly behaviour?: Behaviour;
    /** Redact values in schema errors; for transports also wrap them in Sensitive. */
    readonly sensitive?: boolean;
}

export interface TitlePattern {
    readonly pattern: RubyRegexSource;
    readonly desc?: string;
}

export type AutoRelationKind = 'autorequire' | 'autobefore' | 'autosubscribe' | 'autonotify';
export const AUTO_RELATION_KINDS: readonly AutoRelationKind[] = ['autorequire', 'autobefore', 'autosubscribe', 'autonotify'];

/** `{file: '$source', package: 'apt'}`: constants, or `$attr` references to attribute values. */
export interface AutoRelation {
    readonly kind: AutoRelationKind;
    readonly type: string;
    readonly values: readonly PuppetValue[];
}

export const KNOWN_FEATURES = ['supports_noop', 'canonicalize', 'custom_insync', 'remote_resource', 'simple_get_filter', 'custom_generate'] as const;
export type Feature = typeof KNOWN_FEATURES[number];

export interface TypeDefinition {
    readonly name: string;
    readonly desc?: string;
    readonly attributes: readonly AttributeDefinition[];
    readonly features: readonly string[];
    readonly titlePatterns?: readonly TitlePattern[];
    readonly autoRelations: readonly AutoRelation[];
}

export interface TransportDefinition {
    readonly name: string;
    readonly desc: string;
    readonly connectionInfo: readonly AttributeDefinition[];
    readonly connectionInfoOrder: readonly string[];
}

/** The name of the hidden property of property-less custom_insync types. */
export const CUSTOM_INSYNC_TRIGGER = 'rsapi_custom_insync_trigger';

export function namevars(def: TypeDefinition): AttributeDefinition[] {
    return def.attributes.filter(a => a.behaviour === 'namevar');
}

export function attribute(def: TypeDefinition, name: string): AttributeDefinition | undefined {
    return def.attributes.find(a => a.name === name);
}

export function isEnsurable(def: TypeDefinition): boolean {
    return def.attributes.some(a => a.name === 'ensure');
}

export function hasFeature(def: TypeDefinition, feature: string): boolean {
    return def.features.includes(feature);
}

/** Properties compared by insync: attributes without a behaviour. */
export function insyncableAttributes(def: TypeDefinition): AttributeDefinition[] {
    return def.attributes.filter(a => a.behaviour === undefined);
}

/** What Puppet treats as properties (synced): plain attributes and init_only ones. */
export function propertyAttributes(def: TypeDefinition): AttributeDefinition[] {
    return def.attributes.filter(a => a.behaviour === undefined || a.behaviour === 'init_only');
}
