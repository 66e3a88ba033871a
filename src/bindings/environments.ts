import { isAbsolute, join, resolve } from 'node:path';
import type { AstNode } from 'langium';
import type { AttributeOperation, Expression } from '../../generated/langium/ast.js';
import { isDirectoryPath, nodeFileSystem, pathExists, UserError, type FileSystemProvider } from '../common/index.js';
import { parsePuppet } from '../parse/index.js';
import type { PuppetValue } from '../values/index.js';
import { BindingsIssues } from './issues.js';

/** The environment `environments.pp` selected, with every path resolved. */
export interface EnvironmentSelection {
    readonly name: string;
    readonly envdir: string;
    readonly modulepath: readonly string[];
    readonly manifestdir: string;
    readonly manifest: string;
    readonly templatedir: string;
    readonly bindingsdir: string;
    /** How it was found: declared in environments.pp, a dynamic environment's directory, or the implicit production. */
    readonly kind: 'static' | 'dynamic' | 'default';
}

const PARAMETERS = new Set(['envdir', 'modulepath', 'manifestdir', 'manifest', 'templatedir', 'bindingsdir']);
type Params = Partial<Record<string, string>>;

const UNEVALUATED = Symbol('unevaluated');

/**
 * ARM-8 environments.pp (Request Sequence, "environments.pp", "Environment from Agents"):
 * `CONFDIR/environments.pp` may declare `Environment {}` defaults, static `environment {}`s and
 * `dynamic_environments { DIR: }` inside `site {}`, and sets `$environment` (facts and
 * `$agent_environment` — the agent's --environment, undef when not given — are variables).
 * No file means `production` in $confdir. Values are evaluated without the catalog's evaluator:
 * literals, variables, interpolated strings, selectors and arrays; anything else is
 * BIND_ENVIRONMENTS_EVAL. Injection is refused (ARM-8: "may not use injection").
 */
export function selectEnvironment(options: {
    readonly confdir: string;
    readonly agentEnvironment?: string;
    readonly facts?: ReadonlyMap<string, PuppetValue>;
    /** Where environments.pp is read and environment directories are looked for (default: the disk). */
    readonly fs?: FileSystemProvider;
}): EnvironmentSelection {
    const fs = options.fs ?? nodeFileSystem;
    const confdir = resolve(options.confdir);
    const file = join(confdir, 'environments.pp');
    if (!pathExists(fs, file)) return resolveSelection('production', confdir, {}, 'default', confdir);
    const display = 'environments.pp';
    const parsed = parsePuppet(fs.readText(file), display);
    const errors = parsed.diagnostics.filter(d => d.severity === 'error');
    if (errors.length > 0) throw new UserError(errors.map(d => ({ ...d, code: BindingsIssues.BIND_PARSE, message: `${d.code}: ${d.message}` })));
    const ev = new MiniEvaluator(display, new Map<string, PuppetValue>([...(options.facts ?? new Map()), ['confdir', confdir], ['agent_environment', options.agentEnvironment ?? null]]));
    const defaults: Params = {};
    const statics = new Map<string, Params>();
    const dynamics: { dir: string; params: Params }[] = [];
    // Site statements and top-level statements run in source order, as one manifest would.
    const siteStatements = parsed.ast.arm8.flatMap(d => (d.$type === 'SiteExpression' ? d.body : []));
    const all: AstNode[] = [...parsed.ast.statements, ...siteStatements].sort((a, b) => (a.$cstNode?.offset ?? 0) - (b.$cstNode?.offset ?? 0));
    for (const s of all) {
        if (s.$type === 'AssignmentExpression') {
            const a = s as Extract<Expression, { $type: 'AssignmentExpression' }>;
            const left = a.left;
            if (left.$type === 'VariableExpression' && a.operator === '=') ev.vars.set(left.name.replace(/^::/, ''), ev.value(a.right));
            else ev.fail(a, 'only $variable = value assignments can be evaluated here');
        } else if (s.$type === 'ResourceExpression' && siteStatements.includes(s as never)) {
            const r = s as Extract<Expression, { $type: 'ResourceExpression' }>;
            const type = r.typeExpr.$type === 'TypeReference' || r.typeExpr.$type === 'QualifiedName' ? r.typeExpr.value : '';
            if (type === 'Environment') {
                Object.assign(defaults, ev.params(r.ops));
            } else if (type === 'environment' || type === 'dynamic_environments') {
                for (const body of r.bodies) {
                    const titles = ev.value(body.title);
                    const params = ev.params(body.ops);
                    for (const t of Array.isArray(titles) ? titles : [titles]) {
                        if (typeof t !== 'string' || t === '') ev.fail(body.title, `an ${type} title must be a non-empty string`);
                        if (type === 'environment') {
                            if (statics.has(t)) ev.fail(body, `environment '${t}' is declared twice`, BindingsIssues.BIND_ENVIRONMENT_DUPLICATE);
                            statics.set(t, params);
                        } else {
                            if (params.envdir !== undefined) ev.fail(body, 'the envdir of a dynamic environment is its directory and cannot be set', BindingsIssues.BIND_ENVIRONMENT_ENVDIR);
                            if (!isAbsolute(t)) ev.fail(body.title, `dynamic_environments needs an absolute directory, not '${t}'`);
                            dynamics.push({ dir: t, params });
                        }
                    }
                }
            }
            // Other resource-like statements in site {} are the catalog's (they do not select environments).
        }
        // Other statements have no effect outside environments.pp: only $environment leaves it.
    }
    const chosen = ev.vars.get('environment');
    const name = chosen === undefined || chosen === null ? 'production' : chosen;
    if (typeof name !== 'string' || name === '') throw new UserError({ severity: 'error', code: BindingsIssues.BIND_UNKNOWN_ENVIRONMENT, message: `$environment must be a non-empty string, not ${String(name)}`, file: display });
    const stat = statics.get(name);
    if (stat) return resolveSelection(name, stat.envdir ?? defaults.envdir ?? confdir, { ...defaults, ...stat }, 'static', confdir);
    // A dynamic environment is a subdirectory named after it; a name with a path in it never is.
    if (!name.includes('/') && !name.includes('\\') && name !== '.' && name !== '..') {
        for (const d of dynamics) {
            const dir = join(d.dir, name);
            if (isDirectoryPath(fs, dir)) {
                const { envdir: _ignored, ...inherited } = defaults;
                return resolveSelection(name, dir, { ...inherited, ...d.params }, 'dynamic', confdir);
            }
        }
    }
    if (name === 'production') return resolveSelection(name, defaults.envdir ?? confdir, defaults, 'default', confdir);
    throw new UserError({ severity: 'error', code: BindingsIssues.BIND_UNKNOWN_ENVIRONMENT, message: `unknown environment '${name}'`, file: display });
}

/** Relative paths resolve against envdir; a relative manifest first against manifestdir. `$confdir` in paths expands as in Puppet's settings. */
function resolveSelection(name: string, envdir: string, p: Params, kind: EnvironmentSelection['kind'], confdir: string): EnvironmentSelection {
    const expand = (v: string): string => v.replace(/\$\{?confdir\}?/g, confdir);
    const dir = resolve(confdir, expand(envdir));
    const at = (base: string, v: string): string => resolve(base, expand(v));
    const manifestdir = at(dir, p.manifestdir ?? 'manifests');
    return {
        name, envdir: dir, kind,
        modulepath: (p.modulepath ?? 'modules').split(':').filter(x => x !== '').map(x => at(dir, x)),
        manifestdir,
        manifest: at(manifestdir, p.manifest ?? 'site.pp'),
        templatedir: at(dir, p.templatedir ?? 'templates'),
        bindingsdir: at(dir, p.bindingsdir ?? 'bindings')
    };
}


/** Just enough Puppet evaluation for environments.pp: literals, variables, strings, arrays, selectors. */
class MiniEvaluator {
    constructor(private readonly file: string, readonly vars: Map<string, PuppetValue>) {}

    params(ops: readonly AttributeOperation[]): Params {
        const out: Params = {};
        for (const op of ops) {
            if (op.$type !== 'AttributeAssign' || !PARAMETERS.has(op.name)) {
                this.fail(op, `an environment has only the parameters ${[...PARAMETERS].join(', ')}`);
            }
            const v = this.value(op.value);
            if (typeof v !== 'string') this.fail(op.value, `the ${op.name} of an environment must be a string`);
            out[op.name] = v;
        }
        return out;
    }

    value(e: Expression): PuppetValue {
        switch (e.$type) {
            case 'StringLiteral': case 'QualifiedName': case 'WordLiteral': return e.value;
            case 'BooleanLiteral': return e.value === 'true';
            case 'UndefLiteral': return null;
            case 'NumberLiteral': return /^-?\d+$/.test(e.value) ? BigInt(e.value) : Number(e.value);
            case 'VariableExpression': return this.vars.get(e.name.replace(/^::/, '')) ?? null;
            case 'ParenExpression': return this.value(e.expr);
            case 'ArrayLiteral': return e.elements.map(x => this.value(x));
            case 'ConcatString': {
                let s = e.pre;
                e.parts.forEach((p, i) => {
                    const v = this.value(p);
                    s += (v === null ? '' : typeof v === 'string' ? v : String(v)) + (i < e.mids.length ? e.mids[i] : '');
                });
                return s + e.post;
            }
            case 'SelectorExpression': {
                const subject = this.value(e.left);
                for (const entry of e.entries) {
                    if (entry.matching.$type === 'DefaultLiteral') return this.value(entry.value);
                    const m = this.value(entry.matching);
                    if (m === subject || (typeof m === 'string' && typeof subject === 'string' && m.toLowerCase() === subject.toLowerCase())) return this.value(entry.value);
                }
                this.fail(e, `no matching entry for ${String(subject)} in the selector`);
                return UNEVALUATED as never;
            }
            case 'CallFunctionExpression': {
                const callee = this.text(e).split('(')[0].trim();
                if (callee === 'inject' || callee === 'optionally_inject') this.fail(e, 'environments.pp may not use injection', BindingsIssues.BIND_ENVIRONMENTS_INJECT);
                this.fail(e, `cannot evaluate ${this.text(e)} here (literals, variables, strings, arrays and selectors only)`);
                return UNEVALUATED as never;
            }
            default:
                this.fail(e, `cannot evaluate ${this.text(e)} here (literals, variables, strings, arrays and selectors only)`);
                return UNEVALUATED as never;
        }
    }

    fail(n: AstNode, message: string, code: string = BindingsIssues.BIND_ENVIRONMENTS_EVAL): never {
        const start = n.$cstNode?.range.start;
        throw new UserError({ severity: 'error', code, message, at: { file: this.file, line: (start?.line ?? 0) + 1, column: (start?.character ?? 0) + 1 } });
    }

    private text(n: AstNode): string {
        return n.$cstNode?.text.trim() ?? n.$type;
    }
}
