import { nodeFileSystem, pathExists, type FileSystemProvider } from '../common/index.js';
import { join } from 'node:path';
import type { PuppetValue } from '../values/index.js';
import { readNodeInputFile } from './input-file.js';
import { trustedFor } from './trusted.js';

/**
 * One node's request, decided once and handed to every stage and command (compile, lookup,
 * bindings, effective): who the node is, which environment it compiles in, its facts, its
 * `$trusted` and `$server_facts`.
 */
export interface NodeRequest {
    /** The node name the catalog is for (node matching, `$clientcert` when facts lack it). */
    readonly certname: string;
    /** The environment the request is served in. */
    readonly environment: string;
    /** The environment the agent asked for (`--environment`), when it asked; environments.pp may choose another. */
    readonly agentEnvironment?: string;
    readonly facts: ReadonlyMap<string, PuppetValue>;
    /** `$trusted`: authenticated, certname, extensions, hostname, domain, external. */
    readonly trusted: ReadonlyMap<string, PuppetValue>;
    /** `$server_facts`. */
    readonly serverFacts: ReadonlyMap<string, PuppetValue>;
}

export interface NodeRequestOptions {
    /** The node name given (`--node`). */
    readonly node?: string;
    /** A facts file (`--facts`): a plain mapping, `puppet facts` output `{name, values}` or a fact cache. */
    readonly factsFile?: string;
    /** Overrides of `$trusted` (`--trusted`): authenticated, certname, extensions, external. */
    readonly trustedFile?: string;
    /** The environment asked for (`--environment`); `production` when not given. */
    readonly environment?: string;
    /** Where facts.yaml, facts.yml or facts.json is taken from when no facts file is given. */
    readonly defaultFactsDir?: string;
    /** Where the facts and trusted files are read from (default: the disk). */
    readonly fs?: FileSystemProvider;
}

/** The node's facts and the name the facts file gives, if any. */
export interface FactsFile {
    readonly name?: string;
    readonly values: ReadonlyMap<string, PuppetValue>;
}

/**
 * A facts file as the reference reads it: `puppet facts` output and Puppet's fact cache are
 * `{name, values, timestamp...}` (the node's facts are `values`); anything else is the facts.
 */
export function readFactsFile(path: string, fs: FileSystemProvider = nodeFileSystem): FactsFile {
    const data = readNodeInputFile(path, 'facts', fs);
    const values = data.get('values');
    if (values instanceof Map && (data.has('name') || data.has('timestamp'))) {
        const name = data.get('name');
        return { ...(typeof name === 'string' ? { name } : {}), values: new Map([...values].map(([k, v]) => [String(k), v])) };
    }
    return { values: data };
}

/** The facts file a directory carries by default (facts.yaml, facts.yml, facts.json). */
export function defaultFactsFile(dir: string, fs: FileSystemProvider = nodeFileSystem): string | undefined {
    return ['facts.yaml', 'facts.yml', 'facts.json'].map(f => join(dir, f)).find(f => pathExists(fs, f));
}

/**
 * Reads the request of one node: its facts, the node name (given, else the facts file's name,
 * else the `clientcert` fact, else testnode.example.com, as the reference does) and `$trusted`
 * for that name with the overrides applied.
 */
export function readNodeRequest(opts: NodeRequestOptions): NodeRequest {
    const fs = opts.fs ?? nodeFileSystem;
    const factsPath = opts.factsFile ?? (opts.defaultFactsDir !== undefined ? defaultFactsFile(opts.defaultFactsDir, fs) : undefined);
    const facts: FactsFile = factsPath !== undefined ? readFactsFile(factsPath, fs) : { values: new Map() };
    const overrides = opts.trustedFile !== undefined ? readNodeInputFile(opts.trustedFile, 'trusted', fs) : new Map<string, PuppetValue>();
    const clientcert = facts.values.get('clientcert');
    const certname = opts.node ?? facts.name ?? (typeof clientcert === 'string' ? clientcert : 'testnode.example.com');
    const environment = opts.environment ?? 'production';
    return {
        certname,
        environment,
        ...(opts.environment !== undefined ? { agentEnvironment: opts.environment } : {}),
        facts: new Map([...facts.values].map(([k, v]) => [k, sanitizeFact(v)])),
        trusted: trustedFor(certname, overrides),
        serverFacts: serverFactsFor(environment)
    };
}

/**
 * Puppet::Node::Facts#sanitize_fact: hashes and arrays throughout, numbers, booleans and strings
 * kept; anything else (nil, a symbol) becomes its `to_s` ('' for nil).
 */
function sanitizeFact(v: PuppetValue): PuppetValue {
    if (v === null) return '';
    if (Array.isArray(v)) return v.map(sanitizeFact);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [sanitizeFact(k), sanitizeFact(x)]));
    return v;
}

/** The request served in another environment (chosen by environments.pp, or a booted environment's name). */
export function inEnvironment(request: NodeRequest, environment: string): NodeRequest {
    return environment === request.environment ? request : { ...request, environment, serverFacts: serverFactsFor(environment) };
}

function serverFactsFor(environment: string): ReadonlyMap<string, PuppetValue> {
    return new Map<string, PuppetValue>([['environment', environment]]);
}
