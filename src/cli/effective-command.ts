import { existsSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError, formatDiagnostic } from '../common/index.js';
import { createInjector, formatExplanation, toPuppetValue } from '../injector/index.js';
import { encodeJson, encodeMsgpack, readModelFile, type RichData } from '../model/index.js';
import type { PuppetValue } from '../values/index.js';
import { ExitCode, type CliIo } from './io.js';

export interface EffectiveCommandOptions {
    readonly node: string;
    readonly facts?: string;
    readonly environment?: string;
    readonly format?: 'json' | 'msgpack';
    /** Look up every winning binding so the model carries the values. */
    readonly values?: boolean;
    /** Print the explanation of these names instead of the model. */
    readonly explain?: readonly string[];
}

/**
 * `modelc effective BINDINGS --node N`: builds the injector of the request and prints its
 * EffectiveBindings model. Binding errors (conflicts, unresolved abstract/override/final...)
 * are in the model's issues and on stderr; the exit code is then 1.
 */
export function effectiveAction(file: string, opts: EffectiveCommandOptions, io: CliIo): number {
    const layered = readModelFile(file, { kind: 'bindings' });
    const injector = createInjector(layered, {
        node: opts.node,
        ...(opts.environment !== undefined ? { environment: opts.environment } : {}),
        facts: readFacts(opts.facts, opts.node),
        bindingsFile: file
    }, { lenient: true });
    if (opts.explain && opts.explain.length > 0) {
        for (const name of opts.explain) io.out(formatExplanation(injector.explain(name)));
    } else {
        const model = injector.effectiveBindings({ produce: opts.values === true });
        io.out(opts.format === 'msgpack' ? encodeMsgpack(model) : encodeJson(model));
    }
    for (const d of injector.issues) io.err(`${formatDiagnostic(d)}\n`);
    return injector.issues.some(d => d.severity === 'error') ? ExitCode.ERROR : ExitCode.OK;
}

/** A facts file as `puppet facts` writes it (`{name, values}`) or a plain hash, YAML or JSON. */
function readFacts(file: string | undefined, node: string): Map<string, PuppetValue> {
    if (file === undefined) return new Map([['fqdn', node]]);
    if (!existsSync(file)) throw new UserError({ severity: 'error', code: 'INJECT_FACTS_FILE', message: 'no such facts file', file });
    const text = readFileSync(file, 'utf8');
    let data: unknown;
    try {
        data = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
    } catch (e) {
        throw new UserError({ severity: 'error', code: 'INJECT_FACTS_FILE', message: `cannot read facts: ${e instanceof Error ? e.message : String(e)}`, file });
    }
    const values = isObject(data) && isObject(data.values) && typeof data.name === 'string' ? data.values : data;
    if (!isObject(values)) throw new UserError({ severity: 'error', code: 'INJECT_FACTS_FILE', message: 'facts must be a hash of fact names to values', file });
    const facts = new Map<string, PuppetValue>();
    for (const [k, v] of Object.entries(values)) facts.set(k, toPuppetValue(v as RichData));
    return facts;
}

function isObject(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
