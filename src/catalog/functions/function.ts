import type { Lambda } from '../../../generated/langium/ast.js';
import type { PuppetValue } from '../../values/index.js';
import type { Where } from '../errors.js';
import type { Scope } from '../scope.js';
import type { Compiler } from '../compiler.js';

/** A lambda with the scope it closes over. */
export interface Closure {
    readonly lambda: Lambda;
    readonly scope: Scope;
}

/** What a function sees of its call: the calling scope, the call site and the compiler. */
export interface CallContext {
    readonly scope: Scope;
    readonly where: Where;
    readonly compiler: Compiler;
    readonly name: string;
    /** True when none of the function's signatures took the call but one of its `argument_mismatch` dispatches did. */
    readonly argumentMismatch?: boolean;
    /** Calls the block; arguments beyond the lambda's parameters are dropped as Puppet does. */
    callLambda(closure: Closure, args: PuppetValue[]): PuppetValue;
}

/** A core function: receives evaluated arguments (and the block, if given). */
export type PuppetFunction = (call: CallContext, args: PuppetValue[], block: Closure | undefined) => PuppetValue;

/** A table of core functions by name. */
export type FunctionTable = ReadonlyMap<string, PuppetFunction>;
