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
