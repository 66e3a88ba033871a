import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { oneLine, UserError } from '../common/index.js';
import { checkEffectiveNode, type EncAnswer } from '../bindings/index.js';
import { encodeJson, encodeMsgpack, readModelFile } from '../model/index.js';
import {
    BindingsCatalogModule, CatalogIssues, catalogModel, createCatalogServices, modelLookupFactory, puppetCatalog, storedCatalog, writeJsonText, writeNormalizedResult,
    type CatalogServices, type Environment, type Json, type LogEntry, type LogLevel
} from '../catalog/index.js';
import type { Module } from 'langium';
import type { CatalogStore } from '../store/index.js';
import { inEnvironment, readNodeRequest } from '../node/index.js';
import { bundledEnvironment, chooseFor } from './bindings-command.js';
import type { CompileFormat } from './choices.js';
import { ExitCode, type CliIo } from './io.js';


export interface CompileCommandOptions {
    readonly node?: string;
    readonly facts?: string;
    readonly environment?: string;
    readonly trusted?: string;
    readonly class?: string[];
    readonly setting?: string[];
    readonly basemodulepath?: string;
    readonly format: CompileFormat;
    /**
     * False (`--no-bindings`) leaves ARM-8 bindings out. By default class parameters, lookup() and
     * `/classes` go through the injector when the environment has bindings, else Hiera answers
     * alone, exactly as Puppet 7.
     */
    readonly bindings?: boolean;
    /** Write the resource relationship graph here (.dot or .svg). */
    readonly graph?: string;
    /** Print where these CLASS::PARAM values came from instead of the catalog. */
    readonly explain?: string[];
    /** A Bindings model file that replaces the bindings the environment's providers would compose. */
    readonly bindingsModel?: string;
    /** An EffectiveBindings model file (made for this node with --values) the lookups answer from. */
    readonly effective?: string;
    /** `--store [URL]`: the catalog store (sqlite:PATH, puppetdb:URL; bare = the environment's default). */
    readonly store?: string | boolean;
}

type ReviewStage = typeof import('../review/index.js');
type ApplyStage = typeof import('../apply/index.js');

/** Whether a module of the module path has Ruby plugins (lib/puppet/...). */
function moduleRuby(modulepath: readonly string[]): boolean {
    try {
        return modulepath.some(dir => existsSync(dir) && readdirSync(dir).some(m => existsSync(join(dir, m, 'lib', 'puppet'))));
    } catch {
        // Unreadable module directories: load apply, and let the compile report what it finds.
        return true;
    }
}

/** The stages only some options need, loaded when asked for. */
interface Extras {
    readonly graph?: typeof import('../graph/index.js');
    readonly review?: ReviewStage;
    readonly apply?: ApplyStage;
    /** The ENC's answer from choosing the environment, handed to the compile's bindings. */
    readonly enc?: EncAnswer;
}

/** Options that cannot go together: located at the environment they were given for. */
function usage(message: string, file: string): never {
    throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message, file });
}

/** The catalog services for the bindings asked for: the environment's (default), none, or a model file's. */
function servicesFor(options: CompileCommandOptions, node: string, env: Environment): CatalogServices {
    // The environment was chosen for the request (environments.pp, ENC, --environment): every compile boots that one.
    const chosen = { Boot: () => (): Environment => env };
    return servicesWith(options, node, chosen, env.dir);
}

function servicesWith(options: CompileCommandOptions, node: string, chosen: Module<CatalogServices, Partial<CatalogServices>>, where: string): CatalogServices {
    if (options.bindingsModel !== undefined && options.effective !== undefined) usage('--bindings-model and --effective exclude each other', where);
    if (options.bindings === false) {
        if (options.bindingsModel !== undefined || options.effective !== undefined) usage('--no-bindings excludes --bindings-model and --effective', where);
        return createCatalogServices(chosen);
    }
    if (options.bindingsModel !== undefined) {
        const bindings = readModelFile(options.bindingsModel, { kind: 'bindings' });
        return createCatalogServices(BindingsCatalogModule, { Lookup: s => modelLookupFactory(s.TypeSystem, { bindings }) }, chosen);
    }
    if (options.effective !== undefined) {
        const file = options.effective;
        const effective = readModelFile(file, { kind: 'effectivebindings' });
        checkEffectiveNode(effective, node, file);
        return createCatalogServices(BindingsCatalogModule, { Lookup: s => modelLookupFactory(s.TypeSystem, { effective, file }) }, chosen);
    }
    return createCatalogServices(BindingsCatalogModule, chosen);
}

/** Prints JSON text and a newline in pieces of about 64 KB (short-lived enough to die young), never the whole text as one string. */
function writeJson(v: Json | ((write: (piece: string) => void) => void), io: CliIo): void {
    let buffered: string[] = [];
    let size = 0;
    const text = typeof v === 'function' ? v : (write: (piece: string) => void) => writeJsonText(v, write);
    text(piece => {
        buffered.push(piece);
        size += piece.length;
        if (size >= 1 << 16) {
            io.out(buffered.join(''));
            buffered = [];
            size = 0;
        }
    });
    buffered.push('\n');
    io.out(buffered.join(''));
}

function logLine(l: LogEntry): string {
    const level = l.level === 'err' ? 'Error' : l.level.charAt(0).toUpperCase() + l.level.slice(1);
    const where = l.source === undefined && l.file ? ` (file: ${l.file}${l.line !== undefined ? `, line: ${l.line}` : ''})` : '';
    return `${level}: ${l.source ? `${l.source}: ` : ''}${l.message}${where}\n`;
}

/**
 * The log of a compile, held until it ends: a compile that succeeds prints it as Puppet's
 * console lines; one that fails prints it as located diagnostics before its error, so that the
 * stderr of a failure is diagnostics only, one line each.
 */
class HeldLog {
    private readonly held: LogEntry[] = [];
    constructor(private readonly codedir: string, private readonly io: CliIo) {}

    readonly add = (l: LogEntry): void => { this.held.push(l); };

    flush(failed: boolean): void {
        for (const l of this.held.splice(0)) this.io.err(failed ? loggedDiagnostic(l, this.codedir) : logLine(l));
    }
}

function loggedDiagnostic(l: LogEntry, codedir: string): string {
    const where = l.file ? `${l.file}${l.line !== undefined ? `:${l.line}` : ''}` : codedir;
    const [severity, code] = l.level === 'warning' ? ['warning', CatalogIssues.EVAL_LOGGED_WARNING.code]
        : l.level === 'err' || l.level === 'alert' || l.level === 'emerg' || l.level === 'crit' ? ['error', CatalogIssues.EVAL_LOGGED_ERROR.code]
        : ['info', CatalogIssues.EVAL_LOGGED_NOTICE.code];
    return `${where}: ${severity} ${code}: ${l.source ? `${l.source}: ` : ''}${oneLine(l.message)}\n`;
}

/**
 * `modelc compile CODEDIR --node N ...`: compiles a catalog and prints it as Puppet's catalog
 * JSON (`puppet`), the Catalog model with provenance (`json`, `msgpack`), or the oracle's
 * normalized shape (`normalized`, also for errors).
 */
export async function compileAction(codedir: string, options: CompileCommandOptions, io: CliIo): Promise<number> {
    const log = new HeldLog(codedir, io);
    try {
        const code = await compileLogged(codedir, options, io, log);
        log.flush(code !== ExitCode.OK);
        return code;
    } catch (e) {
        log.flush(true);
        throw e;
    }
}

async function compileLogged(codedir: string, options: CompileCommandOptions, io: CliIo, log: HeldLog): Promise<number> {
    // The graph, store and review stages are loaded only for the options that use them (cold start).
    const extras: Extras = {
        ...(options.graph !== undefined ? { graph: await import('../graph/index.js') } : {}),
        ...(options.explain?.length ? { review: await import('../review/index.js') } : {})
    };
    if (options.graph !== undefined) extras.graph?.graphFormat(options.graph);
    const basemodulepath = options.basemodulepath ? options.basemodulepath.split(':') : [];
    const request = readNodeRequest({
        node: options.node, factsFile: options.facts, trustedFile: options.trusted, environment: options.environment, defaultFactsDir: codedir
    });
    // An Environment bundle (`modelc parse CODEDIR --bundle FILE`) is one environment, compiled without reading the directory.
    const bundle = bundledEnvironment(codedir);
    const { chosen, node, enc } = bundle
        ? { chosen: { environment: bundle }, node: inEnvironment(request, bundle.name), enc: undefined }
        : chooseFor(codedir, request, { basemodulepath, onLog: log.add, askEnc: options.bindings !== false });
    const settings = new Map<string, string>();
    for (const s of options.setting ?? []) {
        const i = s.indexOf('=');
        if (i < 1) usage(`--setting expects NAME=VALUE, got '${s}'`, codedir);
        settings.set(s.slice(0, i), s.slice(i + 1));
    }
    const services = servicesFor(options, node.certname, chosen.environment);
    const storeStage = options.store === undefined || options.store === false ? undefined : await import('../store/index.js');
    const store = storeStage?.openStore(typeof options.store === 'string' ? options.store : storeStage.defaultStoreUrl(chosen.environment.dir));
    // Modules' Ruby goes into the apply stage's type registry (one registry, two front ends); an
    // environment without module Ruby never asks for it, and a compile need not load apply then
    // (a bundle's modules are not on disk to look at: it loads apply).
    const apply = bundle !== undefined || moduleRuby(chosen.environment.modulepath) ? await import('../apply/index.js') : undefined;
    try {
        return compileWith(codedir, options, io, log, services, node, settings, store, { ...extras, ...(apply ? { apply } : {}), ...(enc ? { enc } : {}) });
    } finally {
        store?.close();
    }
}

function compileWith(
    codedir: string, options: CompileCommandOptions, io: CliIo, log: HeldLog, services: CatalogServices, node: ReturnType<typeof readNodeRequest>,
    settings: Map<string, string>, store: CatalogStore | undefined, extras: Extras
): number {
    const result = services.compile(codedir, node.environment, {
        ...(store ? { store } : {}),
        node: node.certname, facts: node.facts, trusted: node.trusted,
        classes: options.class ?? [], settings, onLog: log.add, ...(extras.enc ? { enc: extras.enc } : {}),
        ...(extras.apply ? { typeRegistry: (env: string, log?: (level: LogLevel, message: string) => void) => { const a = extras.apply as ApplyStage; return new a.TypeRegistry(env, new a.SharedTypeSystem(), m => log?.(m.level, m.message)); } } : {})
    });
    // The catalog is stored (with its exported resources) before anything is printed: a failed write prints nothing.
    if (store && !result.error) store.replaceCatalog(storedCatalog(result));
    if (!result.error && (options.graph !== undefined || options.explain?.length)) {
        const model = catalogModel(result);
        // Check every query before writing anything.
        const explained = (options.explain ?? []).map(q => (extras.review as ReviewStage).explainParameter(model.root, q, codedir));
        const graph = extras.graph;
        if (options.graph !== undefined && graph) graph.writeGraph(options.graph, graph.resourceGraphDot(graph.resourceGraph(model.root)));
        if (explained.length > 0) {
            io.out(explained.join(''));
            return ExitCode.OK;
        }
    }
    if (result.error) {
        // The prefix carries the location, so the message is Puppet's without its location suffix.
        const r = result.error.report;
        const where = r.file ? `${r.file}${r.line !== undefined ? `:${r.line}` : ''}${r.pos !== undefined ? `:${r.pos}` : ''}`
            : r.at ? `${r.at.file}:${r.at.line}${r.at.column !== undefined ? `:${r.at.column}` : ''}` : codedir;
        log.flush(true);
        io.err(`${where}: error ${result.error.code}: ${oneLine(r.basic ?? r.message)} (on node ${result.node})\n`);
    }
    // --explain prints explanations, not a catalog: a compile that fails prints its error alone.
    if (options.format === 'normalized' && !(result.error && options.explain?.length)) {
        // The oracle's shape, the error object included, for diffing against real Puppet.
        writeJson(write => writeNormalizedResult(result, write), io);
        return result.error ? ExitCode.ERROR : ExitCode.OK;
    }
    if (result.error) return ExitCode.ERROR;
    if (options.format === 'json') io.out(encodeJson(catalogModel(result)));
    else if (options.format === 'msgpack') io.out(encodeMsgpack(catalogModel(result)));
    else writeJson(puppetCatalog(result), io);
    return ExitCode.OK;
}
