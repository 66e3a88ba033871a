import { UserError } from '../common/index.js';

/** The store's and the query language's issue codes (stable API). */
export const StoreIssues = {
    STORE_NOT_CONFIGURED: 'A query needs a catalog store: compile with --store (sqlite:PATH or puppetdb:URL)',
    STORE_BAD_URL: "Unknown store '%s': use sqlite:PATH or puppetdb:https://host:port",
    STORE_UNREACHABLE: "The catalog store '%s' cannot be opened: %s",
    STORE_CORRUPT: "The catalog store '%s' is not a modelc catalog store or is damaged: %s",
    STORE_WRITE_FAILED: "The catalog of '%s' could not be stored in '%s' (nothing was written): %s",
    STORE_PUPPETDB: "PuppetDB at '%s' answered with an error: %s",
    STORE_DUPLICATE_EXPORT: 'A duplicate resource was found while collecting exported resources, with the type and title %s (exported by %s)',
    QUERY_SYNTAX: 'Unsupported query expression: %s (a query compares an attribute with a value: name == x, and, or, not)',
    QUERY_UNKNOWN_TYPE: "Unknown resource type in a query: '%s'",
    QUERY_UNKNOWN_ATTRIBUTE: "The resource type '%s' has no attribute '%s' to query"
} as const;

export type StoreIssueCode = keyof typeof StoreIssues;

export function storeMessage(code: StoreIssueCode, ...args: readonly string[]): string {
    let i = 0;
    return StoreIssues[code].replace(/%s/g, () => args[i++] ?? '');
}

/** A store or query failure as a user error; `at` locates it in the code that asked (a query in a file). */
export function storeError(code: StoreIssueCode, at: { file?: string; line?: number; column?: number } | undefined, ...args: readonly string[]): UserError {
    const message = storeMessage(code, ...args);
    return new UserError({
        severity: 'error', code, message,
        ...(at?.file !== undefined ? { file: at.file } : {}),
        ...(at?.file !== undefined && at.line !== undefined ? { at: { file: at.file, line: at.line, column: at.column ?? 1 } } : {})
    });
}
