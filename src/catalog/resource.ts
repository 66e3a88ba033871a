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
    /** The code (class, define or node) that set it: who may override it depends on it. */
    readonly source?: Source;
}

/** A resource's tags; the catalog indexes the tags added after the resource joined it. */
export class TagSet extends Set<string> {
    /** Set by the catalog when the resource is added. */
    onAdd: ((tag: string) => void) | undefined;

    override add(tag: string): this {
        if (this.has(tag)) return this;
        super.add(tag);
        this.onAdd?.(tag);
        return this;
    }
}

/**
 * A resource in the catalog being built: core resources, define instances, classes, nodes and
 * stages. `type` is capitalized (`File`, `Foo::Bar`, `Class`), `title` as Puppet keeps it
 * (Class titles capitalized, except `main`).
 */
export class CatalogResource {
    readonly params = new Map<string, ParamValue>();
    readonly tags = new TagSet();
    /** Its place in the catalog's declaration order (set when added). */
    seq = -1;
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

/** The resources of one type, indexed for find and for collectors. */
interface TypeIndex {
    /** In declaration order (what a collector of the type walks). */
    readonly all: CatalogResource[];
    /** By title (classes by lower-case name). */
    readonly titles: Map<string, CatalogResource>;
    /** Aliases and namevars that differ from the title. */
    readonly aliases: Map<string, CatalogResource>;
    /** Exported resources among `all` (never collected here). */
    exported: number;
    /** By lower-case title (titles compare case-insensitively in queries), built on first use up to `lowerUpTo`. */
    lower?: Map<string, CatalogResource[]>;
    lowerUpTo: number;
    /** By tag; a list is `unsorted` when a tag was added to a resource declared before the list's last one. */
    readonly tagged: Map<string, { list: CatalogResource[]; unsorted: boolean }>;
}

/** The catalog under construction, in Puppet's insertion order. */
export class Catalog {
    readonly resources = new Map<string, CatalogResource>();
    readonly edges: Array<{ source: CatalogResource; target: CatalogResource }> = [];
    readonly classes: string[] = [];
    readonly tags = new Set<string>();
    private readonly types = new Map<string, TypeIndex>();
    private seq = 0;
    /** Type names as written -> lower case, so that find builds no strings. */
    private readonly lowerTypes = new Map<string, string>();

    add(r: CatalogResource): void {
        this.resources.set(resourceKey(r.type, r.title), r);
        const index = this.typeIndex(r.type, true) as TypeIndex;
        index.titles.set(this.titleKey(r.type, r.title), r);
        r.seq = this.seq++;
        index.all.push(r);
        if (r.exported) index.exported++;
        for (const tag of r.tags) this.indexTag(index, r, tag);
        r.tags.onAdd = tag => this.indexTag(index, r, tag);
    }

    private indexTag(index: TypeIndex, r: CatalogResource, tag: string): void {
        const entry = index.tagged.get(tag);
        if (!entry) { index.tagged.set(tag, { list: [r], unsorted: false }); return; }
        const last = entry.list[entry.list.length - 1];
        if (last.seq > r.seq) entry.unsorted = true;
        entry.list.push(r);
    }

    /** The resources of a type having a tag, in declaration order. */
    ofTypeTagged(type: string, tag: string): readonly CatalogResource[] {
        const entry = this.typeIndex(type, false)?.tagged.get(tag);
        if (!entry) return [];
        if (entry.unsorted) {
            entry.list.sort((a, b) => a.seq - b.seq);
            entry.unsorted = false;
        }
        return entry.list;
    }

    /** Makes `r` findable under another title (the alias metaparameter, an isomorphic type's namevar). */
    addAlias(type: string, name: string, r: CatalogResource): void {
        (this.typeIndex(type, true) as TypeIndex).aliases.set(this.titleKey(type, name), r);
    }

    find(type: string, title: string): CatalogResource | undefined {
        const index = this.typeIndex(type, false);
        if (!index) return undefined;
        const key = this.titleKey(type, title);
        return index.titles.get(key) ?? index.aliases.get(key);
    }

    /** The resources of a type in declaration order (a live list: later declarations are appended). */
    ofType(type: string): readonly CatalogResource[] {
        return this.typeIndex(type, false)?.all ?? [];
    }

    /** The resources of a type whose title equals `title` ignoring case, in declaration order. */
    ofTypeTitled(type: string, title: string): readonly CatalogResource[] {
        const index = this.typeIndex(type, false);
        if (!index) return [];
        const lower = index.lower ??= new Map();
        for (; index.lowerUpTo < index.all.length; index.lowerUpTo++) {
            const r = index.all[index.lowerUpTo];
            const key = r.title.toLowerCase();
            const list = lower.get(key);
            if (list) list.push(r);
            else lower.set(key, [r]);
        }
        return lower.get(title.toLowerCase()) ?? [];
    }

    /** How many resources of a type are not exported. */
    localCount(type: string): number {
        const index = this.typeIndex(type, false);
        return index ? index.all.length - index.exported : 0;
    }

    /** Drops resources from the catalog (they stay findable by alias, as Puppet's finish leaves them). */
    removeWhere(drop: (r: CatalogResource) => boolean): void {
        const dropped = new Set<CatalogResource>();
        for (const [key, r] of this.resources) {
            if (!drop(r)) continue;
            dropped.add(r);
            this.resources.delete(key);
            const index = this.typeIndex(r.type, false);
            const title = this.titleKey(r.type, r.title);
            if (index?.titles.get(title) === r) index.titles.delete(title);
        }
        if (dropped.size === 0) return;
        for (const index of this.types.values()) {
            const kept = index.all.filter(r => !dropped.has(r));
            index.all.length = 0;
            index.all.push(...kept);
            index.exported = kept.filter(r => r.exported).length;
            index.lower = undefined;
            index.lowerUpTo = 0;
            for (const entry of index.tagged.values()) entry.list = entry.list.filter(r => !dropped.has(r));
        }
    }

    addEdge(source: CatalogResource, target: CatalogResource): void {
        this.edges.push({ source, target });
    }

    /** Titles compare exactly, but classes by lower-case name. */
    private titleKey(type: string, title: string): string {
        return this.lowerType(type) === 'class' ? title.toLowerCase() : title;
    }

    private lowerType(type: string): string {
        let lower = this.lowerTypes.get(type);
        if (lower === undefined) {
            lower = type.toLowerCase();
            this.lowerTypes.set(type, lower);
        }
        return lower;
    }

    private typeIndex(type: string, create: boolean): TypeIndex | undefined {
        const lower = this.lowerType(type);
        let index = this.types.get(lower);
        if (!index && create) {
            index = { all: [], titles: new Map(), aliases: new Map(), exported: 0, lowerUpTo: 0, tagged: new Map() };
            this.types.set(lower, index);
        }
        return index;
    }
}
