import { join, relative, resolve } from 'node:path';
import type { ContributedBindings, LayeredBindings, NamedBindingsOrSubtype, NamedLayer, SiteCategorization } from '../../generated/model/bindings.js';
import { nodeFileSystem, pathExists, UserError, type Diagnostic, type FileSystemProvider } from '../common/index.js';
import { modelRegistry, type Model, type ModelObject } from '../model/index.js';
import type { PuppetValue } from '../values/index.js';
import { provideHieraBindings } from './hiera/bindings-provider.js';
import { LookupError } from './hiera/errors.js';
import type { HieraLookup } from './hiera/service.js';
import { BindingsIssues } from './issues.js';
import { loadBindingsFile, PpBindingsProvider } from './providers/pp-provider.js';
import { EncBindingsProvider, type EncAnswer } from './providers/enc-provider.js';
import { ExternalBindingsProvider } from './providers/external-provider.js';
import { readProvidersConfig, type ProvidersConfig } from './providers/programs.js';
import { puppetConfEnc } from './providers/puppet-conf.js';
import { fail, splitUri, type BindingsProvider, type LayerInfo, type ProviderContext } from './providers/provider.js';
import type { SiteDefinition } from './pp/transform.js';

/** The layer Hiera 5 data goes to when the site's layers do not mention the `hiera:` scheme. */
export const HIERA_LAYER = 'hiera';
const HIERA_URIS = ['hiera:/global', 'hiera:/', 'hiera:/modules/*'];

/**
 * ARM-8's default layers, with the binder's (3.5+) optional site reference: an environment
 * without `bindings/default.pp` is not an error.
 */
const DEFAULTS: readonly { readonly name: string; readonly include: readonly string[] }[] = [
    { name: 'site', include: ['confdir:/default?optional'] },
    { name: 'modules', include: ['module:/*::default'] }
];
const ENC_LAYER = { name: 'enc', include: ['enc:'] } as const;

export interface ComposeOptions {
    /** The environment directory: `bindings/` (confdir), `modules/`... */
    readonly codedir: string;
    /** The confdir bindings directory (default CODEDIR/bindings; environments.pp's `bindingsdir`). */
    readonly bindingsDir?: string;
    /** Module directories (default CODEDIR/modules). */
    readonly modulePath?: readonly string[];
    /** The environment's manifest files, whose `site {}` configures the injector (default: CODEDIR/manifests/**.pp). */
    readonly manifests?: readonly string[];
    readonly environment?: string;
    readonly node: string;
    readonly facts?: ReadonlyMap<string, PuppetValue>;
    /** The Hiera 5 lookup of the request; when given, Hiera data is one provider (`hiera:`) among the layers. */
    readonly hiera?: HieraLookup;
    /** Extra providers by scheme (tests, embedders); they win over providers.yaml. */
    readonly providers?: ReadonlyMap<string, (ctx: ProviderContext) => BindingsProvider>;
    /** Where the bindings files are read from (default: the disk). */
    readonly fs?: FileSystemProvider;
    /** The ENC's answer already asked for this request (runEnc on the confdir): the `enc:` provider uses it instead of running the same program again. */
    readonly enc?: EncAnswer;
}

export interface Composition {
    readonly model: Model;
    readonly layered: LayeredBindings;
    /** Where the site definition came from, when there is one. */
    readonly site?: SiteDefinition;
    /** The layer that holds the `hiera:` contributions, if any. */
    readonly hieraLayer?: string;
}

/**
 * A LayeredBindings model made elsewhere (`modelc bindings`, another tool) as a composition: its
 * Hiera layer is the one holding Hiera levels, so Hiera keeps deciding the keys it wins.
 */
export function compositionOf(model: Model): Composition {
    const layered = model.root as unknown as LayeredBindings;
    const hieraLayer = layered.layers?.find(l => (l.bindings ?? []).some(nb => nb.$type === 'HieraLevelBindings'))?.name;
    return { model, layered, ...(hieraLayer !== undefined ? { hieraLayer } : {}) };
}

/**
 * Whether an environment uses ARM-8 bindings: the one answer every stage and command asks (the
 * catalog's lookup, `modelc lookup`). A confdir with environments.pp always does; otherwise the
 * environment has a site definition or bindings files (its bindings/ or its modules'), or
 * providers.yaml.
 */
export function usesBindings(where: { readonly confdir?: string; readonly envDir: string; readonly modulePath?: readonly string[]; readonly manifests?: readonly string[]; readonly bindingsDir?: string; readonly fs?: FileSystemProvider }): boolean {
    const fs = where.fs ?? nodeFileSystem;
    // environments.pp, or an ENC in Puppet's settings, is the confdir's; either brings the injector.
    if (where.confdir !== undefined && (pathExists(fs, join(resolve(where.confdir), 'environments.pp')) || puppetConfEnc(fs, where.confdir) !== undefined)) return true;
    if (!pathExists(fs, where.envDir)) return false;
    // A `site {}` in a manifest configures the injector (its layers may name any provider).
    return hasArm8Bindings(fs, where.envDir, where.modulePath, where.bindingsDir) || (where.manifests ?? defaultManifests(fs, resolve(where.envDir))).some(m => hasSite(fs, m));
}

function hasArm8Bindings(fs: FileSystemProvider, codedir: string, modulePath: readonly string[] = [join(resolve(codedir), 'modules')], bindingsDir = join(resolve(codedir), 'bindings')): boolean {
    const dir = resolve(bindingsDir);
    if (pathExists(fs, join(dir, 'providers.yaml')) || hasPp(fs, dir)) return true;
    return modulePath.some(base => list(fs, base).some(mod => hasPp(fs, join(base, mod, 'bindings'))));
}

/**
 * The site definition of an environment: the `site {}` blocks of its manifests (ARM-8: the
 * environment's manifest "allows further configuration of the injector") and of
 * `bindings/site.pp` (see docs/bindings.md), as one. Categories, and layers, may be defined in
 * one place only (ARM-8: "It is illegal to evaluate more than one site { categories {} }").
 */
export function readSite(codedir: string, bindingsDir = join(resolve(codedir), 'bindings'), fs: FileSystemProvider = nodeFileSystem, manifests?: readonly string[]): SiteDefinition | undefined {
    const parts: SiteDefinition[] = [];
    for (const m of manifests ?? defaultManifests(fs, resolve(codedir))) {
        const site = manifestSite(fs, m, relative(resolve(codedir), m));
        if (site) parts.push(site);
    }
    const path = join(resolve(bindingsDir), 'site.pp');
    if (pathExists(fs, path)) {
        const display = relative(resolve(codedir), path);
        const file = loadBindingsFile(path, display, fs);
        if (file.bindings.length > 0) {
            const b = file.bindings[0];
            fail(BindingsIssues.BIND_WRONG_NAME, `${display} holds the site definition; 'bindings ${b.name ?? ''}' belongs in a file named after it`, { at: { file: display, line: b.location?.line ?? 1, column: b.location?.column ?? 1 } });
        }
        if (file.site) parts.push(file.site);
    }
    if (parts.length <= 1) return parts[0];
    const once = <K extends 'categorization' | 'layers'>(k: K, what: string): Pick<SiteDefinition, K> => {
        const given = parts.filter(p => p[k] !== undefined);
        if (given.length > 1) {
            const first = where(given[0], k);
            const second = where(given[1], k);
            fail(BindingsIssues.BIND_SITE_TWICE, `${what} are already defined at ${first.file}:${first.line}; a site may define them only once`, { at: second });
        }
        return (given.length === 1 ? { [k]: given[0][k] } : {}) as Pick<SiteDefinition, K>;
    };
    return { location: parts[0].location, ...once('categorization', 'Categories'), ...once('layers', 'Binding layers') };
}

function where(site: SiteDefinition, k: 'categorization' | 'layers'): { file: string; line: number; column: number } {
    const loc = (k === 'categorization' ? site.categorization?.location : site.layers?.[0]?.location) ?? site.location;
    return { file: loc.file ?? '', line: loc.line ?? 1, column: loc.column ?? 1 };
}

/** An environment's manifests when the caller does not know them: `manifests/` (every `.pp`, sorted, as Puppet reads a manifest directory). */
function defaultManifests(fs: FileSystemProvider, codedir: string): string[] {
    const walk = (dir: string): string[] => list(fs, dir).sort().flatMap(f => {
        const p = join(dir, f);
        if (f.endsWith('.pp')) return [p];
        return f.includes('.') ? [] : walk(p);
    });
    return walk(join(codedir, 'manifests'));
}

/** The `site {}` of a manifest; manifests without the word are not parsed again. */
function manifestSite(fs: FileSystemProvider, path: string, display: string): SiteDefinition | undefined {
    return hasSite(fs, path) ? loadBindingsFile(path, display, fs).site : undefined;
}

/** Whether a manifest may hold a `site {}` (a cheap look at its text). */
function hasSite(fs: FileSystemProvider, path: string): boolean {
    try {
        return /(^|[\s;{}])site\s*\{/.test(fs.readText(path));
    } catch {
        return false;
    }
}

/**
 * The composer (binder: BindingsComposer): reads the site's layers (or the defaults), expands
 * each layer's include and exclude URIs through the scheme's provider, removes the excluded ones
 * and loads what remains, one ContributedBindings per URI, into the layer.
 */
export function composeBindings(options: ComposeOptions): Composition {
    const codedir = resolve(options.codedir);
    const ctx: ProviderContext = {
        codedir,
        bindingsDir: resolve(codedir, options.bindingsDir ?? 'bindings'),
        modulePath: options.modulePath ?? [join(codedir, 'modules')],
        environment: options.environment ?? 'production',
        node: options.node,
        facts: options.facts ?? new Map(),
        ...(options.fs ? { fs: options.fs } : {})
    };
    const site = readSite(codedir, ctx.bindingsDir, ctx.fs, options.manifests);
    const config = readProvidersConfig(ctx.codedir, ctx.bindingsDir, ctx.fs);
    const providers = providerTable(ctx, options, config);
    // ARM-8's goals: "Be backwards compatible with ENC": with an ENC and no layers of the site's own,
    // its classes, parameters and variables are a layer between the site and the modules (the seed's example).
    const defaults = options.enc !== undefined || config.enc !== undefined ? [DEFAULTS[0], ENC_LAYER, DEFAULTS[1]] : DEFAULTS;
    const written = site?.layers ?? defaults.map((l): NamedLayer => ({ $type: 'NamedLayer', name: l.name, include: [...l.include], exclude: [], bindings: [] }));
    const layers: NamedLayer[] = [];
    const names = new Set<string>();
    for (const l of written) {
        if (names.has(l.name)) fail(BindingsIssues.BIND_DUPLICATE_LAYER, `Duplicate layer name '${l.name}'`, locationOf(l));
        names.add(l.name);
        layers.push({ ...l, bindings: loadLayer(l, providers) });
    }
    let hieraLayer = written.find(l => (l.include ?? []).some(u => splitUri(u)?.scheme === 'hiera'))?.name;
    if (options.hiera && hieraLayer === undefined && !names.has(HIERA_LAYER)) {
        // Hiera data is below every ARM-8 layer unless the site places it: bindings override data.
        const l: NamedLayer = { $type: 'NamedLayer', name: HIERA_LAYER, include: [...HIERA_URIS], exclude: [], bindings: [] };
        layers.push({ ...l, bindings: loadLayer(l, providers) });
        hieraLayer = HIERA_LAYER;
    }
    const layered: LayeredBindings = {
        $type: 'LayeredBindings',
        environment: ctx.environment,
        ...(site?.categorization ? { categorization: site.categorization as SiteCategorization } : {}),
        layers
    };
    const index = modelRegistry().byPackageName('bindings');
    if (!index) throw new Error('the Bindings package is not registered');
    return { model: { index, root: layered as unknown as ModelObject }, layered, ...(site ? { site } : {}), ...(hieraLayer !== undefined ? { hieraLayer } : {}) };
}

function providerTable(ctx: ProviderContext, options: ComposeOptions, config: ProvidersConfig): Map<string, BindingsProvider> {
    const table = new Map<string, BindingsProvider>([
        ['confdir', new PpBindingsProvider('confdir', ctx)],
        ['module', new PpBindingsProvider('module', ctx)],
        ['enc', new EncBindingsProvider(ctx, config, options.enc)]
    ]);
    // Without a Hiera lookup (e.g. `modelc bindings --no-hiera`) the `hiera:` URIs contribute nothing.
    table.set('hiera', options.hiera ? hieraProvider(options.hiera) : { scheme: 'hiera', expand: uri => [uri], contribute: () => undefined });
    for (const [scheme, cmd] of config.schemes) table.set(scheme, new ExternalBindingsProvider(scheme, cmd, ctx, config));
    for (const [scheme, make] of options.providers ?? []) table.set(scheme, make(ctx));
    return table;
}

/** The `hiera:` provider as a scheme handler: its URIs are concrete (`hiera:/modules/*` expands inside). */
function hieraProvider(lookup: HieraLookup): BindingsProvider {
    return {
        scheme: 'hiera',
        expand: uri => [uri.replace(/\?.*$/, '')],
        contribute(uri, pattern): ContributedBindings | undefined {
            let list: ContributedBindings[];
            try {
                list = provideHieraBindings(lookup, uri);
            } catch (e) {
                // Hiera's own failure (a hiera.yaml or data file it cannot read) is the layer's located error, as any provider's.
                if (e instanceof LookupError) throw new UserError([e.toDiagnostic()]);
                throw e;
            }
            if (list.length === 0) return undefined;
            const bindings = list.flatMap(c => (c.bindings ?? []).map((nb): NamedBindingsOrSubtype => ({ ...nb, contributedBy: { ...(c.source ?? { $type: 'ContributionSource', scheme: 'hiera', uri }), pattern } })));
            return { $type: 'ContributedBindings', name: uri, source: { $type: 'ContributionSource', scheme: 'hiera', uri, pattern, provider: 'hiera 5' }, bindings };
        }
    };
}

function loadLayer(layer: NamedLayer, providers: ReadonlyMap<string, BindingsProvider>): NamedBindingsOrSubtype[] {
    const expand = (uri: string): { uri: string; pattern: string; optional: boolean; provider: BindingsProvider }[] => {
        const parts = splitUri(uri);
        if (!parts) fail(BindingsIssues.BIND_BAD_URI, `layer '${layer.name}': '${uri}' is not a bindings URI (scheme:path)`, locationOf(layer));
        const provider = providers.get(parts.scheme);
        if (!provider) fail(BindingsIssues.BIND_UNKNOWN_SCHEME, `Unknown bindings provider scheme: '${parts.scheme}'`, locationOf(layer));
        // Wildcards are implicitly optional (binder): they only name what exists.
        const optional = parts.optional || parts.path.includes('*');
        return provider.expand(uri).map(u => ({ uri: u, pattern: uri, optional, provider }));
    };
    const excluded = new Set((layer.exclude ?? []).flatMap(expand).map(e => e.uri.toLowerCase()));
    const info: LayerInfo = { name: layer.name, include: [...(layer.include ?? [])], exclude: [...(layer.exclude ?? [])] };
    const seen = new Set<string>();
    const out: NamedBindingsOrSubtype[] = [];
    const problems: Diagnostic[] = [];
    for (const e of (layer.include ?? []).flatMap(expand)) {
        const k = e.uri.toLowerCase();
        if (excluded.has(k) || seen.has(k)) continue;
        seen.add(k);
        try {
            const c = e.provider.contribute(e.uri, e.pattern, e.optional, info);
            if (c) out.push(...(c.bindings ?? []));
        } catch (err) {
            if (!(err instanceof UserError)) throw err;
            // A provider's error with no line of its own (a file that does not exist) is located at the layer naming the URI.
            const layerAt = locationOf(layer);
            problems.push(...err.diagnostics.map(d => (d.at !== undefined || layerAt.at === undefined ? d : { ...d, ...layerAt, message: d.file !== undefined && d.file !== layerAt.file ? `${d.message} (${d.file})` : d.message })));
        }
    }
    if (problems.length > 0) throw new UserError(problems);
    return out;
}

function locationOf(l: NamedLayer): Partial<Pick<Diagnostic, 'at' | 'file'>> {
    const loc = l.location;
    if (!loc) return {};
    return loc.line !== undefined ? { at: { file: loc.file, line: loc.line, column: loc.column ?? 1 } } : { file: loc.file };
}

function hasPp(fs: FileSystemProvider, dir: string): boolean {
    return list(fs, dir).some(f => f.endsWith('.pp') || (!f.includes('.') && hasPp(fs, join(dir, f))));
}

function list(fs: FileSystemProvider, dir: string): string[] {
    try {
        return fs.readdir(dir);
    } catch {
        return [];
    }
}
