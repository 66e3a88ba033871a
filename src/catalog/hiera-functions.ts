import { BindingsIssues, isLookupError, LookupError, NoSuchKey, type HieraFunctions } from '../bindings/index.js';
import type { Compiler } from './compiler.js';
import { CompileError, DataFailure, EvalIssue, PuppetFailure, RubyRuntimeFailure, RuntimeFailure } from './errors.js';

/**
 * The compile's functions as Hiera's data providers call them: found by the loaders a function
 * call finds them by (built in, the modules' and environment's Puppet functions, their Ruby), and
 * run in the top scope, as Puppet's FunctionProvider calls them.
 */
export function hieraFunctions(c: Compiler): HieraFunctions {
    // What the lookup warned of so far comes before what loading and running the function logs.
    return {
        has: name => failingAsLookup(() => {
            c.flushLookupWarnings();
            return c.functions.has(name) || c.loader.findFunction(name) !== undefined || c.plugins.hasFunction(name);
        }),
        call: (name, args) => failingAsLookup(() => {
            c.flushLookupWarnings();
            const top = c.evaluator.puppetStack[0];
            return c.plugins.callAny(name, args, undefined, c.topScope, top ? { file: top[0], line: top[1] } : { file: c.env.dir, line: 0 });
        })
    };
}

const PARSE_FAILURE = /^Could not parse for environment [^:]*: /;

/**
 * Invocation#check turns a Puppet::Error raised below a lookup into a LookupError of the same
 * message; a function file that does not parse is reported without the environment's prefix,
 * as the function loader raises it.
 */
function failingAsLookup<T>(body: () => T): T {
    try {
        return body();
    } catch (e) {
        if (e instanceof NoSuchKey || isLookupError(e)) throw e;
        // A located failure (the function's file does not parse, its code fails): a compile reports the cause's place and issue beside the message.
        const r = e instanceof CompileError ? e.report : undefined;
        if (r !== undefined && r.issueCode !== undefined && r.file !== undefined && r.line !== undefined) {
            const parse = PARSE_FAILURE.test(r.message);
            throw new LookupError(r.message.replace(PARSE_FAILURE, ''), {
                code: BindingsIssues.LOOKUP_FUNCTION_FAILED, at: { file: r.file, line: r.line, ...(r.pos !== undefined ? { column: r.pos } : {}) },
                causeIssue: r.issueCode, causeClass: parse ? 'Puppet::ParseErrorWithIssue' : r.rubyClass ?? 'Puppet::Error'
            });
        }
        // Ruby's own exceptions (ArgumentError, TypeError...) pass; Puppet's are rewrapped.
        if (e instanceof RubyRuntimeFailure) throw new LookupError(e.message, { code: BindingsIssues.LOOKUP_FUNCTION_FAILED, ...(e.rubyClass.startsWith('Puppet::') ? {} : { puppetClass: e.rubyClass }) });
        // The function's dispatcher refusing the arguments (arity, types) raises an ArgumentError, which is no Puppet::Error.
        if (e instanceof RuntimeFailure && e.where === undefined && !(e instanceof DataFailure)) throw new LookupError(e.message, { code: BindingsIssues.LOOKUP_FUNCTION_FAILED, puppetClass: 'ArgumentError' });
        if (e instanceof CompileError || e instanceof EvalIssue || e instanceof RuntimeFailure || e instanceof PuppetFailure) {
            throw new LookupError(e.message.replace(PARSE_FAILURE, ''), { code: BindingsIssues.LOOKUP_FUNCTION_FAILED });
        }
        throw e;
    }
}
