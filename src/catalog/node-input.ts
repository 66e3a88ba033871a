import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../common/index.js';
import type { PuppetValue } from '../values/index.js';

/** Plain YAML/JSON data as Puppet values (Integers as bigint, mappings as hashes). */
export function toPuppetData(d: unknown): PuppetValue {
    if (d === null || d === undefined) return null;
    if (typeof d === 'bigint' || typeof d === 'string' || typeof d === 'boolean') return d;
    if (typeof d === 'number') return Number.isInteger(d) && !String(d).includes('.') ? BigInt(d) : d;
    if (d instanceof Date) return d.toISOString();
    if (Array.isArray(d)) return d.map(toPuppetData);
    if (typeof d === 'object') return new Map(Object.entries(d as Record<string, unknown>).map(([k, v]) => [k, toPuppetData(v)]));
    return String(d);
}

/** Reads a YAML or JSON file into Puppet data; JSON floats keep their fraction. */
export function readDataFile(file: string): PuppetValue {
    const text = readFileSync(file, 'utf8');
    try {
        if (file.endsWith('.json')) {
            return toPuppetData(JSON.parse(text, (_k, v: unknown, ctx?: { source?: string }) =>
                typeof v === 'number' && ctx?.source !== undefined && /^-?\d+$/.test(ctx.source) ? BigInt(ctx.source) : v));
        }
        const cleaned = text.replace(/^---\s*!ruby\/object:Puppet::Node::Facts\s*$/m, '---');
        return toPuppetData(parseYaml(cleaned, { intAsBigInt: true }));
    } catch (e) {
        throw new UserError({ severity: 'error', code: 'EVAL_USAGE', message: `cannot read ${file}: ${(e as Error).message}`, file });
    }
}

export interface FactsInput {
    readonly name?: string;
    readonly facts: Map<string, PuppetValue>;
}

/** A facts file: a plain hash, `{name, values}`, or Puppet's YAML fact cache (`values:`). */
export function readFacts(file: string): FactsInput {
    const d = readDataFile(file);
    if (!(d instanceof Map)) return { facts: new Map() };
    const values = d.get('values');
    if (values instanceof Map && (d.has('name') || d.size <= 4)) {
        const name = d.get('name');
        return { name: typeof name === 'string' ? name : undefined, facts: new Map([...values].map(([k, v]) => [String(k), v])) };
    }
    return { facts: new Map([...d].map(([k, v]) => [String(k), v])) };
}

/** The facts file a case directory carries by default (facts.yaml, facts.yml, facts.json). */
export function defaultFactsFile(dir: string): string | undefined {
    return ['facts.yaml', 'facts.yml', 'facts.json'].map(f => join(dir, f)).find(f => existsSync(f));
}

/** The node name as the oracle chooses it: given, the facts file's name, the clientcert fact, or testnode.example.com. */
export function nodeNameFor(given: string | undefined, facts: FactsInput): string {
    if (given) return given;
    if (facts.name) return facts.name;
    const cc = facts.facts.get('clientcert');
    return typeof cc === 'string' ? cc : 'testnode.example.com';
}
