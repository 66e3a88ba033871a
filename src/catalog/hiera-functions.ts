import type { HieraFunctions } from '../bindings/index.js';
import type { Compiler } from './compiler.js';

/**
 * The compile's functions as Hiera's data providers call them: found by the loaders a function
 * call finds them by (built in, the modules' and environment's Puppet functions, their Ruby), and
 * run in the top scope, as Puppet's FunctionProvider calls them.
 */
export function hieraFunctions(c: Compiler): HieraFunctions {
    return {
        has: name => c.functions.has(name) || c.loader.findFunction(name) !== undefined || c.plugins.hasFunction(name),
        call: (name, args) => {
            const top = c.evaluator.puppetStack[0];
            return c.plugins.callAny(name, args, undefined, c.topScope, top ? { file: top[0], line: top[1] } : { file: c.env.dir, line: 0 });
        }
    };
}
