import { join, relative, sep } from 'node:path';
import type { AstNode } from 'langium';
import type {
    ClassDefinition, DefineDefinition, Expression, FunctionDefinition, NodeDefinition, Program, TypeAlias
} from '../../generated/langium/ast.js';
import { decodeUtf8, isUserError, type FileSystemProvider } from '../common/index.js';
import { moduleListing, type ModuleMetadataProblem } from '../values/index.js';
import { ParsedFileCache } from '../parse/index.js';
import { PTypeAliasType } from '../types/index.js';
import { filesOf, type Environment } from './boot.js';
import { CompileError, whereSuffix, type Where } from './errors.js';
import { whereOf } from './evaluator/ast-util.js';
import { CatalogIssues } from './issues.js';

export interface Definition<T extends AstNode> {
    readonly name: string;
    readonly ast: T;
    /** The file, relative to the environment directory. */
    readonly file: string;
    /** The module the file belongs to ('' for the environment's manifests). */
    readonly module: string;
}

export interface LoadedFile {
    readonly file: string;
    readonly program: Program;
    readonly text: string;
}

export interface TypeAliasDefinition extends Definition<TypeAlias> {
    readonly type: PTypeAliasType;
}

/** Puppet's max_warnings and max_errors settings (their defaults). */
const MAX_ISSUES = 10;

/** Parser issue codes as Puppet names them. */
/** Errors Puppet's parser raises from its grammar's actions rather than through an issue. */
/** Ruby's NoMethodError (with its error_highlight lines) raised by Puppet's lexer for a heredoc in a heredoc's interpolation. */
const LOCATOR_FAILURE = "undefined method `+' for nil:NilClass\n\n      offset_on_line(offset) +1\n                             ^";

const GRAMMAR_ACTION_ERRORS: ReadonlySet<string> = new Set(['PARSE_VIRTUAL_NOT_RESOURCE', 'PARSE_EXPORTED_NOT_RESOURCE']);

/** The validator's reports of heredoc syntax checkers (Puppet raises them at once). */
const RAISED_BY_CHECKERS: ReadonlySet<string> = new Set(['VALIDATE_ILLEGAL_JSON', 'VALIDATE_ILLEGAL_BASE64', 'VALIDATE_ILLEGAL_PP', 'VALIDATE_ILLEGAL_EPP', 'VALIDATE_SYNTAX_CHECKER_REFUSED']);

function puppetIssueCode(code: string): string {
    if (code === 'PARSE_SYNTAX_ERROR' || code === 'PARSE_ILLEGAL_CHARACTER' || code === 'PARSE_KEYWORD_ENTRY_NOT_ALLOWED') return 'SYNTAX_ERROR';
    return code.replace(/^(PARSE|VALIDATE)_/, '');
}

/**
 * Loads manifests and registers their named definitions (classes, defines, functions, type
 * aliases, nodes) before any body runs; autoloads the others from modules by name (Puppet's
 * 4.x loaders): `mod::a::b` from `mod/manifests/a/b.pp`, then the files of its parent
 * namespaces; a file may only define names below its own path.
 */
export class Loader {
    readonly classes = new Map<string, Definition<ClassDefinition>>();
    readonly defines = new Map<string, Definition<DefineDefinition>>();
    readonly functions = new Map<string, Definition<FunctionDefinition>>();
    readonly aliases = new Map<string, TypeAliasDefinition>();
    readonly nodes: Array<Definition<NodeDefinition>> = [];
    private readonly loaded = new Map<string, LoadedFile | null>();
    /** Called for each type alias registered, so its body can be resolved lazily. */
    environmentName = 'production';
    /** Puppet's `strict` setting (off, warning, error). */
    strict = 'warning';
    /**
     * Called with the classes and defines of each file as it is loaded: Puppet instantiates a
     * definition by evaluating its parameter types then, so a bad one fails when its file loads.
     */
    onDefinitions: ((defs: ReadonlyArray<Definition<ClassDefinition | DefineDefinition>>) => void) | undefined;
    /** Where the warnings of a parse (and the errors of a validation that gives up) are logged. */
    log: ((level: 'warning' | 'err', message: string, where: Where | undefined) => void) | undefined;

    /** The environment's source of files (templates and files of modules are read through it too). */
    readonly fs: FileSystemProvider;
    /** The environment's file cache, or one of this loader's own. */
    readonly files: ParsedFileCache;

    constructor(readonly env: Environment) {
        this.fs = filesOf(env);
        this.files = env.files ?? new ParsedFileCache(this.fs);
    }

    rel(path: string): string {
        return relative(this.env.dir, path);
    }

    /** Parses a file (cached); parse or validation errors fail the compile as Puppet does. */
    parse(path: string, epp = false): LoadedFile {
        const cached = this.loaded.get(path);
        if (cached) return cached;
        const file = this.rel(path);
        const { text, result } = this.files.parse(path, { epp, display: file, compact: true, decode: bytes => this.decode(bytes, file) });
        // Puppet's IssueReporter: the warnings first (at most max_warnings, 10), then one error as
        // it is, or several logged one by one (at most max_errors, 10) and given up on.
        // Puppet's validator gives a duplicate hash key the severity of the strict setting.
        const all = result.diagnostics.flatMap(d => d.code !== 'VALIDATE_DUPLICATE_KEY' ? [d]
            : this.strict === 'off' ? [] : this.strict === 'error' ? [{ ...d, severity: 'error' as const }] : [d]);
        // A heredoc's syntax checker raises in the middle of validation: the first such failure is
        // the only error, and what the validator found besides it is never reported.
        const raised = all.find(d => d.severity === 'error' && RAISED_BY_CHECKERS.has(d.code));
        const diagnostics = raised ? all.filter(d => d === raised || !d.code.startsWith('VALIDATE_')) : all;
        const warnings = diagnostics.filter(d => d.severity === 'warning');
        // A warning of a heredoc's own text (file '') is placed by its line in that text only.
        for (const w of warnings.slice(0, MAX_ISSUES)) this.log?.('warning', w.message, w.at ? { file: w.file === '' ? '' : file, line: w.at.line } : undefined);
        const errors = diagnostics.filter(d => d.severity === 'error');
        const refused = errors.find(d => d.code === 'VALIDATE_SYNTAX_CHECKER_REFUSED');
        if (refused) {
            // Puppet's checker raised an ArgumentError in the middle of validation: no location, no issue.
            const message = CatalogIssues.EVAL_SYNTAX.message({ environment: this.environmentName, detail: refused.message, location: '' });
            throw new CompileError('EVAL_SYNTAX', { message, rubyClass: 'Puppet::Error', log: { message, withNode: true } });
        }
        if (errors.length > 1 && errors.every(d => d.code.startsWith('VALIDATE_'))) {
            for (const e of errors.slice(0, MAX_ISSUES)) this.log?.('err', e.message, e.at ? { file, line: e.at.line } : undefined);
            const basic = warnings.length > 0
                ? CatalogIssues.EVAL_VALIDATION_GIVING_UP_WARNINGS.message({ errors: errors.length, warnings: warnings.length })
                : CatalogIssues.EVAL_VALIDATION_GIVING_UP.message({ errors: errors.length });
            throw new CompileError('EVAL_SYNTAX', {
                message: CatalogIssues.EVAL_SYNTAX.message({ environment: this.environmentName, detail: basic, location: ` (file: ${file})` }),
                file, basic, rubyClass: 'Puppet::ParseErrorWithIssue', log: { message: basic, file }
            });
        }
        const error = errors[0];
        if (error) {
            const at = error.at;
            // The parser's "end of input" has no position (a checker's message quoting one does).
            const endOfInput = !error.code.startsWith('VALIDATE_') && /end of input/.test(error.message);
            const where: Where | undefined = at && !endOfInput ? { file, line: at.line, column: at.column } : undefined;
            const loc = where ? ` (file: ${file}, line: ${where.line}, column: ${where.column})` : ` (file: ${file})`;
            if (error.code === 'PARSE_NUMBER_NOT_VALID' || error.code === 'PARSE_HEREDOC_IN_HEREDOC') {
                // Ruby errors raised under the parser (its action, its lexer's locator): Puppet's message and report name no location.
                const detail = error.code === 'PARSE_NUMBER_NOT_VALID' ? error.message : LOCATOR_FAILURE;
                const message = CatalogIssues.EVAL_SYNTAX.message({ environment: this.environmentName, detail, location: '' });
                throw new CompileError('EVAL_SYNTAX', { message, at: where, rubyClass: 'Puppet::Error', log: { message, withNode: true } });
            }
            if (GRAMMAR_ACTION_ERRORS.has(error.code)) {
                // Raised by an action of Puppet's grammar: a plain ParseError, with no issue code.
                const message = CatalogIssues.EVAL_SYNTAX.message({ environment: this.environmentName, detail: error.message, location: loc });
                throw new CompileError('EVAL_SYNTAX', {
                    message, file, line: where?.line, pos: where?.column, rubyClass: 'Puppet::Error', causeClass: 'Puppet::ParseError', log: { message, withNode: true }
                });
            }
            throw new CompileError('EVAL_SYNTAX', {
                message: CatalogIssues.EVAL_SYNTAX.message({ environment: this.environmentName, detail: error.message, location: loc }),
                file, line: where?.line, pos: where?.column, issueCode: puppetIssueCode(error.code), basic: error.message,
                rubyClass: 'Puppet::ParseErrorWithIssue', log: { message: error.message, file, line: where?.line }
            });
        }
        const loaded = { file, program: result.ast, text };
        this.loaded.set(path, loaded);
        return loaded;
    }

    /**
     * A module manifest the autoloader reads when a class or define is first asked for: Puppet
     * reports its parse and validation errors as they are, without the "Could not parse for
     * environment" of the manifests read when the environment loads.
     */
    private autoloaded(path: string): LoadedFile {
        try {
            return this.parse(path);
        } catch (e) {
            const prefix = `Could not parse for environment ${this.environmentName}: `;
            if (!(e instanceof CompileError) || !e.report.message.startsWith(prefix)) throw e;
            const strip = (m: string): string => (m.startsWith(prefix) ? m.slice(prefix.length) : m);
            throw new CompileError(e.code, { ...e.report, message: strip(e.report.message), ...(e.report.log ? { log: { ...e.report.log, message: strip(e.report.log.message) } } : {}) });
        }
    }

    /** Puppet refuses a manifest that is not UTF-8 (Ruby's "invalid byte sequence in UTF-8"). */
    private decode(bytes: Uint8Array, file: string): string {
        try {
            return decodeUtf8(bytes, file, 'EVAL_SYNTAX');
        } catch (e) {
            const at = isUserError(e) ? e.diagnostics[0]?.at : undefined;
            const message = 'invalid byte sequence in UTF-8';
            throw new CompileError('EVAL_SYNTAX', {
                message: `Could not parse for environment ${this.environmentName}: ${message}`,
                file, line: at?.line, pos: at?.column, basic: message, rubyClass: 'Puppet::Error', log: { message, file, line: at?.line }
            });
        }
    }

    /** Loads a main manifest: registers its definitions (redefinitions fail). */
    loadManifest(path: string): LoadedFile {
        const loaded = this.parse(path);
        this.registerFile(loaded, '', null);
        return loaded;
    }

    private registerFile(loaded: LoadedFile, module: string, expected: string[] | null): void {
        const defs: Array<Definition<ClassDefinition | DefineDefinition>> = [];
        this.register(loaded.program.statements, loaded.file, module, '', expected, defs);
        this.onDefinitions?.(defs);
    }

    private register(statements: readonly Expression[], file: string, module: string, namespace: string, expected: string[] | null,
        defs: Array<Definition<ClassDefinition | DefineDefinition>>): void {
        for (const s of statements) {
            switch (s.$type) {
                case 'ClassDefinition': {
                    const name = qualify(s.name, namespace);
                    this.checkLocation(name, s, file, expected);
                    const def = { name, ast: s, file, module };
                    this.refuseOtherKind(this.defines, def, 'EVAL_DEFINE_REDEFINED_AS_CLASS');
                    this.add(this.classes, 'Class', def);
                    defs.push(def);
                    this.register(s.body, file, module, name, expected, defs);
                    break;
                }
                case 'DefineDefinition': {
                    const name = qualify(s.name, namespace);
                    this.checkLocation(name, s, file, expected);
                    const def = { name, ast: s, file, module };
                    this.refuseOtherKind(this.classes, def, 'EVAL_CLASS_REDEFINED_AS_DEFINE');
                    this.addEntity(this.defines, 'type', def);
                    defs.push(def);
                    break;
                }
                case 'FunctionDefinition': {
                    const name = s.name.replace(/^::/, '').toLowerCase();
                    this.addEntity(this.functions, 'function', { name, ast: s, file, module });
                    break;
                }
                case 'NodeDefinition':
                    this.addNode({ name: '', ast: s, file, module });
                    break;
                case 'TypeAlias': {
                    const name = aliasName(s);
                    if (name !== undefined && !this.aliases.has(name.toLowerCase())) {
                        this.aliases.set(name.toLowerCase(), { name, ast: s, file, module, type: new PTypeAliasType(name) });
                    }
                    break;
                }
                default:
                    break;
            }
        }
    }

    private checkLocation(name: string, node: AstNode, file: string, expected: string[] | null): void {
        if (expected === null) return;
        const segs = name.split('::');
        if (expected.length <= segs.length && expected.every((e, i) => e === segs[i])) return;
        const where = whereOf(node, file);
        const basic = CatalogIssues.EVAL_ILLEGAL_DEFINITION_LOCATION.message({ name, file });
        throw new CompileError('EVAL_ILLEGAL_DEFINITION_LOCATION', {
            message: basic + whereSuffix(where), file, line: where.line, pos: where.column, issueCode: 'ILLEGAL_DEFINITION_LOCATION', basic,
            rubyClass: 'Puppet::ParseErrorWithIssue', log: { message: basic, file, line: where.line }
        });
    }

    private add<T extends AstNode>(map: Map<string, Definition<T>>, what: string, def: Definition<T>): void {
        const prev = map.get(def.name);
        if (prev && prev.ast !== def.ast) {
            const at = whereOf(def.ast, def.file);
            const was = whereOf(prev.ast, prev.file);
            const msg = CatalogIssues.EVAL_ALREADY_DEFINED.message({ what, name: def.name, previous: { file: prev.file, line: was.line }, file: def.file, line: at.line });
            throw new CompileError('EVAL_PUPPET_ERROR', {
                message: msg, file: def.file, line: at.line, rubyClass: 'Puppet::Error', causeClass: 'Puppet::ParseError',
                log: { message: msg, withNode: true }
            });
        }
        map.set(def.name, def);
    }

    /** A class and a define share Puppet's type collection: a name is one or the other. */
    private refuseOtherKind<T extends AstNode>(other: Map<string, Definition<T>>, def: Definition<AstNode>, code: 'EVAL_DEFINE_REDEFINED_AS_CLASS' | 'EVAL_CLASS_REDEFINED_AS_DEFINE'): void {
        const prev = other.get(def.name);
        if (!prev) return;
        const at = whereOf(def.ast, def.file);
        const was = whereOf(prev.ast, prev.file);
        const msg = CatalogIssues[code].message({ name: def.name, previous: { file: prev.file, line: was.line }, file: def.file, line: at.line });
        throw new CompileError('EVAL_PUPPET_ERROR', {
            message: msg, file: def.file, line: at.line, rubyClass: 'Puppet::Error', causeClass: 'Puppet::ParseError', log: { message: msg, withNode: true }
        });
    }

    /** Defines and functions live in Puppet's 4.x loaders, which word a redefinition this way. */
    private addEntity<T extends AstNode>(map: Map<string, Definition<T>>, kind: 'type' | 'function', def: Definition<T>): void {
        const prev = map.get(def.name);
        if (prev && prev.ast !== def.ast) {
            const was = whereOf(prev.ast, prev.file);
            const msg = CatalogIssues.EVAL_ENTITY_REDEFINED.message({ kind, name: def.name, file: prev.file, line: was.line, pos: was.column });
            throw new CompileError('EVAL_PUPPET_ERROR', { message: msg, rubyClass: 'Puppet::Error', log: { message: msg, withNode: true } });
        }
        map.set(def.name, def);
    }

    /** A node name (or regexp, or default) may be defined once. */
    private addNode(def: Definition<NodeDefinition>): void {
        const names = def.ast.hosts.map(h => h.$type === 'RegexLiteral' ? `/${h.value}/` : h.$type === 'DefaultLiteral' ? 'default'
            : 'value' in h && typeof h.value === 'string' ? h.value.toLowerCase() : '');
        for (const prev of this.nodes) {
            const prevNames = prev.ast.hosts.map(h => h.$type === 'RegexLiteral' ? `/${h.value}/` : h.$type === 'DefaultLiteral' ? 'default'
                : 'value' in h && typeof h.value === 'string' ? h.value.toLowerCase() : '');
            const dup = names.find(n => n !== '' && prevNames.includes(n));
            if (dup !== undefined) {
                const at = whereOf(def.ast, def.file);
                const was = whereOf(prev.ast, prev.file);
                const msg = CatalogIssues.EVAL_ALREADY_DEFINED.message({ what: 'Node', name: dup, previous: { file: prev.file, line: was.line }, file: def.file, line: at.line });
                throw new CompileError('EVAL_PUPPET_ERROR', {
                    message: msg, file: def.file, line: at.line, rubyClass: 'Puppet::Error', causeClass: 'Puppet::ParseError', log: { message: msg, withNode: true }
                });
            }
        }
        this.nodes.push(def);
    }

    /** Environment#modules: the modulepath's modules with what their metadata.json gives, read once per environment cache. */
    get modules(): readonly { name: string; dir: string; problem?: ModuleMetadataProblem }[] {
        return this.files.once(`module-listing:${this.env.modulepath.join('\0')}`, () => moduleListing(this.fs, this.env.modulepath));
    }

    /** Modules whose metadata.json Puppet refuses: not part of the environment. */
    get excludedModules(): ReadonlySet<string> {
        return this.files.once(`module-excluded:${this.env.modulepath.join('\0')}`, () => new Set(this.modules.filter(m => m.problem?.excluded).map(m => m.name)));
    }

    private moduleDir(module: string): string | undefined {
        if (this.excludedModules.has(module)) return undefined;
        for (const dir of this.env.modulepath) {
            const d = join(dir, module);
            if (this.files.exists(d)) return d;
        }
        return undefined;
    }

    /**
     * Loads the module files that may define `name` (a class or define), most specific first; as
     * Puppet's match_manifests, the module's init.pp is loaded before each of them ("in case the
     * class is defined there"), so it is always read first.
     */
    private autoload(name: string): void {
        const segs = name.split('::');
        const module = segs[0];
        const dir = this.moduleDir(module);
        if (!dir) return;
        const init = join(dir, 'manifests', 'init.pp');
        for (let n = segs.length; n >= 1; n--) {
            const parts = segs.slice(1, n);
            const files: Array<[string, string[]]> = [[init, [module]]];
            if (parts.length > 0) files.push([join(dir, 'manifests', ...parts) + '.pp', segs.slice(0, n)]);
            for (const [path, expected] of files) {
                if (this.loaded.has(path) || !this.files.exists(path)) continue;
                this.registerFile(this.autoloaded(path), module, expected);
            }
            if (this.classes.has(name) || this.defines.has(name)) return;
        }
    }

    findClass(name: string): Definition<ClassDefinition> | undefined {
        const n = name.replace(/^::/, '').toLowerCase();
        if (!this.classes.has(n) && !this.defines.has(n)) this.autoload(n);
        return this.classes.get(n);
    }

    findDefine(name: string): Definition<DefineDefinition> | undefined {
        const n = name.replace(/^::/, '').toLowerCase();
        if (!this.defines.has(n) && !this.classes.has(n)) this.autoload(n);
        return this.defines.get(n);
    }

    /** A Puppet-language function: `mod::f` from mod/functions/f.pp, a global `f` from the environment's functions/. */
    findFunction(name: string): Definition<FunctionDefinition> | undefined {
        const n = name.replace(/^::/, '').toLowerCase();
        const known = this.functions.get(n);
        if (known) return known;
        const segs = n.split('::');
        let path: string | undefined;
        if (segs.length === 1) path = join(this.env.dir, 'functions', `${n}.pp`);
        else {
            const dir = segs[0] === 'environment' ? this.env.dir : this.moduleDir(segs[0]);
            if (dir) path = join(dir, 'functions', ...segs.slice(1)) + '.pp';
            if (segs[0] === 'environment' && dir) path = join(dir, 'functions', ...segs) + '.pp';
        }
        if (path && !this.loaded.has(path) && this.files.exists(path)) {
            const loaded = this.parse(path);
            this.register(loaded.program.statements, loaded.file, segs.length > 1 ? segs[0] : '', '', null, []);
        }
        return this.functions.get(n);
    }

    /** A type alias: `Mod::Port` from mod/types/port.pp (nested names map to directories). */
    findAlias(name: string): TypeAliasDefinition | undefined {
        const n = name.replace(/^::/, '').toLowerCase();
        const known = this.aliases.get(n);
        if (known) return known;
        const segs = n.split('::');
        if (segs.length > 1) {
            const dir = this.moduleDir(segs[0]);
            const path = dir ? join(dir, 'types', ...segs.slice(1)) + '.pp' : undefined;
            if (path && !this.loaded.has(path) && this.files.exists(path)) {
                const loaded = this.parse(path);
                this.register(loaded.program.statements, loaded.file, segs[0], '', null, []);
            }
        }
        return this.aliases.get(n);
    }

    /** A module's directory for templates and files. */
    /**
     * MODULE/KIND/REST, or undefined when REST climbs out of MODULE/KIND with `..`: a template or
     * file name must not reach files outside the module (`epp('m/../../../../etc/shadow')`).
     */
    moduleFile(module: string, kind: string, rest: string): string | undefined {
        const dir = this.moduleDir(module);
        if (!dir) return undefined;
        const base = join(dir, kind);
        const path = join(base, rest);
        return path.startsWith(base + sep) ? path : undefined;
    }
}

function qualify(name: string, namespace: string): string {
    const n = name.replace(/^::/, '').toLowerCase();
    if (namespace === '' || name.startsWith('::') || n.startsWith(`${namespace}::`)) return n;
    return `${namespace}::${n}`;
}

function aliasName(t: TypeAlias): string | undefined {
    return t.lhs.$type === 'TypeReference' ? t.lhs.value.replace(/^::/, '') : undefined;
}
