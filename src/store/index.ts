/** The store stage: catalogs of all nodes (SQLite embedded, or PuppetDB), exported resources and ARM-8 `??` queries. */
export type { CatalogStore, StoredReport, FoundResource, QueryNode, QueryOperator, QueryValue, ResourceQuery, StoredCatalog, StoredJson, StoredResource } from './model.js';
export { StoreIssues, storeError, type StoreIssueCode } from './issues.js';
export { compileQuery, matchesQuery, parseQuery, queryAttributes, BUILTIN_QUERY_ATTRIBUTES, type QueryPlace } from './query.js';
export { openSqliteStore } from './sqlite-store.js';
export { openPuppetDbStore, toPuppetDbAst } from './puppetdb-store.js';
export { toPuppetDbReport } from './puppetdb-report.js';
export { defaultStoreUrl, openStore } from './open.js';
export { checkQuery, storeQueryService, toPuppet, type QueryProvenance, type ResourceAttributes } from './injector-query.js';
