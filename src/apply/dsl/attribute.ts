import { ArgumentError, DevError } from '../errors.js';
import { ValueCollection, type ValueOptions } from './value-collection.js';
import { toS, type DslValue } from './values.js';
import { formatForDisplay } from '../inspect.js';
import type { PuppetValue } from '../values.js';
import type { ClassicResource } from './resource.js';

export type AttributeKind = 'param' | 'property' | 'metaparam';
export type ArrayMatching = 'first' | 'all';

export interface AttributeOptions {
    readonly namevar?: boolean;
    readonly boolean?: boolean;
    readonly requiredFeatures?: string | readonly string[];
    readonly arrayMatching?: string;
    /** `Puppet::Parameter::Boolean` / `Puppet::Property::Boolean`: coerce true/false/yes/no. */
    readonly parent?: 'boolean';
}

/** The per-attribute hooks an attribute body may set (the Ruby class methods and overrides). */
export interface AttributeHooks {
    validate?: (this: AttributeContext, value: DslValue) => void;
    munge?: (this: AttributeContext, value: DslValue) => DslValue;
    unmunge?: (this: AttributeContext, value: DslValue) => DslValue;
    insync?: (this: AttributeContext, is: DslValue) => boolean;
    retrieve?: (this: AttributeContext) => DslValue;
    sync?: (this: AttributeContext) => string | void;
    changeToS?: (this: AttributeContext, is: DslValue, should: DslValue) => string;
    isToS?: (this: AttributeContext, is: DslValue) => string;
    shouldToS?: (this: AttributeContext, should: DslValue) => string;
}

/** What hooks see as `this`: the attribute's definition, its resource and its should value. */
export interface AttributeContext {
    readonly spec: AttributeSpec;
    readonly resource: ClassicResource;
    /** `should` as Puppet's getter returns it: the first value (:first) or the array (:all). */
    readonly should: DslValue;
    readonly shouldArray: readonly DslValue[];
    fail(message: string): never;
}

/** A parameter, property or metaparameter of a classic type. */
export class AttributeSpec {
    doc = '';
    /**
     * The Ruby class of the values it retrieves when they are not plain data (`Time` for a file's
     * ctime and mtime): `puppet resource --to_yaml` converts them to strings with a warning.
     */
    valueClass: string | undefined;
    namevar: boolean;
    required = false;
    readonly boolean: boolean;
    readonly requiredFeatures: readonly string[];
    readonly arrayMatching: ArrayMatching;
    readonly values = new ValueCollection();
    readonly hooks: AttributeHooks = {};
    defaultValue: { readonly value: DslValue } | { readonly block: (resource: ClassicResource) => DslValue } | undefined;
    sensitive = false;
    /** Ensure is a property with Puppet::Property::Ensure's semantics. */
    isEnsure = false;

    constructor(readonly kind: AttributeKind, readonly name: string, readonly options: AttributeOptions = {}) {
        this.namevar = options.namevar === true;
        this.boolean = options.boolean === true;
        const rf = options.requiredFeatures;
        this.requiredFeatures = rf === undefined ? [] : typeof rf === 'string' ? [rf] : [...rf];
        const am = options.arrayMatching ?? 'first';
        if (am !== 'first' && am !== 'all') throw new ArgumentError("Supported values for Property#array_matching are 'first' and 'all'");
        this.arrayMatching = am;
        if (options.parent === 'boolean') {
            this.values.newvalue(true);
            this.values.newvalue(false);
            this.values.aliasvalue('yes', 'true');
            this.values.aliasvalue('no', 'false');
        }
    }

    get isProperty(): boolean {
        return this.kind === 'property';
    }
}

/** The DSL inside `newparam`/`newproperty` bodies (type-dsl.md §3). */
export class AttributeBuilder {
    constructor(readonly spec: AttributeSpec) {}

    desc(text: string): this {
        this.spec.doc = text;
        return this;
    }

    isnamevar(): this {
        this.spec.namevar = true;
        this.spec.required = true;
        return this;
    }

    /** Recorded, but (as in Puppet) not enforced. */
    isrequired(): this {
        this.spec.required = true;
        return this;
    }

    newvalues(...names: (string | symbol | boolean | RegExp)[]): this {
        for (const n of names) this.spec.values.newvalue(n);
        return this;
    }

    newvalue(name: string | symbol | boolean | RegExp, options: ValueOptions = {}, block?: (value: DslValue) => void): this {
        this.spec.values.newvalue(name, options, block);
        return this;
    }

    aliasvalue(alias: string, existing: string): this {
        this.spec.values.aliasvalue(alias, existing);
        return this;
    }

    defaultto(value: ((resource: ClassicResource) => DslValue) | string | number | bigint | boolean | symbol | readonly unknown[] | null | undefined): this {
        if (value === undefined || value === null) throw new DevError('Either a default value or block must be provided');
        this.spec.defaultValue = typeof value === 'function' ? { block: value as (r: ClassicResource) => DslValue } : { value };
        return this;
    }

    validate(fn: NonNullable<AttributeHooks['validate']>): this { this.spec.hooks.validate = fn; return this; }
    munge(fn: NonNullable<AttributeHooks['munge']>): this { this.spec.hooks.munge = fn; return this; }
    unmunge(fn: NonNullable<AttributeHooks['unmunge']>): this { this.spec.hooks.unmunge = fn; return this; }
    insync(fn: NonNullable<AttributeHooks['insync']>): this { this.spec.hooks.insync = fn; return this; }
    retrieve(fn: NonNullable<AttributeHooks['retrieve']>): this { this.spec.hooks.retrieve = fn; return this; }
    sync(fn: NonNullable<AttributeHooks['sync']>): this { this.spec.hooks.sync = fn; return this; }
    changeToS(fn: NonNullable<AttributeHooks['changeToS']>): this { this.spec.hooks.changeToS = fn; return this; }
    isToS(fn: NonNullable<AttributeHooks['isToS']>): this { this.spec.hooks.isToS = fn; return this; }
    shouldToS(fn: NonNullable<AttributeHooks['shouldToS']>): this { this.spec.hooks.shouldToS = fn; return this; }

    /** Values of this attribute are secrets: change events and logs redact them. */
    sensitive(): this {
        this.spec.sensitive = true;
        return this;
    }
}

/** Puppet's `format_value_for_display` for DSL values: symbols print as quoted names. */
export function displayDsl(v: DslValue): string {
    if (typeof v === 'symbol') return `'${toS(v)}'`;
    if (Array.isArray(v)) return `[${v.map(displayDsl).join(', ')}]`;
    if (v === undefined) return "'absent'";
    return formatForDisplay(v as PuppetValue);
}
