import { isLookupError, MergeStrategy } from '../../bindings/index.js';
import { describeMismatch, formatMismatches, formatValue, isInstance, joinMismatchLines, PAnyType } from '../../types/index.js';
import { hashGet, type PuppetValue } from '../../values/index.js';
import { PuppetFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { PuppetFunction } from './function.js';

/**
 * lookup(name[, type[, merge[, default]]]), lookup(name, options), with a default block:
 * asks the lookup service for each name in turn.
 */
export const lookupFunction: PuppetFunction = (call, args, block) => {
    const first = args[0];
    const [names, second, third, fourth] = first instanceof Map ? [hashGet(first, 'name') ?? null, first, undefined, undefined] : args;
    let type: PAnyType | undefined;
    let merge: PuppetValue = null;
    let hasDefault = args.length >= 4;
    let dflt: PuppetValue = fourth ?? null;
    let overrides: Map<PuppetValue, PuppetValue> | undefined;
    let defaultValues: Map<PuppetValue, PuppetValue> | undefined;
    if (second instanceof Map) {
        const t = hashGet(second, 'value_type');
        if (t instanceof PAnyType) type = t;
        merge = hashGet(second, 'merge') ?? null;
        const d = hashGet(second, 'default_value');
        if (d !== undefined) { hasDefault = true; dflt = d; }
        const o = hashGet(second, 'override');
        if (o instanceof Map) overrides = o;
        const dv = hashGet(second, 'default_values_hash');
        if (dv instanceof Map) defaultValues = dv;
    } else {
        if (second instanceof PAnyType) type = second;
        merge = third ?? null;
    }
    // Hiera 5 makes the whole call as Puppet's Lookup.lookup does.
    const whole = call.runtime.lookupCall(Array.isArray(names) ? names.map(n => formatValue(n)) : formatValue(names), {
        ...(type ? { type } : {}), ...(merge !== null ? { merge } : {}), ...(hasDefault ? { default: { value: dflt } } : {}),
        ...(block ? { defaultFn: given => call.callLambda(block, [Array.isArray(given) ? [...given] : given as string]) } : {}),
        ...(overrides ? { overrides } : {}), ...(defaultValues ? { defaultValues } : {})
    }, call.scope);
    if (whole) return whole.value;
    // Puppet resolves the merge strategy before looking anything up; a bad one fails the call.
    try {
        MergeStrategy.from(merge);
    } catch (e) {
        if (isLookupError(e)) throw new RuntimeFailure(e.message);
        throw e;
    }
    const keys = (Array.isArray(names) ? names : [names]).map(n => formatValue(n));
    let found: PuppetValue | undefined;
    let what = 'Found value';
    for (const key of keys) {
        const res = call.runtime.lookup(key, merge === null ? {} : { merge }, call.scope);
        if (res.found) { found = res.value; break; }
    }
    if (found === undefined) {
        if (block) found = call.callLambda(block, [keys[0]]);
        else if (hasDefault) { found = dflt; what = 'Default value'; }
        else {
            const msg = CatalogIssues.EVAL_LOOKUP_NOT_FOUND.message({ name: keys[0] });
            throw new PuppetFailure(msg, undefined, 'Puppet::DataBinding::LookupError', undefined, undefined, undefined, msg);
        }
    }
    if (type && !isInstance(type, found)) {
        throw new RuntimeFailure(joinMismatchLines(formatMismatches(`${what} has wrong type,`, describeMismatch(type, found))));
    }
    return found;
};
