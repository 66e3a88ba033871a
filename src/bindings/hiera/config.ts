import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues, type BindingsIssueCode } from '../issues.js';
import { parseYamlData } from './data-file.js';
import { LookupError, PuppetErrorClass } from './errors.js';
import { isInstanceOf, typeAssertionMessage } from './type-support.js';

/** The data provider function kinds of a hierarchy level. */
export const FUNCTION_KEYS = ['data_hash', 'lookup_key', 'data_dig', 'hiera3_backend'] as const;
const ALL_FUNCTION_KEYS = [...FUNCTION_KEYS, 'v4_data_hash'] as const;
export const LOCATION_KEYS = ['path', 'paths', 'glob', 'globs', 'uri', 'uris', 'mapped_paths'] as const;
export type FunctionKind = typeof ALL_FUNCTION_KEYS[number];
export type LocationKind = typeof LOCATION_KEYS[number];

/** One `hierarchy` entry, validated. */
export interface HierarchyLevel {
    readonly name: string;
    readonly functionKind: FunctionKind;
    readonly functionName: string;
    readonly datadir: string;
    readonly locationKind?: LocationKind;
    /** path/paths/glob/globs/uri/uris as a list; mapped_paths as its three strings. */
    readonly locations: readonly string[];
    readonly options: ReadonlyMap<PuppetValue, PuppetValue>;
    /** 1-based line of the entry's `name:` in hiera.yaml (for provenance), when found. */
    readonly line?: number;
    /** Version 4 only: the backend's file extension, appended to paths that lack it. */
    readonly extension?: string;
    /** Version 4 only: a backend Puppet has no data provider for, and the line naming it (fails when the level is used). */
    readonly unknownBackend?: { readonly name: string; readonly line?: number };
}

/** A validated hiera.yaml (version 5, or a version 4 file translated to version 5 levels). */
export interface HieraConfig {
    readonly version: 4 | 5;
    /** As Puppet shows it in messages: relative to the environment when inside it. */
    readonly displayPath: string;
    readonly hierarchy: readonly HierarchyLevel[];
    readonly defaultHierarchy?: readonly HierarchyLevel[];
    /** A hierarchy that fails when its data providers are made: a level name used twice, at that level. */
    readonly hierarchyError?: { readonly error: LookupError; readonly index: number };
    readonly defaultHierarchyError?: { readonly error: LookupError; readonly index: number };
    /** Made by a Puppet 4 `data_provider` setting, not read from a file: explanations name no configuration, errors no file. */
    readonly withoutFile?: boolean;
    /** A provider whose configuration reads as nothing (an ignored version 3 file): every lookup through it fails so. */
    readonly failure?: LookupError;
}

/**
 * What reading a hiera.yaml gave: a config, nothing (version 3 at the environment or module
 * root is ignored) or a validation error, with the warnings Puppet logs on the way, in order.
 * `deprecation` is logged once per process whatever the file (Puppet's warn_once key is the
 * literal 'hiera.yaml').
 */
export type ConfigResult = ({ readonly config: HieraConfig } | { readonly ignored: string } | { readonly error: LookupError }) & {
    /** Logged without a file: the file held no hash. */
    readonly notHash?: string;
    readonly deprecation?: string;
};


/**
 * Parses and validates a hiera.yaml as Puppet's HieraConfig.create / HieraConfigV5 do, with
 * Puppet's messages: struct violations are TypeAssertionErrors ("The Lookup Configuration at
 * 'hiera.yaml' has wrong type, ..."), the rest LookupErrors with HIERA_* issue codes and
 * " (file: F[, line: N])".
 */
export type HieraLayerKind = 'global' | 'environment' | 'module';

export function parseHieraConfig(text: string, displayPath: string, layer: HieraLayerKind): ConfigResult {
    const loaded = parseConfigYaml(text, displayPath);
    const notHash = loaded instanceof Map ? undefined : `${displayPath}: File exists but does not contain a valid YAML hash. Falling back to Hiera version 3 default config`;
    // A file without a hash is read as HieraConfigV3's default configuration.
    const parsed = loaded instanceof Map ? new Map(loaded) : new Map<PuppetValue, PuppetValue>([['backends', ['yaml']], ['hierarchy', ['nodes/%{::trusted.certname}', 'common']], ['merge_behavior', 'native']]);
    const lines = text.split('\n');
    const rawVersion = parsed.get('version');
    const version = rawVersion === undefined || rawVersion === null || rawVersion === false ? 3n : rubyToI(rawVersion);
    const assertType = (type: string, config: Map<PuppetValue, PuppetValue>): void => {
        if (isInstanceOf(type, config)) return;
        throw new LookupError(typeAssertionMessage(`The Lookup Configuration at '${displayPath}'`, type, config), {
            code: BindingsIssues.LOOKUP_CONFIG_WRONG_TYPE, puppetClass: PuppetErrorClass.TYPE_ASSERTION, at: { file: displayPath }
        });
    };
    const orDefault = (key: string, value: PuppetValue): void => {
        const v = parsed.get(key);
        if (v === undefined || v === null || v === false) parsed.set(key, value);
    };
    if (version === 3n) {
        if (layer === 'global') return { ignored: `${displayPath}: hiera.yaml version 3 (Hiera 3 backends) in the global layer is not supported by modelc; the global layer is ignored`, notHash };
        const deprecation = `${displayPath}: Use of 'hiera.yaml' version 3 is deprecated. It should be converted to version 5`;
        orDefault('version', 3n);
        orDefault('backends', ['yaml']);
        orDefault('hierarchy', ['nodes/%{::trusted.certname}', 'common']);
        orDefault('merge_behavior', 'native');
        orDefault('deep_merge_options', new Map());
        try {
            assertType(v3Type(parsed.get('backends') ?? null), parsed);
        } catch (e) {
            if (e instanceof LookupError) return { error: e, notHash, deprecation };
            throw e;
        }
        return { ignored: `hiera.yaml version 3 found at ${layer === 'module' ? 'module root' : 'the environment root'} was ignored`, notHash, deprecation };
    }
    if (version !== 5n) {
        if (version === 4n && layer === 'global') {
            throw configError('hiera.yaml version 4 cannot be used in the global layer', 'HIERA_UNSUPPORTED_VERSION_IN_GLOBAL', BindingsIssues.LOOKUP_CONFIG_UNSUPPORTED_VERSION, displayPath);
        }
        if (version === 4n) {
            const deprecation = `${displayPath}: Use of 'hiera.yaml' version 4 is deprecated. It should be converted to version 5`;
            orDefault('datadir', 'data');
            orDefault('hierarchy', [new Map<PuppetValue, PuppetValue>([['name', 'common'], ['backend', 'yaml']])]);
            try {
                assertType(V4_TYPE, parsed);
            } catch (e) {
                if (e instanceof LookupError) return { error: e, deprecation };
                throw e;
            }
            return { ...parseV4(parsed, displayPath, lines), deprecation };
        }
        throw configError(`This runtime does not support hiera.yaml version ${version}`, 'HIERA_UNSUPPORTED_VERSION', BindingsIssues.LOOKUP_CONFIG_UNSUPPORTED_VERSION, displayPath);
    }
    orDefault('defaults', new Map<PuppetValue, PuppetValue>([['datadir', 'data'], ['data_hash', 'yaml_data']]));
    orDefault('hierarchy', [new Map<PuppetValue, PuppetValue>([['name', 'Common'], ['path', 'common.yaml']])]);
    assertType(V5_TYPE, parsed);
    const defaults = parsed.get('defaults') as ReadonlyMap<PuppetValue, PuppetValue>;
    const countFns = (m: ReadonlyMap<PuppetValue, PuppetValue>, keys: readonly string[]): number => keys.filter(k => m.has(k)).length;
    if (countFns(defaults, FUNCTION_KEYS) > 1) {
        throw configError(`Only one of ${combine(FUNCTION_KEYS)} can be defined in defaults`, 'HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS_IN_DEFAULT', BindingsIssues.LOOKUP_CONFIG_MULTIPLE_FUNCTIONS_IN_DEFAULT, displayPath);
    }
    checkReservedOptions(defaults.get('options'), key => configError(`Option key '${key}' used in defaults is reserved by Puppet`, 'HIERA_DEFAULT_OPTION_RESERVED_BY_PUPPET', BindingsIssues.LOOKUP_CONFIG_RESERVED_OPTION, displayPath));
    // Levels are validated now; a name used twice fails only when the data providers are made (on first use).
    const readLevels = (key: string): { levels: HierarchyLevel[]; error?: { error: LookupError; index: number } } | undefined => {
        const raw = parsed.get(key);
        if (raw === undefined || raw === null) return undefined;
        const levels = (raw as ReadonlyMap<PuppetValue, PuppetValue>[]).map(entry => validateLevel(entry, defaults, displayPath, lines, layer));
        return { levels, error: duplicateName(levels.map(l => l.name), displayPath, lines) };
    };
    const hierarchy = readLevels('hierarchy') ?? { levels: [] };
    if (parsed.has('default_hierarchy') && layer !== 'module') {
        throw configError("'default_hierarchy' is only allowed in the module layer", 'HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE', BindingsIssues.LOOKUP_CONFIG_DEFAULT_HIERARCHY_NOT_IN_MODULE, displayPath, findLine(lines, /(?:^|\s+)default_hierarchy:/));
    }
    const defaults_ = readLevels('default_hierarchy');
    return {
        config: {
            version: 5, displayPath, hierarchy: hierarchy.levels, defaultHierarchy: defaults_?.levels,
            ...(hierarchy.error ? { hierarchyError: hierarchy.error } : {}), ...(defaults_?.error ? { defaultHierarchyError: defaults_.error } : {})
        }
    };
}

/** HieraConfigV5's defaults, for a Puppet 4 `data_provider` of 'hiera' whose layer has no hiera.yaml. */
export function defaultV5Config(displayPath: string, layer: HieraLayerKind): HieraConfig {
    const result = parseHieraConfig('version: 5\n', displayPath, layer);
    if (!('config' in result)) throw new Error('the default configuration is valid');
    return { ...result.config, withoutFile: true };
}

/**
 * HieraConfig.v4_function_config: a Puppet 4 `data_provider` of 'function' is one level that calls
 * the legacy data function (`environment::data`, `MODULE::data`) with no arguments.
 */
export function v4FunctionConfig(functionName: string, displayPath: string): HieraConfig {
    return {
        version: 5, displayPath, withoutFile: true,
        hierarchy: [{ name: `Legacy function '${functionName}'`, functionKind: 'v4_data_hash', functionName, datadir: 'data', locations: [], options: new Map() }]
    };
}

/** HIERA_HIERARCHY_NAME_MULTIPLY_DEFINED for the first name used again, at the line of its second definition. */
function duplicateName(names: readonly string[], displayPath: string, lines: readonly string[]): { error: LookupError; index: number } | undefined {
    const seen = new Set<string>();
    for (const [index, name] of names.entries()) {
        if (seen.has(name)) {
            const re = nameLine(name);
            let first = findLine(lines, re);
            let line = first !== undefined ? findLine(lines, re, first) : undefined;
            if (line === undefined) { line = first; first = undefined; }
            const msg = `Hierarchy name '${name}' defined more than once.${first !== undefined ? ` First defined at (line: ${first})` : ''}`;
            return { error: configError(msg, 'HIERA_HIERARCHY_NAME_MULTIPLY_DEFINED', BindingsIssues.LOOKUP_CONFIG_NAME_TWICE, displayPath, line), index };
        }
        seen.add(name);
    }
    return undefined;
}

/**
 * HieraConfigV4: `datadir` and levels of `backend` (yaml, json) with `path`/`paths` whose
 * extension the backend supplies; read as version 5 levels, with Puppet's deprecation warning.
 */
function parseV4(parsed: Map<PuppetValue, PuppetValue>, displayPath: string, lines: readonly string[]): { config: HieraConfig } {
    const datadir = parsed.get('datadir') as string;
    const raw = parsed.get('hierarchy') as ReadonlyMap<PuppetValue, PuppetValue>[];
    const hierarchy = raw.map((e): HierarchyLevel => {
        const name = e.get('name') as string;
        const backend = e.get('backend') as string;
        const paths = e.has('paths') ? (e.get('paths') as string[]) : [(e.get('path') as string | undefined) ?? name];
        // hocon reads .conf files; yaml and json their own extension.
        const extension = backend === 'yaml' || backend === 'json' ? `.${backend}` : backend === 'hocon' ? '.conf' : undefined;
        return {
            name, functionKind: 'data_hash', functionName: extension !== undefined ? `${backend}_data` : backend, datadir: (e.get('datadir') as string | undefined) ?? datadir,
            locationKind: 'paths', locations: paths, options: new Map(), line: findLine(lines, nameLine(name)),
            extension,
            unknownBackend: extension !== undefined ? undefined : { name: backend, line: findLine(lines, new RegExp(`[^\\w]${escapeRe(backend)}(?:[^\\w]|$)`)) }
        };
    });
    const error = duplicateName(hierarchy.map(l => l.name), displayPath, lines);
    return { config: { version: 4, displayPath, hierarchy, ...(error ? { hierarchyError: error } : {}) } };
}

function validateLevel(he: ReadonlyMap<PuppetValue, PuppetValue>, defaults: ReadonlyMap<PuppetValue, PuppetValue>, file: string, lines: readonly string[], layer: HieraLayerKind): HierarchyLevel {
    const name = he.get('name') as string;
    const line = findLine(lines, nameLine(name));
    const fns = ALL_FUNCTION_KEYS.filter(k => he.has(k));
    if (fns.length === 0 && FUNCTION_KEYS.every(k => !defaults.has(k))) {
        throw configError(`One of ${combine(FUNCTION_KEYS)} must be defined in hierarchy '${name}'`, 'HIERA_MISSING_DATA_PROVIDER_FUNCTION', BindingsIssues.LOOKUP_CONFIG_MISSING_FUNCTION, file);
    }
    if (fns.length > 1) {
        throw configError(`Only one of ${combine(FUNCTION_KEYS)} can be defined in hierarchy '${name}'`, 'HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS', BindingsIssues.LOOKUP_CONFIG_MULTIPLE_FUNCTIONS, file);
    }
    const backend = he.get('hiera3_backend');
    if (backend !== undefined && layer !== 'global') {
        throw configError("'hiera3_backend' is only allowed in the global layer", 'HIERA_V3_BACKEND_NOT_GLOBAL', BindingsIssues.LOOKUP_CONFIG_V3_BACKEND, file, findLine(lines, /\s+hiera3_backend:/));
    }
    if (backend === 'json' || backend === 'yaml') {
        throw configError(`Use "data_hash: ${backend}_data" instead of "hiera3_backend: ${backend}"`, 'HIERA_V3_BACKEND_REPLACED_BY_DATA_HASH', BindingsIssues.LOOKUP_CONFIG_V3_BACKEND, file, findLine(lines, new RegExp(`\\s+hiera3_backend:\\s*['"]?${backend}(?:[^\\w]|$)`)));
    }
    const locs = LOCATION_KEYS.filter(k => he.has(k));
    if (locs.length > 1) {
        throw configError(`Only one of ${combine(LOCATION_KEYS)} can be defined in hierarchy '${name}'`, 'HIERA_MULTIPLE_LOCATION_SPECS', BindingsIssues.LOOKUP_CONFIG_MULTIPLE_LOCATIONS, file);
    }
    checkReservedOptions(he.get('options'), key => configError(`Option key '${key}' used in hierarchy '${name}' is reserved by Puppet`, 'HIERA_OPTION_RESERVED_BY_PUPPET', BindingsIssues.LOOKUP_CONFIG_RESERVED_OPTION, file));
    const functionKind: FunctionKind = fns[0] ?? FUNCTION_KEYS.find(k => defaults.has(k)) as FunctionKind;
    const functionName = (fns[0] ? he.get(fns[0]) : defaults.get(functionKind)) as string;
    const locationKind = locs[0];
    const rawLoc = locationKind ? he.get(locationKind) : undefined;
    const locations = rawLoc === undefined ? [] : Array.isArray(rawLoc) ? rawLoc.map(String) : [String(rawLoc)];
    const options = (he.get('options') ?? defaults.get('options') ?? new Map()) as ReadonlyMap<PuppetValue, PuppetValue>;
    const datadir = (he.get('datadir') ?? defaults.get('datadir') ?? 'data') as string;
    return { name, functionKind, functionName, datadir, locationKind, locations, options, line };
}

function checkReservedOptions(options: PuppetValue | undefined, fail: (key: string) => LookupError): void {
    if (options instanceof Map) for (const k of ['path', 'uri']) if (options.has(k)) throw fail(k);
}

/**
 * hiera.yaml as HieraConfig.create reads it (Puppet::Util::Yaml.safe_load, uncaught): a failure
 * is a YamlLoadError, "(hiera.yaml): <Psych's message>", not a lookup error.
 */
function parseConfigYaml(text: string, displayPath: string): PuppetValue {
    try {
        return parseYamlData(text, displayPath).value;
    } catch (e) {
        if (!(e instanceof LookupError)) throw e;
        const detail = e.message.startsWith('Unable to parse ') ? e.message.slice('Unable to parse '.length) : e.message;
        throw new LookupError(detail, { code: BindingsIssues.LOOKUP_DATA_PARSE, puppetClass: 'Puppet::Util::Yaml::YamlLoadError', at: e.at, causeClass: e.causeClass });
    }
}

const OPTION_NAME = 'Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/]';
const LEVEL_TYPE = `Struct[{name=>String[1],Optional[options]=>Hash[${OPTION_NAME},Data],Optional[data_hash]=>String[1],Optional[lookup_key]=>String[1],`
    + 'Optional[hiera3_backend]=>String[1],Optional[v4_data_hash]=>String[1],Optional[data_dig]=>String[1],Optional[path]=>String[1],Optional[paths]=>Array[String[1],1],'
    + 'Optional[glob]=>String[1],Optional[globs]=>Array[String[1],1],Optional[uri]=>String[1],Optional[uris]=>Array[String[1],1],Optional[mapped_paths]=>Array[String[1],3,3],'
    + 'Optional[datadir]=>String[1]}]';
/** HieraConfigV5.config_type. */
const V5_TYPE = 'Struct[{version=>Integer[5,5],Optional[defaults]=>Struct[{Optional[data_hash]=>String[1],Optional[lookup_key]=>String[1],Optional[data_dig]=>String[1],'
    + `Optional[datadir]=>String[1],Optional[options]=>Hash[${OPTION_NAME},Data]}],Optional[hierarchy]=>Array[${LEVEL_TYPE}],Optional[plan_hierarchy]=>Array[${LEVEL_TYPE}],`
    + `Optional[default_hierarchy]=>Array[${LEVEL_TYPE}]}]`;
/** HieraConfigV4.config_type. */
const V4_TYPE = 'Struct[{version=>Integer[4,4],Optional[datadir]=>String[1],Optional[hierarchy]=>Array[Struct[{backend=>String[1],name=>String[1],Optional[datadir]=>String[1],'
    + 'Optional[path]=>String[1],Optional[paths]=>Array[String[1]]}]]}]';

/** HieraConfigV3's validation struct: its own keys, and a hash of options for each backend it names. */
function v3Type(backends: PuppetValue): string {
    const names = (Array.isArray(backends) ? backends.flat(Infinity as 1) : [backends]).filter((b): b is string => typeof b === 'string');
    const extra = names.map(b => `,Optional[${JSON.stringify(b)}]=>Hash[String[1],Any]`).join('');
    return 'Struct[{Optional[version]=>Integer[3,3],Optional[backends]=>Variant[String[1],Array[String[1]]],Optional[logger]=>String[1],'
        + 'Optional[merge_behavior]=>Enum[deep,deeper,native],Optional[deep_merge_options]=>Hash[String[1],Variant[String,Boolean]],'
        + `Optional[hierarchy]=>Variant[String[1],Array[String[1]]]${extra}}]`;
}

/** Ruby's `to_i` of a `version`: integers as they are, floats truncated, strings by their leading digits. */
function rubyToI(v: PuppetValue): bigint {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
    if (typeof v === 'string') {
        const m = /^\s*([-+]?\d[\d_]*)/.exec(v);
        return m ? BigInt(m[1].replace(/_/g, '')) : 0n;
    }
    return 0n;
}

export function configError(message: string, issueCode: string, code: BindingsIssueCode, file: string | undefined, line?: number): LookupError {
    // HieraConfig#fail of a configuration made without a file: Puppet's message names none.
    if (file === undefined) return new LookupError(message, { code, issueCode });
    const where = line !== undefined ? ` (file: ${file}, line: ${line})` : ` (file: ${file})`;
    return new LookupError(`${message}${where}`, { code, issueCode, at: { file, line }, puppetLocated: true });
}

/** Puppet's label.combine_strings: "a, b, or c". */
function combine(words: readonly string[]): string {
    return words.length <= 2 ? words.join(' or ') : `${words.slice(0, -1).join(', ')}, or ${words[words.length - 1]}`;
}

function nameLine(name: string): RegExp {
    return new RegExp(`\\s+name:\\s+['"]?${escapeRe(name)}(?:[^\\w]|$)`);
}

/** HieraConfig#find_line_matching: the first line after `after` (ignoring comments) matching `re`. */
function findLine(lines: readonly string[], re: RegExp, after = 0): number | undefined {
    for (let i = after; i < lines.length; i++) {
        let quote: string | undefined;
        let stripped = '';
        for (const ch of lines[i]) {
            if (ch === '"' || ch === "'") quote = quote === ch ? undefined : (quote ?? ch);
            else if (ch === '#' && quote === undefined) break;
            stripped += ch;
        }
        if (re.test(stripped)) return i + 1;
    }
    return undefined;
}

function escapeRe(s: string): string {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

