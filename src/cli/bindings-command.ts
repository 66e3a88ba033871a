import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { composeBindings, createHieraLookup, createTypeSupport, selectEnvironment, type Composition, type HieraEnvironment, type HieraLookup } from '../bindings/index.js';
import { bootEnvironment, type Environment } from '../catalog/index.js';
import { environmentFromBundle } from '../bundle/index.js';
import { isDirectoryPath, nodeFileSystem, type FileSystemProvider } from '../common/index.js';
import type { InjectionRequest } from '../injector/index.js';
import { bindingsGrid, bindingsGridDot, graphFormat, writeGraph } from '../graph/index.js';
import { encodeJson, encodeMsgpack, readModelFile } from '../model/index.js';
import { inEnvironment, readNodeRequest, type NodeRequest } from '../node/index.js';
import { ExitCode, type CliIo } from './io.js';

export interface BindingsCommandOptions {
    readonly environment?: string;
    readonly node?: string;
    readonly facts?: string;
    readonly trusted?: string;
    readonly format?: 'json' | 'msgpack';
    /** Commander's `--no-hiera`: false leaves Hiera 5 data out of the layers. */
    readonly hiera?: boolean;
    /** Also write the layers × categories picture here (.dot or .svg). */
    readonly graph?: string;
}

/** One request's inputs, read once: the booted environment and the node request. */
export interface BindingsRequest {
    readonly codedir: string;
    readonly envDir: string;
    readonly modulePath: readonly string[];
    /** environments.pp's bindingsdir; unset = ENVDIR/bindings. */
    readonly bindingsDir?: string;
    readonly node: NodeRequest;
    /** Where the environment's files are read from: the disk, or an environment bundle's files. */
    readonly fs?: FileSystemProvider;
}

/** The environment of an Environment bundle file (`modelc parse CODEDIR --bundle FILE`); undefined for a directory. */
export function bundledEnvironment(input: string): Environment | undefined {
    if (isDirectoryPath(nodeFileSystem, input) || nodeFileSystem.stat(input) === undefined) return undefined;
    return environmentFromBundle(readModelFile(input, { kind: 'Puppet' }), input);
}

/** Boots the environment as the catalog builder does (environment.conf module path) and reads the node request. */
export function bindingsRequest(codedir: string, opts: { environment?: string; node?: string; facts?: string; trusted?: string }): BindingsRequest {
    const read = (dir: string): NodeRequest =>
        readNodeRequest({ node: opts.node, factsFile: opts.facts, trustedFile: opts.trusted, environment: opts.environment, defaultFactsDir: dir });
    const bundle = bundledEnvironment(codedir);
    if (bundle) return { codedir: bundle.dir, envDir: bundle.dir, modulePath: bundle.modulepath, node: read(bundle.dir), ...(bundle.fs ? { fs: bundle.fs } : {}) };
    const confdir = resolve(codedir);
    if (existsSync(join(confdir, 'environments.pp'))) {
        // ARM-8: environments.pp decides; the requested environment is only $agent_environment.
        const node = read(confdir);
        const env = selectEnvironment({ confdir: codedir, facts: node.facts, ...(node.agentEnvironment !== undefined ? { agentEnvironment: node.agentEnvironment } : {}) });
        return { codedir: confdir, envDir: env.envdir, modulePath: env.modulepath, bindingsDir: env.bindingsdir, node: inEnvironment(node, env.name) };
    }
    const env = bootEnvironment(codedir, opts.environment ?? 'production');
    return { codedir: confdir, envDir: env.dir, modulePath: env.modulepath, node: read(env.dir) };
}

/** What the injector is created for: the request's node, environment, facts and `$trusted`. */
export function injectionRequest(node: NodeRequest): InjectionRequest {
    return { node: node.certname, environment: node.environment, facts: node.facts, trusted: node.trusted };
}

/** The Hiera 5 lookup of the request, as `modelc lookup` and the catalog builder set it up. */
export function hieraFor(req: BindingsRequest): HieraLookup {
    const confdir = req.codedir;
    const environment: HieraEnvironment = {
        name: req.node.environment, root: req.envDir, modulePath: req.modulePath,
        ...(resolve(req.envDir) !== confdir ? { globalConfig: join(confdir, 'hiera.yaml') } : {}),
        ...(req.fs ? { fs: req.fs } : {})
    };
    return createHieraLookup({ environment, context: { environment: req.node.environment, facts: req.node.facts, trusted: req.node.trusted }, types: createTypeSupport() });
}

export function composeFor(req: BindingsRequest, hiera: HieraLookup | undefined): Composition {
    return composeBindings({
        codedir: req.envDir, ...(req.bindingsDir !== undefined ? { bindingsDir: req.bindingsDir } : {}), modulePath: req.modulePath,
        environment: req.node.environment, node: req.node.certname, facts: req.node.facts, ...(hiera ? { hiera } : {}),
        ...(req.fs ? { fs: req.fs } : {})
    });
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
