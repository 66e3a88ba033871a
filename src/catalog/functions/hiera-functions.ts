import type { PuppetValue } from '../../values/index.js';
import { PuppetFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Closure, FunctionContext, PuppetFunction } from './function.js';

type HieraMerge = 'first' | 'unique' | 'hash';

/**
 * The Hiera 3 era functions, as Puppet 7 keeps them: a lookup through the same Hiera 5 layers as
 * `lookup` with the function's merge (first, unique, hash), which takes the place of
 * lookup_options; a default or a block for a missing key; a deprecation warning once per function.
 * The third argument (a Hiera 3 hierarchy override) only concerns Hiera 3 backends, which
 * modelc does not have.
 */
function hieraLookup(call: FunctionContext, args: PuppetValue[], block: Closure | undefined, merge: HieraMerge): PuppetValue {
    if (call.runtime.setting('strict') !== 'off') {
        call.runtime.warnOnce(`deprecations:${call.name}`, CatalogIssues.EVAL_HIERA_DEPRECATED.message({ fname: call.name }), call.where);
    }
    const key = args[0] as string;
    const hasDefault = block === undefined && args.length >= 2;
    const res = call.runtime.lookup(key, { merge, hieraCall: true }, call.scope);
    if (res.found) return res.value;
    if (block) return call.callLambda(block, [key]);
    if (hasDefault) return args[1];
    const msg = `Function lookup() did not find a value for the name '${key}'`;
    throw new PuppetFailure(msg, undefined, 'Puppet::DataBinding::LookupError', undefined, undefined, undefined, msg);
}

function hieraFunction(merge: HieraMerge): PuppetFunction {
    return (call, args, block) => hieraLookup(call, args, block, merge);
}

export const hieraFunctions: Record<string, PuppetFunction> = {
    hiera: hieraFunction('first'),
    hiera_array: hieraFunction('unique'),
    hiera_hash: hieraFunction('hash'),
    hiera_include: (call, args, block) => {
        const value = hieraLookup(call, args, block, 'unique');
        if (value === null) throw new RuntimeFailure(CatalogIssues.EVAL_HIERA_INCLUDE_MISSING.message({ key: String(args[0]) }));
        if (!(Array.isArray(value) && value.length === 0)) call.functions.get('include')?.(call, [value], undefined);
        return null;
    }
};
