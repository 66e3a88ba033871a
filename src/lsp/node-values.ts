import { isAbsolute, resolve } from 'node:path';
import { SharedTypeSystem, TypeRegistry } from '../apply/index.js';
import { formatDiagnostic, isUserError, oneLine } from '../common/index.js';
import { BindingsCatalogModule, catalogModel, createCatalogServices, EnvironmentCache } from '../catalog/index.js';
import type { ModelObject } from '../model/index.js';
import { readNodeRequest, type NodeRequest } from '../node/index.js';
import { explainParameter } from '../review/index.js';

/** The `modelc.node` setting: the node whose values the editor shows. */
export interface NodeSetting {
    /** The certificate name (default: the facts file's, as `modelc compile --node`). */
    readonly certname?: string;
    /** The facts file (YAML or JSON), relative to the environment directory or absolute. */
    readonly facts?: string;
    readonly environment?: string;
}

/**
 * What the server needs from its host that lives above it: the CLI's `modelc lookup --explain`
 * text for a key (the command adapter runs the command itself, so the editor shows exactly its output).
 */
export interface LspHost {
    explainLookup?(envDir: string, key: string, node: NodeSetting): string;
}

/** An answer for the editor: the explanation text, or why there is none. */
export interface NodeAnswer {
    readonly text: string;
    readonly ok: boolean;
}

/**
 * The values a chosen node gets: the environment is compiled for it once (as `modelc compile`,
 * bindings and Hiera included) and every class parameter is explained from the Catalog model's
 * provenance, as `modelc compile --explain CLASS::PARAM` prints it. Any change to the workspace
 * drops the compiled catalog; the next compile re-parses only the files that changed.
 */
export class NodeValues {
    private setting: NodeSetting | undefined;
    private compiled: { readonly root?: ModelObject; readonly error?: string } | undefined;
    /** Parsed manifests and templates kept between compiles; a change makes the next compile check them against the disk. */
    private readonly cache = new EnvironmentCache();

    constructor(private readonly envDir: () => string | undefined, private readonly host: LspHost) {}

    configure(setting: NodeSetting | undefined): void {
        this.setting = setting && (setting.certname !== undefined || setting.facts !== undefined) ? setting : undefined;
        this.compiled = undefined;
    }

    get node(): NodeSetting | undefined {
        return this.setting;
    }

    invalidate(): void {
        this.compiled = undefined;
        this.cache.refresh();
    }

    /** `modelc compile --explain CLASS::PARAM` for the chosen node; undefined without one. */
    explainParameter(className: string, param: string): NodeAnswer | undefined {
        const dir = this.envDir();
        if (!this.setting || dir === undefined) return undefined;
        this.compiled ??= this.compile(dir, this.setting);
        if (!this.compiled.root) return { text: this.compiled.error ?? 'the catalog did not compile', ok: false };
        try {
            return { text: explainParameter(this.compiled.root, `${className}::${param}`), ok: true };
        } catch (e) {
            return { text: messageOf(e), ok: false };
        }
    }

    /** `modelc lookup --explain KEY` for the chosen node. */
    explainLookup(key: string): NodeAnswer | undefined {
        const dir = this.envDir();
        if (!this.setting || dir === undefined || !this.host.explainLookup) return undefined;
        try {
            return { text: this.host.explainLookup(dir, key, this.resolved(dir, this.setting)), ok: true };
        } catch (e) {
            return { text: messageOf(e), ok: false };
        }
    }

    private resolved(dir: string, s: NodeSetting): NodeSetting {
        return { ...s, ...(s.facts !== undefined ? { facts: isAbsolute(s.facts) ? s.facts : resolve(dir, s.facts) } : {}) };
    }

    private compile(dir: string, setting: NodeSetting): { root?: ModelObject; error?: string } {
        let node: NodeRequest;
        try {
            const s = this.resolved(dir, setting);
            node = readNodeRequest({ node: s.certname, factsFile: s.facts, environment: s.environment, defaultFactsDir: dir });
        } catch (e) {
            return { error: messageOf(e) };
        }
        try {
            const result = createCatalogServices(BindingsCatalogModule).compile(dir, node.environment, {
                node: node.certname, facts: node.facts, trusted: node.trusted, classes: [], settings: new Map(), onLog: () => undefined, cache: this.cache,
                typeRegistry: env => new TypeRegistry(env, new SharedTypeSystem(), () => undefined)
            }, []);
            if (result.error) {
                const r = result.error.report;
                return { error: `${r.file ? `${r.file}${r.line !== undefined ? `:${r.line}` : ''}: ` : ''}error ${result.error.code}: ${oneLine(r.basic ?? r.message)} (on node ${result.node})` };
            }
            return { root: catalogModel(result).root };
        } catch (e) {
            return { error: messageOf(e) };
        }
    }
}

function messageOf(e: unknown): string {
    if (isUserError(e)) return e.diagnostics.map(formatDiagnostic).join('\n');
    return e instanceof Error ? e.message : String(e);
}
