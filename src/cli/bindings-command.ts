import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { composeBindings, createHieraLookup, createTypeSupport, selectEnvironment, trustedFor, type Composition, type HieraEnvironment, type HieraLookup } from '../bindings/index.js';
import { bootEnvironment, defaultFactsFile, readDataFile, readFacts } from '../catalog/index.js';
import { bindingsGrid, bindingsGridDot, graphFormat, writeGraph } from '../graph/index.js';
import { encodeJson, encodeMsgpack } from '../model/index.js';
import type { PuppetValue } from '../values/index.js';
import { ExitCode, type CliIo } from './io.js';

export interface BindingsCommandOptions {
    readonly environment?: string;
    readonly node?: string;
    readonly facts?: string;
    readonly format?: 'json' | 'msgpack';
    /** Commander's `--no-hiera`: false leaves Hiera 5 data out of the layers. */
    readonly hiera?: boolean;
    /** Also write the layers × categories picture here (.dot or .svg). */
    readonly graph?: string;
}

/** One request's inputs, read once: the booted environment, the node, its facts. */
export interface BindingsRequest {
    readonly codedir: string;
    readonly environment: string;
    readonly envDir: string;
    readonly modulePath: readonly string[];
    /** environments.pp's bindingsdir; unset = ENVDIR/bindings. */
    readonly bindingsDir?: string;
    readonly node: string;
    readonly facts: ReadonlyMap<string, PuppetValue>;
    /** Overrides of $trusted (`--trusted`), as `modelc lookup` takes them. */
    readonly trusted?: ReadonlyMap<string, PuppetValue>;
}

/** Boots the environment as the catalog builder does (environment.conf module path) and reads the facts. */
export function bindingsRequest(codedir: string, opts: { environment?: string; node?: string; facts?: string; trusted?: string }): BindingsRequest {
    const trusted = opts.trusted !== undefined ? trustedOverrides(opts.trusted) : undefined;
    const readFor = (dir: string): { name?: string; facts: ReadonlyMap<string, PuppetValue> } => {
        const factsFile = opts.facts ?? defaultFactsFile(dir);
        return factsFile !== undefined ? readFacts(factsFile) : { facts: new Map<string, PuppetValue>() };
    };
    const nodeOf = (read: { name?: string; facts: ReadonlyMap<string, PuppetValue> }): string => {
        const fromFacts = read.facts.get('fqdn') ?? read.facts.get('clientcert');
        return opts.node ?? read.name ?? (typeof fromFacts === 'string' ? fromFacts : 'testnode.example.com');
    };
    if (existsSync(join(resolve(codedir), 'environments.pp'))) {
        // ARM-8: environments.pp decides; the requested environment is only $agent_environment.
        const read = readFor(resolve(codedir));
        const env = selectEnvironment({ confdir: codedir, facts: read.facts, ...(opts.environment !== undefined ? { agentEnvironment: opts.environment } : {}) });
        return { codedir: resolve(codedir), environment: env.name, envDir: env.envdir, modulePath: env.modulepath, bindingsDir: env.bindingsdir, node: nodeOf(read), facts: read.facts, ...(trusted ? { trusted } : {}) };
    }
    const environment = opts.environment ?? 'production';
    const env = bootEnvironment(codedir, environment);
    const read = readFor(env.dir);
    return { codedir: resolve(codedir), environment, envDir: env.dir, modulePath: env.modulepath, node: nodeOf(read), facts: read.facts, ...(trusted ? { trusted } : {}) };
}

function trustedOverrides(file: string): ReadonlyMap<string, PuppetValue> {
    const d = readDataFile(file);
    return d instanceof Map ? new Map([...d].map(([k, v]) => [String(k), v])) : new Map();
}

/** The Hiera 5 lookup of the request, as `modelc lookup` and the catalog builder set it up. */
export function hieraFor(req: BindingsRequest): HieraLookup {
    const confdir = req.codedir;
    const environment: HieraEnvironment = {
        name: req.environment, root: req.envDir, modulePath: req.modulePath,
        ...(resolve(req.envDir) !== confdir ? { globalConfig: join(confdir, 'hiera.yaml') } : {})
    };
    return createHieraLookup({ environment, context: { environment: req.environment, facts: req.facts, trusted: trustedFor(req.node, req.trusted ?? new Map()) }, types: createTypeSupport() });
}

export function composeFor(req: BindingsRequest, hiera: HieraLookup | undefined): Composition {
    return composeBindings({ codedir: req.envDir, ...(req.bindingsDir !== undefined ? { bindingsDir: req.bindingsDir } : {}), modulePath: req.modulePath, environment: req.environment, node: req.node, facts: req.facts, ...(hiera ? { hiera } : {}) });
}

/**
 * `modelc bindings CODEDIR`: composes the environment's layers (the site's `layer {}`s, or the
 * defaults `site` and `modules`, plus Hiera 5 data as the `hiera` layer) through the bindings
 * providers and prints the LayeredBindings model. Provider errors are user errors (exit 1).
 */
export function bindingsAction(codedir: string, opts: BindingsCommandOptions, io: CliIo): number {
    if (opts.graph !== undefined) graphFormat(opts.graph);
    const req = bindingsRequest(codedir, opts);
    const composition = composeFor(req, opts.hiera === false ? undefined : hieraFor(req));
    if (opts.graph !== undefined) writeGraph(opts.graph, bindingsGridDot(bindingsGrid(composition.model.root)));
    io.out(opts.format === 'msgpack' ? encodeMsgpack(composition.model) : encodeJson(composition.model));
    return ExitCode.OK;
}
