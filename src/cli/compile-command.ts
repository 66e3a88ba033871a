import { UserError } from '../common/index.js';
import { encodeJson, encodeMsgpack } from '../model/index.js';
import {
    BindingsCatalogModule, catalogModel, createCatalogServices, puppetCatalog, jsonText, normalizedResult, type LogEntry
} from '../catalog/index.js';
import { graphFormat, resourceGraph, resourceGraphDot, writeGraph } from '../graph/index.js';
import { readNodeRequest } from '../node/index.js';
import { explainParameter } from '../review/index.js';
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
    /** Write the resource relationship graph here (.dot or .svg). */
    readonly graph?: string;
    /** Print where these CLASS::PARAM values came from instead of the catalog. */
    readonly explain?: string[];
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
    if (options.graph !== undefined) graphFormat(options.graph);
    const node = readNodeRequest({
        node: options.node, factsFile: options.facts, trustedFile: options.trusted, environment: options.environment, defaultFactsDir: codedir
    });
    const settings = new Map<string, string>();
    for (const s of options.setting ?? []) {
        const i = s.indexOf('=');
        if (i < 1) throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message: `--setting expects NAME=VALUE, got '${s}'` });
        settings.set(s.slice(0, i), s.slice(i + 1));
    }
    // Opt-in: without ARM-8 bindings the catalog stays exactly Puppet's, Hiera answering directly.
    const services = options.bindings ? createCatalogServices(BindingsCatalogModule) : createCatalogServices();
    const result = services.compile(codedir, node.environment, {
        node: node.certname, facts: node.facts, trusted: node.trusted,
        classes: options.class ?? [], settings, onLog: l => io.err(logLine(l))
    }, options.basemodulepath ? options.basemodulepath.split(':') : []);
    if (!result.error && (options.graph !== undefined || options.explain?.length)) {
        const model = catalogModel(result);
        // Check every query before writing anything.
        const explained = (options.explain ?? []).map(q => explainParameter(model.root, q));
        if (options.graph !== undefined) writeGraph(options.graph, resourceGraphDot(resourceGraph(model.root)));
        if (explained.length > 0) {
            io.out(explained.join(''));
            return ExitCode.OK;
        }
    }
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
