import { formatDiagnostic, oneLine } from '../common/index.js';
import { createPuppetExpressionEvaluator, detachedEnvironment } from '../catalog/index.js';
import { createInjector, formatExplanation } from '../injector/index.js';
import { encodeJson, encodeMsgpack, readModelFile, type Model } from '../model/index.js';
import { readNodeRequest } from '../node/index.js';
import { chooseFor, injectionRequest } from './bindings-command.js';
import { ExitCode, type CliIo } from './io.js';

export interface EffectiveCommandOptions {
    readonly node: string;
    readonly facts?: string;
    readonly trusted?: string;
    readonly environment?: string;
    /** Choose the environment from this confdir (environments.pp, the ENC) instead of taking --environment as it is. */
    readonly confdir?: string;
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
    const asked = readNodeRequest({ node: opts.node, factsFile: opts.facts, trustedFile: opts.trusted, environment: opts.environment });
    const chosen = opts.confdir !== undefined ? chooseFor(opts.confdir, asked) : undefined;
    const node = chosen?.node ?? asked;
    const layered = readModelFile(file, { kind: 'bindings' });
    // Without --environment (or --confdir) the layered bindings' own environment applies (the injector's rule).
    const { environment, ...request } = injectionRequest(node);
    const evaluator = createPuppetExpressionEvaluator(chosen ? chosen.chosen.environment : detachedEnvironment(opts.environment ?? 'production'));
    const decided = opts.environment !== undefined || chosen !== undefined;
    const injector = createInjector(layered, { ...request, ...(decided ? { environment } : {}), bindingsFile: file }, { lenient: true, services: { evaluator: () => evaluator } });
    let modelErrors = false;
    if (opts.explain && opts.explain.length > 0) {
        for (const name of opts.explain) io.out(formatExplanation(injector.explain(name)));
    } else {
        const model = injector.effectiveBindings({ produce: opts.values === true });
        io.out(opts.format === 'msgpack' ? encodeMsgpack(model) : encodeJson(model));
        // With --values the model also lists the values that failed to be produced.
        const known = new Set(injector.issues.map(d => `${d.code}\u0000${d.message}`));
        for (const issue of modelIssues(model)) {
            if (issue.severity !== 'error') continue;
            modelErrors = true;
            // Located at the binding whose producer failed, when it has a place.
            const at = issue.locations?.find(l => l.file !== undefined && l.line !== undefined);
            const where = at ? `${at.file}:${at.line}:${at.column ?? 1}` : file;
            if (!known.has(`${issue.code}\u0000${issue.message}`)) io.err(`${where}: error ${issue.code}: ${oneLine(issue.message ?? '')}${issue.key !== undefined ? ` (key ${issue.key})` : ''}\n`);
        }
    }
    for (const d of injector.issues) io.err(`${formatDiagnostic(d)}\n`);
    return modelErrors || injector.issues.some(d => d.severity === 'error') ? ExitCode.ERROR : ExitCode.OK;
}

interface IssueView {
    readonly severity?: string; readonly code?: string; readonly message?: string; readonly key?: string;
    readonly locations?: ReadonlyArray<{ readonly file?: string; readonly line?: number; readonly column?: number }>;
}

/** The InjectorIssues an EffectiveBindings model carries. */
function modelIssues(model: Model): readonly IssueView[] {
    const issues = (model.root as { issues?: unknown }).issues;
    return Array.isArray(issues) ? issues as IssueView[] : [];
}
