import { isAbsolute, relative } from 'node:path';
import { isUserError } from '../common/index.js';
import { SharedTypeSystem, TypeRegistry } from '../apply/index.js';
import { BindingsCatalogModule, catalogModel, createCatalogServices, EnvironmentCache, type CatalogServices } from '../catalog/index.js';
import type { ModelObject } from '../model/index.js';
import { readNodeRequest } from '../node/index.js';

/** One compile of a review: a node at one side's checkout. */
export interface CompileTask {
    readonly id: number;
    readonly side: 'base' | 'head';
    /** The checkout's directory (the environment, or a directory holding environments/). */
    readonly dir: string;
    readonly environment: string;
    readonly node: string;
    readonly factsFile?: string;
    /** Leave ARM-8 bindings out (Hiera 5 alone), as `compile --no-bindings`. */
    readonly noBindings?: boolean;
}

/** Why a node did not compile, located in its revision's files. */
export interface NodeError {
    readonly code: string;
    readonly message: string;
    /** The file, relative to the environment directory. */
    readonly file?: string;
    readonly line?: number;
    readonly column?: number;
}

export interface CompiledNode {
    readonly id: number;
    /** The Catalog model's root (plain data, so it crosses worker threads as is). */
    readonly catalog?: ModelObject;
    readonly error?: NodeError;
    readonly millis: number;
}

/** Keeps paths relative to the checkout, so both sides of a review name the same files alike. */
function inCheckout(file: string | undefined, dir: string): string | undefined {
    if (file === undefined || !isAbsolute(file)) return file;
    const rel = relative(dir, file);
    return rel.startsWith('..') ? file : rel;
}

/** Services per routing kind, made once per thread so their caches serve every node of a revision. */
const servicesByKind = new Map<boolean, CatalogServices>();

/** As `modelc compile`: ARM-8 bindings take part when the environment has them, unless left out. */
function servicesFor(noBindings: boolean): CatalogServices {
    let s = servicesByKind.get(noBindings);
    if (!s) {
        s = noBindings ? createCatalogServices() : createCatalogServices(BindingsCatalogModule);
        servicesByKind.set(noBindings, s);
    }
    return s;
}

/** The parsed files of both checkouts, shared by every node this thread compiles (parse once, compile many). */
const cache = new EnvironmentCache();

/** Starts a batch of compiles: files changed since the last batch (the working tree) are read again. */
export function startBatch(): void {
    cache.refresh();
}

/** Compiles one task; failures of the code (and unreadable facts) are returned as the node's error. */
export function compileTask(task: CompileTask): CompiledNode {
    const started = performance.now();
    const millis = (): number => Math.round(performance.now() - started);
    try {
        const node = readNodeRequest({ node: task.node, ...(task.factsFile ? { factsFile: task.factsFile } : {}), environment: task.environment });
        const result = servicesFor(task.noBindings ?? false).compile(task.dir, node.environment, {
            node: node.certname, facts: node.facts, trusted: node.trusted, classes: [], settings: new Map(), cache,
            // Modules' Ruby types go into the apply stage's registry, as compile does.
            typeRegistry: env => new TypeRegistry(env, new SharedTypeSystem(), () => undefined)
        });
        if (result.error) {
            const r = result.error.report;
            const file = inCheckout(r.file, task.dir);
            return {
                id: task.id, millis: millis(),
                error: {
                    code: result.error.code, message: r.basic ?? r.message,
                    ...(file !== undefined ? { file } : {}), ...(r.line !== undefined ? { line: r.line } : {}), ...(r.pos !== undefined ? { column: r.pos } : {})
                }
            };
        }
        return { id: task.id, catalog: catalogModel(result).root, millis: millis() };
    } catch (e) {
        if (isUserError(e)) {
            const d = e.diagnostics[0];
            return { id: task.id, millis: millis(), error: { code: d?.code ?? 'EVAL_USAGE', message: d?.message ?? String(e), ...(d?.file ? { file: inCheckout(d.file, task.dir) } : {}) } };
        }
        throw e;
    }
}
