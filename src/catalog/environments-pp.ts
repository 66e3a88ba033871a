import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AstNode } from 'langium';
import type { ClassResource, Expression, ResourceExpression } from '../../generated/langium/ast.js';
import {
    defaultEnvironmentSelection, dynamicEnvironmentProblem, ENVIRONMENT_PARAMETERS, resolveEnvironment, BindingsIssues,
    type EncOutput, type EnvironmentParams, type EnvironmentSelection
} from '../bindings/index.js';
import { decodeUtf8, readInputFile, UserError, type SourcePoint } from '../common/index.js';
import { fromRichData } from '../model/index.js';
import { parsePuppet } from '../parse/index.js';
import type { PuppetValue } from '../values/index.js';
import { bootEnvironment, manifestsAt, type Environment } from './boot.js';
import { Compiler, type LogEntry } from './compiler.js';
import { CompileError, EvalIssue, PuppetFailure, RuntimeFailure, type Where } from './errors.js';
import type { FunctionTable, PuppetFunction } from './functions/function.js';
import { coreFunctions } from './functions/index.js';
import type { DeclarationMode } from './runtime.js';
import { Scope } from './scope.js';

/**
 * What a Puppet server knows of a node when it picks the environment (ARM-8 "Request
 * Sequence"): who the node is, its facts and `$trusted`, the environment the agent asked for
 * and the ENC's answer.
 */
export interface NodeEnvironmentRequest {
    readonly certname: string;
    readonly facts: ReadonlyMap<string, PuppetValue>;
    /** `$trusted`; by default what the certname gives (authenticated remote, no extensions). */
    readonly trusted?: ReadonlyMap<string, PuppetValue>;
    /** The agent's `--environment`; absent when the agent gave none (`$agent_environment` is then undef). */
    readonly agentEnvironment?: string;
    /** The external node classifier's answer (bindings' `runEnc`), when one is configured. */
    readonly enc?: EncOutput;
    /** Receives environments.pp's notices and warnings. */
    readonly onLog?: (entry: LogEntry) => void;
}

/** The environment a request is served in, ready to compile. */
export interface ChosenEnvironment {
    readonly name: string;
    /** What the catalog compiles: its directory, manifests and module path. */
    readonly environment: Environment;
    /** environments.pp's selection (envdir, bindingsdir, ...) when environments.pp decided. */
    readonly selection?: EnvironmentSelection;
    /** Who decided: environments.pp, the ENC, the agent's --environment, or nobody (production). */
    readonly decidedBy: 'environments.pp' | 'enc' | 'agent' | 'default';
}

/**
 * Picks the environment of one node request in CODEDIR (the confdir), or throws a located
 * UserError (BIND_UNKNOWN_ENVIRONMENT, BIND_ENVIRONMENTS_EVAL, BIND_PARSE, ...).
 * With `CODEDIR/environments.pp`, ARM-8 decides: the file is evaluated (see selectEnvironment)
 * and the agent's choice is only `$agent_environment`. Without it, Puppet 7's order holds:
 * the ENC's environment, else the agent's, else production, as a directory environment
 * (`CODEDIR/environments/NAME`, or CODEDIR itself).
 */
export function chooseEnvironment(codedir: string, request: NodeEnvironmentRequest, basemodulepath: readonly string[] = []): ChosenEnvironment {
    if (existsSync(join(resolve(codedir), 'environments.pp'))) {
        const selection = selectEnvironment(codedir, request);
        return { name: selection.name, environment: environmentOf(selection, basemodulepath), selection, decidedBy: 'environments.pp' };
    }
    const fromEnc = request.enc?.environment;
    const name = fromEnc ?? request.agentEnvironment ?? 'production';
    const decidedBy = fromEnc !== undefined ? 'enc' : request.agentEnvironment !== undefined ? 'agent' : 'default';
    return { name, environment: bootEnvironment(codedir, name, basemodulepath), decidedBy };
}

/** The environment a selection compiles: the manifest file (or every .pp below a manifest directory) and the module path. */
export function environmentOf(selection: EnvironmentSelection, basemodulepath: readonly string[] = []): Environment {
    return { name: selection.name, dir: selection.envdir, manifests: manifestsAt(selection.manifest), modulepath: [...selection.modulepath, ...basemodulepath], bindingsDir: selection.bindingsdir, templateDir: selection.templatedir };
}

/**
 * Evaluates `CONFDIR/environments.pp` with the catalog's Puppet evaluator under ARM-8's rules
 * and returns the selected environment (production in $confdir when the file is absent):
 * - the top scope holds the facts (as variables and `$facts`), `$trusted`, `$confdir` and
 *   `$agent_environment` (undef when the agent gave none); the agent's `$environment` is not there;
 * - the ENC's answer is a local scope: its parameters, `$classes` and `$environment`;
 * - the file's body runs in a local scope inside it, so only the `$environment` visible at its
 *   end leaves it; `site { }` holds `Environment {}` defaults, `environment { NAME: }` and
 *   `dynamic_environments { DIR: }`, under any control flow;
 * - only core functions exist (no module path yet) and `inject()` is refused.
 */
export function selectEnvironment(confdir: string, request: NodeEnvironmentRequest): EnvironmentSelection {
    const file = join(confdir, 'environments.pp');
    if (!existsSync(file)) return defaultEnvironmentSelection(confdir);
    const parsed = parsePuppet(decodeUtf8(readInputFile(file, BindingsIssues.BIND_PARSE), file, BindingsIssues.BIND_PARSE), file);
    const errors = parsed.diagnostics.filter(d => d.severity === 'error');
    if (errors.length > 0) throw new UserError(errors.map(d => ({ ...d, code: BindingsIssues.BIND_PARSE, message: `${d.code}: ${d.message}` })));
    const run = new EnvironmentsRun(resolve(confdir), file, request);
    try {
        run.evaluate(parsed.ast);
    } catch (e) {
        throw asUserError(e, file);
    }
    const environment = run.body.lookup('environment');
    // An $environment nobody set in the file is the ENC's: a problem with it is located where the ENC is configured.
    const fromEnc = run.environmentAt === undefined && request.enc?.environment !== undefined && environment === request.enc.environment;
    const at = run.environmentAt ?? (fromEnc ? request.enc?.configuredAt : undefined);
    return resolveEnvironment(confdir, {
        file, defaults: run.defaults, statics: run.statics, dynamics: run.dynamics,
        environment, ...(at ? { environmentAt: at } : {}), ...(fromEnc ? { environmentFrom: 'the ENC' } : {})
    });
}

type EnvironmentsProgram = ReturnType<typeof parsePuppet>['ast'];

/**
 * One evaluation of environments.pp: a compiler with no module path whose resource statements
 * are the environment declarations (they never reach a catalog).
 */
class EnvironmentsRun extends Compiler {
    readonly defaults: EnvironmentParams = {};
    readonly statics = new Map<string, EnvironmentParams>();
    readonly dynamics: Array<{ dir: string; params: EnvironmentParams }> = [];
    readonly body: Scope;
    environmentAt: SourcePoint | undefined;
    private inSite = false;

    constructor(confdir: string, private readonly file: string, request: NodeEnvironmentRequest) {
        // No module path and a directory without functions/: only core functions exist.
        const env: Environment = { name: 'environments.pp', dir: join(confdir, '.environments.pp'), manifests: [], modulepath: [] };
        super(env, withoutInjection(coreFunctions()), {
            node: request.certname, facts: request.facts, ...(request.trusted ? { trusted: request.trusted } : {}), ...(request.onLog ? { onLog: request.onLog } : {})
        });
        const top = this.topScope;
        // The agent's `environment` fact is unsafe (ARM-8): it is $agent_environment's business.
        for (const [k, v] of this.facts) if (k !== 'environment') top.setLocal(k, v);
        top.setLocal('facts', new Map(this.facts));
        top.setLocal('trusted', this.trusted);
        top.setLocal('confdir', confdir);
        top.setLocal('agent_environment', request.agentEnvironment ?? null);
        const encScope = new Scope('local', top, top.resource, '');
        const enc = request.enc;
        if (enc) {
            for (const [k, v] of Object.entries(enc.parameters)) encScope.setLocal(k, fromRichData(v));
            encScope.setLocal('classes', [...enc.classes.keys()]);
            if (enc.environment !== undefined) encScope.setLocal('environment', enc.environment);
        }
        this.body = new Scope('local', encScope, top.resource, '');
    }

    /** Top-level statements and `site { }` bodies in source order, all in the body scope. */
    evaluate(program: EnvironmentsProgram): void {
        this.evaluator.registerProgram(program, this.file);
        const items = [...program.statements, ...program.arm8].sort((a, b) => (a.$cstNode?.offset ?? 0) - (b.$cstNode?.offset ?? 0));
        let run: Expression[] = [];
        const flush = (): void => {
            if (run.length > 0) this.evaluator.evalBlock(run, this.body);
            run = [];
        };
        for (const item of items) {
            if (item.$type === 'SiteExpression') {
                flush();
                // Categories and layers configure the injector of the chosen environment (ARM-8: its manifest), not the choice.
                const misplaced = item.body.find(st => st.$type === 'SiteCategories' || st.$type === 'SiteLayers');
                if (misplaced) {
                    const w = this.evaluator.where(misplaced);
                    throw new UserError({
                        severity: 'error', code: BindingsIssues.BIND_ENVIRONMENTS_EVAL, at: { file: this.file, line: w.line, column: w.column ?? 1 },
                        message: `${misplaced.$type === 'SiteCategories' ? 'categories' : 'binding layers'} configure the injector of the chosen environment: write them in its manifest's site {} (or bindings/site.pp), not in environments.pp`
                    });
                }
                this.inSite = true;
                try {
                    this.evaluator.evalBlock(item.body.filter((s): s is Expression => s.$type !== 'SiteCategories' && s.$type !== 'SiteLayers'), this.body);
                } finally {
                    this.inSite = false;
                }
            } else if (item.$type !== 'BindingsDefinition') {
                run.push(item as Expression);
            }
        }
        flush();
    }

    override setVariable(scope: Scope, name: string, value: PuppetValue, where: Where): void {
        super.setVariable(scope, name, value, where);
        if (name === 'environment' && scope === this.body) this.environmentAt = { file: this.file, line: where.line, column: where.column ?? 1 };
    }

    override resourceExpression(e: ResourceExpression, scope: Scope, mode: DeclarationMode): PuppetValue {
        const kind = environmentKind(e);
        // `notice { a => 1 }` is a function call, not a resource.
        if (kind === undefined && e.bodies.length === 0 && e.typeExpr.$type === 'QualifiedName') return super.resourceExpression(e, scope, mode);
        if (kind === undefined) this.fail(e, 'environments.pp declares no catalog resources: only Environment {}, environment and dynamic_environments inside site { }');
        if (!this.inSite) this.fail(e, `${kind === 'defaults' ? 'Environment {}' : kind} belongs inside site { }`);
        if (mode !== 'real') this.fail(e, 'environments cannot be virtual or exported');
        if (kind === 'defaults') {
            Object.assign(this.defaults, this.params(e.ops, scope));
            return null;
        }
        const shared = this.params(e.ops, scope);
        const byDefault = e.bodies.filter(b => b.title.$type === 'DefaultLiteral').reduce<EnvironmentParams>((acc, b) => ({ ...acc, ...this.params(b.ops, scope) }), {});
        for (const body of e.bodies) {
            if (body.title.$type === 'DefaultLiteral') continue;
            const titles = this.evaluator.evaluate(body.title, scope);
            const params = { ...byDefault, ...shared, ...this.params(body.ops, scope) };
            for (const t of Array.isArray(titles) ? titles.flat(Infinity as 1) : [titles]) {
                if (typeof t !== 'string' || t === '') this.fail(body.title, `an ${kind} title must be a non-empty string`);
                if (kind === 'environment') {
                    if (this.statics.has(t)) this.fail(body, `environment '${t}' is declared twice`, BindingsIssues.BIND_ENVIRONMENT_DUPLICATE);
                    this.statics.set(t, params);
                } else {
                    const problem = dynamicEnvironmentProblem(t, params);
                    if (problem) this.fail(body, problem.message, problem.code);
                    this.dynamics.push({ dir: t, params });
                }
            }
        }
        return null;
    }

    override classResource(e: ClassResource): PuppetValue {
        return this.fail(e, 'environments.pp cannot declare classes: no environment (and no module path) exists yet');
    }

    /** The parameters of one environment statement: each a string, none outside ENVIRONMENT_PARAMETERS. */
    private params(ops: ResourceExpression['ops'], scope: Scope): EnvironmentParams {
        const out: EnvironmentParams = {};
        const set = (name: string, value: PuppetValue, at: AstNode): void => {
            if (!ENVIRONMENT_PARAMETERS.includes(name)) this.fail(at, `an environment has only the parameters ${ENVIRONMENT_PARAMETERS.join(', ')}`);
            if (typeof value !== 'string') this.fail(at, `the ${name} of an environment must be a string`);
            out[name] = value;
        };
        for (const op of ops) {
            if (op.$type === 'AttributeAssign') {
                if (op.operator !== '=>') this.fail(op, 'environment parameters are set with =>');
                set(op.name, this.evaluator.evaluate(op.value, scope), op);
            } else {
                const h = this.evaluator.evaluate(op.value, scope);
                if (!(h instanceof Map)) this.fail(op, '* => needs a Hash of parameters');
                for (const [k, v] of h) set(String(k), v, op);
            }
        }
        return out;
    }

    private fail(n: AstNode, message: string, code: string = BindingsIssues.BIND_ENVIRONMENTS_EVAL): never {
        const w = this.evaluator.where(n);
        throw new UserError({ severity: 'error', code, message, at: { file: this.file, line: w.line, column: w.column ?? 1 } });
    }
}

function environmentKind(e: ResourceExpression): 'defaults' | 'environment' | 'dynamic_environments' | undefined {
    const t = e.typeExpr;
    if (t.$type === 'TypeReference' && e.bodies.length === 0 && t.value.replace(/^::/, '') === 'Environment') return 'defaults';
    const name = t.$type === 'QualifiedName' || t.$type === 'TypeReference' ? t.value.replace(/^::/, '').toLowerCase() : '';
    if (e.bodies.length > 0 && (name === 'environment' || name === 'dynamic_environments')) return name;
    return undefined;
}

/** The core functions with `inject()` refused (ARM-8: environments.pp "may not use injection"). */
function withoutInjection(functions: FunctionTable): FunctionTable {
    const refuse: PuppetFunction = call => {
        throw new UserError({ severity: 'error', code: BindingsIssues.BIND_ENVIRONMENTS_INJECT, message: `environments.pp may not use injection (${call.name})`, at: { file: call.where.file, line: call.where.line, column: call.where.column ?? 1 } });
    };
    return new Map([...functions, ['inject', refuse], ['optionally_inject', refuse]]);
}

/** Evaluation failures of environments.pp as one located BIND_ENVIRONMENTS_EVAL error. */
function asUserError(e: unknown, file: string): unknown {
    const located = (message: string, where: { file?: string; line?: number; column?: number } | undefined): UserError => new UserError({
        severity: 'error', code: BindingsIssues.BIND_ENVIRONMENTS_EVAL, message,
        ...(where?.line !== undefined ? { at: { file: where.file || file, line: where.line, column: where.column ?? 1 } } : { file })
    });
    if (e instanceof UserError) return e;
    if (e instanceof CompileError) {
        return located(e.report.basic ?? e.report.message, e.report.at ?? { ...(e.report.file !== undefined ? { file: e.report.file } : {}), ...(e.report.line !== undefined ? { line: e.report.line } : {}), ...(e.report.pos !== undefined ? { column: e.report.pos } : {}) });
    }
    if (e instanceof EvalIssue || e instanceof PuppetFailure || e instanceof RuntimeFailure) return located(e.message, e.where);
    return e;
}
