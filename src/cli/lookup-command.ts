import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
    createHieraDataBinding, createTypeSupport, hieraDecides, isLookupError, hieraTemplateExtension, lookupJson, parameterKeyOf, runLookupCommand, usesBindings,
    type HieraEnvironment, type HieraLookup, type Prepared, type PreparedInput
} from '../bindings/index.js';
import { createInjector, formatExplanation, InjectorError, type InjectorOverrides } from '../injector/index.js';
import { bindingsRequest, bundledEnvironment, chooseFor, composeFor, hieraFor, injectionRequest } from './bindings-command.js';
import { bootEnvironment, catalogInjectorServices, Compiler, coreFunctions, hieraFunctions, type CompileResult, type LogEntry } from '../catalog/index.js';
import { defaultStoreUrl, openStore } from '../store/index.js';
import { formatDiagnostic, oneLine, type Diagnostic } from '../common/index.js';
import { readNodeRequest, type NodeRequest } from '../node/index.js';
import type { PuppetValue } from '../values/index.js';
import { ExitCode, type CliIo } from './io.js';

/** Options of `modelc lookup`, named as the oracle's `lookup` script names them. */
export interface LookupCommandOptions {
    node?: string;
    facts?: string;
    trusted?: string;
    environment?: string;
    merge?: string;
    knockOutPrefix?: string;
    sortMergedArrays?: boolean;
    mergeHashArrays?: boolean;
    type?: string;
    default?: string;
    compile?: boolean;
    explain?: boolean;
    /** `--store [URL]`: answers `Type[?? query]` bindings from other nodes' stored catalogs. */
    store?: string | boolean;
}


/**
 * `modelc lookup CODEDIR KEY`: prints what `oracle/lookup` prints (the value as rich-data JSON,
 * or `{"error": ...}` with exit 1; `--explain` prints the explanation instead).
 */
export function lookupAction(codedir: string, key: string, opts: LookupCommandOptions, io: CliIo): number {
    if (lookupUsesBindings(codedir, opts.environment ?? 'production')) return injectedLookup(codedir, key, opts, io);
    const asked = readNodeRequest({ node: opts.node, factsFile: opts.facts, trustedFile: opts.trusted, environment: opts.environment, defaultFactsDir: resolve(codedir) });
    // The ENC's environment wins over the asked one, as on a Puppet server (a missing CODEDIR is the lookup's error to report).
    // A bundle (a file) is one environment: nothing to choose.
    const node = existsSync(codedir) && !statSync(codedir).isFile() ? chooseFor(codedir, asked).node : asked;
    return hieraLookup(codedir, key, node, opts, io);
}

/** Hiera 5 alone: what `oracle/lookup` prints (the conformance suite's path). */
function hieraLookup(codedir: string, key: string, node: NodeRequest, opts: LookupCommandOptions, io: CliIo): number {
    const result = runLookupCommand({
        codedir,
        key,
        node,
        merge: opts.merge,
        knockoutPrefix: opts.knockOutPrefix,
        sortMergedArrays: opts.sortMergedArrays,
        mergeHashArrays: opts.mergeHashArrays,
        type: opts.type,
        defaultJson: opts.default,
        explain: opts.explain,
        prepare: input => prepareWithCatalog(input, opts.compile === true)
    });
    if (result.exitCode === 0) {
        io.out(result.output);
        return ExitCode.OK;
    }
    // A failure is said once, as the one-line diagnostic on stderr; the oracle's `{"error": ...}`
    // object is for the conformance harness (runLookupCommand), not for the command line.
    const errorObject = jsonErrorOf(result.output);
    if (errorObject === undefined) io.out(result.output);
    if (result.error) io.err(`${formatDiagnostic(locatedAt(result.error.toDiagnostic(), codedir))}\n`);
    else if (errorObject !== undefined) {
        const at = errorObject.file !== undefined ? `${errorObject.file}${errorObject.line !== undefined ? `:${errorObject.line}` : ''}` : codedir;
        // Puppet's message may span lines (each missing class parameter on its own): one line, as every diagnostic.
        io.err(`${at}: error LOOKUP_COMPILE_FAILED: ${oneLine(errorObject.message)}\n`);
    }
    return ExitCode.ERROR;
}

/**
 * An environment directory given alone is looked up as `oracle/lookup` looks it up: beside an
 * empty global layer, a version 5 hiera.yaml in the oracle's temporary confdir, which
 * explanations name by this path.
 */
const ORACLE_GLOBAL_CONFIG = '<tmp>/conf/hiera.yaml';

/**
 * Boots the environment with the catalog builder (module path from environment.conf), gives
 * lookups Puppet's `new` for convert_to and, with --compile, evaluates the manifests first so
 * `%{::var}` sees the top scope they leave, as `puppet lookup --compile` does.
 */
export function prepareWithCatalog(input: PreparedInput, compile: boolean): Prepared {
    const bundle = bundledEnvironment(input.codedir);
    const env = bundle ?? bootEnvironment(input.codedir, input.node.environment);
    // A confdir layout (CODEDIR/environments/NAME) has the global layer in CODEDIR/hiera.yaml, Puppet's default hiera_config.
    const confdir = bundle ? bundle.dir : resolve(input.codedir);
    const hieraEnv: HieraEnvironment = {
        name: env.name, root: env.dir, modulePath: env.modulepath,
        ...(resolve(env.dir) !== confdir ? { globalConfig: join(confdir, 'hiera.yaml') } : { emptyGlobalConfig: ORACLE_GLOBAL_CONFIG }),
        ...(env.fs ? { fs: env.fs } : {})
    };
    const functions = coreFunctions();
    // `new` only needs a call context for type names given as strings; a compiler gives one.
    let compiler: Compiler | undefined;
    const newFunction = functions.get('new');
    const convert = newFunction === undefined ? undefined : (type: PuppetValue, value: PuppetValue, args: readonly PuppetValue[]): PuppetValue => {
        if (!compiler) throw new Error("Puppet's new() is not available");
        return newFunction({
            scope: compiler.topScope, where: { file: env.dir, line: 0 }, runtime: compiler, evaluator: compiler.evaluator, functions, name: 'new', callLambda: () => null
        }, [type, value, ...args], undefined);
    };
    const types = createTypeSupport(convert);
    // Once the lookup runs, the compile's own lookups (a data provider function's lookup()) are the lookup command's.
    let attached: HieraLookup | undefined;
    const lookup = createHieraDataBinding({ environment: hieraEnv, types, service: () => attached });
    const useLookup = (service: HieraLookup): void => { attached = service; };
    compiler = new Compiler(env, functions, { node: input.node.certname, facts: input.node.facts, trusted: input.node.trusted, lookup });
    if (!compile) {
        // Without --compile Puppet still compiles an empty program, so a data provider function runs in a top scope with the node's facts.
        const empty = new Compiler({ ...env, manifests: [] }, functions, { node: input.node.certname, facts: input.node.facts, trusted: input.node.trusted, lookup });
        empty.compile();
        return { environment: hieraEnv, types, drainLogs: drainer(empty), functions: hieraFunctions(empty), useLookup };
    }
    const prepared: Prepared = { environment: hieraEnv, types, functions: hieraFunctions(compiler), drainLogs: drainer(compiler), useLookup };
    const result: CompileResult = compiler.compile();
    if (result.error) {
        // The oracle compiles through the compiler instance, which (unlike Compiler.compile) adds no " on node N".
        const r = result.error.report;
        const logs = result.logs.map(logRecord);
        return {
            error: {
                message: r.message, class: r.rubyClass, ...(r.file ? { file: r.file } : {}), ...(r.line !== undefined ? { line: r.line } : {}),
                ...(r.pos !== undefined ? { pos: r.pos } : {}), ...(r.issueCode ? { issue_code: r.issueCode } : {})
            },
            ...(logs.length > 0 ? { logs } : {})
        };
    }
    const top = compiler.topScope;
    return { ...prepared, variable: name => top.getLocal(name) };
}

/** A compile's log entry as the oracle prints it. */
function logRecord(l: LogEntry): Record<string, unknown> {
    return { level: l.level, message: l.message, ...(l.source !== undefined ? { source: l.source } : {}), ...(l.file !== undefined ? { file: l.file } : {}), ...(l.line !== undefined ? { line: l.line } : {}) };
}

/** The compiler's log entries not handed out yet. */
function drainer(c: Compiler): () => Record<string, unknown>[] {
    let seen = 0;
    return () => {
        const fresh = c.logs.slice(seen).map(logRecord);
        seen = c.logs.length;
        return fresh;
    };
}

/** Whether the environment answers lookups through the injector (the bindings stage decides). */
function lookupUsesBindings(codedir: string, environment: string): boolean {
    if (!existsSync(codedir)) return false;
    const bundle = bundledEnvironment(codedir);
    if (bundle) return usesBindings({ envDir: bundle.dir, modulePath: bundle.modulepath, manifests: bundle.manifests, ...(bundle.fs ? { fs: bundle.fs } : {}) });
    const env = bootEnvironment(codedir, environment);
    return usesBindings({ confdir: codedir, envDir: env.dir, modulePath: env.modulepath, manifests: env.manifests });
}

/**
 * `modelc lookup` through the injector: the environment's layers (site, providers, Hiera 5 data
 * as the `hiera:` provider in its layer) decide which binding answers KEY. When the winner is a
 * Hiera level, Hiera itself answers, so lookup_options merges, --merge, defaults, dotted keys and
 * Hiera's errors stay exactly Hiera's; otherwise the winning binding's value is printed (dotted
 * keys dig into it). `--explain` prints every candidate in precedence order with its layer,
 * category, file:line and why it won or was shadowed.
 */
function injectedLookup(codedir: string, key: string, opts: LookupCommandOptions, io: CliIo): number {
    const req = bindingsRequest(codedir, { environment: opts.environment, node: opts.node, facts: opts.facts, trusted: opts.trusted });
    const hiera = hieraFor(req);
    const composition = composeFor(req, hiera);
    const env = req.environment;
    const store = opts.store === undefined || opts.store === false ? undefined : openStore(typeof opts.store === 'string' ? opts.store : defaultStoreUrl(req.envDir));
    try {
        const overrides: InjectorOverrides = { ...catalogInjectorServices(env, store ? { store } : {}), extensions: () => hieraTemplateExtension(hiera) };
        return injectedLookupWith(key, opts, io, req, hiera, composition, overrides);
    } finally {
        store?.close();
    }
}

function injectedLookupWith(
    key: string, opts: LookupCommandOptions, io: CliIo, req: ReturnType<typeof bindingsRequest>, hiera: ReturnType<typeof hieraFor>,
    composition: ReturnType<typeof composeFor>, overrides: InjectorOverrides
): number {
    const injector = createInjector(composition.model, injectionRequest(req.node), { lenient: true, services: overrides });
    const errors = injector.issues.filter(i => i.severity === 'error');
    if (errors.length > 0) {
        for (const d of errors) io.err(`${formatDiagnostic(locatedAt(d, req.envDir))}\n`);
        return ExitCode.ERROR;
    }
    for (const d of injector.issues) if (d.severity === 'warning') io.err(`${formatDiagnostic(d)}\n`);
    const [first, ...path] = rootAndPath(key);
    // As in the catalog: a class parameter bound by `bind parameters` answers before Hiera.
    const param = parameterKeyOf(first);
    const root = hieraDecides(injector, composition, first, opts.type) && param !== undefined && injector.explain(param, opts.type).found ? param : first;
    const explanation = injector.explain(root, opts.type);
    const hieraAnswers = hieraDecides(injector, composition, root, opts.type);
    if (opts.explain) {
        io.out(formatExplanation(explanation));
        if (hieraAnswers) {
            io.out(`Hiera 5 answers '${key}'${explanation.found ? ` (its level wins in layer '${composition.hieraLayer ?? ''}')` : ' (no binding)'}:\n`);
            return hieraLookup(req.envDir, key, req.node, opts, io);
        }
    } else if (hieraAnswers) {
        return hieraLookup(req.envDir, key, req.node, opts, io);
    }
    try {
        let value = injector.lookup(root, opts.type);
        for (const seg of path) value = dig(value, seg);
        io.out(opts.explain ? `value: ${lookupJson(value)}` : lookupJson(value));
        return ExitCode.OK;
    } catch (e) {
        if (isLookupError(e)) {
            io.err(`${formatDiagnostic(locatedAt(e.toDiagnostic(), req.envDir))}\n`);
            return ExitCode.ERROR;
        }
        if (!(e instanceof InjectorError)) throw e;
        for (const d of e.diagnostics) io.err(`${formatDiagnostic(locatedAt(d, req.envDir))}\n`);
        return ExitCode.ERROR;
    }
}

/** A lookup's failure that names no file (a key found nowhere) is the environment's. */
function locatedAt(d: Diagnostic, dir: string): Diagnostic {
    return d.at !== undefined || d.file !== undefined ? d : { ...d, file: dir };
}

/** The `error` member of an oracle-shaped JSON error document, if `output` is one. */
function jsonErrorOf(output: string): { message: string; file?: string; line?: number } | undefined {
    if (!output.startsWith('{')) return undefined;
    try {
        const doc = JSON.parse(output) as { error?: { message?: unknown; file?: unknown; line?: unknown } };
        const e = doc.error;
        if (e === undefined || typeof e.message !== 'string') return undefined;
        return { message: e.message, ...(typeof e.file === 'string' ? { file: e.file } : {}), ...(typeof e.line === 'number' ? { line: e.line } : {}) };
    } catch {
        return undefined;
    }
}

/** `a.b.0` → `a`, `b`, `0`; quoted segments ('a.b') stay whole, as in Hiera keys. */
function rootAndPath(key: string): string[] {
    const out: string[] = [];
    let cur = '';
    let quote: string | undefined;
    for (const ch of key) {
        if (quote) {
            if (ch === quote) quote = undefined;
            else cur += ch;
        } else if (ch === '"' || ch === "'") {
            quote = ch;
        } else if (ch === '.') {
            out.push(cur);
            cur = '';
        } else {
            cur += ch;
        }
    }
    out.push(cur);
    return out;
}

function dig(v: PuppetValue, seg: string): PuppetValue {
    if (v instanceof Map) return v.get(seg) ?? null;
    if (Array.isArray(v) && /^\d+$/.test(seg)) return v[Number(seg)] ?? null;
    return null;
}

