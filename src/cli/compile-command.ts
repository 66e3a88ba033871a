import { UserError } from '../common/index.js';
import { encodeJson, encodeMsgpack } from '../model/index.js';
import {
    BindingsCatalogModule, bootEnvironment, catalogModel, createCatalogServices, puppetCatalog, defaultFactsFile, jsonText, nodeNameFor, normalizedResult, readDataFile, readFacts,
    storedCatalog, type CatalogServices, type FactsInput, type LogEntry
} from '../catalog/index.js';
import { defaultStoreUrl, openStore, type CatalogStore } from '../store/index.js';
import type { PuppetValue } from '../values/index.js';
import { ExitCode, type CliIo } from './io.js';

export type CompileFormat = 'puppet' | 'json' | 'msgpack' | 'normalized';
export const COMPILE_FORMATS: readonly CompileFormat[] = ['puppet', 'json', 'msgpack', 'normalized'];

export interface CompileCommandOptions {
    readonly node?: string;
    readonly facts?: string;
    readonly environment?: string;
    readonly trusted?: string;
    readonly class?: string[];
    readonly setting?: string[];
    readonly basemodulepath?: string;
    readonly format: CompileFormat;
    /** Route class parameters, lookup() and `/classes` through the ARM-8 injector. */
    readonly bindings?: boolean;
    /** `--store [URL]`: the catalog store (sqlite:PATH, puppetdb:URL; bare = the environment's default). */
    readonly store?: string | boolean;
}

function logLine(l: LogEntry): string {
    const level = l.level === 'err' ? 'Error' : l.level.charAt(0).toUpperCase() + l.level.slice(1);
    const where = l.source === undefined && l.file ? ` (file: ${l.file}${l.line !== undefined ? `, line: ${l.line}` : ''})` : '';
    return `${level}: ${l.source ? `${l.source}: ` : ''}${l.message}${where}\n`;
}

/**
 * `modelc compile CODEDIR --node N ...`: compiles a catalog and prints it as Puppet's catalog
 * JSON (`puppet`), the Catalog model with provenance (`json`, `msgpack`), or the oracle's
 * normalized shape (`normalized`, also for errors).
 */
export function compileAction(codedir: string, options: CompileCommandOptions, io: CliIo): number {
    const factsFile = options.facts ?? defaultFactsFile(codedir);
    const facts = factsFile ? readFacts(factsFile) : { facts: new Map<string, PuppetValue>() };
    const trustedData = options.trusted ? readDataFile(options.trusted) : null;
    const settings = new Map<string, string>();
    for (const s of options.setting ?? []) {
        const i = s.indexOf('=');
        if (i < 1) throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message: `--setting expects NAME=VALUE, got '${s}'` });
        settings.set(s.slice(0, i), s.slice(i + 1));
    }
    // Opt-in: without ARM-8 bindings the catalog stays exactly Puppet's, Hiera answering directly.
    const services = options.bindings ? createCatalogServices(BindingsCatalogModule) : createCatalogServices();
    const environment = options.environment ?? 'production';
    const store = options.store === undefined || options.store === false ? undefined
        : openStore(typeof options.store === 'string' ? options.store : defaultStoreUrl(bootEnvironment(codedir, environment).dir));
    try {
        return compileWith(codedir, environment, options, io, services, facts, trustedData, settings, store);
    } finally {
        store?.close();
    }
}

function compileWith(
    codedir: string, environment: string, options: CompileCommandOptions, io: CliIo, services: CatalogServices,
    facts: FactsInput, trustedData: PuppetValue | null, settings: Map<string, string>, store: CatalogStore | undefined
): number {
    const result = services.compile(codedir, environment, {
        ...(store ? { store } : {}),
        node: nodeNameFor(options.node, facts), facts: facts.facts,
        trusted: trustedData instanceof Map ? new Map([...trustedData].map(([k, v]) => [String(k), v])) : undefined,
        classes: options.class ?? [], settings, onLog: l => io.err(logLine(l))
    }, options.basemodulepath ? options.basemodulepath.split(':') : []);
    // The catalog is stored (with its exported resources) before anything is printed: a failed write prints nothing.
    if (store && !result.error) store.replaceCatalog(storedCatalog(result));
    if (options.format === 'normalized') {
        io.out(`${jsonText(normalizedResult(result))}\n`);
        return result.error ? ExitCode.ERROR : ExitCode.OK;
    }
    if (result.error) {
        // The prefix carries the location, so the message is Puppet's without its location suffix.
        const r = result.error.report;
        const where = r.file ? `${r.file}${r.line !== undefined ? `:${r.line}` : ''}${r.pos !== undefined ? `:${r.pos}` : ''}` : codedir;
        io.err(`${where}: error ${result.error.code}: ${r.basic ?? r.message} (on node ${result.node})\n`);
        return ExitCode.ERROR;
    }
    if (options.format === 'json') io.out(encodeJson(catalogModel(result)));
    else if (options.format === 'msgpack') io.out(encodeMsgpack(catalogModel(result)));
    else io.out(`${jsonText(puppetCatalog(result))}\n`);
    return ExitCode.OK;
}
