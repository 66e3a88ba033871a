import { join, resolve } from 'node:path';
import { storeError } from './issues.js';
import type { CatalogStore } from './model.js';
import { openPuppetDbStore } from './puppetdb-store.js';
import { openSqliteStore } from './sqlite-store.js';

/** The default store of an environment: a SQLite file in its var directory. */
export function defaultStoreUrl(envDir: string): string {
    return `sqlite:${join(resolve(envDir), 'var', 'catalogs.sqlite')}`;
}

/** Opens `sqlite:PATH` (embedded) or `puppetdb:https://host:port` (PuppetDB's command and query APIs). */
export function openStore(url: string): CatalogStore {
    if (url.startsWith('sqlite:')) return openSqliteStore(url.slice('sqlite:'.length));
    if (url.startsWith('puppetdb:')) return openPuppetDbStore(url.slice('puppetdb:'.length));
    throw storeError('STORE_BAD_URL', { file: url }, url);
}
