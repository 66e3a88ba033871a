import { DevError, ResourceError } from '../errors.js';
import { rubyInspect } from '../inspect.js';
import type { LogSink } from '../log.js';
import type { TypeSystem } from '../type-system.js';
import { PSensitive, type PuppetValue } from '../values.js';
import { ProviderContext } from './context.js';
import type { TransportDefinition } from './definition.js';

/** The transport implementation contract (features.md §15.4). */
export interface Transport {
    verify(context: ProviderContext): void;
    facts(context: ProviderContext): Record<string, PuppetValue>;
    /** Frees resources; must never throw. */
    close(context: ProviderContext): void;
    /** What providers get as `context.transport` when it is not this object (a module's Ruby transport). */
    readonly handle?: unknown;
}

export type TransportFactory = (context: ProviderContext, connectionInfo: Record<string, PuppetValue>) => Transport;

const BOLT_URI_PARTS = ['uri', 'host', 'protocol', 'user', 'port', 'password'];
const BOLT_META = ['name', 'path', 'query', 'run-on', 'remote-transport', 'implementations'];

/**
 * `Transport.connect`: cleans Bolt inventory keys, applies defaults, checks the schema (always a
 * DevError for transports), checks mandatory attributes, then hands the implementation the
 * connection info with every `sensitive: true` value wrapped in Sensitive.
 */
export function connectTransport(definition: TransportDefinition, factory: TransportFactory, info: Record<string, PuppetValue>, ts: TypeSystem, log: LogSink): { transport: Transport; context: ProviderContext } {
    const context = new ProviderContext(definition, log);
    const cleaned = { ...info };
    const known = (k: string): boolean => definition.connectionInfo.some(a => a.name === k);
    if ('remote-transport' in cleaned) {
        for (const key of Object.keys(cleaned)) {
            if (known(key)) continue;
            if (BOLT_URI_PARTS.includes(key)) context.info(`Discarding superfluous bolt attribute: ${key}`);
            else if (BOLT_META.includes(key) || key.startsWith('remote-')) context.debug(`Discarding bolt metaparameter: ${key}`);
            else context.warning(`Discarding unknown attribute: ${key}`);
            delete cleaned[key];
        }
    }
    for (const attr of definition.connectionInfo) {
        if (cleaned[attr.name] === undefined && attr.default !== undefined) {
            context.debug(`Using default value for attribute: ${attr.name}, value: ${rubyInspect(attr.default)}`);
            cleaned[attr.name] = attr.default;
        }
    }
    checkConnectionInfo(definition, cleaned, ts);
    const missing = definition.connectionInfo.filter(a => cleaned[a.name] === undefined && !acceptsUndef(a.type, ts)).map(a => a.name);
    if (missing.length > 0) {
        throw new ResourceError(`The following mandatory attributes were not provided:\n    *  ${missing.join(', \n    *  ')}`);
    }
    const wrapped: Record<string, PuppetValue> = {};
    for (const [k, v] of Object.entries(cleaned)) {
        const attr = definition.connectionInfo.find(a => a.name === k);
        wrapped[k] = attr?.sensitive && !(v instanceof PSensitive) ? new PSensitive(v) : v;
    }
    return { transport: factory(context, wrapped), context };
}

function checkConnectionInfo(definition: TransportDefinition, info: Record<string, PuppetValue>, ts: TypeSystem): void {
    const unknown = Object.keys(info).filter(k => !definition.connectionInfo.some(a => a.name === k));
    const mismatches: string[] = [];
    for (const attr of definition.connectionInfo) {
        const v = info[attr.name];
        if (v === undefined) continue;
        const parsed = ts.parse(attr.type);
        if (!parsed.ok || ts.isInstance(parsed.type, v)) continue;
        const why = ts.describeMismatch('', parsed.type, v).trim();
        mismatches.push(attr.sensitive ? `${attr.name}: << redacted value >> ${why}` : `${attr.name}: ${String(v)} (${why})`);
    }
    if (unknown.length === 0 && mismatches.length === 0) return;
    let message = `The connection info provided does not match the Transport Schema for \`${definition.name}[]\``;
    if (unknown.length > 0) message += `\n Unknown attribute:\n${unknown.map(u => `    * ${u}`).join('\n')}\n`;
    if (mismatches.length > 0) message += `\n Value type mismatch:\n${mismatches.map(m => `    * ${m}`).join('\n')}\n`;
    throw new DevError(message);
}

function acceptsUndef(typeString: string, ts: TypeSystem): boolean {
    const parsed = ts.parse(typeString);
    return parsed.ok && ts.isInstance(parsed.type, null);
}
