import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import { openStore, parseQuery } from '../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'modelc-store-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store as modelc wrote it before the parameter index (schema modelc-catalog-store-2). */
function writeOldStore(file: string): void {
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE catalogs (node TEXT PRIMARY KEY, environment TEXT NOT NULL, stored_at TEXT NOT NULL, edges TEXT NOT NULL);
CREATE TABLE resources (
  node TEXT NOT NULL, environment TEXT NOT NULL, type TEXT NOT NULL, type_key TEXT NOT NULL, title TEXT NOT NULL, exported INTEGER NOT NULL,
  tags TEXT NOT NULL, file TEXT, line INTEGER, params TEXT NOT NULL
);
CREATE INDEX resources_by_type ON resources (type_key, environment, exported);
CREATE INDEX resources_by_node ON resources (node);
INSERT INTO meta VALUES ('schema', 'modelc-catalog-store-2');
INSERT INTO catalogs VALUES ('a.example.com', 'production', '2026-01-01T00:00:00Z', '[]');`);
    const add = db.prepare('INSERT INTO resources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    add.run('a.example.com', 'production', 'Sql', 'sql', 'one', 1, '["sql","DB"]', 'manifests/site.pp', 3, '{"user":"app","port":5433,"roles":["r1","r2"]}');
    add.run('a.example.com', 'production', 'Sql', 'sql', 'two', 1, '["sql"]', 'manifests/site.pp', 4, '{"user":"ops","port":5432,"name":"deux"}');
    db.close();
}

describe('a store written before the parameter index', () => {
    test.each<[string, string[]]>([
        ['user == app', ['one']],
        ['name == deux', ['two']],
        ['name == one', ['one']],
        ["tag == 'db'", ['one']],
        ['roles == r2', ['one']],
        ["port == '5432'", ['two']],
        ['port > 5432', ['one']],
        ['title == two and user == ops', ['two']]
    ])('is upgraded in place and answers %s', (q, titles) => {
        const file = join(mkdtempSync(join(dir, 'old-')), 'store.sqlite');
        writeOldStore(file);
        const store = openStore(`sqlite:${file}`);
        try {
            expect(store.resources({ type: 'Sql', where: parseQuery(q) }).map(r => r.title)).toEqual(titles);
        } finally {
            store.close();
        }
        const db = new DatabaseSync(file);
        try {
            expect(db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).get()?.value).toBe('modelc-catalog-store-3');
        } finally {
            db.close();
        }
    });
});
