import { catalogFunctions } from './catalog-functions.js';
import { collectionFunctions } from './collection-functions.js';
import type { FunctionTable, PuppetFunction } from './function.js';
import { hieraFunctions } from './hiera-functions.js';
import { injectFunctions } from './inject-functions.js';
import { iterationFunctions } from './iteration.js';
import { lookupFunction } from './lookup-function.js';
import { miscFunctions } from './misc-functions.js';
import { stringFunctions } from './string-functions.js';
import { systemFunctions } from './system-functions.js';
import { templateFunctions } from './template-functions.js';
import { typeFunctions } from './type-functions.js';
import { pcoreFunctions } from './pcore-functions.js';

/**
 * The registry of core functions: every function the catalog builder provides is listed here.
 *
 * To add one: write it as a `PuppetFunction`, `(call: FunctionContext, args, block) => value`,
 * in the group file of its kind (or a new `<kind>-functions.ts` exporting a
 * `Record<string, PuppetFunction>`) and spread that group into GROUPS below. A function uses
 * only its FunctionContext: `call.runtime` (catalog, variables, types, loader, lookup,
 * log/warnOnce), `call.evaluator`, `call.callLambda`, `call.functions`. Throw RuntimeFailure
 * (or a PuppetFailure with Puppet's class) for Puppet's errors. Add its 4.x dispatches to
 * `dispatches.ts` so arguments are checked, and mismatches reported, as Puppet does.
 */
const GROUPS: ReadonlyArray<Readonly<Record<string, PuppetFunction>>> = [
    catalogFunctions, iterationFunctions, stringFunctions, collectionFunctions, typeFunctions, templateFunctions, miscFunctions, pcoreFunctions,
    injectFunctions, hieraFunctions, systemFunctions, { lookup: lookupFunction }
];

/** Puppet 7's core functions that the catalog builder provides. */
export function coreFunctions(): FunctionTable {
    const all = new Map<string, PuppetFunction>();
    for (const group of GROUPS) for (const [name, f] of Object.entries(group)) all.set(name, f);
    return all;
}
