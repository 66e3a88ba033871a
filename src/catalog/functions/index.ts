import { catalogFunctions } from './catalog-functions.js';
import { collectionFunctions } from './collection-functions.js';
import type { FunctionTable, PuppetFunction } from './function.js';
import { injectFunctions } from './inject-functions.js';
import { iterationFunctions } from './iteration.js';
import { lookupFunction } from './lookup-function.js';
import { miscFunctions } from './misc-functions.js';
import { stringFunctions } from './string-functions.js';
import { templateFunctions } from './template-functions.js';
import { typeFunctions } from './type-functions.js';

export type { CallContext, Closure, FunctionTable, PuppetFunction } from './function.js';

/** Puppet 7's core functions that the catalog builder provides. */
export function coreFunctions(): FunctionTable {
    const all: Record<string, PuppetFunction> = {
        ...catalogFunctions, ...iterationFunctions, ...stringFunctions, ...collectionFunctions, ...typeFunctions, ...templateFunctions, ...miscFunctions,
        ...injectFunctions,
        lookup: lookupFunction
    };
    return new Map(Object.entries(all));
}
