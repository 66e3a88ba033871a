import { isAbsolute, join } from 'node:path';
import { SharedTypeSystem, TypeRegistry } from '../apply/index.js';
import {
    BindingsCatalogModule, bootEnvironment, createCatalogServices, EnvironmentCache, jsonText, puppetCatalog, storedCatalog,
    type CatalogServices, type Environment, type Json, type LogEntry
} from '../catalog/index.js';
import { openStore, type CatalogStore } from '../store/index.js';
import type { PuppetValue } from '../values/index.js';

/** One catalog request, as plain data (it crosses to a worker thread by structured clone). */
export interface CompileTask {
    readonly id: number;
    readonly certname: string;
    readonly environment: Environment;
    readonly facts: ReadonlyMap<string, PuppetValue>;
    readonly trusted: ReadonlyMap<string, PuppetValue>;
}

/** The answer to a catalog request: Puppet's catalog JSON, or Puppet Server's error body. */
export interface CompileAnswer {
    readonly id: number;
    readonly status: number;
    /** The response body (catalog JSON, or `{message, issue_kind}`). */
    readonly body: string;
    readonly millis: number;
    readonly environment: string;
    /** Warnings and errors of the compile, for the server's log. */
    readonly logs: readonly string[];
    /** Parses the compile was spared by the thread's environment cache. */
    readonly cacheHits: number;
    /** Files the compile parsed (first use, or changed on disk). */
    readonly parses: number;
}

/** When a thread checks its parsed environments against the disk (Puppet's `environment_timeout`). */
export type EnvironmentTimeout = number | 'unlimited';

/** What a compiling thread keeps between requests: the catalog services and the store, if any. */
export interface CompileContext {
    readonly services: CatalogServices;
    readonly store?: CatalogStore;
    /** The environments of the tasks, by name and directory, for the services' Boot. */
    readonly chosen: Map<string, Environment>;
    /** Parsed manifests and templates shared by the thread's compiles. */
    readonly cache: EnvironmentCache;
    readonly timeout: EnvironmentTimeout;
    /** When the cache last started a generation (performance.now()). */
    refreshedAt: number;
}

/**
 * The catalog services of a serve thread (with the environment's ARM-8 bindings unless `bindings` is false). Environments are chosen per request (environments.pp
 * may name any directory), so Boot answers with the environment the task carries.
 */
export function compileContext(storeUrl?: string, bindings = true, timeout: EnvironmentTimeout = 0): CompileContext {
    const chosen = new Map<string, Environment>();
    const boot = { Boot: (): CatalogServices['Boot'] => (codedir, name, base) => chosen.get(`${name}\0${codedir}`) ?? bootEnvironment(codedir, name, base) };
    // Without bindings, Hiera 5 answers alone, exactly as Puppet 7 (compile's --no-bindings).
    const services = bindings ? createCatalogServices(BindingsCatalogModule, boot) : createCatalogServices(boot);
    return {
        services, chosen, cache: new EnvironmentCache(), timeout, refreshedAt: performance.now(),
        ...(storeUrl !== undefined ? { store: openStore(storeUrl) } : {})
    };
}

/**
 * Starts a new cache generation when the timeout says the files may have changed: 0 checks the
 * disk at every compile (a file is parsed again only when it changed), N seconds at most every
 * N seconds, `unlimited` never (restart the server to deploy code).
 */
function refreshIfDue(ctx: CompileContext): void {
    if (ctx.timeout === 'unlimited') return;
    const now = performance.now();
    if (ctx.timeout === 0 || now - ctx.refreshedAt >= ctx.timeout * 1000) {
        ctx.cache.refresh();
        ctx.refreshedAt = now;
    }
}

function logText(node: string, l: LogEntry): string {
    const where = l.file ? ` (file: ${l.file}${l.line !== undefined ? `, line: ${l.line}` : ''})` : '';
    return `${l.level}: ${node}: ${l.source ? `${l.source}: ` : ''}${l.message}${where}`;
}

/** Puppet Server's message for a failed compile, with the file absolute as Puppet prints it. */
function serverErrorMessage(env: Environment, node: string, r: { message: string; file?: string; plain?: boolean }): string {
    const message = r.file !== undefined && !isAbsolute(r.file) ? r.message.split(`(file: ${r.file},`).join(`(file: ${join(env.dir, r.file)},`) : r.message;
    return `Server Error: ${message}${r.plain ? '' : ` on node ${node}`}`;
}

/**
 * The catalog with each resource's `file` absolute, as Puppet Server sends it (agents print it in
 * their logs and reports); `modelc compile` keeps them relative to the environment.
 */
function withAbsoluteFiles(catalog: Json, envDir: string): Json {
    if (catalog === null || typeof catalog !== 'object' || Array.isArray(catalog) || !Array.isArray(catalog.resources)) return catalog;
    const resources = catalog.resources.map(r => (r !== null && typeof r === 'object' && !Array.isArray(r) && typeof r.file === 'string' && !isAbsolute(r.file)
        ? { ...r, file: join(envDir, r.file) } : r));
    return { ...catalog, resources };
}

/** Compiles one task: never throws for errors in the code (they are Puppet Server's 500 answer). */
export function compileTask(task: CompileTask, ctx: CompileContext): CompileAnswer {
    const started = performance.now();
    const env = task.environment;
    ctx.chosen.set(`${env.name}\0${env.dir}`, env);
    refreshIfDue(ctx);
    const before = ctx.cache.stats();
    const result = ctx.services.compile(env.dir, env.name, {
        ...(ctx.store ? { store: ctx.store } : {}), cache: ctx.cache,
        node: task.certname, facts: task.facts, trusted: task.trusted,
        typeRegistry: (e, log) => new TypeRegistry(e, new SharedTypeSystem(), m => log?.(m.level, m.message))
    });
    const logs = result.logs.filter(l => l.level === 'warning' || l.level === 'err').map(l => logText(task.certname, l));
    const after = ctx.cache.stats();
    const done = (status: number, body: string): CompileAnswer => ({
        id: task.id, status, body, millis: performance.now() - started, environment: env.name, logs, cacheHits: after.hits - before.hits, parses: after.parses - before.parses
    });
    if (result.error) {
        const message = serverErrorMessage(env, task.certname, result.error.report);
        return done(500, JSON.stringify({ message, issue_kind: 'RUNTIME_ERROR' }));
    }
    if (ctx.store) ctx.store.replaceCatalog(storedCatalog(result));
    return done(200, jsonText(withAbsoluteFiles(puppetCatalog(result), env.dir)));
}
