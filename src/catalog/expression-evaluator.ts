import { AstUtils, type AstNode } from 'langium';
import type { Lambda, Program } from '../../generated/langium/ast.js';
import type { EvaluationScope, ExpressionEvaluator, PuppetCode } from '../injector/index.js';
import { parsePuppet } from '../parse/index.js';
import type { PuppetValue } from '../values/index.js';
import type { Environment } from './boot.js';
import { Compiler } from './compiler.js';
import { CompileError, EvalIssue, PuppetFailure, RuntimeFailure } from './errors.js';
import { NextSignal } from './evaluator/evaluator.js';
import type { FunctionTable } from './functions/function.js';
import type { InjectingLookupService } from './functions/inject-functions.js';
import { coreFunctions } from './functions/index.js';
import { Scope } from './scope.js';

/** An evaluation failure of a bindings expression: the message carries Puppet's wording, `file`/`line` the place. */
export class ExpressionFailure extends Error {
    constructor(message: string, readonly file?: string, readonly line?: number) {
        super(message);
    }
}

/**
 * Parsed snippets by file and text, shared by every evaluator (one is made per compile): an AST
 * is never changed by evaluating it, and a batch evaluates the same bindings for every node.
 */
const programs = new Map<string, Program>();

/** An environment for expressions that have none (a bindings model read from a file). */
export function detachedEnvironment(name = 'production', dir = process.cwd()): Environment {
    return { name, dir, manifests: [], modulepath: [] };
}

/**
 * The injector's ExpressionEvaluator backed by the catalog's Puppet evaluator: combinators,
 * `select_result`, transformers, evaluating producers and category values run as Puppet code
 * with the core functions (and the environment's Puppet-language functions). Each request scope
 * gets its own top scope holding the request's variables (facts, `$environment`, ...);
 * `inject()` inside an expression asks the request's injector. Parsed snippets are cached.
 */
export function createPuppetExpressionEvaluator(env: Environment, functions: FunctionTable = coreFunctions()): ExpressionEvaluator {
    const compilers = new WeakMap<EvaluationScope, Compiler>();

    const compilerFor = (scope: EvaluationScope): Compiler => {
        let c = compilers.get(scope);
        if (c) return c;
        const vars = scope.variables();
        const factsValue = vars.get('facts');
        const facts = factsValue instanceof Map ? new Map([...factsValue].map(([k, v]): [string, PuppetValue] => [String(k), v])) : new Map(vars);
        c = new Compiler(env, functions, { node: scope.node, facts, lookup: injectingLookup(scope) });
        // The classes and defines of the main manifests are types an expression may name
        // (`bind Mytype to Mybettertype`); a manifest that does not parse is the compile's error to report.
        for (const m of env.manifests) {
            try {
                c.loader.loadManifest(m);
            } catch {
                // reported where the manifest is compiled
            }
        }
        const top = c.topScope;
        for (const [k, v] of vars) top.setLocal(k, v);
        if (!top.hasLocal('facts')) top.setLocal('facts', facts);
        if (!top.hasLocal('trusted')) top.setLocal('trusted', c.trusted);
        if (!top.hasLocal('environment')) top.setLocal('environment', scope.environment);
        compilers.set(scope, c);
        return c;
    };

    const parse = (text: string, file: string, line: number): Program => {
        // Leading newlines keep the line numbers of the bindings file in error messages.
        const source = `${'\n'.repeat(Math.max(0, line - 1))}${text}`;
        const cacheKey = `${file}\u0000${source}`;
        const cached = programs.get(cacheKey);
        if (cached) return cached;
        const r = parsePuppet(source, file, { validate: false });
        const err = r.diagnostics.find(d => d.severity === 'error');
        if (err) throw new ExpressionFailure(err.message, file, err.at?.line ?? line);
        if (programs.size > 10_000) programs.clear();
        programs.set(cacheKey, r.ast);
        return r.ast;
    };

    const run = <T>(code: PuppetCode, f: () => T): T => {
        try {
            return f();
        } catch (e) {
            throw asFailure(e, code);
        }
    };

    return {
        evaluate(code, scope) {
            return run(code, () => {
                const c = compilerFor(scope);
                const file = code.file ?? '<expression>';
                const program = parse(code.source, file, code.line ?? 1);
                c.evaluator.registerProgram(program, file);
                const local = new Scope('local', c.topScope, c.topScope.resource, '');
                return c.evaluator.evalBlock(program.statements, local);
            });
        },
        callLambda(lambda, args, scope) {
            return run(lambda, () => {
                const c = compilerFor(scope);
                const file = lambda.file ?? '<lambda>';
                // A lambda is only a lambda after a call: `with()` carries it and is never evaluated.
                const program = parse(`with() ${lambda.source}`, file, lambda.line ?? 1);
                c.evaluator.registerProgram(program, file);
                const node = AstUtils.streamAst(program).find((n: AstNode): n is Lambda => n.$type === 'Lambda');
                if (!node) throw new ExpressionFailure(`not a lambda: ${lambda.source}`, file, lambda.line);
                try {
                    return c.evaluator.callLambda({ lambda: node, scope: c.topScope }, args as PuppetValue[]);
                } catch (e) {
                    if (e instanceof NextSignal) return e.value;
                    throw e;
                }
            });
        }
    };
}

/** `inject()` / `optionally_inject()` inside a bindings expression go to the request's injector. */
function injectingLookup(scope: EvaluationScope): InjectingLookupService {
    return {
        lookup: () => ({ found: false }),
        inject(name, type, optional) {
            try {
                return scope.inject(name, type) as PuppetValue;
            } catch (e) {
                if (optional && e instanceof Error && 'diagnostics' in e && (e as { diagnostics: Array<{ code: string }> }).diagnostics.some(d => d.code === 'INJECT_NOT_FOUND')) return null;
                throw e;
            }
        },
        classes: () => []
    };
}

function asFailure(e: unknown, code: PuppetCode): unknown {
    if (e instanceof ExpressionFailure) return e;
    if (e instanceof CompileError) {
        const r = e.report;
        return new ExpressionFailure(r.basic ?? r.message, r.file ?? code.file, r.line ?? code.line);
    }
    if (e instanceof EvalIssue || e instanceof PuppetFailure) return new ExpressionFailure(e.message, e.where?.file ?? code.file, e.where?.line ?? code.line);
    if (e instanceof RuntimeFailure) return new ExpressionFailure(e.message, e.where?.file ?? code.file, e.where?.line ?? code.line);
    return e;
}

