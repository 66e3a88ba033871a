import type { DataBindingOrigin } from '../bindings/index.js';
import type { PuppetValue } from '../values/index.js';
import type { Where } from './errors.js';
import type { Source } from './code-source.js';
import type { Scope } from './scope.js';

export type ResourceKind = 'builtin' | 'define' | 'class' | 'node' | 'stage';

/** How a parameter got its value (the Catalog model's ValueOrigin). */
export type ValueOrigin = 'declared' | 'parameterDefault' | 'resourceDefault' | 'override' | 'binding' | 'relationship' | 'compiler' | 'enc';

/** One parameter value with where and how it was set (provenance for the Catalog model). */
export interface ParamValue {
    value: PuppetValue;
    readonly where?: Where;
    readonly origin?: ValueOrigin;
    /** For values from data binding: the key looked up. */
    readonly key?: string;
    /** For values from data binding: the Hiera level or ARM-8 binding that supplied it. */
    readonly binding?: DataBindingOrigin;
    /** The code (class, define or node) that set it: who may override it depends on it. */
    readonly source?: Source;
}

/**
 * A resource in the catalog being built: core resources, define instances, classes, nodes and
 * stages. `type` is capitalized (`File`, `Foo::Bar`, `Class`), `title` as Puppet keeps it
 * (Class titles capitalized, except `main`).
 */
export class CatalogResource {
    readonly params = new Map<string, ParamValue>();
    readonly tags = new Set<string>();
    exported = false;
    virtual = false;
    /** Define instances: evaluated once, in the generator passes. */
    evaluated = false;
    /** The scope that declared it (defaults, tags, containment). */
    scope: Scope | null = null;
    container: CatalogResource | null = null;
    /** Parameters given by collector overrides before a define is evaluated, applied in order. */
    sensitive = new Set<string>();

    constructor(readonly type: string, readonly title: string, readonly kind: ResourceKind, readonly where: Where | undefined) {}

    get ref(): string {
        return `${this.type}[${this.title}]`;
    }

    get typeKey(): string {
        return this.type.toLowerCase();
    }

    param(name: string): PuppetValue | undefined {
        return this.params.get(name)?.value;
    }
}

/** Catalog key: types compare case-insensitively; titles exactly (classes by lower-case name). */
export function resourceKey(type: string, title: string): string {
    const t = type.toLowerCase();
    return t === 'class' ? `class[${title.toLowerCase()}]` : `${t}[${title}]`;
}

/** The catalog under construction, in Puppet's insertion order. */
export class Catalog {
    readonly resources = new Map<string, CatalogResource>();
    /** Aliases and namevar keys: (type, name) -> resource, for uniqueness of namevars. */
    readonly aliases = new Map<string, CatalogResource>();
    readonly edges: Array<{ source: CatalogResource; target: CatalogResource }> = [];
    readonly classes: string[] = [];
    readonly tags = new Set<string>();

    add(r: CatalogResource): void {
        this.resources.set(resourceKey(r.type, r.title), r);
    }

    find(type: string, title: string): CatalogResource | undefined {
        return this.resources.get(resourceKey(type, title)) ?? this.aliases.get(resourceKey(type, title));
    }

    addEdge(source: CatalogResource, target: CatalogResource): void {
        this.edges.push({ source, target });
    }
}
