import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createCatalogServices, jsonText, normalizedResult, type CatalogServices, type EnvironmentCache } from '../../src/catalog/index.js';
import { readNodeRequest } from '../../src/node/index.js';

export const CONFORMANCE_DIR = '/work/shared/conformance/catalog';

export interface ConformanceCase {
    readonly name: string;
    readonly dir: string;
    readonly node: string;
    readonly facts?: string;
    readonly trusted?: string;
    readonly settings: readonly string[];
    readonly classes: readonly string[];
}

export function conformanceCases(): ConformanceCase[] {
    if (!existsSync(CONFORMANCE_DIR)) return [];
    return readdirSync(CONFORMANCE_DIR).filter(n => existsSync(join(CONFORMANCE_DIR, n, 'case.yaml'))).sort().map(name => {
        const dir = join(CONFORMANCE_DIR, name);
        const y = parseYaml(readFileSync(join(dir, 'case.yaml'), 'utf8')) as Record<string, unknown>;
        return {
            name, dir, node: String(y.node ?? 'testnode.example.com'),
            facts: typeof y.facts === 'string' ? join(dir, y.facts) : undefined,
            trusted: typeof y.trusted === 'string' ? join(dir, y.trusted) : undefined,
            settings: (y.settings as string[] | undefined) ?? [],
            classes: (y.classes as string[] | undefined) ?? []
        };
    });
}

/** Compiles a case as the oracle would and returns our normalized JSON text. */
export function compileCase(c: ConformanceCase, services: CatalogServices = createCatalogServices(), cache?: EnvironmentCache): string {
    const node = readNodeRequest({ node: c.node, factsFile: c.facts, trustedFile: c.trusted });
    const settings = new Map(c.settings.map(s => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)] as [string, string]));
    const result = services.compile(c.dir, 'production', {
        node: node.certname, facts: node.facts, trusted: node.trusted, classes: c.classes, settings, ...(cache ? { cache } : {})
    });
    return jsonText(normalizedResult(result));
}

/**
 * Parses JSON text keeping Integer and Float apart: numbers become "i:<n>" or "f:<n>" strings,
 * so `2` and `2.0` compare different, as they are in Puppet.
 */
export function parseTyped(text: string): unknown {
    return JSON.parse(text, (_k, v: unknown, ctx?: { source?: string }) => {
        if (typeof v !== 'number') return v;
        const src = ctx?.source ?? String(v);
        return /^-?\d+$/.test(src) ? `i:${BigInt(src)}` : `f:${Number(src)}`;
    });
}

/** known-failures.txt: `case-name  reason` per line; `#` comments. */
export function knownFailures(file: string): Map<string, string> {
    const out = new Map<string, string>();
    if (!existsSync(file)) return out;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
        const t = line.trim();
        if (t === '' || t.startsWith('#')) continue;
        const m = /^(\S+)\s*(.*)$/.exec(t);
        if (m) out.set(m[1], m[2]);
    }
    return out;
}
