import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { checkInputFile, checkOutputFile, oneLine, UserError } from '../common/index.js';
import { encodeJson, encodeMsgpack, modelRegistry, writeFileAtomic, asModelObject } from '../model/index.js';
import {
    applyCatalog, ApplyIssues, buildReport, createApplyServices, LEVEL_ORDER, printedLogLine, loadCatalog, ModulePlugins, modulesOf,
    type ApplyCatalog, type LogLevel, type LogSink, type StrictMode, type TypeRegistry
} from '../apply/index.js';
import { PluginFailure } from '../ruby/index.js';
import { graphFormat, graphOf, resourceGraphDot, writeGraph } from '../graph/index.js';
import { ExitCode, type CliIo } from './io.js';


export interface ApplyCommandOptions {
    readonly noop?: boolean;
    readonly root?: string;
    readonly report?: string;
    readonly reportFormat?: 'json' | 'msgpack';
    readonly strict?: StrictMode;
    readonly debug?: boolean;
    readonly verbose?: boolean;
    /** Write the resource relationship graph here (.dot or .svg) before applying; what the cycle message suggests. */
    readonly graph?: string;
    /** Colon-separated module directories whose lib/ types and providers apply the catalog's module types (an agent's pluginsync). */
    readonly modulepath?: string;
    /** Exit 2 when resources changed, 4 when some failed, 6 for both (Puppet's --detailed-exitcodes). */
    readonly detailedExitcodes?: boolean;
}

/**
 * `modelc apply CATALOG`: applies a Puppet catalog JSON or a Catalog model under --root (default
 * `/`), prints Puppet-style log lines, optionally writes the Report model; exits 1 when any
 * run was aborted (resources that fail only do so with --detailed-exitcodes, as in Puppet).
 */
export function applyAction(file: string, options: ApplyCommandOptions, io: CliIo): number {
    const root = resolve(options.root ?? '/');
    if (!existsSync(root) || !statSync(root).isDirectory()) {
        throw new UserError({ severity: 'error', code: ApplyIssues.BAD_ROOT, message: `--root ${root} is not a directory`, file: root });
    }
    if (options.graph !== undefined) graphFormat(options.graph);
    checkInputFile(file, ApplyIssues.CATALOG_FORMAT);
    if (options.report) checkOutputFile(options.report, ApplyIssues.BAD_OUTPUT);
    const catalog = loadCatalog(file);
    if (options.graph !== undefined) {
        // Written before the run, so a run aborted by a dependency cycle still leaves the picture of it.
        writeGraph(options.graph, resourceGraphDot(graphOf({
            name: catalog.name, resources: catalog.resources.map(r => ({ ref: r.ref, type: r.type })),
            containment: catalog.containment, relations: catalog.relationships.map(r => ({ source: r.source, target: r.target, kind: r.kind }))
        })));
    }
    const minimum: LogLevel = options.debug ? 'debug' : options.verbose ? 'info' : 'notice';
    const shown = new Set(LEVEL_ORDER.slice(LEVEL_ORDER.indexOf(minimum)));
    const services = createApplyServices({ log: () => m => { if (shown.has(m.level)) io.err(printedLogLine(m)); } });
    const registry = services.registries.environment(catalog.environment);
    if (options.modulepath !== undefined) loadModuleTypes(catalog, registry, options.modulepath, root, m => { if (shown.has(m.level)) io.err(printedLogLine(m)); });
    const result = applyCatalog(catalog, registry, {
        root,
        noop: options.noop === true,
        strict: options.strict ?? 'warning',
        ...(io.interrupted ? { interrupted: () => io.interrupted?.() } : {}),
        onLog: m => { if (shown.has(m.level)) io.out(printedLogLine(m)); }
    });
    if (options.report) {
        const index = modelRegistry().byPackageName('report');
        if (!index) throw new Error('the Report package is not generated');
        const report = { index, root: asModelObject(buildReport(result, 'modelc 0.1.0')) };
        writeFileAtomic(options.report, options.reportFormat === 'msgpack' ? encodeMsgpack(report) : encodeJson(report));
    }
    if (result.aborted) io.err(`${result.aborted.at ? `${result.aborted.at.file}:${result.aborted.at.line}:${result.aborted.at.column}` : file}: error ${result.aborted.code}: ${oneLine(result.aborted.message)}\n`);
    if (result.aborted) return ExitCode.ERROR;
    // As `puppet apply`: resources that failed do not fail the command unless --detailed-exitcodes
    // asks for Puppet's bits (2 something changed, 4 something failed).
    if (options.detailedExitcodes !== true) return ExitCode.OK;
    const changed = result.resources.some(r => r.changes.some(c => c.status === 'success'));
    const failed = result.resources.some(r => r.failed);
    return (changed ? 2 : 0) | (failed ? 4 : 0);
}

/**
 * The catalog's types that modules define (Resource API and classic types with their providers),
 * loaded as an agent does after pluginsync. Module Ruby that cannot run is an error at its place.
 */
function loadModuleTypes(catalog: ApplyCatalog, registry: TypeRegistry, modulepath: string, root: string, log: LogSink): void {
    const dirs = modulepath.split(':').filter(d => d !== '').map(d => resolve(d));
    const plugins = new ModulePlugins(registry, modulesOf(dirs), dirs[0] ?? root, log);
    const base = resolve(dirs[0] ?? root);
    for (const type of new Set(catalog.resources.map(r => r.type.toLowerCase()))) {
        if (registry.type(type) || type === 'class' || type === 'stage') continue;
        try {
            plugins.findType(type);
        } catch (e) {
            if (!(e instanceof PluginFailure)) throw e;
            const file = relative(process.cwd(), resolve(base, e.file)) || e.file;
            throw new UserError({ severity: 'error', code: e.kind, message: e.message, at: { file, line: e.line, column: e.column } });
        }
    }
}
