import { isUserError } from '../../common/index.js';
import { PAnyType, typeToString } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { LookupContext, LookupService } from '../lookup.js';
import type { PuppetFunction } from './function.js';

/** A lookup service that can also inject (the bindings stage's InjectingDataBinding). */
export interface InjectingLookupService extends LookupService {
    inject(name: string, type: string | undefined, optional: boolean, context: LookupContext): PuppetValue;
    classes(context: LookupContext): string[];
}

export function isInjecting(svc: LookupService | undefined): svc is InjectingLookupService {
    return svc !== undefined && typeof (svc as Partial<InjectingLookupService>).inject === 'function';
}

/**
 * ARM-8 `inject(Type, 'name')`, `inject('name')`, `inject(Type)` and `optionally_inject(...)`:
 * the value bound in the environment's bindings. Only a compile whose lookup service is the
 * injector (an environment with ARM-8 bindings) can inject.
 */
function injectFunction(optional: boolean): PuppetFunction {
    return (call, args) => {
        const fname = optional ? 'optionally_inject' : 'inject';
        const [first, second] = args;
        const type = first instanceof PAnyType ? typeToString(first) : undefined;
        const name = first instanceof PAnyType ? second : first;
        if ((name !== undefined && typeof name !== 'string') || (type === undefined && name === undefined) || args.length > 2) {
            throw new RuntimeFailure(CatalogIssues.EVAL_INJECT_ARITY.message({ fname, count: args.length }));
        }
        const svc = call.runtime.lookupService;
        if (!isInjecting(svc)) throw new RuntimeFailure(CatalogIssues.EVAL_INJECT_NO_INJECTOR.message({ fname }));
        try {
            return svc.inject(name ?? '', type, optional, call.runtime.lookupContext());
        } catch (e) {
            // The injector's refusal (no binding, a type mismatch) fails the call where it was made,
            // as lookup() fails; the compiler passes other input errors (plugin loading) through.
            if (isUserError(e)) throw new RuntimeFailure(e.diagnostics.map(d => d.message).join('; '));
            throw e;
        }
    };
}

export const injectFunctions: Record<string, PuppetFunction> = {
    inject: injectFunction(false),
    optionally_inject: injectFunction(true)
};
