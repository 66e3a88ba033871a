import type { DataBindingOrigin } from '../bindings/index.js';
import type { PuppetValue } from '../values/index.js';
import type { Where } from './errors.js';
import type { Source } from './code-source.js';
import type { Scope } from './scope.js';
import { PClassType, PResourceType } from '../types/index.js';
import { coreType, RELATIONSHIP_PARAMS } from './core-types.js';
import { ParamTable, TagSet } from './params.js';

export type ResourceKind = 'builtin' | 'define' | 'class' | 'node' | 'stage';

/** How a parameter got its value (the Catalog model's ValueOrigin). */
export type ValueOrigin = 'declared' | 'parameterDefault' | 'resourceDefault' | 'override' | 'binding' | 'relationship' | 'compiler' | 'enc';

/** One parameter value with where and how it was set (provenance for the Catalog model). */
export interface ParamValue {
    /** Never changed in place: a value object may be shared by several resources (see ops/attributes.ts). */
    readonly value: PuppetValue;
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
    readonly params = new ParamTable<ParamValue>();
    readonly tags = new TagSet();
    exported = false;
    virtual = false;
    /** Define instances: evaluated once, in the generator passes. */
    evaluated = false;
    /** The scope that declared it (defaults, tags, containment). */
    scope: Scope | null = null;
    container: CatalogResource | null = null;
    /**
     * A resource collected (`<<| |>>`) from another node's stored catalog: that node and where its
     * manifest exported it. Puppet's catalog gives such a resource no file or line (`where` is
     * unset); the Catalog model's provenance keeps this.
     */
    exportedBy: { readonly node: string; readonly where?: Where } | undefined = undefined;

    constructor(readonly type: string, readonly title: string, readonly kind: ResourceKind, readonly where: Where | undefined) {}

    get ref(): string {
        return `${this.type}[${this.title}]`;
    }

    get typeKey(): string {
        return this.type.toLowerCase();
    }

    /**
     * The namevar a title pattern gives (File's path without trailing slashes) when it differs
     * from the title: part of the resource's identity and of its serialized parameters (Puppet's
     * `to_hash` merges `parse_title` in), but not a parameter code can read.
     */
    titleParams: ReadonlyArray<{ readonly name: string; readonly value: string; readonly where?: Where }> | undefined;

    /** The parameters as the catalog carries them: the declared ones and the title's namevar. */
    outputParams(): ParamTable<ParamValue> {
        const extra = (this.titleParams ?? []).filter(t => !this.params.has(t.name));
        let reshaped = false;
        this.params.forEach((p, name) => { if (Array.isArray(p.value) && catalogArray(name, p.value) !== p.value) reshaped = true; });
        if (extra.length === 0 && !reshaped) return this.params;
        const out = new ParamTable<ParamValue>();
        this.params.forEach((p, name) => out.set(name, Array.isArray(p.value) ? { ...p, value: catalogArray(name, p.value) as PuppetValue } : p));
        for (const t of extra) out.set(t.name, { value: t.value, origin: 'compiler', ...(t.where ? { where: t.where } : {}) });
        return out;
    }

    param(name: string): PuppetValue | undefined {
        return this.params.get(name)?.value;
    }
}

/**
 * An array parameter as the catalog carries it. Puppet's Resource#to_hash flattens a relationship
 * metaparameter's array and drops its undef entries (`require => [undef]` is `[]`), and
 * copy_as_resource flattens any array holding a resource or class reference at any depth (its
 * references are then Puppet::Resource values, which the 3.x form cannot nest).
 */
function catalogArray(name: string, value: readonly PuppetValue[]): readonly PuppetValue[] {
    const flat = (value as PuppetValue[]).flat(Infinity as 1);
    if (RELATIONSHIP_PARAMS.has(name)) {
        const kept = flat.filter(v => v !== null);
        return kept.length === value.length && kept.every((v, i) => v === value[i]) ? value : kept;
    }
    if (flat.length === value.length && flat.every((v, i) => v === value[i])) return value;
    return flat.some(v => v instanceof PResourceType || v instanceof PClassType) ? flat : value;
}

/** Catalog key: types compare case-insensitively; titles exactly (classes by lower-case name). */
export function resourceKey(type: string, title: string): string {
    const t = type.toLowerCase();
    return t === 'class' ? `class[${title.toLowerCase()}]` : `${t}[${title}]`;
}

/** The resources of one type, indexed for find and for collectors. */
class TypeIndex {
    /** In declaration order (what a collector of the type walks). */
    readonly all: CatalogResource[] = [];
    /** By title (classes by lower-case name). */
    readonly titles = new Map<string, CatalogResource>();
    /** Aliases and namevars that differ from the title. */
    readonly aliases = new Map<string, CatalogResource>();
    /** Exported resources among `all` (what `<<| |>>` may take of them). */
    exported = 0;
    /**
     * By lower-case title (titles compare case-insensitively in queries), built on first use up to
     * `lowerUpTo`: one resource, or the list of those sharing a title.
     */
    private lower: Map<string, CatalogResource | CatalogResource[]> | undefined;
    private lowerUpTo = 0;
    /**
     * By tag, for `all` up to `taggedUpTo`, as of `TagSet.changes` = `taggedAt`: resources declared
     * since are added; a change of a listed resource's tags (an override, `tag()`) rebuilds it.
     */
    private tagged: Map<string, CatalogResource[]> | undefined;
    private taggedAt = -1;
    private taggedUpTo = 0;

    constructor(private readonly isClass: boolean) {}

    /** Titles compare exactly, but classes by lower-case name. */
    key(title: string): string {
        return this.isClass ? title.toLowerCase() : title;
    }

    add(r: CatalogResource): void {
        this.titles.set(this.key(r.title), r);
        this.all.push(r);
        if (r.exported) this.exported++;
        r.tags.seal();
    }

    find(title: string): CatalogResource | undefined {
        const key = this.key(title);
        return this.titles.get(key) ?? this.aliases.get(key);
    }

    titled(title: string): readonly CatalogResource[] {
        const lower = this.lower ??= new Map();
        for (; this.lowerUpTo < this.all.length; this.lowerUpTo++) {
            const r = this.all[this.lowerUpTo];
            const key = r.title.toLowerCase();
            const known = lower.get(key);
            if (known === undefined) lower.set(key, r);
            else if (Array.isArray(known)) known.push(r);
            else lower.set(key, [known, r]);
        }
        const found = lower.get(title.toLowerCase());
        return found === undefined ? [] : Array.isArray(found) ? found : [found];
    }

    taggedWith(tag: string): readonly CatalogResource[] {
        if (!this.tagged || this.taggedAt !== TagSet.changes) {
            this.tagged = new Map();
            this.taggedAt = TagSet.changes;
            this.taggedUpTo = 0;
        }
        const tagged = this.tagged;
        for (; this.taggedUpTo < this.all.length; this.taggedUpTo++) {
            const r = this.all[this.taggedUpTo];
            for (const t of r.tags) {
                const list = tagged.get(t);
                if (list) list.push(r);
                else tagged.set(t, [r]);
            }
        }
        return tagged.get(tag) ?? [];
    }

    /** Drops resources (from the lists; titles are the catalog's to drop). */
    drop(dropped: ReadonlySet<CatalogResource>): void {
        const kept = this.all.filter(r => !dropped.has(r));
        this.all.length = 0;
        this.all.push(...kept);
        this.exported = kept.filter(r => r.exported).length;
        this.lower = undefined;
        this.lowerUpTo = 0;
        this.tagged = undefined;
        this.taggedUpTo = 0;
    }
}

/** The catalog under construction, in Puppet's insertion order. */
export class Catalog {
    /** In insertion order; keyed by identity (a type and title find a resource through the type index). */
    readonly resources = new Set<CatalogResource>();
    readonly edges: Array<{ source: CatalogResource; target: CatalogResource }> = [];
    readonly classes: string[] = [];
    readonly tags = new Set<string>();
    /** By lower-case type name. */
    private readonly types = new Map<string, TypeIndex>();
    /** By type name as written ('File', 'file'), so that find builds no strings. */
    private readonly spellings = new Map<string, TypeIndex>();

    add(r: CatalogResource): void {
        const index = this.typeIndex(r.type, true) as TypeIndex;
        const same = index.titles.get(index.key(r.title));
        if (same && same !== r && this.resources.has(same)) {
            // A second resource of the same type and title takes the first one's place (never done
            // by the compiler, which refuses duplicates before adding).
            const all = [...this.resources];
            this.resources.clear();
            for (const x of all) this.resources.add(x === same ? r : x);
        } else {
            this.resources.add(r);
        }
        index.add(r);
    }

    /** Makes `r` findable under another title (the alias metaparameter, an isomorphic type's namevar). */
    addAlias(type: string, name: string, r: CatalogResource): void {
        const index = this.typeIndex(type, true) as TypeIndex;
        index.aliases.set(index.key(name), r);
    }

    /**
     * The resource a reference names: by title or alias, else (as Puppet's catalog does) by the
     * identity the type's title pattern gives the title (`File['/x/']` finds `File['/x']`).
     */
    find(type: string, title: string): CatalogResource | undefined {
        const index = this.typeIndex(type, false);
        const r = index?.find(title);
        if (r || !index) return r;
        const core = coreType(type);
        const key = core?.fromTitle?.(title)?.find(([k]) => k === core.namevar)?.[1];
        return key !== undefined && key !== title ? index.find(key) : undefined;
    }

    /** The resource declared with this title or alias (what a new declaration collides with). */
    findDeclared(type: string, title: string): CatalogResource | undefined {
        return this.typeIndex(type, false)?.find(title);
    }

    /** The resources of a type in declaration order (a live list: later declarations are appended). */
    ofType(type: string): readonly CatalogResource[] {
        return this.typeIndex(type, false)?.all ?? [];
    }

    /** The resources of a type whose title equals `title` ignoring case, in declaration order. */
    ofTypeTitled(type: string, title: string): readonly CatalogResource[] {
        return this.typeIndex(type, false)?.titled(title) ?? [];
    }

    /** The resources of a type having a tag, in declaration order. */
    ofTypeTagged(type: string, tag: string): readonly CatalogResource[] {
        return this.typeIndex(type, false)?.taggedWith(tag) ?? [];
    }

    /** How many resources of a type a collector may take: all of them, or the exported ones for `<<| |>>`. */
    collectableCount(type: string, exported: boolean): number {
        const index = this.typeIndex(type, false);
        return index ? exported ? index.exported : index.all.length : 0;
    }

    /** Drops resources from the catalog (they stay findable by alias, as Puppet's finish leaves them). */
    removeWhere(drop: (r: CatalogResource) => boolean): void {
        const dropped = new Set<CatalogResource>();
        for (const r of this.resources) {
            if (!drop(r)) continue;
            dropped.add(r);
            this.resources.delete(r);
            const index = this.typeIndex(r.type, false);
            if (index) {
                const title = index.key(r.title);
                if (index.titles.get(title) === r) index.titles.delete(title);
            }
        }
        if (dropped.size > 0) for (const index of this.types.values()) index.drop(dropped);
    }

    addEdge(source: CatalogResource, target: CatalogResource): void {
        this.edges.push({ source, target });
    }

    private typeIndex(type: string, create: boolean): TypeIndex | undefined {
        const known = this.spellings.get(type);
        if (known) return known;
        const lower = type.toLowerCase();
        let index = this.types.get(lower);
        if (!index) {
            if (!create) return undefined;
            index = new TypeIndex(lower === 'class');
            this.types.set(lower, index);
        }
        this.spellings.set(type, index);
        return index;
    }
}
