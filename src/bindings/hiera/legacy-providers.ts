import { join } from 'node:path';
import { pathExists, type FileSystemProvider } from '../../common/index.js';
import { BindingsIssues } from '../issues.js';
import { defaultV5Config, v4FunctionConfig, type HieraConfig } from './config.js';
import { LookupError, PuppetErrorClass } from './errors.js';
import type { DataLayer } from './layer.js';

/**
 * Puppet 4's way of choosing a layer's data: `environment_data_provider` in environment.conf and
 * `"data_provider"` in a module's metadata.json ('none', 'hiera' or 'function'). Puppet 7 still
 * honours them, deprecated, unless a version 5 hiera.yaml is there (LookupAdapter's
 * initialize_env_provider and initialize_module_provider).
 */
export interface LegacyProviderInput {
    /** The setting's value and the line it is on; undefined when not set. */
    readonly setting: DataProviderSetting | undefined;
    /** The layer its hiera.yaml gives (null: no file, or a version 3 file that was ignored). */
    readonly layer: DataLayer | null;
    /** The module, for a module layer. */
    readonly moduleName?: string;
    /** environment.conf or metadata.json, as warnings name it. */
    readonly settingFile: string;
    /** The layer's hiera.yaml, as messages name it. */
    readonly configDisplay: string;
    /** Whether that hiera.yaml exists (a null `layer` beside it: a version 3 file, ignored). */
    readonly configExists: boolean;
    readonly environmentName: string;
    /** Puppet.warn_once: one warning per key; `file` undefined gives Puppet's "file & line not available" note. */
    readonly warnOnce: (key: string, message: string, file: string | undefined) => void;
    /** A layer for a configuration made without a file. */
    readonly make: (config: HieraConfig) => DataLayer;
}

export function legacyProviderLayer(input: LegacyProviderInput): DataLayer | null {
    const { layer, moduleName, settingFile, warnOnce } = input;
    const provider = input.setting?.name;
    // Our diagnostics point at the setting (Puppet's messages name no place).
    const at = { file: settingFile, ...(input.setting ? { line: input.setting.line, column: 1 } : {}) };
    const isModule = moduleName !== undefined;
    const settingKey = isModule ? `metadata.json#data_provider-${moduleName}` : 'environment.conf#data_provider';
    if (layer !== null && layer.config.version >= 5) {
        // A version 5 hiera.yaml wins over the setting.
        if (provider === undefined) return layer;
        if (isModule) {
            warnOnce(settingKey, `Defining "data_provider": "${provider}" in metadata.json is deprecated. It is ignored since a 'hiera.yaml' with version >= 5 is present`, settingFile);
        } else {
            warnOnce(settingKey, `Defining environment_data_provider='${provider}' in environment.conf is deprecated`, settingFile);
            if (provider !== 'hiera') {
                warnOnce('environment.conf#data_provider_overridden', `The environment_data_provider='${provider}' setting is ignored since '${input.configDisplay}' version >= 5`, settingFile);
            }
        }
        return layer;
    }
    if (provider === undefined) return layer;
    const defining = isModule ? `Defining "data_provider": "${provider}" in metadata.json is deprecated.` : `Defining environment_data_provider='${provider}' in environment.conf is deprecated.`;
    warnOnce(settingKey, layer === null ? `${defining} A 'hiera.yaml' file should be used instead` : defining, settingFile);
    switch (provider) {
        case 'none': return null;
        case 'hiera': {
            if (layer !== null) return layer;
            const config = defaultV5Config(input.configDisplay, isModule ? 'module' : 'environment');
            // The new provider reads the ignored version 3 file again and gets no configuration, which Puppet 7.23 calls a method on.
            if (input.configExists) {
                const source = '    config(lookup_invocation).configured_data_providers(lookup_invocation, self)';
                return input.make({
                    ...config, failure: new LookupError(`undefined method \`configured_data_providers' for nil:NilClass\n\n${source}\n${' '.repeat(source.indexOf('.configured'))}${'^'.repeat('.configured_data_providers'.length)}`, {
                        code: BindingsIssues.LOOKUP_CONFIG_UNKNOWN_PROVIDER, puppetClass: 'NoMethodError', at: { file: input.configDisplay }
                    })
                });
            }
            return input.make(config);
        }
        case 'function': {
            const fn = `${moduleName ?? 'environment'}::data`;
            warnOnce('legacy_provider_function', `Using of legacy data provider function '${fn}'. Please convert to a 'data_hash' function`, undefined);
            return input.make(v4FunctionConfig(fn, input.configDisplay));
        }
    }
    if (isModule) {
        // Puppet 7.23 applies `%` to the exception instead of its message (a bug), so what it raises is Ruby's NoMethodError.
        const source = `        raise Puppet::Error.new(_("Environment '%{env}', cannot find module_data_provider '%{provider}'")) % { env: environment.name, provider: provider_name }`;
        throw new LookupError(`undefined method \`%' for #<Puppet::Error: Environment '%{env}', cannot find module_data_provider '%{provider}'>\n\n${source}\n${' '.repeat(source.indexOf(')) %') + 3)}^`, {
            code: BindingsIssues.LOOKUP_CONFIG_UNKNOWN_PROVIDER, puppetClass: 'NoMethodError', at
        });
    }
    throw new LookupError(`Environment '${input.environmentName}', cannot find environment_data_provider '${provider}'`, {
        code: BindingsIssues.LOOKUP_CONFIG_UNKNOWN_PROVIDER, puppetClass: PuppetErrorClass.PUPPET, at
    });
}

/** A Puppet 4 data provider setting: its value and its 1-based line. */
export interface DataProviderSetting {
    readonly name: string;
    readonly line: number;
}

/** environment.conf's `environment_data_provider` (Puppet's settings file: `key = value`, `#` comments). */
export function environmentDataProvider(fs: FileSystemProvider, envDir: string): DataProviderSetting | undefined {
    const file = join(envDir, 'environment.conf');
    if (!pathExists(fs, file)) return undefined;
    let found: DataProviderSetting | undefined;
    fs.readText(file).split('\n').forEach((raw, i) => {
        const m = /^\s*environment_data_provider\s*=\s*(.*?)\s*$/.exec(raw.replace(/\s+#.*$/, ''));
        if (m) found = { name: m[1], line: i + 1 };
    });
    return found;
}

/** metadata.json's `data_provider` (unset when the file is missing, not JSON, or has no string there). */
export function moduleDataProvider(fs: FileSystemProvider, moduleDir: string): DataProviderSetting | undefined {
    const file = join(moduleDir, 'metadata.json');
    if (!pathExists(fs, file)) return undefined;
    const text = fs.readText(file);
    try {
        const data = JSON.parse(text) as unknown;
        const v = data !== null && typeof data === 'object' ? (data as Record<string, unknown>).data_provider : undefined;
        if (typeof v !== 'string') return undefined;
        const index = text.split('\n').findIndex(l => l.includes('"data_provider"'));
        return { name: v, line: index < 0 ? 1 : index + 1 };
    } catch {
        return undefined;
    }
}
