import { isUserError, UserError } from '../../common/index.js';
import { PAnyType, typeToString } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { LookupContext, LookupService } from '../lookup.js';
import type { PuppetFunction } from './function.js';

/** A lookup service that can also inject (the bindings stage's InjectingDataBinding). */
export interface InjectingLookupService extends LookupService {
    inject(name: string, type: string | undefined, optional: boolean, context: LookupContext, args?: ReadonlyMap<PuppetValue, PuppetValue>): PuppetValue;
    classes(context: LookupContext): string[];
    /** Where a bound class was included (its `include` in a bindings file). */
    classOrigin?(name: string, context: LookupContext): { readonly file: string; readonly line: number; readonly column: number } | undefined;
    /** ARM-8 `bind variables`: the bound top-scope variables. */
    variables?(context: LookupContext): ReadonlyArray<[string, PuppetValue]>;
    /** ARM-8 `bind dependency`: the bound relationships (resource references as strings). */
    dependencies?(context: LookupContext): ReadonlyArray<{ readonly sources: readonly string[]; readonly targets: readonly string[]; readonly arrow: string }>;
    /** ARM-8 `bind parameters Type[title]` / `Type`: a resource parameter's bound value. */
    resourceParameter?(type: string, title: string, name: string, context: LookupContext): { value: PuppetValue; key: string } | undefined;
    /** The names `bind parameters Type[title]` or `Type` bind for that resource (some may produce nothing). */
    resourceParameterNames?(type: string, title: string, context: LookupContext): readonly string[];
    /** ARM-8 `bind class ntp to class ntp2` / `bind MyType to MyBetterType`: the type declared instead, or undefined. */
    boundType?(type: string, context: LookupContext): string | undefined;
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
    return (call, args, block) => {
        const fname = optional ? 'optionally_inject' : 'inject';
        // ARM-8 `inject(*args)`: "type and/or name, and an optional hash of parameters passed to an instantiator".
        const last = args[args.length - 1];
        const hash = last instanceof Map ? last : undefined;
        const [first, second] = hash ? args.slice(0, -1) : args;
        const count = hash ? args.length - 1 : args.length;
        const type = first instanceof PAnyType ? typeToString(first) : undefined;
        const name = first instanceof PAnyType ? second : first;
        if ((name !== undefined && typeof name !== 'string') || (type === undefined && name === undefined) || count > 2 || (type !== undefined && count > 2) || (type === undefined && count > 1)) {
            throw new RuntimeFailure(CatalogIssues.EVAL_INJECT_ARITY.message({ fname, count: args.length }));
        }
        const svc = call.runtime.lookupService;
        if (!isInjecting(svc)) throw new RuntimeFailure(CatalogIssues.EVAL_INJECT_NO_INJECTOR.message({ fname }));
        // ARM-8: with a lambda, inject() gives it the bound value, or undef when nothing is bound.
        // The injector's refusals are located errors of its own, which the compile reports with their codes.
        let value: PuppetValue;
        try {
            value = svc.inject(name ?? '', type, block !== undefined || optional, call.runtime.lookupContext(), hash);
        } catch (e) {
            // A refusal that names no binding (nothing is bound) is located at the call.
            if (isUserError(e) && e.diagnostics.some(d => d.at === undefined)) {
                const at = { file: call.where.file, line: call.where.line, column: call.where.column ?? 1 };
                throw new UserError(e.diagnostics.map(d => (d.at === undefined ? { ...d, file: at.file, at } : d)));
            }
            throw e;
        }
        return block ? call.callLambda(block, [value]) : value;
    };
}

export const injectFunctions: Record<string, PuppetFunction> = {
    inject: injectFunction(false),
    optionally_inject: injectFunction(true)
};
