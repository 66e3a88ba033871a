import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApplyServices, SharedTypeSystem, TypeRegistry, type LogMessage, type RunEnvironment, type StrictMode } from '../../src/apply/index.js';

export const typeSystem = new SharedTypeSystem();

/** A fresh registry with the core types and a log that the test can read. */
export function newRegistry(environment = 'production'): { registry: TypeRegistry; logs: LogMessage[] } {
    const logs: LogMessage[] = [];
    const services = createApplyServices({ log: () => m => { logs.push(m); } });
    return { registry: services.registries.environment(environment), logs };
}

export function tempRoot(prefix = 'modelc-apply-'): string {
    return mkdtempSync(join(tmpdir(), prefix));
}

export function runEnv(logs: LogMessage[], options: { noop?: boolean; strict?: StrictMode; root?: string } = {}): RunEnvironment {
    return { root: options.root ?? '/', noop: options.noop ?? false, strict: options.strict ?? 'warning', log: m => { logs.push(m); } };
}

export function messages(logs: readonly LogMessage[], level?: string): string[] {
    return logs.filter(l => level === undefined || l.level === level).map(l => l.message);
}

import type { ApplyCatalog, ApplyResult, CatalogResource } from '../../src/apply/index.js';
import { applyCatalog, canonicalRef } from '../../src/apply/index.js';
import type { PuppetValue } from '../../src/values/index.js';

/** A resource for an in-memory catalog: `res('apt_key', 'k', { ensure: 'present' })`. */
export function res(type: string, title: string, params: Record<string, PuppetValue> = {}, sensitive: string[] = []): CatalogResource {
    return {
        type: type.toLowerCase(), title, ref: canonicalRef(`${type}[${title}]`),
        parameters: new Map(Object.entries(params)), sensitiveParameters: new Set(sensitive), tags: [], file: 'site.pp', line: 1
    };
}

/** A catalog of resources contained in Class[main] in Stage[main], as the compiler makes them. */
export function catalogOf(resources: CatalogResource[], relationships: ApplyCatalog['relationships'] = []): ApplyCatalog {
    const stage = res('Stage', 'main');
    const main = res('Class', 'main');
    return {
        name: 'node.example.com', environment: 'production', file: 'catalog.json',
        resources: [stage, main, ...resources],
        containment: [[stage.ref, main.ref], ...resources.map(r => [main.ref, r.ref] as const)],
        relationships
    };
}

/** Applies and returns the result plus the printed lines (debug excluded unless asked). */
export function run(registry: TypeRegistry, catalog: ApplyCatalog, options: { noop?: boolean; strict?: StrictMode; root?: string; debug?: boolean; cli?: boolean } = {}): { result: ApplyResult; lines: string[] } {
    const lines: string[] = [];
    const result = applyCatalog(catalog, registry, {
        root: options.root ?? '/', noop: options.noop ?? false, strict: options.strict ?? 'warning', ...(options.cli ? { cli: true } : {}),
        onLog: m => { if (options.debug || (m.level !== 'debug' && m.level !== 'info')) lines.push(`${m.level}: ${m.source ? `${m.source}: ` : ''}${m.message}`); }
    });
    return { result, lines: lines.filter(l => !l.includes('Applied catalog')) };
}
