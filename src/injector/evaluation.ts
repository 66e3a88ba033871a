import type { PuppetExpression, PuppetLambda } from '../../generated/model/bindings.js';
import { fail, InjectorError } from './diagnostics.js';
import type { Candidate } from './entries.js';
import type { InjectedValue } from './values.js';

/** Thrown by an ExpressionEvaluator that cannot evaluate the code at all (no Puppet evaluator is configured). */
export class NoEvaluatorError extends Error {}

/**
 * Runs Puppet code of a binding (combinator, transformer, select_result, evaluating producer):
 * evaluation failures become located injector diagnostics naming the binding and the code.
 */
export function guarded(e: PuppetExpression | PuppetLambda, run: () => InjectedValue, c: Candidate): InjectedValue {
    try {
        return run();
    } catch (err) {
        if (err instanceof InjectorError) throw err;
        const message = err instanceof Error ? err.message : String(err);
        const place = (err ?? {}) as { file?: unknown; line?: unknown };
        const at = typeof place.file === 'string' && typeof place.line === 'number' ? { $type: 'SourceLocation' as const, file: place.file, line: place.line } : undefined;
        const where = at ?? e.location ?? c.location;
        return fail(err instanceof NoEvaluatorError ? 'INJECT_NO_EVALUATOR' : 'INJECT_EVALUATION_FAILED', { key: c.key, layers: [c.layer], locations: [where] }, e.source, message);
    }
}
