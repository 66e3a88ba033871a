import { describe, expect, it } from 'vitest';
import { DevError, ResourceError, type ProviderContext, type Transport } from '../../src/apply/index.js';
import { PSensitive, type PuppetValue } from '../../src/values/index.js';
import { newRegistry } from './helpers.js';

const NEXUS = {
    name: 'nexus', desc: 'Connects to a Cisco Nexus device',
    connection_info: {
        hostname: { type: 'String', desc: 'The host to connect to.' },
        username: { type: 'String', desc: 'The user.' },
        password: { type: 'String', sensitive: true, desc: 'The password to connect.' },
        port: { type: 'Optional[Integer]', desc: 'The port to connect to.', default: 443n }
    }
};

class Nexus implements Transport {
    readonly calls: string[] = [];
    constructor(readonly context: ProviderContext, readonly info: Record<string, PuppetValue>) {}
    verify(): void { this.calls.push('verify'); }
    facts(): Record<string, PuppetValue> { return { os: 'nxos' }; }
    close(): void { this.calls.push('close'); }
}

describe('transports (features.md §15)', () => {
    it('connect applies defaults and wraps sensitive values end to end', () => {
        const { registry, logs } = newRegistry();
        registry.registerTransport(NEXUS, (c, info) => new Nexus(c, info));
        const t = registry.connect('nexus', { hostname: 'h', username: 'u', password: 'secret' }) as Nexus;
        expect(t.info.password).toBeInstanceOf(PSensitive);
        expect((t.info.password as PSensitive).value).toBe('secret');
        expect(t.info.port).toBe(443n);
        expect(logs.map(l => `${l.level}: ${l.message}`)).toEqual(['debug: nexus: Using default value for attribute: port, value: 443']);
        expect(JSON.stringify(logs)).not.toContain('secret');
        t.verify();
        expect(t.facts()).toEqual({ os: 'nxos' });
        t.close();
        expect(t.calls).toEqual(['verify', 'close']);
        expect(t.context.type.name).toBe('nexus');
    });

    it('schema errors redact sensitive values and are DevErrors; missing attributes are ResourceErrors', () => {
        const { registry } = newRegistry();
        registry.registerTransport(NEXUS, (c, info) => new Nexus(c, info));
        let e: unknown;
        try { registry.connect('nexus', { hostname: 'h', username: 'u', password: 5n, extra: 'x' }); } catch (x) { e = x; }
        expect(e).toBeInstanceOf(DevError);
        expect((e as Error).message).toBe('The connection info provided does not match the Transport Schema for `nexus[]`\n Unknown attribute:\n    * extra\n\n Value type mismatch:\n    * password: << redacted value >> expects a String value, got Integer\n');
        expect(() => registry.connect('nexus', { hostname: 'h' })).toThrow(new ResourceError('The following mandatory attributes were not provided:\n    *  username, \n    *  password'));
    });

    it('cleans Bolt inventory keys', () => {
        const { registry, logs } = newRegistry();
        registry.registerTransport(NEXUS, (c, info) => new Nexus(c, info));
        const t = registry.connect('nexus', { 'remote-transport': 'nexus', hostname: 'h', username: 'u', password: 'p', uri: 'x', 'run-on': 'y', other: 'z' }) as Nexus;
        expect(Object.keys(t.info).sort()).toEqual(['hostname', 'password', 'port', 'username']);
        expect(logs.map(l => `${l.level}: ${l.message}`).slice(0, 4)).toEqual([
            'debug: nexus: Discarding bolt metaparameter: remote-transport',
            'info: nexus: Discarding superfluous bolt attribute: uri',
            'debug: nexus: Discarding bolt metaparameter: run-on',
            'warning: nexus: Discarding unknown attribute: other'
        ]);
    });

    it('list returns deep copies; a second registration and an unknown name are errors', () => {
        const { registry } = newRegistry('production');
        registry.registerTransport(NEXUS);
        const list = registry.listTransports();
        expect(Object.keys(list)).toEqual(['nexus']);
        expect(list.nexus.connectionInfoOrder).toEqual(['hostname', 'username', 'password', 'port']);
        (list.nexus.connectionInfo as unknown as unknown[]).length = 0;
        expect(registry.listTransports().nexus.connectionInfo).toHaveLength(4);
        expect(() => registry.registerTransport(NEXUS)).toThrow('Transport `nexus` is already registered for `production`');
        expect(() => registry.connect('nope', {})).toThrow('Transport for `nope` not registered with `production`');
    });

    it('remote_resource providers reach the transport through the context', () => {
        const { registry } = newRegistry();
        const seen: unknown[] = [];
        registry.registerType({ name: 'vlan', desc: 'd', features: ['remote_resource'], attributes: {
            ensure: { type: 'Enum[present, absent]', desc: 'e' }, name: { type: 'String', desc: 'n', behaviour: 'namevar' } } },
        () => ({ get: c => { seen.push(c.transport); return []; }, set: () => undefined }));
        const run = registry.type('vlan')?.startRun({ root: '/', noop: true, strict: 'warning', log: () => undefined, transport: 'the-transport' });
        run?.instantiate({ type: 'vlan', title: 'v1', ref: 'Vlan[v1]', parameters: new Map([['ensure', 'present']]), sensitiveParameters: new Set(), tags: [] })
            .evaluate({ log: () => undefined });
        expect(seen).toEqual(['the-transport']);
    });
});
