import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { composeBindings, createHieraLookup, createTypeSupport, runEnc, type Composition, type EncAnswer, type HieraEnvironment, type HieraLookup } from '../bindings/index.js';
import { bootEnvironment, chooseEnvironment, type ChosenEnvironment, type Environment, type LogEntry } from '../catalog/index.js';
import { environmentFromBundle } from '../bundle/index.js';
import { isDirectoryPath, nodeFileSystem } from '../common/index.js';
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
    /** The environment chosen for the request, as the catalog compiles it. */
    readonly environment: Environment;
    /** The ENC's answer, when an ENC is configured (run once per request). */
    readonly enc?: EncAnswer;
}

/** The environment of an Environment bundle file (`modelc parse CODEDIR --bundle FILE`); undefined for a directory. */
export function bundledEnvironment(input: string): Environment | undefined {
    if (isDirectoryPath(nodeFileSystem, input) || nodeFileSystem.stat(input) === undefined) return undefined;
    return environmentFromBundle(readModelFile(input, { kind: 'Puppet' }), input);
}

/**
 * The environment of a node request in CODEDIR: the ENC (CODEDIR/bindings/providers.yaml) is
 * asked first (unless `askEnc` is false), then environments.pp, the ENC's or the agent's environment decides (see
 * chooseEnvironment). The request comes back served in the chosen environment.
 */
export function chooseFor(
    codedir: string, node: NodeRequest, options: { basemodulepath?: readonly string[]; onLog?: (entry: LogEntry) => void; askEnc?: boolean } = {}
): { chosen: ChosenEnvironment; node: NodeRequest; enc?: EncAnswer } {
    const { basemodulepath = [], onLog, askEnc = true } = options;
    // The ENC is configured among the bindings providers: --no-bindings leaves it out too.
    const enc = askEnc ? runEnc(codedir, node.certname) : undefined;
    const chosen = chooseEnvironment(codedir, {
        certname: node.certname, facts: node.facts, trusted: node.trusted,
        ...(node.agentEnvironment !== undefined ? { agentEnvironment: node.agentEnvironment } : {}), ...(enc ? { enc: enc.output } : {}), ...(onLog ? { onLog } : {})
    }, basemodulepath);
    return { chosen, node: inEnvironment(node, chosen.name), ...(enc ? { enc } : {}) };
}

/** Boots the environment as the catalog builder does (environment.conf module path) and reads the node request. */
export function bindingsRequest(codedir: string, opts: { environment?: string; node?: string; facts?: string; trusted?: string }): BindingsRequest {
    const read = (dir: string): NodeRequest =>
        readNodeRequest({ node: opts.node, factsFile: opts.facts, trustedFile: opts.trusted, environment: opts.environment, defaultFactsDir: dir });
    // A bundle is one environment, read from its files in memory (no ENC, no environments.pp).
    const bundle = bundledEnvironment(codedir);
    if (bundle) return { codedir: bundle.dir, envDir: bundle.dir, modulePath: bundle.modulepath, node: inEnvironment(read(bundle.dir), bundle.name), environment: bundle };
    const confdir = resolve(codedir);
    // Facts come before the environment is known: from the confdir with environments.pp, else from the asked environment.
    const factsDir = existsSync(join(confdir, 'environments.pp')) ? confdir : bootEnvironment(codedir, opts.environment ?? 'production').dir;
    const { chosen, node, enc } = chooseFor(codedir, read(factsDir));
    return {
        codedir: confdir, envDir: chosen.environment.dir, modulePath: chosen.environment.modulepath,
        ...(chosen.selection ? { bindingsDir: chosen.selection.bindingsdir } : {}), node, environment: chosen.environment, ...(enc ? { enc } : {})
    };
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
        ...(req.environment.fs ? { fs: req.environment.fs } : {})
    };
    return createHieraLookup({ environment, context: { environment: req.node.environment, facts: req.node.facts, trusted: req.node.trusted }, types: createTypeSupport() });
}

export function composeFor(req: BindingsRequest, hiera: HieraLookup | undefined): Composition {
    return composeBindings({
        codedir: req.envDir, ...(req.bindingsDir !== undefined ? { bindingsDir: req.bindingsDir } : {}), modulePath: req.modulePath, manifests: req.environment.manifests,
        environment: req.node.environment, node: req.node.certname, facts: req.node.facts, ...(hiera ? { hiera } : {}), ...(req.enc ? { enc: req.enc } : {}),
        ...(req.environment.fs ? { fs: req.environment.fs } : {})
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
