import { isDirectoryPath, nodeFileSystem, pathExists, type FileSystemProvider } from '../../common/index.js';
import { formatValue } from '../../types/index.js';
import { basename, dirname, join } from 'node:path';
import { moduleMetadataProblem, type PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { HieraScope, type HieraContext } from './context.js';
import type { HieraConfig, HieraLayerKind } from './config.js';
import type { HieraFileCache, WarningSink } from './data-cache.js';
import { isLookupError, LookupError, notFoundError, PuppetErrorClass } from './errors.js';
import type { Explainer } from './explain.js';
import { Interpolator } from './interpolation.js';
import { Invocation, type LookupTrace } from './invocation.js';
import { DataLayer, displayPath, withMerge } from './layer.js';
import { environmentDataProvider, legacyProviderLayer, moduleDataProvider, type DataProviderSetting } from './legacy-providers.js';
import { dig, LookupKey, NOT_FOUND, type Found } from './lookup-key.js';
import { compilePatterns, LOOKUP_OPTIONS, optionsForKey, validateLookupOptions, type CompiledOptions } from './lookup-options.js';
import { MergeStrategy } from './merge.js';

/** An environment as Hiera sees it: its directory (with hiera.yaml, data/) and module path. */
export interface HieraEnvironment {
    readonly name: string;
    /** Absolute path of the environment directory. */
    readonly root: string;
    /** Absolute module directories, searched in order (normally [root/modules]). */
    readonly modulePath: readonly string[];
    /** The global layer's hiera.yaml (Puppet's `hiera_config`, $confdir/hiera.yaml); unset or missing: an empty global layer. */
    readonly globalConfig?: string;
    /**
     * When no global hiera.yaml exists: the path explanations name for the empty global layer
     * standing in for it (Puppet names none for a missing file; `oracle/lookup` always has one).
     */
    readonly emptyGlobalConfig?: string;
    /** Where config and data files are read from (default: the disk). */
    readonly fs?: FileSystemProvider;
}

/**
 * Type support for `--type`, `lookup(..., Type)` and lookup_options `convert_to`, supplied by
 * the Puppet type system (src/types). Without it those features fail with LOOKUP_UNSUPPORTED.
 */
export interface HieraTypeSupport {
    /** Asserts `value` is an instance of the type; throws a LookupError with Puppet's message otherwise. */
    assertType(type: string | PuppetValue, value: PuppetValue, subject: string): PuppetValue;
    /** Puppet's `new(convert_to[0], value, *convert_to[1..])`. */
    convert(type: PuppetValue, value: PuppetValue, args: readonly PuppetValue[]): PuppetValue;
}

/** Options of one lookup call (Puppet's `lookup(name, type, merge, default)`). */
export interface LookupRequest {
    /** A strategy name, a hash with 'strategy' and options, or a built strategy; unset: lookup_options, else first. */
    readonly merge?: PuppetValue | MergeStrategy;
    /** A default value (its presence, even as undef, means "has default"). */
    readonly default?: { readonly value: PuppetValue };
    /** A default block `|$key| ...`, called with the name(s) when nothing is found. */
    readonly defaultFn?: (names: string | readonly string[]) => PuppetValue;
    /** A Puppet type the value must match: its text, or the type itself (a `lookup()` argument). */
    readonly type?: string | PuppetValue;
    /** Records the explanation of this lookup. */
    readonly explainer?: Explainer;
    /** lookup()'s `override` option: names answered from this hash without a lookup. */
    readonly overrides?: ReadonlyMap<PuppetValue, PuppetValue>;
    /** lookup()'s `default_values_hash` option: per-name defaults when no name is found. */
    readonly defaultValues?: ReadonlyMap<PuppetValue, PuppetValue>;
    /** Receives the data sources of the found value (provenance for catalogs and reviews). */
    readonly trace?: LookupTrace;
    /** A hiera(), hiera_array() or hiera_hash() call: global layer only unless the environment has a version 5 hiera.yaml. */
    readonly hieraCall?: boolean;
}

export interface EngineServices {
    readonly files: HieraFileCache;
    readonly warn: WarningSink;
    readonly types?: HieraTypeSupport;
}

const MODULE_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Hiera 5 lookups for one node in one environment (Puppet's LookupAdapter plus Lookup.lookup):
 * the global layer (empty, as the oracle configures it), the environment layer and the module
 * layer of the key's namespace; lookup_options from environment and module data; merges;
 * dotted keys; defaults; convert_to. Config, resolved hierarchies and lookup_options are cached
 * for the life of the engine; data files in the shared file cache.
 */
export class HieraEngine {
    readonly scope: HieraScope;
    private readonly interpolator: Interpolator;
    private envLayer?: DataLayer | null;
    private global?: DataLayer | null;
    private deprecationWarned = false;
    /** Puppet.warn_once keys of the Puppet 4 data provider settings' warnings. */
    private readonly warnedOnce = new Set<string>();
    private readonly moduleLayers = new Map<string, DataLayer | null>();
    private readonly optionsCache = new Map<string | undefined, CompiledOptions | undefined>();
    private envOptions?: { value: Map<PuppetValue, PuppetValue> | undefined };
    private readonly defaultOptions = new Map<string, CompiledOptions | undefined>();
    private readonly keys = new Map<string, LookupKey>();

    /** The environment's source of files, and the parsed files of that source. */
    readonly files: FileSystemProvider;
    private readonly fileCache: HieraFileCache;

    constructor(readonly environment: HieraEnvironment, readonly context: HieraContext, private readonly services: EngineServices) {
        this.files = environment.fs ?? nodeFileSystem;
        this.fileCache = services.files.forFiles(this.files);
        // Puppet.warn_once: one warning per variable name; without a file, with Puppet's note saying so.
        const warned = new Set<string>();
        this.scope = new HieraScope(context, undefined, message => {
            if (warned.has(message)) return;
            warned.add(message);
            this.services.warn(`${message}\n   (file & line not available)`);
        });
        this.interpolator = new Interpolator((key, inv) => this.nestedLookup(key, inv));
    }

    /**
     * Resolves the `%{}` interpolations of a data value for this node, as a lookup that found it
     * would (used when the injector produces a `hiera:` binding whose value has a template).
     */
    interpolateValue(value: PuppetValue): PuppetValue {
        return this.interpolator.interpolate(value, new Invocation(), this.scope, true);
    }

    /** Lookup.lookup: the first name with a value wins; then the default; else not-found. */
    lookup(names: string | readonly string[], req: LookupRequest = {}): PuppetValue {
        const list = typeof names === 'string' ? [names] : names;
        const inv = this.invocation(req);
        for (const name of list) {
            if (req.overrides?.has(name)) return this.assertType(req.type, req.overrides.get(name) as PuppetValue, `Value found for key '${name}' in override hash`);
            const v = this.within(inv, () => this.searchAndMerge(name, inv, req.merge));
            if (v !== NOT_FOUND) return this.assertType(req.type, v, 'Found value');
        }
        for (const name of list) {
            if (req.defaultValues?.has(name)) return this.assertType(req.type, req.defaultValues.get(name) as PuppetValue, `Value found for key '${name}' in default values hash`);
        }
        if (req.defaultFn) return this.assertType(req.type, req.defaultFn(names), 'Value returned from default block');
        if (req.default) return this.assertType(req.type, req.default.value, 'Default value');
        throw notFoundError(list);
    }

    /** Like lookup, but NOT_FOUND instead of an error (automatic class parameter lookup). */
    lookupOptional(name: string, req: LookupRequest = {}): Found {
        const inv = this.invocation({ ...req, overrides: undefined, defaultValues: undefined });
        const v = this.within(inv, () => this.searchAndMerge(name, inv, req.merge));
        return v === NOT_FOUND ? v : this.assertType(req.type, v, 'Found value');
    }

    /**
     * The lookup in progress: a lookup made while it runs (by a data provider function calling
     * lookup()) shares its recursion guard, explanation and global-only state, as Puppet's
     * Invocation inherits from Invocation.current.
     */
    private current: Invocation | undefined;

    private within<T>(inv: Invocation, body: () => T): T {
        const saved = this.current;
        this.current = inv;
        try {
            return body();
        } finally {
            this.current = saved;
        }
    }

    private invocation(req: LookupRequest): Invocation {
        const parent = this.current;
        const inv = new Invocation(parent?.nameStack ?? [], req.explainer ?? parent?.explainer, req.overrides, req.defaultValues, req.trace);
        if (parent?.globalOnly) inv.globalOnly = true;
        // LookupAdapter#has_environment_data_provider?: a version 5 environment hiera.yaml.
        if (req.hieraCall && !inv.globalOnly) inv.globalOnly = (this.environmentLayer()?.config.version ?? 0) < 5;
        return inv;
    }

    private assertType(type: string | PuppetValue | undefined, v: PuppetValue, subject: string): PuppetValue {
        if (type === undefined) return v;
        if (!this.services.types) {
            throw new LookupError(`Type assertion with ${type} needs the Puppet type system, which is not available`, { code: BindingsIssues.LOOKUP_UNSUPPORTED });
        }
        return this.services.types.assertType(type, v, subject);
    }

    /** `%{lookup('k')}` / `%{alias('k')}`: a nested lookup sharing the recursion guard; missing gives ''. */
    private nestedLookup(key: string, parent: Invocation): PuppetValue {
        const v = this.searchAndMerge(key, parent.child(), undefined);
        return v === NOT_FOUND ? '' : v;
    }

    /** LookupAdapter#lookup. */
    private searchAndMerge(name: string, inv: Invocation, merge: PuppetValue | MergeStrategy | undefined): Found {
        if (name === LOOKUP_OPTIONS || name.startsWith(`${LOOKUP_OPTIONS}.`)) {
            inv.explainer?.line(`Invalid key "${LOOKUP_OPTIONS}"`);
            return NOT_FOUND;
        }
        let key = this.keys.get(name);
        if (!key) { key = new LookupKey(name); this.keys.set(name, key); }
        const k = key;
        inv.begin(k.text, k.moduleName);
        const options = this.lookupOptions(k, inv);
        let effective = merge;
        if (effective === undefined && options?.has('merge')) {
            effective = options.get('merge') as PuppetValue;
            inv.explainer?.line('Using merge options from "lookup_options" hash');
        }
        if (inv.trace) inv.trace.merge = MergeStrategy.from(effective).name;
        const v = inv.with(() => `Searching for "${k.text}"`, () => {
            const found = this.doLookup(k, inv, effective);
            return found === NOT_FOUND ? this.lookupDefaultInModule(k, inv) : found;
        });
        return v === NOT_FOUND ? v : this.convert(k, options, v, inv);
    }

    private doLookup(key: LookupKey, inv: Invocation, merge: PuppetValue | MergeStrategy | undefined): Found {
        const strategy = MergeStrategy.from(merge);
        if (inv.globalOnly) {
            const v = this.guardedGlobal(key, inv, strategy);
            return v === NOT_FOUND ? v : this.dig(key, v, inv);
        }
        const layers: ('global' | 'environment' | 'module')[] = ['global', 'environment', 'module'];
        const v = withMerge(inv, strategy, 2, () => strategy.lookup(layers, layer => this.layerLookup(layer, key, inv, strategy)));
        return v === NOT_FOUND ? v : this.dig(key, v, inv);
    }

    /** Digs a dotted key's segments into the found value, explained as Puppet's "Sub key". */
    private dig(key: LookupKey, v: PuppetValue, inv: Invocation): Found {
        if (key.segments.length === 0) return v;
        const explainer = inv.explainer;
        if (!explainer) return dig(key.text, key.segments, v);
        return inv.with(() => `Sub key: "${key.segments.join('.')}"`, () => dig(key.text, key.segments, v, (seg, found) => {
            if (found === NOT_FOUND) explainer.notFound(String(seg));
            else explainer.found(String(seg), found);
        }));
    }

    private layerLookup(layer: 'global' | 'environment' | 'module', key: LookupKey, inv: Invocation, strategy: MergeStrategy): Found {
        if (layer === 'global') return this.guardedGlobal(key, inv, strategy);
        if (layer === 'environment') {
            const env = this.environmentLayer();
            return env ? env.keyLookup(key, inv, strategy) : NOT_FOUND;
        }
        const mod = inv.moduleName;
        if (mod === undefined) return NOT_FOUND;
        const provider = this.moduleLayer(mod);
        if (!provider) {
            this.explainMissingModule(inv, mod);
            return NOT_FOUND;
        }
        return provider.keyLookup(key, inv, strategy);
    }

    /**
     * LookupAdapter#lookup_global: failures without an issue code are prefixed with the outermost
     * key and raised as a Puppet::Error, which the enclosing provider's check turns back into a
     * LookupError (a lookup() made by a data provider function has none: the evaluator wraps it).
     */
    private guardedGlobal(key: LookupKey, inv: Invocation, strategy: MergeStrategy): Found {
        try {
            return this.globalLookup(key, inv, strategy);
        } catch (e) {
            const isRubyLookupError = isLookupError(e) && (e.puppetClass === PuppetErrorClass.LOOKUP || e.puppetClass === PuppetErrorClass.RECURSIVE);
            if (isRubyLookupError && e.issueCode === undefined) throw e.rewrap(`Lookup of key '${inv.topKey}' failed: ${e.message}`, PuppetErrorClass.PUPPET);
            throw e;
        }
    }

    /** The global layer: its hiera.yaml when configured, else empty (it still runs the recursion check and is explained). */
    private globalLookup(key: LookupKey, inv: Invocation, strategy: MergeStrategy = MergeStrategy.FIRST): Found {
        const layer = this.globalLayer();
        if (layer) return layer.keyLookup(key, inv, strategy);
        return inv.check(key.text, () => inv.with(() => 'Global Data Provider (hiera configuration version 5)', () => {
            const shown = this.environment.emptyGlobalConfig;
            if (shown !== undefined) inv.explainer?.line(`Using configuration "${shown}"`);
            inv.explainer?.notFound(key.text);
            return NOT_FOUND;
        }));
    }

    /** The global layer from `environment.globalConfig`, when that file exists and is version 5. */
    globalLayer(): DataLayer | null {
        if (this.global === undefined) {
            const path = this.environment.globalConfig;
            this.global = path === undefined ? null : this.createLayer(dirname(path), undefined, 'global', basename(path));
        }
        return this.global;
    }

    private explainMissingModule(inv: Invocation, mod: string): void {
        if (!inv.explainer) return;
        inv.explainer.line(this.moduleDir(mod) === undefined ? `Module "${mod}" not found` : `Module data provider for module "${mod}" not found`);
    }

    /** LookupAdapter#lookup_lookup_options: environment options merged with the module's (cached per module). */
    private lookupOptions(key: LookupKey, inv: Invocation): ReadonlyMap<PuppetValue, PuppetValue> | undefined {
        if (inv.globalOnly) {
            // LookupAdapter#retrieve_lookup_options for a global-only invocation: the global layer's options.
            const meta = inv.child().begin(LOOKUP_OPTIONS, inv.moduleName);
            const g = meta.with(() => `Searching for "${LOOKUP_OPTIONS}"`, () => this.guardedGlobal(this.lookupKey(LOOKUP_OPTIONS), meta, MergeStrategy.HASH));
            return optionsForKey(key.rootKey, compilePatterns(g === NOT_FOUND ? undefined : validateLookupOptions(g, undefined)));
        }
        const mod = key.moduleName;
        if (!this.optionsCache.has(mod)) this.optionsCache.set(mod, this.retrieveOptions(mod, inv));
        return optionsForKey(key.rootKey, this.optionsCache.get(mod));
    }

    private retrieveOptions(mod: string | undefined, parent: Invocation): CompiledOptions | undefined {
        const meta = parent.child().begin(LOOKUP_OPTIONS, parent.moduleName);
        const optionsKey = this.lookupKey(LOOKUP_OPTIONS);
        return meta.with(() => `Searching for "${LOOKUP_OPTIONS}"`, () => {
            if (!this.envOptions) {
                // LookupAdapter#env_lookup_options: global and environment options; for a key in
                // both, the global entry wins (HashMergeStrategy#merge(global, env) is env.merge(global)).
                const g = this.guardedGlobal(optionsKey, meta, MergeStrategy.HASH);
                const globalOptions = g === NOT_FOUND ? undefined : validateLookupOptions(g, undefined);
                const env = this.environmentLayer();
                const found = env ? env.keyLookup(optionsKey, meta, MergeStrategy.HASH) : NOT_FOUND;
                const envOnly = found === NOT_FOUND ? undefined : validateLookupOptions(found, undefined);
                const merged = globalOptions && envOnly ? MergeStrategy.HASH.merge(globalOptions, envOnly) as Map<PuppetValue, PuppetValue> : globalOptions ?? envOnly;
                this.envOptions = { value: merged };
            }
            let opts = this.envOptions.value;
            if (mod !== undefined) {
                if (!this.optionsCache.has(undefined)) this.optionsCache.set(undefined, compilePatterns(opts));
                const provider = this.moduleLayer(mod);
                if (!provider) this.explainMissingModule(meta, mod);
                const found = provider ? provider.keyLookup(optionsKey, meta, MergeStrategy.HASH) : NOT_FOUND;
                if (found !== NOT_FOUND) {
                    const moduleOpts = validateLookupOptions(found, mod);
                    // Ruby's `if opts.nil? ... elsif module_opts ... end` yields nil when the module's options are undef.
                    opts = opts === undefined ? moduleOpts : moduleOpts ? this.mergeModuleOptions(meta, opts, moduleOpts, parent.moduleName) : undefined;
                }
            }
            return compilePatterns(opts);
        });
    }

    /**
     * The environment's lookup_options hash-merged with a module's, explained as Puppet does: a
     * merge of "Global and Environment" and "Module NAME" (the module of the lookup being made).
     */
    private mergeModuleOptions(meta: Invocation, envOpts: Map<PuppetValue, PuppetValue>, moduleOpts: Map<PuppetValue, PuppetValue>, lookupModule: string | undefined): Map<PuppetValue, PuppetValue> {
        const sources: [string, Map<PuppetValue, PuppetValue>][] = [['Global and Environment', envOpts], [`Module ${lookupModule ?? ''}`, moduleOpts]];
        const strategy = MergeStrategy.HASH;
        return withMerge(meta, strategy, sources.length, () => strategy.lookup(sources, ([name, value]) => meta.with(() => name, () => {
            meta.explainer?.found(LOOKUP_OPTIONS, value);
            return value;
        }))) as Map<PuppetValue, PuppetValue>;
    }

    /** LookupAdapter#lookup_default_in_module: a module's default_hierarchy, with its own lookup_options. */
    private lookupDefaultInModule(key: LookupKey, inv: Invocation): Found {
        const mod = inv.moduleName;
        if (mod === undefined || inv.globalOnly) return NOT_FOUND;
        const provider = this.moduleLayer(mod);
        if (!provider?.config.defaultHierarchy) return NOT_FOUND;
        // The sub keys are dug out after the search, beside it in the explanation (key.dig of its result).
        const found = inv.with(() => `Searching default_hierarchy of module "${mod}"`, () => {
            if (!this.defaultOptions.has(mod)) {
                const meta = inv.child().begin(LOOKUP_OPTIONS, mod);
                const found = inv.with(() => `Searching for "${LOOKUP_OPTIONS}"`, () => provider.keyLookup(this.lookupKey(LOOKUP_OPTIONS), meta, MergeStrategy.HASH, true));
                this.defaultOptions.set(mod, found === NOT_FOUND ? undefined : compilePatterns(validateLookupOptions(found, mod)));
            }
            const merge = optionsForKey(key.rootKey, this.defaultOptions.get(mod))?.get('merge');
            return inv.with(() => `Searching for "${key.text}"`, () => provider.keyLookup(key, inv, MergeStrategy.from(merge), true));
        });
        return found === NOT_FOUND ? found : this.dig(key, found, inv);
    }

    /** LookupAdapter#convert_result: lookup_options convert_to through Puppet's `new`. */
    private convert(key: LookupKey, options: ReadonlyMap<PuppetValue, PuppetValue> | undefined, value: PuppetValue, inv: Invocation): PuppetValue {
        const convertTo = options?.get('convert_to');
        if (convertTo === undefined || convertTo === null) return value;
        if (!this.services.types) {
            throw new LookupError(`The convert_to lookup_option for key '${key.text}' needs the Puppet type system, which is not available`, { code: BindingsIssues.LOOKUP_UNSUPPORTED });
        }
        const list = Array.isArray(convertTo) ? convertTo : [convertTo];
        try {
            const converted = this.services.types.convert(list[0], value, list.slice(1));
            inv.explainer?.line(`Applying convert_to lookup_option with arguments [${list.map(a => formatValue(a)).join(', ')}]`);
            return converted;
        } catch (e) {
            const msg = e instanceof Error ? e.message : String(e);
            throw new LookupError(`The convert_to lookup_option for key '${key.text}' raised error: ${msg}`, { code: BindingsIssues.LOOKUP_CONVERT_TO, keyPath: key.text });
        }
    }

    private lookupKey(text: string): LookupKey {
        let k = this.keys.get(text);
        if (!k) { k = new LookupKey(text); this.keys.set(text, k); }
        return k;
    }

    /** The environment layer: CODEDIR/hiera.yaml, or what environment.conf's Puppet 4 `environment_data_provider` makes. */
    environmentLayer(): DataLayer | null {
        if (this.envLayer === undefined) {
            const root = this.environment.root;
            this.envLayer = this.withLegacyProvider(this.createLayer(root, undefined), root, undefined, environmentDataProvider(this.files, root), 'environment.conf');
        }
        return this.envLayer;
    }

    /** A module's layer, when the module exists and has a version 5 hiera.yaml. */
    moduleLayer(name: string): DataLayer | null {
        let layer = this.moduleLayers.get(name);
        if (layer === undefined) {
            const dir = this.moduleDir(name);
            layer = dir === undefined ? null : this.withLegacyProvider(this.createLayer(dir, name), dir, name, moduleDataProvider(this.files, dir), 'metadata.json');
            this.moduleLayers.set(name, layer);
        }
        return layer;
    }

    /** The first module directory of that name on the module path. */
    moduleDir(name: string): string | undefined {
        if (!MODULE_NAME.test(name)) return undefined;
        for (const base of this.environment.modulePath) {
            const dir = join(base, name);
            // A module whose metadata.json Puppet refuses is not in the environment (the compile logs why).
            if (isDirectoryPath(this.files, dir)) return moduleMetadataProblem(this.files, dir, name)?.excluded ? undefined : dir;
        }
        return undefined;
    }

    private withLegacyProvider(layer: DataLayer | null, root: string, moduleName: string | undefined, setting: DataProviderSetting | undefined, settingFile: string): DataLayer | null {
        if (setting === undefined && layer === null) return null;
        const display = (abs: string): string => displayPath(this.environment.root, abs);
        return legacyProviderLayer({
            setting, layer, moduleName, settingFile: display(join(root, settingFile)), configDisplay: display(join(root, 'hiera.yaml')), configExists: pathExists(this.files, join(root, 'hiera.yaml')),
            environmentName: this.context.environment,
            warnOnce: (key, message, file) => {
                if (this.warnedOnce.has(key)) return;
                this.warnedOnce.add(key);
                this.services.warn(file === undefined ? `${message}\n   (file & line not available)` : message, file);
            },
            make: config => this.layerOf(config, root, moduleName, moduleName === undefined ? 'environment' : 'module')
        });
    }

    private createLayer(root: string, moduleName: string | undefined, kind: HieraLayerKind = moduleName === undefined ? 'environment' : 'module', file = 'hiera.yaml'): DataLayer | null {
        const path = join(root, file);
        if (!pathExists(this.files, path)) return null;
        const display = (abs: string): string => displayPath(this.environment.root, abs);
        const result = this.fileCache.config(path, display(path), kind);
        if (result.notHash !== undefined) this.services.warn(result.notHash);
        if (result.deprecation !== undefined && !this.deprecationWarned) {
            this.deprecationWarned = true;
            this.services.warn(result.deprecation, display(path));
        }
        if ('error' in result) throw result.error;
        if ('ignored' in result) {
            this.services.warn(result.ignored, display(path));
            return null;
        }
        return this.layerOf(result.config, root, moduleName, kind);
    }

    private layerOf(config: HieraConfig, root: string, moduleName: string | undefined, kind: HieraLayerKind): DataLayer {
        const display = (abs: string): string => displayPath(this.environment.root, abs);
        return new DataLayer(config, root, moduleName, {
            files: this.fileCache,
            fs: this.files,
            interpolator: this.interpolator,
            scope: this.scope,
            scopeIsMutable: this.context.variable !== undefined,
            display,
            warn: this.services.warn,
            environmentName: this.context.environment,
            moduleExists: name => this.moduleDir(name) !== undefined,
            ...(this.context.functions ? { functions: this.context.functions } : {})
        }, kind);
    }
}
