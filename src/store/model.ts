/** JSON as stored: resource parameters are kept in Puppet's catalog JSON form. */
export type StoredJson = null | boolean | number | string | StoredJson[] | { [key: string]: StoredJson };

/** One resource of a stored catalog (Puppet's catalog JSON resource, without kind). */
export interface StoredResource {
    readonly type: string;
    readonly title: string;
    readonly exported: boolean;
    readonly tags: readonly string[];
    readonly file?: string;
    readonly line?: number;
    readonly parameters: Readonly<Record<string, StoredJson>>;
}

/** A node's catalog as the store keeps it: the latest one replaces the previous (PuppetDB's `replace catalog`). */
export interface StoredCatalog {
    readonly node: string;
    readonly environment: string;
    readonly resources: readonly StoredResource[];
    readonly edges?: ReadonlyArray<{ readonly source: string; readonly target: string }>;
}

/**
 * An agent's run report as the store keeps it: the node, its environment, when it arrived, and
 * the report as the agent sent it (Puppet's report format, `modelc serve`'s PUT report).
 */
export interface StoredReport {
    readonly node: string;
    readonly environment: string;
    /** ISO 8601, when the server received it. */
    readonly receivedAt: string;
    readonly report: { readonly [key: string]: StoredJson };
}

/** A resource found by a query, with the node whose catalog holds it (provenance). */
export interface FoundResource extends StoredResource {
    readonly node: string;
    readonly environment: string;
}

/** A query value: a literal of the query or a regular expression (`~=`, `~!`). */
export type QueryValue = string | number | boolean | null | { readonly regexp: string };

export type QueryOperator = '==' | '!=' | '<' | '>' | '<=' | '>=' | '~=' | '~!';

/** ARM-8's query language (`Type[?? expr]`): and, or, not, comparisons of an attribute with a value. */
export type QueryNode =
    | { readonly kind: 'and' | 'or'; readonly operands: readonly QueryNode[] }
    | { readonly kind: 'not'; readonly operand: QueryNode }
    | { readonly kind: 'compare'; readonly operator: QueryOperator; readonly attribute: string; readonly value: QueryValue };

export interface ResourceQuery {
    /** The resource type (capitalized, `Sql`, `Nagios_service`); undefined = any type. */
    readonly type?: string;
    readonly where?: QueryNode;
    /** true: exported resources only (`<<| |>>`). */
    readonly exported?: boolean;
    /** The node under compilation: its stored catalog is never part of a result. */
    readonly excludeNode?: string;
    /** Only catalogs of this environment (Puppet collects exported resources per environment). */
    readonly environment?: string;
}

/** A store of catalogs across nodes: SQLite (embedded) or PuppetDB. */
export interface CatalogStore {
    readonly url: string;
    /** Replaces the node's catalog atomically: all of it or nothing is written. */
    replaceCatalog(catalog: StoredCatalog): void;
    resources(query: ResourceQuery): FoundResource[];
    /** The nodes with a stored catalog. */
    nodes(): string[];
    /** Keeps a run report (PuppetDB's `store report`); reports accumulate, none replaces another. */
    storeReport(report: StoredReport): void;
    /** A node's stored reports, oldest first. */
    reports(node: string): StoredReport[];
    close(): void;
}
