import { join } from 'node:path';
import { isDirectoryPath, nodeFileSystem, pathExists } from '../../common/index.js';
import { Frame, parseRuby, PluginCallError, PluginRuntime, RClass, RObject, type PluginModule, type RValue } from '../../ruby/index.js';
import { parseTypeString } from '../../types/index.js';
import { DevError, PuppetError } from '../errors.js';
import type { LogSink } from '../log.js';
import type { TypeRegistry } from '../registry.js';
import { ResourceApiType } from '../rsapi/rsapi-type.js';
import { ClassicType } from '../dsl/type.js';
import type { ProviderContext } from '../rsapi/context.js';
import type { Transport } from '../rsapi/transport.js';
import type { PuppetValue } from '../values.js';
import { rubyProvider, RubyContexts, type RubyCall } from './ruby-provider.js';
import { RubyValues } from './ruby-values.js';

const camel = (s: string): string => s.split('_').map(p => p.charAt(0).toUpperCase() + p.slice(1)).join('');

/** The modules of a module path, the first directory winning for a name (Puppet's module list). */
export function modulesOf(modulepath: readonly string[]): PluginModule[] {
    const out = new Map<string, PluginModule>();
    for (const dir of modulepath) {
        if (!pathExists(nodeFileSystem, dir) || !isDirectoryPath(nodeFileSystem, dir)) continue;
        for (const name of nodeFileSystem.readdir(dir).sort()) {
            const path = join(dir, name);
            if (!out.has(name) && /^[a-z][a-z0-9_]*$/.test(name) && isDirectoryPath(nodeFileSystem, path)) out.set(name, { name, dir: path });
        }
    }
    return [...out.values()];
}

/** What a device shim (`Puppet::Util::NetworkDevice::<Name>::Device`) connects to. */
export interface DeviceTarget {
    /** The transport the shim names in its `super(name, url)`. */
    readonly transport: string;
    readonly config: RValue;
}

/**
 * The Ruby plugins of a module path on the apply side (`puppet resource`, `puppet device`):
 * classic types and Resource API types land in the environment's TypeRegistry, Resource API
 * providers and transports are module Ruby run by src/ruby under its safety rules (no host
 * access: a provider that runs commands or writes files fails with a located error).
 */
export class ModulePlugins {
    readonly rt: PluginRuntime;
    private readonly values: RubyValues;
    private readonly contexts: RubyContexts;
    /** The device the run serves (`puppet device`): device-specific provider classes are tried first. */
    device: string | undefined;

    constructor(private readonly registry: TypeRegistry, readonly modules: readonly PluginModule[], envDir: string, log: LogSink) {
        const warned = new Set<string>();
        this.rt = new PluginRuntime(modules, {
            environment: registry.environment,
            parseType: text => parseTypeString(text),
            callFunction: name => { throw new PluginCallError(`modelc cannot call the Puppet function '${name}' outside a compilation`, 'Puppet::Error'); },
            log: (level, message, source) => log({ level, message, time: new Date(), ...(source !== undefined ? { source } : {}) }),
            setting: name => (name === 'environment' ? registry.environment : undefined),
            fact: () => undefined,
            warnOnce: (key, message) => { if (!warned.has(key)) { warned.add(key); log({ level: 'warning', message, time: new Date() }); } },
            puppetStack: () => []
            // An agent (or `puppet resource`) runs after pluginsync, whose libdir is on $LOAD_PATH:
            // providers and their helpers are found with a plain require.
        }, registry, envDir, undefined, { moduleLibsOnLoadPath: true });
        // An agent has loaded the file type (its settings and pluginsync manage files) before any
        // module type: what that type's file defines (Puppet::Parameter::Boolean) is there.
        this.rt.coreTypeLoaded('file');
        this.values = new RubyValues(this.rt);
        this.contexts = new RubyContexts(this.values);
    }

    /** Loads a module's type (`lib/puppet/type/<name>.rb`); a Resource API type gets its Ruby provider, loaded late. */
    findType(name: string): boolean {
        if (!this.rt.findType(name)) return false;
        const type = this.registry.type(name);
        if (type instanceof ResourceApiType) this.registry.registerProvider(type.name, () => this.provider(type.name));
        // A classic type comes with every provider its modules ship (Puppet loads them with the type).
        if (type instanceof ClassicType) {
            for (const m of this.modules) {
                const dir = join(m.dir, 'lib', 'puppet', 'provider', type.name);
                if (!pathExists(nodeFileSystem, dir) || !isDirectoryPath(nodeFileSystem, dir)) continue;
                for (const f of nodeFileSystem.readdir(dir).filter(f => f.endsWith('.rb')).sort()) this.rt.loadFile(join(dir, f));
            }
        }
        return true;
    }

    /** Every `lib/puppet/transport/schema/*.rb` of the modules (the gem's `list_all_transports`). */
    loadTransportSchemas(): void {
        for (const m of this.modules) {
            const dir = join(m.dir, 'lib', 'puppet', 'transport', 'schema');
            if (!pathExists(nodeFileSystem, dir)) continue;
            for (const f of nodeFileSystem.readdir(dir).filter(f => f.endsWith('.rb')).sort()) this.rt.loadFile(join(dir, f));
        }
    }

    /** Requires `puppet/transport/schema/<name>` (the gem's `Transport.connect` step) and gives the transport its Ruby class. */
    transport(name: string): void {
        if (!this.registry.hasTransport(name)) {
            this.call(() => this.rt.require(`puppet/transport/schema/${name}`));
            if (!this.registry.hasTransport(name)) throw new DevError(`Transport for \`${name}\` not registered with \`${this.registry.environment}\``);
        }
        this.registry.setTransportFactory(name, (context, info) => this.transportInstance(name, context, info));
    }

    /** Whether a module has the device shim of a device.conf `type`. */
    hasDeviceShim(deviceType: string): boolean {
        return this.modules.some(m => pathExists(nodeFileSystem, join(m.dir, 'lib', 'puppet', 'util', 'network_device', deviceType, 'device.rb')));
    }

    /**
     * `puppet device`'s `Puppet::Util::NetworkDevice.init`: requires the device shim of a
     * device.conf `type` and creates it with the url; a Resource API shim
     * (`Transport::Wrapper`) says which transport it wraps.
     */
    deviceShim(deviceType: string, url: string): DeviceTarget {
        const feature = `puppet/util/network_device/${deviceType}/device`;
        if (!this.modules.some(m => pathExists(nodeFileSystem, join(m.dir, 'lib', `${feature}.rb`)))) throw new PuppetError(`cannot load such file -- ${feature}`);
        this.call(() => this.rt.require(feature));
        const cls = this.resolve(`Puppet::Util::NetworkDevice::${deviceType.charAt(0).toUpperCase()}${deviceType.slice(1)}::Device`);
        if (!(cls instanceof RClass)) throw new PuppetError(`uninitialized constant Puppet::Util::NetworkDevice::${deviceType.charAt(0).toUpperCase()}${deviceType.slice(1)}`);
        const device = this.call(() => this.rt.interp.send(cls, 'new', [url]));
        const wrapped = device instanceof RObject ? this.rt.ns.resourceApi.wrappers.get(device) : undefined;
        if (!wrapped) throw new PuppetError(`the device ${cls.name} is not a Puppet::ResourceApi::Transport::Wrapper: modelc connects to Resource API transports only`);
        return wrapped;
    }

    /** A Ruby value handed to Puppet code (the device's config hash). */
    fromRuby(v: RValue): PuppetValue {
        return this.values.fromRuby(v);
    }

    private provider(typeName: string): ReturnType<typeof rubyProvider> {
        const c = camel(typeName);
        const generic = `puppet/provider/${typeName}/${typeName}`;
        const candidates: Array<[string, string]> = [];
        if (this.device !== undefined) candidates.push([`puppet/provider/${typeName}/${this.device}`, `Puppet::Provider::${c}::${camel(this.device)}`]);
        candidates.push([generic, `Puppet::Provider::${c}::${c}`]);
        for (const [file, className] of candidates) {
            if (!this.modules.some(m => pathExists(nodeFileSystem, join(m.dir, 'lib', `${file}.rb`)))) continue;
            this.call(() => this.rt.require(file));
            const cls = this.resolve(className);
            if (!(cls instanceof RClass)) continue;
            const instance = this.call(() => this.rt.interp.send(cls, 'new', []));
            if (!(instance instanceof RObject)) throw new DevError(`${className}.new did not return a provider`);
            return rubyProvider(instance, this.values, this.contexts, this.invoker(), cls.isSubclassOf(this.rt.ns.resourceApi.simpleProvider));
        }
        if (this.device !== undefined) {
            throw new DevError(`Found neither the device-specific provider class Puppet::Provider::${c}::${camel(this.device)} in puppet/provider/${typeName}/${this.device} nor the generic provider class Puppet::Provider::${c}::${c} in ${generic}`);
        }
        throw new DevError(`provider class Puppet::Provider::${c}::${c} not found in ${generic}`);
    }

    private transportInstance(name: string, context: ProviderContext, info: Record<string, PuppetValue>): Transport {
        const file = `puppet/transport/${name}`;
        this.call(() => this.rt.require(file));
        const cls = this.resolve(`Puppet::Transport::${camel(name)}`);
        if (!(cls instanceof RClass)) throw new DevError(`uninitialized constant Puppet::Transport::${camel(name)}`);
        const ctx = this.contexts.wrap(context);
        const call = this.invoker();
        const instance = call(cls, 'new', [ctx, this.values.hashToRuby(info)]);
        const optional = (m: string): RValue => (this.rt.interp.respondsTo(instance, m) ? call(instance, m, [ctx]) : null);
        return {
            handle: instance,
            verify: () => { optional('verify'); },
            facts: () => {
                const f = this.values.fromRuby(optional('facts'));
                return f instanceof Map ? Object.fromEntries([...f].map(([k, v]) => [String(k), v])) : {};
            },
            close: () => { try { optional('close'); } catch { /* close never raises (the transport contract) */ } }
        };
    }

    /** Calls Ruby under the runtime's guard: a Ruby exception becomes a PluginCallError with its class, refusals located failures. */
    private invoker(): RubyCall {
        return (recv, method, args, block) => this.rt.guard(() => this.rt.interp.send(recv, method, args, block), this.rt.envDir, true);
    }

    private call<T>(f: () => T): T {
        return this.rt.guard(f, this.rt.envDir, true);
    }

    /** A constant path as Ruby resolves it (autoloaded stubs included); undefined when it is not defined. */
    private resolve(path: string): RValue | undefined {
        try {
            return this.call(() => this.rt.interp.runBody(parseRuby(`defined?(${path}) ? ${path} : nil`), new Frame(null, this.rt.interp.topContext())));
        } catch (e) {
            if (e instanceof PluginCallError) return undefined;
            throw e;
        }
    }
}
