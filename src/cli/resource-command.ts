import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { UserError } from '../common/index.js';
import {
    ApplyIssues, createApplyServices, hieraYamlOf, jsonOf, LEVEL_ORDER, manifestOf, ModulePlugins, modulesOf, printedLogLine, Ral,
    readConnectionInfo, readDeviceConfig, type LogLevel, type LogMessage, type RalResource, type StrictMode
} from '../apply/index.js';
import { PluginFailure } from '../ruby/index.js';
import type { PuppetValue } from '../values/index.js';
import { ExitCode, type CliIo } from './io.js';

export interface ResourceCommandOptions {
    readonly root?: string;
    readonly modulepath?: string;
    readonly environment?: string;
    readonly to_yaml?: boolean;
    readonly to_json?: boolean;
    readonly strict?: StrictMode;
    readonly noop?: boolean;
    readonly target?: string;
    readonly deviceconfig?: string;
    readonly debug?: boolean;
    readonly verbose?: boolean;
}

/** Puppet's default device.conf on Debian (`$confdir/device.conf`). */
const DEFAULT_DEVICECONFIG = '/etc/puppet/device.conf';

/**
 * A failure of the whole command (Puppet's `Could not run:`), located at what the command was
 * pointed at: the device config for a device's failures, else the first module directory (where
 * the type and its providers were looked for), else --root.
 */
function failure(code: string, message: string, file: string): UserError {
    return new UserError({ severity: 'error', code, message, file });
}

/**
 * `modelc resource TYPE [TITLE] [ATTR=VALUE...]`, as `puppet resource` (and, with `--target`,
 * `puppet device --target NAME --resource`): lists every instance of a type, shows one, or sets
 * attributes through a one-resource run, printing Puppet's manifest form (or `--to_yaml` /
 * `--to_json`). Types come from the core set and from the modules of `--modulepath`.
 */
export function resourceAction(type: string, rest: readonly string[], options: ResourceCommandOptions, io: CliIo): number {
    const root = resolve(options.root ?? '/');
    const modulepath = (options.modulepath ?? '').split(':').filter(d => d !== '').map(d => resolve(d));
    const base = resolve(modulepath[0] ?? root);
    if (options.to_yaml && options.to_json) throw failure(ApplyIssues.RESOURCE, '--to_yaml and --to_json cannot be combined', base);
    if (!existsSync(root) || !statSync(root).isDirectory()) {
        throw new UserError({ severity: 'error', code: ApplyIssues.BAD_ROOT, message: `--root ${root} is not a directory`, file: root });
    }
    const minimum: LogLevel = options.debug ? 'debug' : options.verbose ? 'info' : 'notice';
    const shown = new Set(LEVEL_ORDER.slice(LEVEL_ORDER.indexOf(minimum)));
    // Puppet's console: notices and below on stdout, warnings and errors on stderr.
    const print = (m: LogMessage): void => {
        if (!shown.has(m.level)) return;
        const line = printedLogLine(m);
        if (m.level === 'debug' || m.level === 'info' || m.level === 'notice') io.out(line);
        else io.err(line);
    };
    let failed = false;
    const log = (m: LogMessage): void => {
        if (m.level === 'err') failed = true;
        print(m);
    };
    const services = createApplyServices({ log: () => log });
    const registry = services.registries.environment(options.environment ?? 'production');
    const plugins = new ModulePlugins(registry, modulesOf(modulepath), modulepath[0] ?? root, log);
    return located(base, () => {
        const title = rest[0];
        const parameters = new Map<string, string>();
        for (const setting of rest.slice(1)) {
            const m = /^(\w+)=(.+)$/s.exec(setting);
            if (!m) throw failure(ApplyIssues.RESOURCE, `Invalid parameter setting ${setting}`, base);
            parameters.set(m[1], m[2]);
        }
        const transport = options.target !== undefined ? connect(plugins, registry, options.target, options.deviceconfig ?? DEFAULT_DEVICECONFIG) : undefined;
        if (!registry.type(type) && !plugins.findType(type)) throw failure(ApplyIssues.RESOURCE, `Could not find type ${type}`, base);
        const ral = new Ral(registry, { root, noop: options.noop === true, strict: options.strict ?? 'warning', log, ...(transport !== undefined ? { transport } : {}) });
        let resources: RalResource[];
        if (title === undefined) {
            resources = ral.search(type);
        } else if (parameters.size === 0) {
            resources = [ral.find(type, title)];
        } else {
            const saved = ral.save(type, title, parameters);
            failed ||= saved.failed;
            resources = [saved.resource];
        }
        // Puppet `puts` the resources joined by newlines: an empty listing is one empty line.
        const text = options.to_yaml ? hieraYamlOf(type, resources, message => log({ level: 'warning', message, time: new Date() })) : options.to_json ? `${jsonOf(resources)}\n` : `${resources.map(manifestOf).join('\n')}\n`;
        io.out(text);
        return failed ? ExitCode.ERROR : ExitCode.OK;
    });
}

/**
 * `puppet device --target NAME`: the device.conf section, its device shim (a Resource API
 * Transport::Wrapper names the transport), the connection info from the shim's `file:///` URL
 * checked against the transport schema, and the connected transport providers reach as
 * `context.transport`.
 */
function connect(plugins: ModulePlugins, registry: ReturnType<ReturnType<typeof createApplyServices>['registries']['environment']>, target: string, deviceconfig: string): unknown {
    const devices = readDeviceConfig(deviceconfig);
    const device = devices.get(target);
    if (!device) throw failure(ApplyIssues.RESOURCE, `Target device / certificate '${target}' not found in ${deviceconfig}`, deviceconfig);
    const at = { file: deviceconfig, line: device.line, column: 1 };
    if (device.type === undefined) throw new UserError({ severity: 'error', code: ApplyIssues.DEVICE_CONFIG, message: `the device '${target}' has no type`, at });
    if (device.url === undefined) throw new UserError({ severity: 'error', code: ApplyIssues.DEVICE_CONFIG, message: `the device '${target}' has no url`, at });
    plugins.loadTransportSchemas();
    // A missing shim is a LoadError, which Puppet's device setup does not wrap in "Can't load".
    if (!plugins.hasDeviceShim(device.type)) throw failure(ApplyIssues.RESOURCE, `cannot load such file -- puppet/util/network_device/${device.type}/device`, deviceconfig);
    try {
        const shim = plugins.deviceShim(device.type, device.url);
        plugins.transport(shim.transport);
        plugins.device = shim.transport;
        const info = typeof shim.config === 'string' ? readConnectionInfo(shim.config) : plugins.fromRuby(shim.config);
        if (!(info instanceof Map)) throw new Error(`the connection info of '${target}' is not a hash`);
        const connection = Object.fromEntries([...info].map(([k, v]) => [String(k), v])) as Record<string, PuppetValue>;
        const transport = registry.connect(shim.transport, connection);
        return transport.handle ?? transport;
    } catch (e) {
        if (e instanceof UserError || e instanceof PluginFailure) throw e;
        throw new UserError({ severity: 'error', code: ApplyIssues.DEVICE_CONNECT, message: `Can't load ${device.type} for ${target}: ${e instanceof Error ? e.message : String(e)}`, at });
    }
}

/** Module Ruby that cannot run is an error at its place; Puppet's `Could not run:` failures are the command's. */
function located(base: string, f: () => number): number {
    try {
        return f();
    } catch (e) {
        if (e instanceof UserError) throw e;
        if (e instanceof PluginFailure) {
            // The interpreter names files relative to its base (the first module directory); say where from here.
            const file = relative(process.cwd(), resolve(base, e.file)) || e.file;
            throw new UserError({ severity: 'error', code: e.kind, message: e.message, at: { file, line: e.line, column: e.column } });
        }
        if (e instanceof Error && !(e instanceof RangeError)) throw failure(ApplyIssues.RESOURCE, e.message, base);
        throw e;
    }
}

