import { join, relative, resolve, isAbsolute } from 'node:path';
import { type FileSystemProvider, type SourcePoint } from '../../common/index.js';
import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import type { HierarchyLevel, HieraConfig, HieraLayerKind } from './config.js';
import { configError } from './config.js';
import { LookupError } from './errors.js';
import type { HieraScope } from './context.js';
import type { DataFile } from './data-file.js';
import { pretty } from './explain.js';
import { lookupValueProblem } from './lookup-value.js';
import { dataFormatOf, type HieraFileCache, type WarningSink } from './data-cache.js';
import type { Interpolator } from './interpolation.js';
import { scopeValue } from './interpolation.js';
import { FunctionLevels, type HieraFunctions } from './function-provider.js';
import { Invocation } from './invocation.js';
import { NOT_FOUND, type Found, type LookupKey } from './lookup-key.js';
import { valueEquals, type MergeStrategy } from './merge.js';

/** A data file location of a level, after interpolation. */
export interface ResolvedLocation {
    /** The path as written in hiera.yaml (before interpolation). */
    readonly original: string;
    readonly path: string;
    /** The path as messages show it (relative to the environment when inside it). */
    readonly display: string;
    readonly exists: boolean;
}

/** A hierarchy level with its locations resolved for the current scope (null: no location key). */
export interface ResolvedLevel {
    readonly level: HierarchyLevel;
    readonly datadir: string;
    readonly locations: readonly ResolvedLocation[] | null;
}

/** What a layer needs from the engine that owns it. */
export interface LayerServices {
    readonly files: HieraFileCache;
    readonly fs: FileSystemProvider;
    readonly interpolator: Interpolator;
    readonly scope: HieraScope;
    /** Whether scope variables can change between lookups (a compile is running). */
    readonly scopeIsMutable: boolean;
    readonly display: (absPath: string) => string;
    readonly warn: WarningSink;
    /** The environment's functions, for levels whose data come from one (only a compile has them). */
    readonly functions?: HieraFunctions;
    readonly environmentName: string;
    readonly moduleExists: (name: string) => boolean;
}

/**
 * One configured data provider: the environment layer (CODEDIR/hiera.yaml) or a module layer
 * (modules/NAME/hiera.yaml). Resolves its hierarchy against the scope (re-resolving when a scope
 * variable it used changes, as Puppet does) and looks keys up level by level.
 */
export class DataLayer {
    private resolved?: { levels: ResolvedLevel[]; defaults: ResolvedLevel[]; used: Map<string, PuppetValue> };
    private readonly qualified = new WeakMap<DataFile, ReadonlyMap<PuppetValue, PuppetValue>>();
    private readonly files = new Map<string, DataFile>();
    private functionLevels?: FunctionLevels;

    constructor(
        readonly config: HieraConfig,
        readonly root: string,
        readonly moduleName: string | undefined,
        private readonly services: LayerServices,
        readonly kind: HieraLayerKind = moduleName === undefined ? 'environment' : 'module'
    ) {}

    /** Puppet's provider name, as explanations print it. */
    get label(): string {
        const place = this.kind === 'global' ? 'Global' : this.kind === 'environment' ? 'Environment' : `Module "${this.moduleName}"`;
        return `${place} Data Provider (hiera configuration version ${this.config.version})`;
    }

    /** DataProvider#key_lookup: guarded by the recursion check, merged over the levels. */
    keyLookup(key: LookupKey, inv: Invocation, strategy: MergeStrategy, useDefaultHierarchy = false): Found {
        if (this.config.failure) throw this.config.failure;
        return inv.check(key.text, () => inv.with(() => this.label, () => {
            if (!this.config.withoutFile) inv.explainer?.line(`Using configuration "${this.config.displayPath}"`);
            const levels = this.levels(inv, useDefaultHierarchy);
            if (levels.length === 0) { inv.explainer?.notFound(key.text); return NOT_FOUND; }
            return withMerge(inv, strategy, levels.length, () =>
                strategy.lookup(levels, level => this.levelLookup(level, key, inv, strategy)));
        }));
    }

    levels(inv: Invocation, useDefaultHierarchy: boolean): ResolvedLevel[] {

        // Puppet resolves the hierarchy with an invocation of its own, so path interpolation is not explained.
        if (!this.resolved || (this.services.scopeIsMutable && !this.stable())) this.resolved = this.resolve(new Invocation(inv.nameStack));
        return useDefaultHierarchy ? this.resolved.defaults : this.resolved.levels;
    }

    private stable(): boolean {
        for (const [expr, old] of this.resolved?.used ?? []) {
            if (!valueEquals(scopeValue(expr, this.services.scope, expr), old)) return false;
        }
        return true;
    }

    private resolve(inv: Invocation): { levels: ResolvedLevel[]; defaults: ResolvedLevel[]; used: Map<string, PuppetValue> } {
        const used = new Map<string, PuppetValue>();
        const record = (expr: string, value: PuppetValue): void => {
            if (!(value !== null && expr.startsWith('::'))) used.set(expr, value);
        };
        // Puppet makes both hierarchies' providers together on first use, level by level: a name used
        // twice fails there, after the levels before it were resolved.
        const resolveAll = (levels: readonly HierarchyLevel[], duplicate: { readonly error: LookupError; readonly index: number } | undefined): ResolvedLevel[] =>
            levels.map((l, i) => {
                if (duplicate !== undefined && i === duplicate.index) throw duplicate.error;
                return this.resolveLevel(l, inv, record);
            });
        try {
            return { levels: resolveAll(this.config.hierarchy, this.config.hierarchyError), defaults: resolveAll(this.config.defaultHierarchy ?? [], this.config.defaultHierarchyError), used };
        } catch (e) {
            // Puppet reports interpolation failures in hiera.yaml against that file.
            if (e instanceof LookupError && e.issueCode !== undefined && e.at === undefined) {
                throw configError(e.message, e.issueCode, e.code, this.config.displayPath);
            }
            throw e;
        }
    }

    private resolveLevel(level: HierarchyLevel, inv: Invocation, record: (e: string, v: PuppetValue) => void): ResolvedLevel {
        const { interpolator, scope, display } = this.services;
        const datadir = resolve(this.root, interpolator.interpolatePath(join(level.datadir), inv, scope, record));
        // Pathname#exist?: a directory exists too (reading it then fails).
        const at = (original: string, path: string): ResolvedLocation => ({
            original, path, display: display(path) + (path.endsWith('/') ? '/' : ''), exists: this.services.fs.stat(path) !== undefined
        });
        switch (level.locationKind) {
            case undefined: return { level, datadir, locations: null };
            case 'path': case 'paths': {
                if (level.unknownBackend !== undefined) {
                    throw configError(`No data provider is registered for backend '${level.unknownBackend.name}'`, 'HIERA_NO_PROVIDER_FOR_BACKEND', BindingsIssues.LOOKUP_CONFIG_UNKNOWN_FUNCTION, this.config.displayPath, level.unknownBackend.line);
                }
                const ext = level.extension;
                return {
                    level, datadir, locations: level.locations.map(p => {
                        const path = interpolator.interpolatePath(p, inv, scope, record);
                        const full = ext === undefined || path.endsWith(ext) ? path : path + ext;
                        // Pathname#+ keeps a trailing slash (a path whose last part interpolated to nothing).
                        return at(p, resolve(datadir, full) + (full.endsWith('/') && full.length > 1 ? '/' : ''));
                    })
                };
            }
            case 'glob': case 'globs':
                return {
                    level, datadir, locations: level.locations.flatMap(g => {
                        const pattern = resolve(datadir, interpolator.interpolatePath(g, inv, scope, record));
                        return this.services.fs.glob(pattern).filter(p => isFile(this.services.fs, p)).sort().map(p => at(display(pattern), isAbsolute(p) ? p : resolve(p)));
                    })
                };
            case 'mapped_paths': {
                const [varsExpr, varName, template] = level.locations;
                const vars = scopeValue(varsExpr, scope, 'mapped_path[0]');
                record(varsExpr, vars);
                if (vars === null || vars === '' || (Array.isArray(vars) && vars.length === 0) || (vars instanceof Map && vars.size === 0)) return { level, datadir, locations: [] };
                const list = typeof vars === 'string' ? [vars] : Array.isArray(vars) ? vars : [...(vars as Map<PuppetValue, PuppetValue>)].map(([k, v]) => [k, v]);
                const ignoreLocal = (e: string, v: PuppetValue): void => { if (e.split('.')[0] !== varName) record(e, v); };
                return {
                    level, datadir, locations: list.map(v => at(template, resolve(datadir, interpolator.interpolatePath(template, inv, scope.withLocal(varName, v as PuppetValue), ignoreLocal))))
                };
            }
            case 'uri': case 'uris':
                return {
                    level, datadir, locations: level.locations.map(u => {
                        const uri = interpolator.interpolatePath(u, inv, scope, record);
                        return { original: u, path: uri, display: uri, exists: true };
                    })
                };
        }
    }

    /** DataHashFunctionProvider#unchecked_key_lookup for one level. */
    private levelLookup(rl: ResolvedLevel, key: LookupKey, inv: Invocation, strategy: MergeStrategy): Found {
        // DataProvider#name: a legacy function's provider is named after the function.
        const label = rl.level.functionKind === 'v4_data_hash' ? `Deprecated API function "${rl.level.functionName}"` : `Hierarchy entry "${rl.level.name}"`;
        return inv.with(() => label, () => {
            const locations = rl.locations ?? [null];
            return withMerge(inv, strategy, locations.length, () => strategy.lookup(locations, loc => {
                if (loc === null) return this.lookupIn(rl, null, key, inv);
                // ResolvedLocation#to_s: a URI location is explained as one.
                const uri = rl.level.locationKind === 'uri' || rl.level.locationKind === 'uris';
                return inv.with(() => `${uri ? 'URI' : 'Path'} "${loc.display}"`, () => {
                    inv.explainer?.line(`Original ${uri ? 'uri' : 'path'}: "${loc.original}"`);
                    if (!loc.exists) { inv.explainer?.line('Path not found'); return NOT_FOUND; }
                    return this.lookupIn(rl, loc, key, inv);
                });
            }));
        });
    }

    private lookupIn(rl: ResolvedLevel, loc: ResolvedLocation | null, key: LookupKey, inv: Invocation): Found {
        const functions = this.services.functions;
        const fn = rl.level.functionName;
        if (functions !== undefined && rl.level.functionKind !== 'hiera3_backend' && dataFormatOf(fn) === undefined && fn !== 'eyaml_lookup_key' && functions.has(fn)) {
            this.functionLevels ??= new FunctionLevels({
                functions, fs: this.services.fs, interpolator: this.services.interpolator, scope: this.services.scope,
                environmentName: this.services.environmentName, moduleName: this.moduleName, ownKeys: (h, subject) => this.ownFunctionKeys(h, subject)
            });
            const isUri = rl.level.locationKind === 'uri' || rl.level.locationKind === 'uris';
            return this.functionLevels.lookup(rl.level, loc === null ? null : { path: loc.path, display: loc.display, isUri }, key, inv);
        }
        const hash = this.dataHash(rl, loc);
        const root = key.rootKey;
        if (!hash.has(root)) { inv.explainer?.notFound(root); return NOT_FOUND; }
        // DataProvider#validate_data_value: the value must be a Puppet::LookupValue (RichData).
        const invalid = loc === null ? undefined : lookupValueProblem(hash.get(root) as PuppetValue, this.files.get(loc.path)?.symbols?.get(root));
        if (invalid !== undefined && loc !== null) {
            throw new LookupError(`Value for key '${root}', in hash returned from data_hash function '${rl.level.functionName}', when using location '${loc.display}', has wrong type, expects Puppet::LookupValue, got ${invalid}`, {
                code: BindingsIssues.LOOKUP_DATA_VALUE_TYPE, at: { file: loc.display }
            });
        }
        let value: PuppetValue;
        try {
            value = this.services.interpolator.interpolate(hash.get(root) as PuppetValue, inv, this.services.scope, true);
        } catch (e) {
            // Give interpolation failures the data file position of the key (our diagnostics; Puppet's text is unchanged).
            const at = loc === null ? undefined : this.files.get(loc.path)?.keyPositions.get(root);
            if (e instanceof LookupError && at) throw e.located(at, key.text);
            throw e;
        }
        inv.explainer?.found(root, value);
        if (inv.trace && loc !== null) {
            const at = this.files.get(loc.path)?.keyPositions.get(root);
            inv.trace.sources.push({
                layer: this.kind, ...(this.moduleName !== undefined ? { module: this.moduleName } : {}), level: rl.level.name, file: loc.display,
                ...(at ? { line: at.line, ...(at.column !== undefined ? { column: at.column } : {}) } : {})
            });
        }
        return value;
    }

    /** A data file of a level with its key positions (for the bindings provider). */
    dataFile(rl: ResolvedLevel, loc: ResolvedLocation): { hash: ReadonlyMap<PuppetValue, PuppetValue>; positions: ReadonlyMap<string, SourcePoint> } {
        const hash = this.dataHash(rl, loc);
        const file = this.services.files.dataFile(loc.path, loc.display, dataFormatOf(rl.level.functionName) ?? 'yaml', this.services.warn);
        return { hash, positions: file.keyPositions };
    }

    /** The level's data: yaml_data / json_data of the location (module data keeps only its own keys). */
    dataHash(rl: ResolvedLevel, loc: ResolvedLocation | null): ReadonlyMap<PuppetValue, PuppetValue> {
        const { level } = rl;
        const fn = level.functionName;
        const format = dataFormatOf(fn);
        if (fn === 'eyaml_lookup_key') {
            // Puppet ships the function, but loading it needs the hiera-eyaml library, which the reference lacks.
            throw new LookupError("Function Load Error for function 'eyaml_lookup_key': Lookup using eyaml lookup_key function is only supported when the hiera_eyaml library is present", {
                code: BindingsIssues.LOOKUP_CONFIG_UNKNOWN_FUNCTION, puppetClass: 'ArgumentError', at: { file: this.config.displayPath }
            });
        }
        if (level.functionKind !== 'data_hash' && format !== undefined) {
            // The function exists; called as a lookup_key or data_dig function it gets (key, options, context).
            throw new LookupError(`'${fn}' expects 2 arguments, got 3`, { code: BindingsIssues.LOOKUP_CONFIG_UNKNOWN_FUNCTION, puppetClass: 'ArgumentError', at: { file: this.config.displayPath } });
        }
        if (level.functionKind !== 'data_hash' || format === undefined) {
            const qualifier = fn.includes('::') ? fn.slice(0, fn.indexOf('::')) : 'environment';
            if (qualifier !== 'environment' && !this.services.moduleExists(qualifier)) {
                // Puppet asks the loader of the module the name is qualified with, and there is no such module.
                throw new LookupError("undefined method `load_typed' for nil:NilClass\n\n    te = loader.load_typed(typed_name)\n               ^^^^^^^^^^^", {
                    code: BindingsIssues.LOOKUP_CONFIG_UNKNOWN_FUNCTION, puppetClass: 'NoMethodError', at: { file: this.config.displayPath }
                });
            }
            throw configError(`Unable to find '${level.functionKind}' function named '${fn}'`, 'HIERA_DATA_PROVIDER_FUNCTION_NOT_FOUND', BindingsIssues.LOOKUP_CONFIG_UNKNOWN_FUNCTION, this.config.withoutFile ? undefined : this.config.displayPath);
        }
        if (loc === null || rl.level.locationKind === 'uri' || rl.level.locationKind === 'uris' || level.options.size > 0) {
            // The function's argument_mismatch dispatch: its options must be exactly `{path => String[1]}`,
            // so a uri, no location, or any level `options` beside the path miss it.
            throw new LookupError(`'${fn}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function`, {
                code: BindingsIssues.LOOKUP_CONFIG_MISSING_FUNCTION, puppetClass: 'ArgumentError', at: { file: this.config.displayPath }
            });
        }
        if (this.services.fs.stat(loc.path)?.isDirectory) {
            // Ruby's File.read of a directory.
            throw new LookupError(`Is a directory @ io_fread - ${loc.display}`, { code: BindingsIssues.LOOKUP_DATA_PARSE, puppetClass: 'Errno::EISDIR', at: { file: loc.display } });
        }
        // Files are checked for changes once per layer (one compile); later lookups reuse the parse.
        let file = this.files.get(loc.path);
        if (!file) {
            file = this.services.files.dataFile(loc.path, loc.display, format, this.services.warn);
            this.files.set(loc.path, file);
        }
        return this.moduleName === undefined ? file.value as ReadonlyMap<PuppetValue, PuppetValue> : this.ownKeys(file, loc, fn);
    }

    /** ModuleDataProvider#validate_data_hash for a data_hash function's answer. */
    private ownFunctionKeys(hash: Map<PuppetValue, PuppetValue>, subject: string): ReadonlyMap<PuppetValue, PuppetValue> {
        if (this.moduleName === undefined) return hash;
        const prefix = `${this.moduleName}::`;
        const bad = [...hash.keys()].filter(k => k !== 'lookup_options' && !(typeof k === 'string' && k.startsWith(prefix)));
        if (bad.length === 0) return hash;
        this.services.warn(`Module '${this.moduleName}': ${subject} must use keys qualified with the name of the module`);
        return new Map([...hash].filter(([k]) => !bad.includes(k)));
    }

    /** ModuleDataProvider#validate_data_hash: keys outside the module are dropped with a warning. */
    private ownKeys(file: DataFile, loc: ResolvedLocation, fn: string): ReadonlyMap<PuppetValue, PuppetValue> {
        let own = this.qualified.get(file);
        if (own) return own;
        const prefix = `${this.moduleName}::`;
        const hash = file.value as Map<PuppetValue, PuppetValue>;
        const bad = [...hash.keys()].filter(k => k !== 'lookup_options' && !(typeof k === 'string' && k.startsWith(prefix)));
        own = bad.length === 0 ? hash : new Map([...hash].filter(([k]) => !bad.includes(k)));
        if (bad.length > 0) {
            this.services.warn(`Module '${this.moduleName}': Value returned from data_hash function '${fn}', when using location '${loc.display}', must use keys qualified with the name of the module`);
        }
        this.qualified.set(file, own);
        return own;
    }
}

/**
 * Explains "Merge strategy X" around a multi-variant merge (MergeStrategy#lookup opens it for two
 * or more variants; the explainer prints it only if two or more of them were tried).
 */
export function withMerge(inv: Invocation, strategy: MergeStrategy, variants: number, body: () => Found): Found {
    const explainer = inv.explainer;
    if (!explainer || strategy.name === 'first' || variants < 2) return body();
    const options = strategy.options && strategy.options.size > 0 ? `Options: ${pretty(strategy.options, '')}` : undefined;
    return explainer.merging(`Merge strategy ${strategy.name}`, options, body, r => (r === NOT_FOUND ? undefined : () => `Merged result: ${pretty(r, '')}`));
}

function isFile(fs: FileSystemProvider, p: string): boolean {
    const st = fs.stat(p);
    return st !== undefined && !st.isDirectory;
}

/** The path relative to `root` when inside it, else absolute. */
export function displayPath(root: string, abs: string): string {
    const rel = relative(root, abs);
    return rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
}
