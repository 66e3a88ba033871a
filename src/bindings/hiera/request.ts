import { resolve } from 'node:path';
import { rubyJsonNumber } from '../../common/index.js';
import { toRichData } from '../../model/index.js';
import type { NodeRequest } from '../../node/index.js';
import { toData, type PuppetValue, type ToDataRules } from '../../values/index.js';
import type { HieraContext } from './context.js';
import type { HieraFunctions } from './function-provider.js';
import { parseJsonData } from './data-file.js';
import type { HieraEnvironment, HieraTypeSupport, LookupRequest } from './engine.js';
import { BindingsIssues } from '../issues.js';
import { isLookupError, LookupError, PuppetErrorClass } from './errors.js';
import { createHieraLookup, type HieraLookup, type HieraServices } from './service.js';
import { createTypeSupport } from './type-support.js';

/** A `modelc lookup` request, with the oracle's options. */
export interface LookupCommandRequest {
    readonly codedir: string;
    readonly key: string;
    /** The node, its facts and `$trusted` (src/node reads them from the command line). */
    readonly node: NodeRequest;
    readonly merge?: string;
    readonly knockoutPrefix?: string;
    readonly sortMergedArrays?: boolean;
    readonly mergeHashArrays?: boolean;
    readonly type?: string;
    /** The default as given on the command line: JSON, or a bare word taken as a string. */
    readonly defaultJson?: string;
    /** The default as a value (tests); wins over defaultJson. */
    readonly defaultValue?: { readonly value: PuppetValue };
    readonly explain?: boolean;
    readonly types?: HieraTypeSupport;
    readonly services?: HieraServices;
    /** Top-scope variables of a compile (for --compile), by name. */
    readonly variable?: (name: string) => PuppetValue | undefined;
    /**
     * Called with the loaded node input before the lookup: lets the caller boot the environment
     * (module path from environment.conf), compile the manifests (--compile) and supply Puppet's
     * `new` for convert_to. Bindings cannot depend on the catalog stage, so the CLI wires this.
     */
    readonly prepare?: (input: PreparedInput) => Prepared;
}

/** The node input a `prepare` hook receives. */
export interface PreparedInput {
    readonly codedir: string;
    readonly node: NodeRequest;
}

/** What a `prepare` hook gives back; `error` is printed as the oracle's error output instead of looking up. */
export interface Prepared {
    readonly environment?: HieraEnvironment;
    readonly variable?: (name: string) => PuppetValue | undefined;
    readonly types?: HieraTypeSupport;
    /** The environment's functions, for levels whose data come from one. */
    readonly functions?: HieraFunctions;
    /** What the compile behind `functions` logged since the last call (Puppet prints every log beside a failed lookup). */
    readonly drainLogs?: () => Record<string, unknown>[];
    /** Called with the lookup's service before it runs: lookups the compile makes from then on (in data provider functions) go to it. */
    readonly useLookup?: (service: HieraLookup) => void;
    readonly error?: Record<string, unknown>;
    /** What was logged before `error` (the oracle prints it beside the error). */
    readonly logs?: readonly Record<string, unknown>[];
}

/** The outcome as the oracle prints it: JSON text (or explanation) and the exit code. */
export interface LookupCommandResult {
    readonly exitCode: 0 | 1;
    readonly output: string;
    /** The failure, for a `file:line:col: error CODE: message` diagnostic beside the oracle-shaped output. */
    readonly error?: LookupError;
}

/** Runs one lookup as `oracle/lookup` does and renders the oracle's output. */
export function runLookupCommand(req: LookupCommandRequest): LookupCommandResult {
    try {
        return runLookup(req);
    } catch (e) {
        // Unreadable inputs are reported as the oracle reports them: an error object, exit 1.
        if (isLookupError(e)) return { exitCode: 1, output: errorJson(e, []), error: e };
        throw e;
    }
}

function runLookup(req: LookupCommandRequest): LookupCommandResult {
    const codedir = resolve(req.codedir);
    const node = req.node;
    const prepared = req.prepare?.({ codedir, node }) ?? {};
    if (prepared.error) return { exitCode: 1, output: `${JSON.stringify({ error: prepared.error, ...(prepared.logs ? { logs: prepared.logs } : {}) }, null, 2)}\n` };
    // Every log entry in the order Puppet logs it: the compile's, then Hiera's warnings and the functions' logs as they come.
    const logs: Record<string, unknown>[] = [];
    const drain = (): void => { if (prepared.drainLogs) logs.push(...prepared.drainLogs()); };
    drain();
    const functions = prepared.functions;
    const context: HieraContext = {
        environment: node.environment,
        facts: node.facts,
        trusted: node.trusted,
        variable: prepared.variable ?? req.variable,
        ...(functions ? {
            functions: {
                has: name => {
                    try {
                        return functions.has(name);
                    } finally {
                        drain();
                    }
                },
                call: (name, args) => {
                    try {
                        return functions.call(name, args);
                    } finally {
                        drain();
                    }
                }
            }
        } : {})
    };
    const service = createHieraLookup({
        environment: prepared.environment ?? codedir, context, types: prepared.types ?? req.types ?? createTypeSupport(), services: req.services,
        // Puppet's log text: a warning issued with a file gets "\n   (file: F)" appended.
        warn: (message, file) => { drain(); logs.push({ level: 'warning', message: file === undefined ? message : `${message}\n   (file: ${file})` }); }
    });
    prepared.useLookup?.(service);
    const request: LookupRequest = {
        merge: mergeOption(req),
        type: req.type,
        default: req.defaultValue ?? (req.defaultJson !== undefined ? { value: parseDefault(req.defaultJson) } : undefined)
    };
    if (req.explain) {
        const r = service.explain(req.key, request);
        // The oracle explains Puppet::DataBinding::LookupErrors (and its RecursiveLookupError); any other
        // failure (a type assertion, a data function's ArgumentError) is printed as the error object.
        if (isLookupError(r.error) && r.error.puppetClass !== PuppetErrorClass.LOOKUP && r.error.puppetClass !== PuppetErrorClass.RECURSIVE) {
            return { exitCode: 1, output: errorJson(r.error, logs), error: r.error };
        }
        return { exitCode: r.error === undefined ? 0 : 1, output: r.text, ...(isLookupError(r.error) ? { error: r.error } : {}) };
    }
    try {
        return { exitCode: 0, output: lookupJson(service.lookup(req.key, request)) };
    } catch (e) {
        if (!isLookupError(e)) throw e;
        return { exitCode: 1, output: errorJson(e, logs), error: e };
    }
}

/** The merge argument the oracle passes: deep always carries its two flags. */
function mergeOption(req: LookupCommandRequest): PuppetValue | undefined {
    if (req.merge === undefined) return undefined;
    if (req.merge !== 'deep') return new Map<PuppetValue, PuppetValue>([['strategy', req.merge]]);
    const m = new Map<PuppetValue, PuppetValue>([
        ['strategy', 'deep'],
        ['sort_merged_arrays', req.sortMergedArrays === true],
        ['merge_hash_arrays', req.mergeHashArrays === true]
    ]);
    if (req.knockoutPrefix !== undefined) m.set('knockout_prefix', req.knockoutPrefix);
    return m;
}

function parseDefault(text: string): PuppetValue {
    try {
        return parseJsonData(text, '--default').value;
    } catch {
        return text;
    }
}

/**
 * Rich-data JSON as the oracle prints it (Puppet's ToDataConverter, then Ruby's JSON): integers
 * exact, floats always with a fraction or exponent (2.0, 1.0e+20), so Integer and Float stay
 * apart in the text; hashes with non-string keys in the `__ptype: Hash` pair form.
 */
export function lookupJson(value: PuppetValue): string {
    return `${JSON.stringify(encode(value), null, 2)}\n`;
}

/** How lookups print what rich data leaves open: exact Integer text, Ruby's Float text; the rest as models write it. */
const LOOKUP_RULES: ToDataRules = {
    integer: rubyJsonNumber,
    float: n => (Number.isFinite(n) ? rubyJsonNumber(n) : notJson(n)),
    type: t => toRichData(t as PuppetValue),
    iterator: elements => elements.map(x => toData(x, LOOKUP_RULES))
};

/**
 * Ruby's JSON generator (json 2.6) refuses NaN and the infinities (YAML's .nan, .inf), and its
 * message starts with the line of generator.c that raised it, which the oracle prints as is.
 */
function notJson(n: number): never {
    const [line, text] = Number.isNaN(n) ? [1003, 'NaN'] : [1000, n > 0 ? 'Infinity' : '-Infinity'];
    throw new LookupError(`${line}: ${text} not allowed in JSON`, { code: BindingsIssues.LOOKUP_NOT_JSON, puppetClass: PuppetErrorClass.JSON_GENERATOR });
}

function encode(v: PuppetValue): unknown {
    return toData(v, LOOKUP_RULES);
}

/** The oracle's error object: message, class, not_found, file, line, issue_code, logs. */
export function errorJson(e: LookupError, logs: readonly Record<string, unknown>[]): string {
    const error: Record<string, unknown> = { message: e.message, class: e.puppetClass };
    if (e.notFound) error.not_found = true;
    if (e.puppetLocated && e.at?.file !== undefined) error.file = e.at.file;
    if (e.puppetLocated && e.at?.line !== undefined) error.line = e.at.line;
    if (e.issueCode !== undefined) error.issue_code = e.issueCode;
    const out: Record<string, unknown> = { error };
    if (logs.length > 0) out.logs = logs;
    return `${JSON.stringify(out, null, 2)}\n`;
}
