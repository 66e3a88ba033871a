import { join } from 'node:path';
import { isDirectoryPath, pathExists, UserError, type FileSystemProvider } from '../common/index.js';
import { filesOf } from './boot.js';
import { PluginCallError, PluginFailure, PluginRuntime, SchemaRegistry, type DslTypeRegistry, type PluginModule, type PuppetBlock, type ResourceInfo, type ScopeHost } from '../ruby/index.js';
import type { CatalogResource } from './resource.js';
import { capitalize, parseTypeString } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import { titleParser, type CoreType } from './core-types.js';
import { PuppetFailure, RubyRuntimeFailure, RuntimeFailure, type Where } from './errors.js';
import type { Closure, FunctionTable } from './functions/function.js';
import { checkSignature, lambdaArity, legacyArguments } from './functions/signatures.js';
import type { CatalogRuntime, ExpressionEvaluator, LogLevel } from './runtime.js';
import type { Scope } from './scope.js';

/** What the plugins use of a compilation: its runtime, evaluator, core functions and the options they read. */
export interface PluginHost extends CatalogRuntime {
    readonly evaluator: ExpressionEvaluator;
    readonly functions: FunctionTable;
    readonly options: {
        readonly settings?: ReadonlyMap<string, string>;
        readonly typeRegistry?: (environment: string, log?: (level: LogLevel, message: string) => void) => DslTypeRegistry;
    };
}

/** Plugin code modelc cannot run: an input error located in the module's Ruby (not a Puppet failure). */
export class RubyPluginError extends UserError {}

/** The modules of a modulepath, first directory winning for a name (as Puppet's module list). */
function modulesOf(fs: FileSystemProvider, modulepath: readonly string[]): PluginModule[] {
    const out = new Map<string, PluginModule>();
    for (const dir of modulepath) {
        if (!pathExists(fs, dir)) continue;
        for (const name of fs.readdir(dir).sort()) {
            const path = join(dir, name);
            if (!out.has(name) && /^[a-z][a-z0-9_]*$/.test(name) && isDirectoryPath(fs, path)) out.set(name, { name, dir: path });
        }
    }
    return [...out.values()];
}

/**
 * The catalog side of modules' Ruby: functions and resource types found by Puppet's autoloader
 * rules in one environment's modules, run by that environment's own interpreter (src/ruby).
 */
export class RubyPlugins {
    private rt: PluginRuntime | undefined;
    /** Core types met before the Ruby runtime existed (their Ruby files are loaded in Puppet then). */
    private readonly coreTypes = new Set<string>();

    constructor(private readonly c: PluginHost) {}

    private get runtime(): PluginRuntime {
        if (!this.rt) {
            const c = this.c;
            // The apply stage's registry of this environment when the caller hands one in (one registry, two
            // front ends); else a compile-time registry of the types' attributes.
            // Its warnings (a type or attribute without desc...) are the compile's, at the manifest
            // that made Puppet autoload the type, without a line (as Puppet logs them).
            const registryLog = (level: LogLevel, message: string): void => {
                const top = this.stackTop();
                c.log(level, message, top ? { file: top.file, line: 0 } : undefined);
            };
            const registry = c.options.typeRegistry?.(c.env.name, registryLog) ?? new SchemaRegistry();
            const modules = c.loader.files.once(`modules:${c.env.modulepath.join('\0')}`, () => modulesOf(filesOf(c.env), c.env.modulepath).filter(m => !c.loader.excludedModules.has(m.name)));
            this.rt = new PluginRuntime(modules, {
                environment: c.env.name,
                parseType: (text, local) => parseTypeString(text, name => local?.(name) ?? c.resolveTypeName(name)),
                callFunction: (name, args, block, scope) => { const at = scopeOf(scope); return this.callAny(name, args, block, at.scope, at.where); },
                // A log from Ruby has no place of its own: it is reported at the innermost Puppet call (top of Puppet's stack).
                log: (level, message, source) => c.log(level === 'err' ? 'err' : level, message, this.stackTop(), source),
                setting: name => (name === 'environment' ? c.env.name : c.options.settings?.get(name)),
                warnOnce: (key, message) => c.warnOnce(`ruby:${key}`, message, this.stackTop()),
                puppetStack: () => c.evaluator.puppetStack,
                fact: name => {
                    let v: PuppetValue | undefined = c.topScope.getLocal('facts');
                    for (const key of name.split('.')) v = v instanceof Map ? v.get(key) : undefined;
                    return v;
                }
            // The autoloader probes many paths per name: through the environment's file cache.
            }, registry, c.env.dir, c.loader.files.files());
            for (const t of this.coreTypes) this.rt.coreTypeLoaded(t);
        }
        return this.rt;
    }

    private stackTop(): Where | undefined {
        const top = this.c.evaluator.puppetStack[0];
        return top ? { file: top[0], line: top[1] } : undefined;
    }

    /** The compiler met a core type: Puppet loads its Ruby file, and what that defines is there for plugin code. */
    coreTypeLoaded(name: string): void {
        if (this.coreTypes.has(name)) return;
        this.coreTypes.add(name);
        this.rt?.coreTypeLoaded(name);
    }

    /** A module's Ruby resource type, as the compiler checks resources against core types. */
    resourceType(name: string): CoreType | undefined {
        const schema = this.located(() => this.runtime.findType(name));
        if (!schema) return undefined;
        // Puppet::Resource#namevar: the key attribute when there is exactly one, else `name` (so a
        // composite key's part equal to the title stays a parameter)
        const namevar = schema.namevars.length === 1 ? schema.namevars[0] : 'name';
        return {
            namevar, attributes: new Set([namevar, ...schema.namevars, ...schema.parameters, ...schema.properties]),
            ...(schema.namevars.length === 1 && namevar !== 'name' ? { nameAlias: namevar } : {}),
            ...(schema.namevars.length > 1 ? { keyAttributes: schema.namevars } : {}),
            ...(schema.titlePatterns ? { fromTitle: titleParser(schema.titlePatterns) } : {})
        };
    }

    /**
     * Calls a module's 3.x function (`scope.function_<name>` in a template: Puppet::Parser::Functions
     * knows only those), even where a 4.x one of the name exists; undefined when there is none.
     */
    call3(name: string, args: PuppetValue[], scope: Scope, where: Where): PuppetValue | undefined {
        const rt = this.runtime;
        const fn = this.located(() => rt.findFunction3(name));
        if (!fn) return undefined;
        const host = this.scopeHost(scope, where);
        return this.located(() => rt.functions3.call(fn, args, host));
    }

    hasFunction(name: string): boolean {
        return this.located(() => this.runtime.findFunction(name)) !== undefined;
    }

    /** Calls a module's Ruby function; undefined when no module has one of this name. */
    call(name: string, args: PuppetValue[], block: Closure | PuppetBlock | undefined, scope: Scope, where: Where): PuppetValue | undefined {
        const rt = this.runtime;
        const fn = this.located(() => rt.findFunction(name));
        if (!fn) return undefined;
        const host = this.scopeHost(scope, where);
        const pblock: PuppetBlock | undefined = block && 'lambda' in block ? { ...lambdaArity(block.lambda), call: a => this.c.evaluator.callLambda(block, a) } : block;
        return this.located(() => (fn.kind === '4x' ? rt.functions4.call(fn, args, pblock, host) : rt.functions3.call(fn, args, host)));
    }

    /** `call_function` from Ruby (and a template's `scope.call_function`): any function of the environment. */
    callAny(name: string, args: PuppetValue[], block: PuppetBlock | undefined, scope: Scope, where: Where): PuppetValue {
        const c = this.c;
        const f = c.functions.get(name);
        if (f) {
            if (block) throw new RuntimeFailure(`modelc cannot pass a Ruby block to the built-in function '${name}'`);
            const given = legacyArguments(name, args);
            const argumentMismatch = checkSignature(name, given, undefined);
            return f({ scope, where, runtime: c, evaluator: c.evaluator, functions: c.functions, name, argumentMismatch, callLambda: (cl, a) => c.evaluator.callLambda(cl, a) }, given, undefined);
        }
        const def = c.loader.findFunction(name);
        if (def) return c.callPuppetFunction(def, args, undefined, where);
        const r = this.call(name, args, block, scope, where);
        if (r === undefined && !this.hasFunction(name)) throw new RuntimeFailure(`Unknown function: '${name}'.`);
        return r ?? null;
    }

    private readonly hosts = new WeakMap<Scope, ScopeHost>();
    /** The scope as Ruby sees it; one object per scope, located at the call being made. */
    private scopeHost(scope: Scope, where: Where): ScopeHost {
        let h = this.hosts.get(scope);
        if (h) {
            const entry = scopes.get(h);
            if (entry) entry.where = where;
        } else {
            const c = this.c;
            h = {
                name: `Scope(${scope.resource ? scope.resource.ref : 'Class[main]'})`,
                lookupvar: (n, quiet) => c.scopeLookupvar(n, scope, h ? scopes.get(h)?.where ?? where : where, quiet),
                setvar: (n, v) => c.setVariable(scope, n, v, h ? scopes.get(h)?.where ?? where : where),
                findResource: (type, title) => {
                    const r = c.catalog.find(capitalize(type), title);
                    return r ? infoOf(r) : undefined;
                },
                resources: () => [...c.catalog.resources.values()].map(infoOf),
                resource: () => (scope.resource ? infoOf(scope.resource) : null),
                // At the call being made now, not at the one that created this host.
                global: () => this.scopeHost(c.topScope, (h ? scopes.get(h)?.where : undefined) ?? where),
                classes: () => [...c.catalog.classes],
                defaults: type => new Map([...scope.defaultsFor(type.replace(/^::/, '').toLowerCase())].map(([k, d]) => [k, d.value]))
            };
            scopes.set(h, { scope, where });
            this.hosts.set(scope, h);
        }
        return h;
    }

    /** Plugin failures are the user's input errors: one located line, as every stage reports them. */
    private located<T>(f: () => T): T {
        try {
            return f();
        } catch (e) {
            if (e instanceof PluginFailure) {
                throw new RubyPluginError({ severity: 'error', code: e.kind, message: e.message, at: { file: e.file, line: e.line, column: e.column } });
            }
            if (e instanceof PluginCallError) throw e.escapes ? new PuppetFailure(e.message, undefined, e.rubyClass) : new RubyRuntimeFailure(e.message, e.rubyClass);
            throw e;
        }
    }
}

function infoOf(r: CatalogResource): ResourceInfo {
    return { type: r.type, title: r.title, params: new Map([...r.params].map(([k, p]) => [k, p.value])) };
}

const scopes = new WeakMap<ScopeHost, { readonly scope: Scope; where: Where }>();
function scopeOf(h: ScopeHost): { scope: Scope; where: Where } {
    const s = scopes.get(h);
    if (!s) throw new Error('a scope host of another compilation');
    return s;
}

