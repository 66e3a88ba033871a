import { isAbsolute, join } from 'node:path';
import { SharedTypeSystem, TypeRegistry } from '../apply/index.js';
import {
    BindingsCatalogModule, bootEnvironment, createCatalogServices, jsonText, puppetCatalog, storedCatalog,
    type CatalogServices, type Environment, type LogEntry
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
}

/** What a compiling thread keeps between requests: the catalog services and the store, if any. */
export interface CompileContext {
    readonly services: CatalogServices;
    readonly store?: CatalogStore;
    /** The environments of the tasks, by name and directory, for the services' Boot. */
    readonly chosen: Map<string, Environment>;
}

/**
 * The catalog services of a serve thread (with the environment's ARM-8 bindings unless `bindings` is false). Environments are chosen per request (environments.pp
 * may name any directory), so Boot answers with the environment the task carries.
 */
export function compileContext(storeUrl?: string, bindings = true): CompileContext {
    const chosen = new Map<string, Environment>();
    const boot = { Boot: (): CatalogServices['Boot'] => (codedir, name, base) => chosen.get(`${name}\0${codedir}`) ?? bootEnvironment(codedir, name, base) };
    // Without bindings, Hiera 5 answers alone, exactly as Puppet 7 (compile's --no-bindings).
    const services = bindings ? createCatalogServices(BindingsCatalogModule, boot) : createCatalogServices(boot);
    return { services, chosen, ...(storeUrl !== undefined ? { store: openStore(storeUrl) } : {}) };
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

/** Compiles one task: never throws for errors in the code (they are Puppet Server's 500 answer). */
export function compileTask(task: CompileTask, ctx: CompileContext): CompileAnswer {
    const started = performance.now();
    const env = task.environment;
    ctx.chosen.set(`${env.name}\0${env.dir}`, env);
    const result = ctx.services.compile(env.dir, env.name, {
        ...(ctx.store ? { store: ctx.store } : {}),
        node: task.certname, facts: task.facts, trusted: task.trusted,
        typeRegistry: e => new TypeRegistry(e, new SharedTypeSystem(), () => undefined)
    });
    const logs = result.logs.filter(l => l.level === 'warning' || l.level === 'err').map(l => logText(task.certname, l));
    const done = (status: number, body: string): CompileAnswer => ({ id: task.id, status, body, millis: performance.now() - started, environment: env.name, logs });
    if (result.error) {
        const message = serverErrorMessage(env, task.certname, result.error.report);
        return done(500, JSON.stringify({ message, issue_kind: 'RUNTIME_ERROR' }));
    }
    if (ctx.store) ctx.store.replaceCatalog(storedCatalog(result));
    return done(200, jsonText(puppetCatalog(result)));
}
