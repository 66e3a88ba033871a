import type { StoredCatalog, StoredJson } from '../store/index.js';
import type { CompileResult } from './compiler.js';
import { puppetCatalog } from './puppet-format.js';
import type { Json } from './normalize.js';

function stored(v: Json | undefined): StoredJson {
    if (v === undefined || v === null) return null;
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(stored);
    if (typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, stored(x)]));
    return v;
}

/** A compiled catalog as the store keeps it: Puppet's catalog JSON resources (exported ones included) and edges. */
export function storedCatalog(r: CompileResult): StoredCatalog {
    const json = puppetCatalog(r) as { resources: Array<Record<string, Json | undefined>>; edges: Array<{ source: string; target: string }> };
    return {
        node: r.node, environment: r.environment, edges: json.edges,
        resources: json.resources.map(x => ({
            type: String(x.type), title: String(x.title), exported: x.exported === true, tags: (x.tags as string[] | undefined) ?? [],
            ...(typeof x.file === 'string' ? { file: x.file } : {}), ...(typeof x.line === 'bigint' ? { line: Number(x.line) } : {}),
            parameters: (stored(x.parameters) ?? {}) as Record<string, StoredJson>
        }))
    };
}
