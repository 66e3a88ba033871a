import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, isUserError, oneLine } from '../common/index.js';
import { SharedTypeSystem, TypeRegistry } from '../apply/index.js';
import { runEnc } from '../bindings/index.js';
import {
    BindingsCatalogModule, catalogModel, chooseEnvironment, createCatalogServices, EnvironmentCache, jsonText, normalizedResult, puppetCatalog,
    type CatalogServices, type CompileResult, type Environment
} from '../catalog/index.js';
import { encodeJson, encodeMsgpack } from '../model/index.js';
import { inEnvironment, readNodeRequest } from '../node/index.js';
import { ParsedFileCache } from '../parse/index.js';
import type { BatchNode } from './nodes.js';

export type BatchFormat = 'puppet' | 'json' | 'msgpack' | 'normalized';

/** What every node of a batch shares (sent once to each worker thread). */
export interface BatchSettings {
    readonly codedir: string;
    readonly outDir: string;
    readonly format: BatchFormat;
    readonly environment?: string;
    readonly trustedFile?: string;
    readonly classes: readonly string[];
    readonly settings: ReadonlyArray<readonly [string, string]>;
    readonly basemodulepath: readonly string[];
    /** False leaves ARM-8 bindings out (Hiera 5 alone), as `compile --no-bindings`. */
    readonly bindings: boolean;
}

export interface BatchTask extends BatchNode {
    readonly id: number;
}

/** One node's outcome: its output file, or the one line saying why it has none. */
export interface BatchResult {
    readonly id: number;
    readonly node: string;
    readonly file?: string;
    readonly error?: string;
}

/** The output file of a node: OUT/<certname>.json, or .msgpack. */
export function outputFile(settings: BatchSettings, node: string): string {
    return join(settings.outDir, `${node}.${settings.format === 'msgpack' ? 'msgpack' : 'json'}`);
}

function render(result: CompileResult, format: BatchFormat): string | Uint8Array {
    switch (format) {
        case 'normalized': return `${jsonText(normalizedResult(result))}\n`;
        case 'puppet': return `${jsonText(puppetCatalog(result))}\n`;
        case 'json': return encodeJson(catalogModel(result));
        case 'msgpack': return encodeMsgpack(catalogModel(result));
    }
}

/**
 * Compiles the nodes of one batch in one thread: one set of services and one EnvironmentCache for
 * all of them, so the environment is parsed once however many nodes the thread compiles.
 */
export class BatchCompiler {
    /** The files of every environment the nodes are served in, parsed once. */
    private readonly files = new ParsedFileCache();
    /** Services and cache per environment chosen for a node (by the ENC, environments.pp or --environment). */
    private readonly environments = new Map<string, { readonly services: CatalogServices; readonly cache: EnvironmentCache }>();
    private readonly settingsMap: ReadonlyMap<string, string>;

    constructor(private readonly settings: BatchSettings) {
        this.settingsMap = new Map(settings.settings);
    }

    private servedIn(env: Environment): { readonly services: CatalogServices; readonly cache: EnvironmentCache } {
        const key = JSON.stringify(env);
        let served = this.environments.get(key);
        if (!served) {
            // As `modelc compile`: the environment chosen for the request is the one every compile boots.
            const chosen = { Boot: () => (): Environment => env };
            served = {
                services: this.settings.bindings ? createCatalogServices(BindingsCatalogModule, chosen) : createCatalogServices(chosen),
                cache: new EnvironmentCache(this.files)
            };
            this.environments.set(key, served);
        }
        return served;
    }

    /**
     * Compiles one node and writes its output file; a node that fails (in its code, or its facts)
     * gets no file (a stale one from an earlier run is removed) and one `file:line:col: error`
     * line naming it.
     */
    compile(task: BatchTask): BatchResult {
        const s = this.settings;
        const file = outputFile(s, task.node);
        const failed = (error: string): BatchResult => {
            rmSync(file, { force: true });
            return { id: task.id, node: task.node, error };
        };
        try {
            const request = readNodeRequest({
                node: task.node, factsFile: task.factsFile,
                ...(s.trustedFile !== undefined ? { trustedFile: s.trustedFile } : {}), ...(s.environment !== undefined ? { environment: s.environment } : {})
            });
            // The node's environment is chosen as `modelc compile` chooses it: the ENC (a bindings
            // provider, so not with --no-bindings), then environments.pp, the ENC's or the agent's choice.
            const enc = s.bindings ? runEnc(s.codedir, request.certname) : undefined;
            const chosen = chooseEnvironment(s.codedir, {
                certname: request.certname, facts: request.facts, trusted: request.trusted,
                ...(request.agentEnvironment !== undefined ? { agentEnvironment: request.agentEnvironment } : {}), ...(enc ? { enc: enc.output } : {})
            }, s.basemodulepath);
            const node = inEnvironment(request, chosen.name);
            const { services, cache } = this.servedIn(chosen.environment);
            const result = services.compile(s.codedir, node.environment, {
                node: node.certname, facts: node.facts, trusted: node.trusted, classes: s.classes, settings: this.settingsMap, cache,
                ...(enc ? { enc } : {}),
                // Modules' Ruby types go into the apply stage's registry, as compile does.
                typeRegistry: (env, log) => new TypeRegistry(env, new SharedTypeSystem(), m => log?.(m.level, m.message))
            }, s.basemodulepath);
            if (result.error) {
                const r = result.error.report;
                const where = r.file ? `${r.file}${r.line !== undefined ? `:${r.line}` : ''}${r.pos !== undefined ? `:${r.pos}` : ''}` : s.codedir;
                return failed(`${where}: error ${result.error.code}: ${oneLine(r.basic ?? r.message)} (on node ${result.node})`);
            }
            writeFileSync(file, render(result, s.format));
            return { id: task.id, node: task.node, file };
        } catch (e) {
            if (isUserError(e)) return failed(e.diagnostics.map(d => `${formatDiagnostic(d)} (on node ${task.node})`).join('\n'));
            throw e;
        }
    }
}
