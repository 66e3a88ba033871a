import type { ClassDefinition, Expression } from '../../../generated/langium/ast.js';
import type { PuppetValue } from '../../values/index.js';
import type { Where } from '../errors.js';
import type { Definition } from '../loader.js';
import { OverrideRules } from '../override-rules.js';
import type { Catalog, CatalogResource } from '../resource.js';
import type { Attr, CatalogRuntime, ExpressionEvaluator } from '../runtime.js';
import type { Scope } from '../scope.js';

/** A `Type <| query |>` collector and what it has collected so far. */
export interface Collector {
    readonly type: string;
    readonly query: Expression | undefined;
    readonly scope: Scope;
    readonly overrides: Attr[];
    /** In the order collected (relationships to the collector follow it); `collectedSet` holds the same. */
    readonly collected: CatalogResource[];
    readonly collectedSet: Set<CatalogResource>;
    readonly exported: boolean;
    readonly where: Where;
    /** Exported collectors with a store: other nodes' resources are read from it once. */
    fromStore?: boolean;
    /** The left side of the relationship whose right side this collector alone is: the source in its place when it collects nothing. */
    emptyAlternative?: Operand[];
}

/** One side of a relationship: a reference, or a collector (its resources once collected). */
export type Operand = { readonly ref: string; readonly type: string; readonly title: string } | { readonly collector: Collector };

export interface Relationship {
    readonly left: Operand[];
    readonly right: Operand[];
    readonly op: string;
    readonly where: Where;
}

/** A resource override (`Type[title] { ... }` or a collector's `{ ... }`). */
export interface Override {
    readonly attrs: Attr[];
    readonly scope: Scope;
    readonly where: Where;
    readonly fromCollector: boolean;
}

/** A class added to the catalog whose body has not run yet. */
export interface PendingClass {
    readonly def: Definition<ClassDefinition>;
    readonly given?: Map<string, PuppetValue>;
    readonly scope: Scope;
}

/**
 * The state the catalog operations share during one compilation; each concern file
 * (resources, classes, defines, nodes, collectors, overrides, relationships, finish) works on
 * it through plain functions.
 */
export class OpsState {
    readonly collectors: Collector[] = [];
    readonly relationships: Relationship[] = [];
    readonly pendingOverrides = new Map<string, Override[]>();
    readonly overrideRules = new OverrideRules();
    readonly realizeRequests: Array<{ refs: Array<{ type: string; title: string }>; done: boolean; failure?: string }> = [];
    readonly pendingClasses = new Map<CatalogResource, PendingClass>();
    /** How many class bodies are being evaluated one inside the other (include chains). */
    classNesting = 0;
    /**
     * Define instances and classes added to the catalog, in catalog order, that a generator pass
     * may still have to evaluate (see finish.ts evaluateGenerators).
     */
    generated: CatalogResource[] = [];
    /** Class scopes by class name ('' is top scope), for `$cls::var`. */
    readonly classScopes = new Map<string, Scope>();
    stageMain!: CatalogResource;
    mainClass!: CatalogResource;

    constructor(readonly rt: CatalogRuntime, readonly ev: ExpressionEvaluator, readonly settings: ReadonlyMap<string, string>) {}

    get catalog(): Catalog {
        return this.rt.catalog;
    }
}
