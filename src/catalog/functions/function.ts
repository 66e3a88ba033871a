import type { PuppetValue } from '../../values/index.js';
import type { Where } from '../errors.js';
import type { CatalogRuntime, Closure, ExpressionEvaluator } from '../runtime.js';
import type { Scope } from '../scope.js';

export type { Closure } from '../runtime.js';

/**
 * What a core function may use: its call (name, calling scope, call site), the compilation it
 * runs in (`runtime`: the catalog, variables, types, loader, lookup, logging and warnings), the
 * evaluator (for code it runs itself, as templates do) and the other functions (for `call`).
 */
export interface FunctionContext {
    readonly name: string;
    readonly scope: Scope;
    readonly where: Where;
    /** True when none of the function's signatures took the call but one of its `argument_mismatch` dispatches did. */
    readonly argumentMismatch?: boolean;
    readonly runtime: CatalogRuntime;
    readonly evaluator: ExpressionEvaluator;
    readonly functions: FunctionTable;
    /** Calls the block; arguments beyond the lambda's parameters are dropped as Puppet does. */
    callLambda(closure: Closure, args: PuppetValue[]): PuppetValue;
}

/** A core function: receives evaluated arguments (and the block, if given). */
export type PuppetFunction = (call: FunctionContext, args: PuppetValue[], block: Closure | undefined) => PuppetValue;

/** A table of core functions by name. */
export type FunctionTable = ReadonlyMap<string, PuppetFunction>;
