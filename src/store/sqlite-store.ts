import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { storeError } from './issues.js';
import type { CatalogStore, FoundResource, QueryNode, QueryValue, ResourceQuery, StoredCatalog, StoredJson, StoredReport } from './model.js';

const SCHEMA = 'modelc-catalog-store-2';

const CREATE = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS catalogs (node TEXT PRIMARY KEY, environment TEXT NOT NULL, stored_at TEXT NOT NULL, edges TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS resources (
  node TEXT NOT NULL, environment TEXT NOT NULL, type TEXT NOT NULL, type_key TEXT NOT NULL, title TEXT NOT NULL, exported INTEGER NOT NULL,
  tags TEXT NOT NULL, file TEXT, line INTEGER, params TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS resources_by_type ON resources (type_key, environment, exported);
CREATE INDEX IF NOT EXISTS resources_by_node ON resources (node);
CREATE TABLE IF NOT EXISTS reports (node TEXT NOT NULL, environment TEXT NOT NULL, received_at TEXT NOT NULL, report TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS reports_by_node ON reports (node, received_at);
`;

/** A number, or null: how `<`, `>`... read a value (numeric strings count as numbers). */
function numeric(v: SQLInputValue): number | null {
    if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
    if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
    return null;
}

/** The rows (type, value) an attribute has: json_each yields one row for a scalar, one per element for an array. */
function valuesOf(attribute: string, args: SQLInputValue[]): string {
    if (attribute === 'title') return `SELECT 'text' AS type, r.title AS value`;
    if (attribute === 'tag') return `SELECT 'text' AS type, value FROM json_each(r.tags)`;
    args.push(`$."${attribute.replace(/"/g, '""')}"`);
    const param = `SELECT type, value FROM json_each(r.params, ?)`;
    if (attribute !== 'name') return param;
    return `${param} UNION ALL SELECT 'text', r.title WHERE json_type(r.params, '$.name') IS NULL`;
}

function equalsSql(attribute: string, value: QueryValue, args: SQLInputValue[]): string {
    if (value === null) return `v.type = 'null'`;
    if (typeof value === 'boolean') return `v.type = '${value ? 'true' : 'false'}'`;
    if (typeof value === 'object') return 'regexp(?, v.value)';
    if (attribute === 'tag') { args.push(String(value)); return `lower(v.value) = lower(?)`; }
    if (typeof value === 'number') { args.push(value, String(value)); return `((v.type IN ('integer', 'real') AND v.value = ?) OR (v.type = 'text' AND v.value = ?))`; }
    args.push(value, value);
    return `((v.type = 'text' AND v.value = ?) OR (v.type IN ('integer', 'real') AND CAST(v.value AS TEXT) = ?))`;
}

/** SQL for a query node over `resources r`; the same semantics as matchesQuery (query.ts). */
function toSql(q: QueryNode, args: SQLInputValue[]): string {
    switch (q.kind) {
        case 'and': case 'or': return `(${q.operands.map(o => toSql(o, args)).join(` ${q.kind.toUpperCase()} `)})`;
        case 'not': return `(NOT ${toSql(q.operand, args)})`;
        case 'compare': {
            const values = valuesOf(q.attribute, args);
            const v = q.value;
            let cond: string;
            switch (q.operator) {
                case '==': case '!=': {
                    if (v !== null && typeof v === 'object') args.push(v.regexp);
                    cond = equalsSql(q.attribute, v, args);
                    break;
                }
                case '~=': case '~!':
                    args.push(v !== null && typeof v === 'object' ? v.regexp : String(v));
                    cond = `v.type = 'text' AND regexp(?, v.value)`;
                    break;
                default: {
                    const n = typeof v === 'string' || typeof v === 'number' ? numeric(v) : null;
                    if (n !== null) { args.push(n); cond = `modelc_num(v.value) ${q.operator} ?`; }
                    else if (typeof v === 'string') { args.push(v); cond = `v.type = 'text' AND modelc_num(v.value) IS NULL AND v.value ${q.operator} ?`; }
                    else cond = '0';
                }
            }
            const exists = `EXISTS (SELECT 1 FROM (${values}) v WHERE ${cond})`;
            return q.operator === '!=' || q.operator === '~!' ? `(NOT ${exists})` : exists;
        }
    }
}

function ensureSchema(db: DatabaseSync, url: string): void {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all().map(r => String(r.name));
    if (tables.length > 0 && !tables.includes('meta')) throw storeError('STORE_CORRUPT', { file: url }, url, 'it has tables but no modelc schema');
    db.exec(CREATE);
    const row = db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).get();
    if (row === undefined) db.prepare(`INSERT INTO meta (key, value) VALUES ('schema', ?)`).run(SCHEMA);
    else if (row.value !== SCHEMA) throw storeError('STORE_CORRUPT', { file: url }, url, `schema '${String(row.value)}' is not '${SCHEMA}'`);
}

/**
 * The embedded catalog store: one SQLite database file (Node's `node:sqlite`), created on first
 * use. A node's catalog is replaced in one transaction; queries run as SQL over the resources'
 * JSON parameters (json_each), with a regexp function for `~=`/`~!`.
 */
export function openSqliteStore(path: string): CatalogStore {
    const file = resolve(path);
    const url = `sqlite:${file}`;
    let db: DatabaseSync;
    try {
        mkdirSync(dirname(file), { recursive: true });
        db = new DatabaseSync(file);
    } catch (e) {
        throw storeError('STORE_UNREACHABLE', { file }, url, e instanceof Error ? e.message : String(e));
    }
    try {
        db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
        ensureSchema(db, file);
    } catch (e) {
        db.close();
        if (e instanceof Error && e.name === 'UserError') throw e;
        throw storeError('STORE_CORRUPT', { file }, url, e instanceof Error ? e.message : String(e));
    }
    const regexps = new Map<string, RegExp>();
    db.function('regexp', { deterministic: true }, (p, s) => {
        if (typeof s !== 'string') return 0;
        const key = String(p);
        let re = regexps.get(key);
        if (!re) { re = new RegExp(key); regexps.set(key, re); }
        return re.test(s) ? 1 : 0;
    });
    db.function('modelc_num', { deterministic: true }, v => numeric(v));
    // Queries of one shape (the same SQL with other values) reuse their prepared statement.
    const statements = new Map<string, StatementSync>();
    const insertCatalog = db.prepare(`INSERT OR REPLACE INTO catalogs (node, environment, stored_at, edges) VALUES (?, ?, ?, ?)`);
    const deleteResources = db.prepare(`DELETE FROM resources WHERE node = ?`);
    const insertResource = db.prepare(`INSERT INTO resources (node, environment, type, type_key, title, exported, tags, file, line, params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    return {
        url,
        replaceCatalog(c: StoredCatalog): void {
            try {
                db.exec('BEGIN IMMEDIATE');
                try {
                    deleteResources.run(c.node);
                    insertCatalog.run(c.node, c.environment, new Date().toISOString(), JSON.stringify(c.edges ?? []));
                    for (const r of c.resources) {
                        insertResource.run(c.node, c.environment, r.type, r.type.toLowerCase(), r.title, r.exported ? 1 : 0, JSON.stringify(r.tags), r.file ?? null, r.line ?? null, JSON.stringify(r.parameters));
                    }
                    db.exec('COMMIT');
                } catch (e) {
                    db.exec('ROLLBACK');
                    throw e;
                }
            } catch (e) {
                throw storeError('STORE_WRITE_FAILED', { file }, c.node, url, e instanceof Error ? e.message : String(e));
            }
        },
        resources(q: ResourceQuery): FoundResource[] {
            const args: SQLInputValue[] = [];
            const where: string[] = [];
            if (q.type !== undefined) { where.push('r.type_key = ?'); args.push(q.type.toLowerCase()); }
            if (q.exported) where.push('r.exported = 1');
            if (q.excludeNode !== undefined) { where.push('r.node <> ?'); args.push(q.excludeNode); }
            if (q.environment !== undefined) { where.push('r.environment = ?'); args.push(q.environment); }
            if (q.where) where.push(toSql(q.where, args));
            const sql = `SELECT r.node, r.environment, r.type, r.title, r.exported, r.tags, r.file, r.line, r.params FROM resources r INDEXED BY ${q.type !== undefined ? 'resources_by_type' : 'resources_by_node'}`
                + `${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY r.node, r.type_key, r.title`;
            let rows: Array<Record<string, SQLInputValue>>;
            try {
                let stmt = statements.get(sql);
                if (!stmt) { stmt = db.prepare(sql); statements.set(sql, stmt); }
                rows = stmt.all(...args) as Array<Record<string, SQLInputValue>>;
            } catch (e) {
                throw storeError('STORE_CORRUPT', { file }, url, e instanceof Error ? e.message : String(e));
            }
            return rows.map(r => ({
                node: String(r.node), environment: String(r.environment), type: String(r.type), title: String(r.title), exported: r.exported === 1,
                tags: JSON.parse(String(r.tags)) as string[],
                ...(r.file !== null ? { file: String(r.file) } : {}), ...(r.line !== null ? { line: Number(r.line) } : {}),
                parameters: JSON.parse(String(r.params)) as Record<string, StoredJson>
            }));
        },
        nodes(): string[] {
            return db.prepare('SELECT node FROM catalogs ORDER BY node').all().map(r => String(r.node));
        },
        storeReport(r: StoredReport): void {
            try {
                db.prepare('INSERT INTO reports (node, environment, received_at, report) VALUES (?, ?, ?, ?)').run(r.node, r.environment, r.receivedAt, JSON.stringify(r.report));
            } catch (e) {
                throw storeError('STORE_WRITE_FAILED', { file }, r.node, url, e instanceof Error ? e.message : String(e));
            }
        },
        reports(node: string): StoredReport[] {
            return db.prepare('SELECT node, environment, received_at, report FROM reports WHERE node = ? ORDER BY received_at, rowid').all(node).map(r => ({
                node: String(r.node), environment: String(r.environment), receivedAt: String(r.received_at), report: JSON.parse(String(r.report)) as StoredReport['report']
            }));
        },
        close(): void {
            db.close();
        }
    };
}
