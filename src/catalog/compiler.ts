import { isAbsolute, relative } from 'node:path';
import { fileErrorOf, isUserError, UserError } from '../common/index.js';
import type { ClassResource, CollectExpression, FunctionDefinition, RelationshipExpression, ResourceExpression, TypeAlias } from '../../generated/langium/ast.js';
import {
    capitalize, coreType as coreDataType, describeClosureCall, describeMismatch, formatMismatches, joinMismatchLines, isInstance, normalizeType, PAnyType, PObjectType, PResourceType, PTypeAliasType,
    parameterize, type TypeNameResolver
} from '../types/index.js';
import { type PuppetValue } from '../values/index.js';
import type { Environment } from './boot.js';
import { CompileError, EvalIssue, evaluationError, PuppetFailure, RuntimeFailure, type Where } from './errors.js';
import { CatalogIssues, puppetIssueOf } from './issues.js';
import { BreakSignal, Evaluator, NextSignal, ReturnSignal } from './evaluator/evaluator.js';
import type { FunctionTable } from './functions/function.js';
import type { Definition } from './loader.js';
import type { EnvironmentCache } from './environment-cache.js';
import { Loader } from './loader.js';
import type { LookupCall, LookupContext, LookupOptions, LookupResult, LookupService } from './lookup.js';
import { isLookupError, type EncAnswer } from '../bindings/index.js';
import type { CatalogStore, QueryProvenance } from '../store/index.js';
import { CatalogOps } from './ops/catalog-ops.js';
import type { Attr, CatalogRuntime, Closure, DeclarationMode, LogLevel } from './runtime.js';
import { coreType as coreResourceType, type CoreType } from './core-types.js';
import { RubyPluginError, RubyPlugins } from './ruby-plugins.js';
import { hieraFunctions } from './hiera-functions.js';
import type { DslTypeRegistry } from '../ruby/index.js';
import { Catalog, CatalogResource } from './resource.js';
import { programOf } from './evaluator/ast-util.js';
import { Scope } from './scope.js';
import { applyBoundDependencies, boundClassOrigin, catalogResourceParameters, setBoundVariables } from './bound-catalog.js';

export type { LogLevel } from './runtime.js';

export interface LogEntry {
    readonly level: LogLevel;
    readonly message: string;
    readonly source?: string;
    readonly file?: string;
    readonly line?: number;
}

export interface CompileOptions {
    readonly node: string;
    readonly facts: ReadonlyMap<string, PuppetValue>;
    /** Overrides of parts of $trusted (authenticated, certname, extensions, external). */
    readonly trusted?: ReadonlyMap<string, PuppetValue>;
    readonly classes?: readonly string[];
    readonly settings?: ReadonlyMap<string, string>;
    readonly lookup?: LookupService;
    /**
     * Where the lookup service's `warn` callback queues its warnings (the service is made before
     * the compiler); they are drained into the log after each lookup.
     */
    readonly lookupWarnings?: Array<{ message: string; file?: string; at?: { readonly line: number; readonly column?: number } }>;
    /** Called for each log entry as it is emitted (the CLI prints them to stderr). */
    readonly onLog?: (entry: LogEntry) => void;
    /** Other nodes' catalogs: exported resources (`<<| |>>`) and `Type[?? query]` (storeconfigs). */
    readonly store?: CatalogStore;
    /** Filled with every store query of the compile and the nodes whose resources answered. */
    readonly queryLog?: QueryProvenance[];
    /** The resource-type registry of an environment that modules' Ruby types are defined into (apply's, from above). */
    readonly typeRegistry?: (environment: string, log?: (level: LogLevel, message: string) => void) => DslTypeRegistry;
    /** The ENC's answer already asked for this request (choosing its environment): bindings reuse it rather than run the ENC again. */
    readonly enc?: EncAnswer;
    /** Parsed environments shared across compiles (parse once, compile many); without it each compile reads and parses its files. */
    readonly cache?: EnvironmentCache;
}

export interface CompileResult {
    readonly node: string;
    readonly environment: string;
    readonly catalog: Catalog;
    readonly error?: CompileError;
    readonly logs: readonly LogEntry[];
}

/**
 * One catalog compilation in Puppet 7's phases: set the node's top scope, evaluate the main
 * manifests (Class[main]), the matching node definition, the classifier's classes, then the
 * lazy queue (collectors and define instances) until nothing is left, and finish (overrides,
 * relationships, realization checks, parameter validation).
 */
/** Ruby errors Puppet does not catch and decorate (they come out of ERB templates). */
// Ruby's ScriptErrors: Puppet does not catch them to add a location.
const PLAIN_RUBY_ERRORS = new Set(['SyntaxError', 'NotImplementedError', 'LoadError']);

export class Compiler implements CatalogRuntime {
    readonly loader: Loader;
    readonly catalog = new Catalog();
    readonly evaluator: Evaluator;
    readonly ops: CatalogOps;
    /** Modules' Ruby functions and resource types (src/ruby), loaded on first use. */
    readonly plugins: RubyPlugins;
    readonly topScope: Scope;
    readonly logs: LogEntry[] = [];
    readonly strictVariables: boolean;
    readonly strict: string;
    readonly nodeName: string;
    private readonly typeCache = new Map<string, PAnyType>();
    private readonly renderStack: string[][] = [];
    readonly facts: Map<string, PuppetValue>;
    readonly trusted: Map<string, PuppetValue>;
    private readonly warnedOnce = new Set<string>();
    private readonly lookupWarnings: Array<{ message: string; file?: string; at?: { readonly line: number; readonly column?: number } }>;

    constructor(readonly env: Environment, readonly functions: FunctionTable, readonly options: CompileOptions) {
        this.loader = new Loader(env);
        this.loader.environmentName = env.name;
        this.lookupWarnings = options.lookupWarnings ?? [];
        const settings = options.settings ?? new Map<string, string>();
        this.evaluator = new Evaluator(this, functions);
        this.ops = new CatalogOps(this, this.evaluator, settings);
        this.plugins = new RubyPlugins(this);
        this.nodeName = options.node;
        this.strictVariables = settings.get('strict_variables') === 'true';
        this.strict = settings.get('strict') ?? 'warning';
        this.loader.strict = this.strict;
        this.facts = new Map([...options.facts].map(([k, v]): [string, PuppetValue] => [k, v === null ? '' : v]));
        this.trusted = this.trustedData();
        const main = new CatalogResource('Class', 'main', 'class', undefined);
        this.topScope = new Scope('top', null, main, '');
        // Puppet lists the environment's modules when its loaders are made, logging each metadata.json it refuses.
        for (const m of this.loader.modules) if (m.problem) this.log(m.problem.level, m.problem.message);
    }

    private trustedData(): Map<string, PuppetValue> {
        const node = this.nodeName;
        const dot = node.indexOf('.');
        const t = new Map<string, PuppetValue>([
            ['authenticated', 'remote'], ['certname', node], ['extensions', new Map()],
            ['hostname', dot < 0 ? node : node.slice(0, dot)], ['domain', dot < 0 ? '' : node.slice(dot + 1)], ['external', new Map()]
        ]);
        for (const [k, v] of this.options.trusted ?? []) t.set(k, v);
        return t;
    }

    log(level: LogLevel, message: string, where?: Where, source?: string): void {
        // Like the oracle, only info and above are recorded.
        if (level === 'debug') return;
        const entry: LogEntry = { level, message, ...(source !== undefined ? { source } : {}), ...(where ? { ...(where.file !== '' ? { file: where.file } : {}), ...(where.line !== 0 ? { line: where.line } : {}) } : {}) };
        this.logs.push(entry);
        this.options.onLog?.(entry);
    }

    warnOnce(key: string, message: string, where?: Where): void {
        if (this.warnedOnce.has(key)) return;
        this.warnedOnce.add(key);
        this.log('warning', message, where);
    }

    /** The context a lookup interpolates in. */
    lookupContext(scope?: Scope): LookupContext {
        return {
            facts: this.facts, trusted: this.trusted, environment: this.env.name,
            variable: (name, topScope) => (scope === undefined ? this.topScope.getLocal(name) : this.lookupVariable(topScope === true ? `::${name}` : name, scope)),
            classExists: name => this.loader.findClass(name) !== undefined,
            resource: reference => catalogResourceParameters(this, reference),
            functions: hieraFunctions(this)
        };
    }

    get lookupService(): LookupService | undefined {
        return this.options.lookup;
    }

    get store(): CatalogStore | undefined {
        return this.options.store;
    }

    get queryLog(): QueryProvenance[] | undefined {
        return this.options.queryLog;
    }

    /** Asks the lookup service; its warnings are logged and its errors become Puppet's. */
    lookup(key: string, options: LookupOptions, scope?: Scope): LookupResult {
        const svc = this.options.lookup;
        if (!svc) return { found: false };
        return this.asked(() => svc.lookup(key, options, this.lookupContext(scope)));
    }

    lookupCall(names: string | readonly string[], request: LookupCall, scope?: Scope): { readonly value: PuppetValue } | undefined {
        const svc = this.options.lookup;
        if (!svc?.call) return undefined;
        const call = svc.call.bind(svc);
        return this.asked(() => ({ value: call(names, request, this.lookupContext(scope)) }));
    }

    private asked<T>(body: () => T): T {
        try {
            return body();
        } catch (e) {
            if (isLookupError(e)) {
                const at = e.at;
                // Puppet::DataBinding::LookupError is a PreformattedError: the evaluator passes it on as it is.
                if (e.puppetClass === 'Puppet::DataBinding::LookupError' || e.puppetClass === 'Puppet::DataBinding::RecursiveLookupError') {
                    // A data provider function's file that does not parse: the parse error's place and issue are kept beside its message.
                    if (e.causeIssue !== undefined && e.causeClass !== undefined && at?.line !== undefined) {
                        throw new CompileError('EVAL_PUPPET_ERROR', {
                            message: e.message, file: at.file, line: at.line, pos: at.column, issueCode: e.causeIssue, basic: e.message.replace(/ \(file: [^)]*\)$/, ''),
                            rubyClass: e.puppetClass, causeClass: e.causeClass, log: { message: e.message }
                        });
                    }
                    // Psych's message says where; Puppet keeps the data file and line beside it, not in it.
                    if (e.causeClass !== undefined) throw new PuppetFailure(e.message, at?.line !== undefined ? { file: at.file, line: at.line } : undefined, e.puppetClass, e.causeClass, undefined, at?.file);
                    // hiera.yaml errors carry their file (and line) in the exception, the rest nothing.
                    if (!e.puppetLocated || at === undefined) throw new PuppetFailure(e.message, undefined, e.puppetClass, undefined, e.issueCode, undefined, e.message);
                    throw new PuppetFailure(e.message, at.line !== undefined ? { file: at.file, line: at.line } : undefined, e.puppetClass, undefined, e.issueCode, at.file, e.message.replace(/ \(file: [^)]*\)$/, ''));
                }
                // Any other error (ArgumentError, TypeAssertionError, Errno...) is wrapped by the statement evaluating.
                throw new RuntimeFailure(e.message);
            }
            throw e;
        } finally {
            this.flushLookupWarnings();
        }
    }

    /**
     * The lookup service's warnings as the compile's: a bindings file's at its line and column;
     * Hiera's (Puppet.warning and warn_once, which name no place) at the innermost Puppet call,
     * warn_once's file note kept in the text.
     */
    flushLookupWarnings(): void {
        const top = this.evaluator.puppetStack[0];
        for (const w of this.lookupWarnings.splice(0)) {
            if (w.at !== undefined && w.file !== undefined) {
                const file = isAbsolute(w.file) ? this.loader.rel(w.file) : w.file;
                this.log('warning', w.message, { file, line: w.at.line, ...(w.at.column !== undefined ? { column: w.at.column } : {}) });
                continue;
            }
            this.log('warning', w.file !== undefined ? `${w.message}\n   (file: ${w.file})` : w.message, top ? { file: top[0], line: top[1] } : undefined);
        }
    }

    /** Runs the compilation; errors are returned, never thrown. */
    compile(): CompileResult {
        let error: CompileError | undefined;
        try {
            this.run();
        } catch (e) {
            // Plugin code modelc cannot run is an input error located in the module's Ruby, not a Puppet failure.
            if (e instanceof RubyPluginError) throw e;
            error = this.asCompileError(e);
        }
        // Warnings of an injector made by inject() or the classification, not by a lookup.
        this.flushLookupWarnings();
        return { node: this.nodeName, environment: this.env.name, catalog: this.catalog, error, logs: this.logs };
    }

    private asCompileError(e: unknown): CompileError {
        if (e instanceof CompileError) return e;
        if (e instanceof PuppetFailure) {
            // A wrapped Psych error's message says where itself: Puppet logs it as it is, with no basic message.
            const ownLocation = e.causeClass === 'Psych::SyntaxError';
            return new CompileError('EVAL_PUPPET_ERROR', {
                message: e.message, file: e.where?.file ?? e.file, line: e.where?.line, rubyClass: e.rubyClass, causeClass: e.causeClass,
                issueCode: e.issueCode, basic: e.basic, plain: PLAIN_RUBY_ERRORS.has(e.rubyClass),
                log: ownLocation ? { message: e.message } : e.basic !== undefined ? { message: e.basic, file: e.where?.file ?? e.file, line: e.where?.line } : { message: e.message, withNode: true }
            });
        }
        if (isUserError(e)) {
            // Another stage's located error (the injector, the store, a query): its code and place are kept.
            const d = e.diagnostics[0];
            const file = d?.at?.file ?? d?.file;
            const message = d?.message ?? e.message;
            return new CompileError(d?.code ?? 'EVAL_PUPPET_ERROR', {
                message, file, line: d?.at?.line, pos: d?.at?.column, basic: message, rubyClass: 'Puppet::Error',
                log: { message, ...(file !== undefined ? { file } : {}), ...(d?.at ? { line: d.at.line } : {}) }
            });
        }
        if (e instanceof ReturnSignal || e instanceof BreakSignal || e instanceof NextSignal) {
            const what = e instanceof ReturnSignal ? 'return' : e instanceof BreakSignal ? 'break' : 'next';
            const where = e.where ? { file: e.where.file, line: e.where.line } : undefined;
            const message = CatalogIssues.EVAL_ILLEGAL_CONTROL.message({ what, at: where });
            return new CompileError('EVAL_PUPPET_ERROR', {
                message, file: where?.file, line: where?.line, rubyClass: 'Puppet::Error', causeClass: 'Puppet::ParseError', log: { message, withNode: true }
            });
        }
        if (e instanceof EvalIssue && e.where) return evaluationError(e.code, puppetIssueOf(e.code), e.message, e.where);
        if (e instanceof RuntimeFailure || e instanceof EvalIssue) {
            return new CompileError('EVAL_PUPPET_ERROR', { message: e.message, rubyClass: 'Puppet::Error', log: { message: e.message, withNode: true } });
        }
        const unreadable = fileErrorOf(e);
        if (unreadable) {
            const rel = relative(this.env.dir, unreadable.path);
            const file = rel.startsWith('..') || isAbsolute(rel) ? unreadable.path : rel;
            const message = CatalogIssues.EVAL_FILE_UNREADABLE.message({ file, reason: `${unreadable.reason} (${unreadable.errno})` });
            return new CompileError('EVAL_FILE_UNREADABLE', { message, file, basic: message, rubyClass: 'Puppet::Error', log: { message, file } });
        }
        // Our own failure: still an error object (no stack trace), marked as internal.
        const message = CatalogIssues.EVAL_INTERNAL.message({ detail: e instanceof Error ? e.message : String(e) });
        return new CompileError('EVAL_INTERNAL', { message, rubyClass: 'modelc::InternalError', log: { message, withNode: true } });
    }

    private run(): void {
        this.loader.log = (level, message, where) => this.log(level, message, where);
        // Puppet instantiates each loaded class and define by evaluating its parameter types.
        this.loader.onDefinitions = defs => {
            for (const d of defs) {
                const typed = d.ast.params.filter(p => p.type !== undefined);
                if (typed.length === 0) continue;
                this.evaluator.registerProgram(programOf(d.ast), d.file);
                for (const p of typed) this.evaluator.evalType(p.type!, this.topScope);
            }
        };
        const files = this.env.manifests.map(m => this.loader.loadManifest(m));
        const top = this.topScope;
        for (const [k, v] of this.facts) top.setLocal(k, v);
        top.setLocal('facts', new Map(this.facts));
        top.setLocal('trusted', this.trusted);
        top.setLocal('server_facts', new Map([['environment', this.env.name]]));
        // $environment is the node's environment; an `environment` fact cannot change it (Puppet::Node#merge warns).
        top.setLocal('environment', this.env.name);
        const asked = this.facts.get('environment');
        if (asked !== undefined) {
            this.log('warning', `The node parameter 'environment' for node '${this.nodeName}' was already set to '${this.env.name}'. It could not be set to '${typeof asked === 'string' ? asked : JSON.stringify(asked)}'`);
        }
        // Code outside any module has an empty module name.
        if (!this.facts.has('module_name')) top.setLocal('module_name', '');
        // The top scope is Class[main]'s: its title and name are set as for any class.
        for (const v of ['title', 'name']) if (!this.facts.has(v)) top.setLocal(v, 'main');
        const enc = this.options.classes ?? [];
        for (const c of enc) this.catalog.classes.push(c.replace(/^::/, '').toLowerCase());
        setBoundVariables(this);
        this.ops.boot(top);
        for (const f of files) {
            this.evaluator.registerProgram(f.program, f.file);
            // Puppet's stack holds a frame of the file (line 0) while a manifest's top-level code runs.
            this.evaluator.withFrame(f.file, 0, () => this.evaluator.evalBlock(f.program.statements, top));
        }
        const nodeScope = this.ops.evaluateNode(top) ?? top;
        for (const c of enc) {
            // A class a bindings file (or the ENC) includes and that does not exist is located at its `include`.
            const at = this.loader.findClass(c.replace(/^::/, '').toLowerCase()) ? undefined : boundClassOrigin(this, c);
            if (at) throw new UserError({ severity: 'error', code: 'EVAL_CLASS_NOT_FOUND', message: CatalogIssues.EVAL_CLASS_NOT_FOUND.message({ name: c, node: this.nodeName }), at, file: at.file });
            this.ops.declareLazyClass(c, nodeScope);
        }
        this.ops.evaluateGenerators();
        applyBoundDependencies(this);
        this.ops.finish();
    }

    /** A type name as written (`Integer`, `Port`, `File`, `Mod::Entry`): core type, resource type or alias. */
    /** A Puppet setting given to this compilation (`--setting NAME=VALUE`). */
    setting(name: string): string | undefined {
        return this.options.settings?.get(name);
    }

    resolveTypeName(name: string): PAnyType {
        const key = name.replace(/^::/, '');
        const cached = this.typeCache.get(key);
        if (cached) return cached;
        let t: PAnyType | undefined = coreDataType(key);
        if (!t) {
            const lower = key.toLowerCase();
            // A resource type (a define, autoloaded if need be) wins over a type alias of the same name.
            const defined = this.loader.findDefine(lower) !== undefined;
            const alias = defined ? undefined : this.loader.findAlias(key);
            if (alias) {
                t = alias.type;
                if (alias.type.resolved === null) this.resolveAlias(alias.type, alias);
                // An alias of an Object type is the Object type, which takes the alias's name when it has none.
                const obj = alias.type.resolved;
                if (obj instanceof PObjectType) {
                    obj.name ??= alias.name;
                    t = obj;
                }
            } else {
                t = new PResourceType(capitalize(key));
            }
        }
        this.typeCache.set(key, t);
        return t;
    }

    private resolveAlias(type: PTypeAliasType, def: Definition<TypeAlias>): void {
        const ast = def.ast;
        this.evaluator.registerProgram(programOf(ast), def.file);
        this.typeCache.set(type.name, type);
        const scope = this.topScope;
        let resolved: PuppetValue;
        if (ast.typeRef) {
            const base = this.resolveTypeName(ast.typeRef.value);
            resolved = ast.keys.length ? parameterize(base, this.evaluator.evalList(ast.keys, scope)) : base;
        } else if (ast.array) {
            resolved = this.evaluator.evaluate(ast.array, scope);
        } else if (ast.hash) {
            resolved = this.evaluator.evaluate(ast.hash, scope);
        } else {
            resolved = this.evaluator.evaluate(ast.lhs, scope);
        }
        // Puppet normalizes what an alias resolves to (nested variants flattened, duplicates dropped).
        if (resolved instanceof PAnyType) type.resolved = normalizeType(resolved);
    }

    /** Whether a resource type of this name exists: a core type or a defined type. */
    isResourceType(name: string): boolean {
        if (this.knownResourceTypes.has(name)) return true;
        const n = name.replace(/^::/, '').toLowerCase();
        const found = this.resourceType(n) !== undefined || this.loader.findDefine(n) !== undefined;
        if (found) this.knownResourceTypes.add(name);
        return found;
    }

    /** Names `isResourceType` said yes to (asked for every `Type[title]` evaluated). */
    private readonly knownResourceTypes = new Set<string>();

    /** Resource types by name as asked (a type's answer never changes within a compile). */
    private readonly resourceTypes = new Map<string, CoreType | null>();

    resourceType(name: string): CoreType | undefined {
        const known = this.resourceTypes.get(name);
        if (known !== undefined) return known ?? undefined;
        const n = name.replace(/^::/, '').toLowerCase();
        const core = coreResourceType(n);
        if (core) this.plugins.coreTypeLoaded(n);
        const found = core ?? this.plugins.resourceType(n);
        // Only answers that found a type are kept: a module's Ruby type is loaded on first use, and
        // a miss may turn into a load failure that must be raised where Puppet raises it.
        if (found) this.resourceTypes.set(name, found);
        return found;
    }

    callRubyFunction(name: string, args: PuppetValue[], block: Closure | undefined, scope: Scope, where: Where): PuppetValue | undefined {
        return this.plugins.call(name, args, block, scope, where);
    }

    callRubyFunction3(name: string, args: PuppetValue[], scope: Scope, where: Where): PuppetValue | undefined {
        return this.plugins.call3(name, args, scope, where);
    }

    /** A type resolver for parseTypeString in this environment. */
    get typeResolver(): TypeNameResolver {
        // A name that is no type, alias nor resource type is unresolved (a type string makes it a TypeReference).
        return name => {
            const t = this.resolveTypeName(name);
            return t instanceof PResourceType && t.typeName !== null && !this.isResourceType(t.typeName) ? undefined : t;
        };
    }

    lookupVariable(name: string, scope: Scope): PuppetValue | undefined {
        if (name.startsWith('::')) {
            const rest = name.slice(2);
            if (!rest.includes('::')) return this.topScope.getLocal(rest);
            name = rest;
        }
        const i = name.lastIndexOf('::');
        if (i > 0) {
            const cls = name.slice(0, i).toLowerCase();
            // a class's variable not set there is looked for in the class it inherits (Puppet's
            // lookup_qualified_variable walks `inherits`), where an undef parameter counts as set
            const leaf = name.slice(i + 2);
            for (let s = this.ops.classScope(cls) ?? null; s; s = s.inherited) {
                if (s.hasLocal(leaf)) return s.getLocal(leaf);
            }
            return undefined;
        }
        return scope.lookup(name);
    }

    /**
     * `scope.lookupvar(name)` / `scope[name]` as Ruby code (templates, 3.x functions) calls it: an
     * unknown variable warns once per name, as Puppet's Scope#variable_not_found does, naming a
     * qualified variable of an existing class with a leading `::` and a missing class by reason.
     */
    scopeLookupvar(name: string, scope: Scope, where: Where | undefined, quiet = false): PuppetValue | undefined {
        const v = this.lookupVariable(name, scope);
        if (v !== undefined || quiet) return v;
        // Puppet's built-in variables and match variables always exist (undef, no warning).
        if (name === 'module_name' || name === 'caller_module_name' || /^\d+$/.test(name)) return undefined;
        const fqn = name.replace(/^::/, '');
        const i = fqn.lastIndexOf('::');
        let shown = name.startsWith('::') ? `::${fqn}` : fqn;
        let reason = '';
        if (i > 0) {
            const cls = fqn.slice(0, i).toLowerCase();
            let s = this.ops.classScope(cls);
            // Class[Settings] is always there (modelc gives it no variables)
            if (cls === 'settings') shown = `::${fqn}`;
            else if (!this.loader.findClass(cls)) reason = `class ${fqn.slice(0, i)} could not be found`;
            else if (!s) reason = `class ${fqn.slice(0, i)} has not been evaluated`;
            else {
                while (s.inherited) s = s.inherited;
                shown = `::${s.resource && s.resource.type === 'Class' ? s.resource.title.toLowerCase() : cls}::${fqn.slice(i + 2)}`;
            }
        }
        if (this.strict !== 'off') this.warnOnce(`Variable: ${shown}`, CatalogIssues.EVAL_TEMPLATE_UNDEFINED_VARIABLE.message({ name: shown, reason }), where);
        return undefined;
    }

    unknownVariable(name: string, where: Where): PuppetValue {
        if (this.strictVariables || this.strict === 'error') throw EvalIssue.of(CatalogIssues.EVAL_UNKNOWN_VARIABLE, { name }, where);
        if (this.strict !== 'off') this.log('warning', CatalogIssues.EVAL_UNKNOWN_VARIABLE.message({ name }), where);
        return null;
    }

    setVariable(scope: Scope, name: string, value: PuppetValue, where: Where): void {
        // Puppet's evaluator refuses $server_facts anywhere and $facts/$trusted where they are
        // bound (the top scope); elsewhere its scope refuses them with its own text.
        if (name === 'server_facts' || ((name === 'facts' || name === 'trusted') && scope.kind === 'top')) {
            throw EvalIssue.of(CatalogIssues.EVAL_ILLEGAL_RESERVED_ASSIGNMENT, { name }, where);
        }
        if (name === 'facts' || name === 'trusted') throw new RuntimeFailure(CatalogIssues.EVAL_SCOPE_RESERVED_ASSIGNMENT.message({ name }));
        if (scope.hasLocal(name)) {
            const builtin = (name === 'title' || name === 'name') && scope.kind !== 'local';
            throw EvalIssue.of(CatalogIssues.EVAL_ILLEGAL_REASSIGNMENT, { name, builtin }, where);
        }
        scope.setLocal(name, value);
    }

    // The catalog statements are the catalog operations' (src/catalog/ops).
    resourceExpression(e: ResourceExpression, scope: Scope, mode: DeclarationMode): PuppetValue { return this.ops.resourceExpression(e, scope, mode); }
    classResource(e: ClassResource, scope: Scope): PuppetValue { return this.ops.classResource(e, scope); }
    collect(e: CollectExpression, scope: Scope): PuppetValue { return this.ops.collect(e, scope); }
    relationship(e: RelationshipExpression, scope: Scope): PuppetValue { return this.ops.relationship(e, scope); }
    declare(typeName: string, titleValue: PuppetValue, attrs: Attr[], scope: Scope, mode: DeclarationMode, where: Where): CatalogResource | undefined {
        return this.ops.declare(typeName, titleValue, attrs, scope, mode, where);
    }
    includeClass(name: string, scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource {
        return this.ops.includeClass(name, scope, how, where);
    }

    includeClasses(names: readonly string[], scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource[] {
        return this.ops.includeClasses(names, scope, how, where);
    }
    realize(refs: PuppetValue[]): void { this.ops.realize(refs); }
    isDeclared(type: string, title: string): boolean { return this.ops.isDeclared(type, title); }

    renderOutput(s: string): void {
        const top = this.renderStack[this.renderStack.length - 1];
        if (top) top.push(s);
    }

    /** Evaluates an EPP program, collecting its output text. */
    render(f: () => void): string {
        this.renderStack.push([]);
        try {
            f();
            return (this.renderStack[this.renderStack.length - 1] ?? []).join('');
        } finally {
            this.renderStack.pop();
        }
    }

    /** Calls a function written in Puppet: typed parameters, defaults, `return`, return type. */
    callPuppetFunction(def: Definition<FunctionDefinition>, args: PuppetValue[], block: Closure | undefined, where: Where): PuppetValue {
        const f = def.ast;
        this.evaluator.registerProgram(programOf(f), def.file);
        const scope = new Scope('local', this.topScope, this.topScope.resource, '');
        scope.moduleName = def.module;
        const params = f.params;
        const required = params.filter(p => !p.value && !p.splat).length;
        const max = params.some(p => p.splat) ? Infinity : params.length;
        if (args.length < required || args.length > max) {
            throw new RuntimeFailure(CatalogIssues.EVAL_FUNCTION_ARITY.message({ name: def.name, min: required, max, count: args.length }));
        }
        // The given arguments are checked together, as one signature (several mismatches are listed under it).
        const types = params.map(p => p.type ? this.evaluator.evalType(p.type, scope) : null);
        const rejected = describeClosureCall(`'${def.name}'`, params.map((p, i) => ({ name: p.name, type: types[i], hasDefault: p.value !== undefined, splat: p.splat })), args);
        if (rejected !== undefined) throw new RuntimeFailure(rejected);
        params.forEach((p, i) => {
            let v: PuppetValue;
            if (p.splat) v = args.slice(i);
            else if (i < args.length) v = args[i];
            else v = p.value ? this.evaluator.evaluate(p.value, scope) : null;
            const t = types[i];
            if (t && !p.splat && !isInstance(t, v)) throw new RuntimeFailure(joinMismatchLines(formatMismatches(`'${def.name}' parameter '${p.name}'`, describeMismatch(t, v))));
            scope.setLocal(p.name, v);
        });
        if (block) scope.setLocal('__block', null);
        let result: PuppetValue;
        try {
            result = this.evaluator.evalBlock(f.body, scope);
        } catch (e) {
            // A return() leaves past the return type check (Puppet's closure asserts only what its
            // body, or a next(), produced).
            if (e instanceof ReturnSignal) return e.value;
            if (e instanceof NextSignal) result = e.value;
            else throw e;
        }
        if (f.returnType) {
            const t = this.evaluator.evalType(f.returnType, scope);
            if (!isInstance(t, result)) {
                throw new RuntimeFailure(joinMismatchLines(formatMismatches(`value returned from ${def.name} has wrong type,`, describeMismatch(t, result))));
            }
        }
        void where;
        return result;
    }
}

