import { isDirectoryPath, nodeFileSystem, pathExists, type FileSystemProvider } from '../../common/index.js';
import { dirname, join, relative, resolve } from 'node:path';
import type { DslTypeRegistry as TypeRegistry, DslTypeSchema as TypeSchema } from './type-dsl.js';
import { PObjectValue, type PuppetValue } from '../../values/index.js';
import type { RNode } from '../ast.js';
import { Frame } from '../frame.js';
import { Interpreter } from '../interpreter.js';
import { Classes, Exceptions, Kernel, ObjectClass, RClass, RObject, RubyError, rubyError, type RValue } from '../objects.js';
import { parseRuby } from '../program.js';
import { PluginCallError, PluginFailure, type PluginHost, type PluginModule, type ScopeHost } from './host.js';
import { PuppetErrors, puppetNamespace, type PuppetNamespace } from './namespace.js';
import { Functions4, type Function4 } from './functions4.js';
import { Functions3, type Function3 } from './functions3.js';
import { defineTypes } from './types.js';
import { objectMethod, toPuppet } from './convert.js';
import { RUBY_LIBRARIES } from './ruby-libraries.js';

type ParsedFile = { mtime: number; program: RNode[]; text: string } | { mtime: number; error: RubyError };

/** Parsed plugin files per source of files, shared by every runtime (an AST is never changed by running it). */
const parsedFiles = new WeakMap<FileSystemProvider, Map<string, ParsedFile>>();

function parseFile(fs: FileSystemProvider, path: string): { program: RNode[]; text: string } {
    const mtime = fs.stat(path)?.mtimeMs ?? 0;
    // A caching view of a source of files (ParsedFileCache.files()) shares its source's parses.
    const source = (fs as { readonly base?: FileSystemProvider }).base ?? fs;
    let files = parsedFiles.get(source);
    if (!files) parsedFiles.set(source, files = new Map());
    let entry = files.get(path);
    if (!entry || entry.mtime !== mtime) {
        try {
            const text = fs.readText(path);
            entry = { mtime, program: parseRuby(text), text };
        } catch (e) {
            if (!(e instanceof RubyError)) throw e;
            entry = { mtime, error: e };
        }
        files.set(path, entry);
    }
    if ('error' in entry) throw entry.error;
    return entry;
}

/** Ruby libraries plugin code requires that need no file here (their classes are built in, or unused at compile time). */
const BUILTIN_FEATURES = /^(puppet|open-uri|hocon|hocon\/.*|puppet\/.*|json|yaml|set|pathname|tempfile|fileutils|digest.*|openssl|securerandom|base64|uri|ipaddr|time|date|etc|erb|shellwords|English|open3|timeout|socket|resolv|net\/.*|zlib|csv|ostruct|forwardable|singleton|logger|stringio|strscan|rubygems|bigdecimal.*|puppet_x|semantic_puppet.*|hiera.*|facter|win32.*|augeas|rexml.*|optparse|benchmark|monitor|thread|enumerator|delegate|observer|find|tmpdir|cgi|uri\/.*|ipaddress|English|pp|prettyprint|weakref|digest\/.*)$/;

export interface PluginRuntimeOptions {
    /**
     * Whether a plain `require` finds files in the modules' `lib` directories. A compiling Puppet
     * has only its own and Ruby's libraries (and its libdir) on `$LOAD_PATH`, so there it fails
     * ("cannot load such file") unless plugin code put its directory on `$LOAD_PATH` itself; an
     * agent after pluginsync has every module's lib in its libdir.
     */
    readonly moduleLibsOnLoadPath?: boolean;
}

/**
 * The Ruby plugin code of one environment: its modules' functions (4.x and 3.x API) and resource
 * types, loaded by Puppet's autoloader rules into one interpreter that belongs to this
 * environment alone. Two environments never share a class, a method or a constant.
 */
export class PluginRuntime {
    readonly interp: Interpreter;
    readonly ns: PuppetNamespace;
    private readonly loaded = new Set<string>();
    private readonly scopes: ScopeHost[] = [];
    readonly functions4: Functions4;
    readonly functions3: Functions3;
    private readonly main: RObject;
    private readonly loadPath: RValue[] = [];
    /** Nesting of guarded entries (Puppet calling Ruby calling Puppet calling Ruby...). */
    private entered = 0;

    /** Function names whose 4.x files were looked for. */
    private readonly searched4 = new Set<string>();
    /** The built-in Ruby libraries already run in this runtime. */
    private readonly libraries = new Set<string>();

    constructor(
        readonly modules: readonly PluginModule[], readonly host: PluginHost, readonly registry: TypeRegistry, readonly envDir: string,
        readonly fs: FileSystemProvider = nodeFileSystem, readonly options: PluginRuntimeOptions = {}
    ) {
        this.main = new RObject(ObjectClass, 'main');
        const stubs = new Map<string, RClass>();
        this.ns = puppetNamespace(this);
        this.interp = new Interpreter({
            self: this.main,
            dynamic: (obj, name, args, block) => (obj instanceof PObjectValue ? objectMethod(obj, name, args, block) : this.ns.dynamic(obj, name, args)),
            constants: this.ns.constants,
            constMissing: path => {
                const library = RUBY_LIBRARIES.get(path);
                if (library && !this.libraries.has(library.file)) {
                    this.libraries.add(library.file);
                    this.interp.runBody(parseRuby(library.source), new Frame(null, this.interp.topContext(library.file)));
                    return this.interp.topConstants.get(path);
                }
                if (this.ns.notYetLoaded(path)) return undefined;
                // Puppet's own classes modelc does not model are empty modules: naming them works, calling them fails.
                if (!/^(Puppet|PuppetX|Puppet_X|Facter|SemanticPuppet|Hiera)(::|$)/.test(path)) return undefined;
                let c = stubs.get(path);
                if (!c) stubs.set(path, c = new RClass(path, ObjectClass));
                return c;
            }
        });
        this.functions4 = new Functions4(this);
        this.functions3 = new Functions3(this);
        this.interp.defineMethod(Kernel, 'require', (_s, args) => this.require(this.interp.toS(args[0] ?? null)));
        this.interp.defineMethod(Kernel, 'require_relative', (_s, args) => this.requireRelative(this.interp.toS(args[0] ?? null)));
        this.interp.defineMethod(Kernel, 'load', (_s, args) => this.require(this.interp.toS(args[0] ?? null)));
        for (const [n, m] of Object.entries(this.ns.fileStatics)) this.interp.defineMethod(Classes.File, n, m, true);
        // $LOAD_PATH: code adds directories of its own module; `require` looks there after the modules' lib.
        this.interp.setGlobal('$LOAD_PATH', this.loadPath);
        this.interp.setGlobal('$:', this.loadPath);
        defineTypes(this);
    }

    /** Reads a file of the environment (its directory or a module's); anything else is refused. */
    readFile(path: string): string {
        const abs = this.inside(path);
        if (!pathExists(this.fs, abs)) throw new RubyError(Exceptions.SystemCallError, `No such file or directory @ rb_sysopen - ${path}`);
        return this.fs.readText(abs);
    }

    fileExists(path: string): boolean {
        const abs = resolve(this.envDir, path);
        return this.isInside(abs) && pathExists(this.fs, abs);
    }

    /**
     * `Dir.glob` inside the environment (sorted, as Ruby 3 gives it); a pattern reaching outside
     * it is refused as File.read is: modelc never reads the host it runs on.
     */
    glob(pattern: string): string[] {
        const abs = resolve(this.envDir, pattern);
        const fixed = abs.split('/');
        const wild = fixed.findIndex(s => /[*?[{]/.test(s));
        const base = (wild < 0 ? fixed : fixed.slice(0, wild)).join('/') || '/';
        if (!this.isInside(base)) {
            const e = rubyError('SecurityError', `Dir.glob of ${pattern} is not allowed: plugin code may read only the environment's files`);
            e.unsupported = 'Dir.glob outside the environment';
            throw e;
        }
        return this.fs.glob(abs).sort();
    }

    dirExists(path: string): boolean {
        const abs = resolve(this.envDir, path);
        return this.isInside(abs) && isDirectoryPath(this.fs, abs);
    }

    isInside(abs: string): boolean {
        return [this.envDir, ...this.modules.map(m => m.dir)].some(d => abs === resolve(d) || abs.startsWith(`${resolve(d)}/`));
    }

    private inside(path: string): string {
        const abs = resolve(this.envDir, path);
        if (!this.isInside(abs)) {
            const e = rubyError('SecurityError', `File.read of ${path} is not allowed: plugin code may read only the environment's files`);
            e.unsupported = 'File.read outside the environment';
            throw e;
        }
        return abs;
    }

    /** The innermost Puppet scope a call came from (`closure_scope`, the 3.x `self`). */
    currentScope(): ScopeHost {
        const s = this.scopes[this.scopes.length - 1];
        if (!s) throw rubyError('RuntimeError', 'no scope: the function is not being called from Puppet code');
        return s;
    }

    withScope<T>(scope: ScopeHost, f: () => T): T {
        this.scopes.push(scope);
        try { return f(); } finally { this.scopes.pop(); }
    }

    // ---- files ----

    /** A path relative to the environment, as errors print it. */
    rel(path: string): string {
        const r = relative(this.envDir, path);
        return r.startsWith('..') ? path : r;
    }

    /** Runs a plugin file once; its errors are located at the file. */
    loadFile(path: string): void {
        const abs = resolve(path);
        if (this.loaded.has(abs)) return;
        this.loaded.add(abs);
        this.guard(() => {
            const { program, text } = parseFile(this.fs, abs);
            this.interp.registerSource(abs, text);
            this.interp.runBody(program, new Frame(null, this.interp.topContext(abs)));
        }, abs);
    }

    /** `require 'x/y'`: x/y.rb in a module's lib (the first module that has it), or a built-in library. */
    require(feature: string): boolean {
        const name = feature.replace(/\.rb$/, '');
        if (name.startsWith('/')) {
            const path = `${name}.rb`;
            if (!this.isInside(path) || !pathExists(this.fs, path)) throw rubyError('LoadError', `cannot load such file -- ${feature}`);
            const fresh = !this.loaded.has(path);
            this.loadFile(path);
            return fresh;
        }
        if (this.options.moduleLibsOnLoadPath) {
            for (const m of this.modules) {
                const path = join(m.dir, 'lib', `${name}.rb`);
                if (pathExists(this.fs, path)) {
                    const fresh = !this.loaded.has(resolve(path));
                    this.loadFile(path);
                    return fresh;
                }
            }
        }
        for (const dir of this.loadPath) {
            if (typeof dir !== 'string') continue;
            const path = resolve(dir, `${name}.rb`);
            if (this.isInside(path) && pathExists(this.fs, path)) {
                const fresh = !this.loaded.has(path);
                this.loadFile(path);
                return fresh;
            }
        }
        // Puppet's own files (`puppet/...`; Puppet ships no `puppet_x/...`), unless it is a module's
        // file (no module ships a file of Puppet's name).
        const inModule = this.modules.some(m => pathExists(this.fs, join(m.dir, 'lib', `${name}.rb`)));
        if (!inModule && (BUILTIN_FEATURES.test(name) || /^puppet\//.test(name))) {
            this.ns.puppetFileLoaded(name);
            return false;
        }
        throw rubyError('LoadError', `cannot load such file -- ${feature}`);
    }

    private requireRelative(feature: string): boolean {
        const from = this.interp.file;
        if (!from) throw rubyError('LoadError', 'cannot infer basepath');
        const base = dirname(from);
        const path = resolve(base, feature.endsWith('.rb') ? feature : `${feature}.rb`);
        if (!pathExists(this.fs, path)) throw rubyError('LoadError', `cannot load such file -- ${path}`);
        const fresh = !this.loaded.has(path);
        this.loadFile(path);
        return fresh;
    }

    /**
     * Runs plugin code: a Ruby error that escapes it becomes a located failure (for load
     * problems) or is left to the caller; unsupported constructs, refused host calls and runaway
     * code are always located failures.
     */
    guard<T>(f: () => T, file: string, calling = false): T {
        if (this.entered++ === 0) this.interp.resetSteps();
        try {
            return f();
        } catch (e) {
            if (e instanceof PluginFailure || e instanceof PluginCallError) throw e;
            if (!(e instanceof RubyError)) throw e;
            const where = this.rel(e.file ?? file);
            const line = e.line ?? 1;
            const col = e.col ?? 1;
            if (e.unsupported !== undefined && e.cls.isSubclassOf(Exceptions.SecurityError)) throw new PluginFailure('RUBY_FORBIDDEN', e.message, where, line, col);
            if (e.unsupported !== undefined) throw new PluginFailure('RUBY_UNSUPPORTED', `${e.unsupported} is not supported by modelc's Ruby interpreter`, where, line, col);
            if (e.cls === Exceptions.SystemStackError) throw new PluginFailure('RUBY_LIMIT', e.message, where, line, col);
            if (e.cls === Exceptions.ScriptError) throw new PluginFailure('RUBY_SYNTAX', e.message, where, line, col);
            // Puppet too fails to load a file whose `require` finds nothing: its LoadError is Puppet's error, not modelc's.
            if (calling || e.cls.isSubclassOf(Exceptions.LoadError) || this.notYetLoaded(e)) throw new PluginCallError(e.message, e.cls.name, !e.cls.isSubclassOf(Exceptions.StandardError));
            const raised = e.cls.isSubclassOf(PuppetErrors.Error) ? { rubyClass: e.cls.name, message: e.message } : undefined;
            throw new PluginFailure('RUBY_LOAD', `${e.cls.name}: ${e.message}`, where, line, col, raised);
        } finally {
            this.entered--;
        }
    }

    /** A NameError for a class of Puppet's that no file has defined yet: Puppet's own failure, not a gap of modelc's. */
    private notYetLoaded(e: RubyError): boolean {
        const m = e.cls === Exceptions.NameError ? /^uninitialized constant (\S+)/.exec(e.message) : null;
        return m !== null && this.ns.notYetLoaded(m[1]);
    }

    // ---- autoloading ----

    /** Puppet's loader paths for a function name: 4.x `lib/puppet/functions/<ns>/<name>.rb`, then 3.x. */
    findFunction(name: string): Function4 | Function3 | undefined {
        const n = name.replace(/^::/, '').toLowerCase();
        // A 3.x function already loaded (scope.function_x) does not hide a 4.x one of the name not yet loaded.
        const known = this.functions4.get(n) ?? (this.searched4.has(n) ? this.functions3.get(n) : undefined);
        if (known) return known;
        this.searched4.add(n);
        const segs = n.split('::');
        if (segs.length > 1) {
            // `environment::` names are the environment's own: its loader reads the environment directory's lib/.
            const dir = segs[0] === 'environment' ? this.envDir : this.modules.find(m => m.name === segs[0])?.dir;
            if (dir !== undefined) this.tryLoad(join(dir, 'lib', 'puppet', 'functions', ...segs) + '.rb');
        } else {
            for (const m of this.modules) {
                this.tryLoad(join(m.dir, 'lib', 'puppet', 'functions', `${n}.rb`));
                if (this.functions4.get(n)) break;
            }
            if (!this.functions4.get(n)) {
                for (const m of this.modules) {
                    this.tryLoad(join(m.dir, 'lib', 'puppet', 'parser', 'functions', `${n}.rb`));
                    if (this.functions3.get(n)) break;
                }
            }
        }
        return this.functions4.get(n) ?? this.functions3.get(n);
    }

    /** A 3.x function only (`scope.function_x`, Puppet::Parser::Functions), even where a 4.x one of the name exists. */
    findFunction3(name: string): Function3 | undefined {
        const n = name.replace(/^::/, '').toLowerCase();
        const known = this.functions3.get(n);
        if (known || n.includes('::')) return known;
        for (const m of this.modules) {
            this.tryLoad(join(m.dir, 'lib', 'puppet', 'parser', 'functions', `${n}.rb`));
            if (this.functions3.get(n)) break;
        }
        return this.functions3.get(n);
    }

    /** The compiler met a core type (Puppet loads its Ruby file then): what that file defines appears. */
    coreTypeLoaded(name: string): void {
        this.ns.puppetFileLoaded(`puppet/type/${name}`);
    }

    /** A module's resource type, from `lib/puppet/type/<name>.rb`. */
    findType(name: string): TypeSchema | undefined {
        const n = name.toLowerCase();
        const known = this.registry.schema(n);
        if (known) return known;
        if (!/^[a-z][a-z0-9_]*$/.test(n)) return undefined;
        for (const m of this.modules) {
            try {
                this.tryLoad(join(m.dir, 'lib', 'puppet', 'type', `${n}.rb`));
                if (this.registry.schema(n)) this.loadProviders(n);
            } catch (e) {
                // Puppet's autoloader turns a type file's load failure into a Puppet::Error, and logs
                // it: a failed require, a Puppet class not yet loaded, or a Puppet::Error the file
                // raised (register_type's checks: "`x` is not a valid behaviour value").
                const cause = e instanceof PluginFailure ? e.raised?.message : e instanceof PluginCallError && (e.rubyClass === 'LoadError' || e.rubyClass === 'NameError') ? e.message : undefined;
                if (cause === undefined) throw e;
                const message = `Could not autoload puppet/type/${n}: ${cause}`;
                this.host.log('err', message);
                throw new PluginCallError(message, 'Puppet::Error');
            }
            const t = this.registry.schema(n);
            if (t) return t;
        }
        return undefined;
    }

    /**
     * Puppet's `newtype` loads every provider of the type (`puppet/provider/<type>/*.rb`, each name
     * once, from the first module that has it), so a provider whose `require` fails fails the
     * type's autoload. A provider that needs what modelc's interpreter does not run is not needed
     * to compile: only a load error, which Puppet would meet too, stops the type.
     */
    private loadProviders(type: string): void {
        const seen = new Set<string>();
        for (const m of this.modules) {
            const dir = join(m.dir, 'lib', 'puppet', 'provider', type);
            if (!pathExists(this.fs, dir)) continue;
            for (const f of this.fs.readdir(dir).filter(x => x.endsWith('.rb')).sort()) {
                if (seen.has(f)) continue;
                seen.add(f);
                try {
                    this.loadFile(join(dir, f));
                } catch (e) {
                    if (e instanceof PluginFailure) continue;
                    if (!(e instanceof PluginCallError) || e.rubyClass !== 'LoadError') throw e;
                    const message = `Could not autoload puppet/provider/${type}/${f.slice(0, -3)}: ${e.message}`;
                    this.host.log('err', message);
                    throw new PluginCallError(message, 'LoadError');
                }
            }
        }
    }

    /** One provider file, from the first module that has it (`Puppet::Type.type(:x).provider(:y)`). */
    loadProvider(type: string, name: string): void {
        const m = this.modules.find(x => pathExists(this.fs, join(x.dir, 'lib', 'puppet', 'provider', type, `${name}.rb`)));
        if (m) this.loadFile(join(m.dir, 'lib', 'puppet', 'provider', type, `${name}.rb`));
    }

    /** Whether a module ships providers for a type (`lib/puppet/provider/<type>/*.rb`). */
    hasProviders(type: string): boolean {
        return this.modules.some(m => {
            const dir = join(m.dir, 'lib', 'puppet', 'provider', type);
            return pathExists(this.fs, dir) && this.fs.readdir(dir).some(f => f.endsWith('.rb'));
        });
    }

    private tryLoad(path: string): void {
        if (pathExists(this.fs, path)) this.loadFile(path);
    }

    /** Runs a value conversion from Ruby back to Puppet. */
    toPuppet(v: RValue): PuppetValue {
        return toPuppet(v);
    }

    /** `Puppet::ParseError` and friends as the class name Puppet reports. */
    static errorClassName(e: RubyError): string {
        return e.cls.name;
    }
}

export { Classes };
