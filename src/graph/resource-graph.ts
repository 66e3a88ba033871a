import type { ModelObject } from '../model/index.js';

/** The relationship metaparameters, and whether the edge they declare points away from the resource holding them. */
const RELATIONS: Readonly<Record<string, { readonly outward: boolean; readonly refresh: boolean }>> = {
    before: { outward: true, refresh: false },
    notify: { outward: true, refresh: true },
    require: { outward: false, refresh: false },
    subscribe: { outward: false, refresh: true }
};

export interface GraphResource {
    readonly ref: string;
    readonly type: string;
    /** Classes, defined-type instances, stages and nodes contain others. */
    readonly container: boolean;
    readonly inCycle: boolean;
}

export interface GraphEdge {
    readonly source: string;
    readonly target: string;
    readonly kind: 'containment' | 'before' | 'notify';
    /** The metaparameter (or chaining arrow recorded as one) that declared a relationship. */
    readonly via?: string;
    readonly inCycle: boolean;
}

export interface ResourceGraph {
    readonly name: string;
    readonly resources: readonly GraphResource[];
    readonly edges: readonly GraphEdge[];
    /** The resources of each dependency cycle (strongly connected set), each list sorted. */
    readonly cycles: readonly (readonly string[])[];
}

/** Puppet compares types case-insensitively, class titles too. */
function refKey(ref: string): string {
    const m = /^([^[]+)\[(.*)\]$/s.exec(ref);
    if (!m) return ref;
    return m[1].toLowerCase() === 'class' ? `class[${m[2].toLowerCase()}]` : `${m[1].toLowerCase()}[${m[2]}]`;
}

/**
 * The references in a relationship value: "Type[title]" strings (Puppet's catalog JSON) or
 * rich-data resource types `{__ptype: 'Type', __pvalue: "Service['nginx']"}` (the Catalog model).
 */
function refsIn(v: unknown): string[] {
    if (typeof v === 'string') return [v];
    if (Array.isArray(v)) return v.flatMap(refsIn);
    if (typeof v === 'object' && v !== null) {
        const o = v as { __ptype?: unknown; __pvalue?: unknown };
        if (o.__ptype !== 'Type' || typeof o.__pvalue !== 'string') return [];
        const m = /^([A-Z][\w:]*)\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]$/s.exec(o.__pvalue);
        if (!m) return [];
        const title = (m[2] ?? m[3]).replace(/\\(.)/g, '$1');
        return [`${m[1]}[${title}]`];
    }
    return [];
}

/** What a resource graph is drawn from: resources, containment and ordering edges, whatever the catalog's format. */
export interface GraphInput {
    readonly name: string;
    readonly resources: ReadonlyArray<{ readonly ref: string; readonly type: string }>;
    /** [container, contained] pairs. */
    readonly containment: ReadonlyArray<readonly [string, string]>;
    readonly relations: ReadonlyArray<{ readonly source: string; readonly target: string; readonly kind: 'before' | 'notify'; readonly via?: string }>;
}

/**
 * The graph input of a Catalog model: containment edges, and the ordering edges of the
 * before/require/notify/subscribe metaparameters (chaining arrows are recorded as those);
 * references to resources not in the catalog are left out.
 */
export function catalogGraphInput(catalog: ModelObject): GraphInput {
    const resources = (catalog.resources as ModelObject[] | undefined) ?? [];
    const byKey = new Map(resources.map(r => [refKey(String(r.ref)), String(r.ref)]));
    const containment = ((catalog.edges as ModelObject[] | undefined) ?? [])
        .filter(e => (e.kind ?? 'containment') === 'containment')
        .map(e => [String(e.source), String(e.target)] as const);
    const relations: Array<{ source: string; target: string; kind: 'before' | 'notify'; via: string }> = [];
    for (const r of resources) {
        const ref = String(r.ref);
        for (const p of (r.parameters as ModelObject[] | undefined) ?? []) {
            const rel = RELATIONS[String(p.name)];
            if (!rel) continue;
            for (const other of refsIn(p.value)) {
                const target = byKey.get(refKey(other));
                if (target === undefined) continue;
                const [source, dest] = rel.outward ? [ref, target] : [target, ref];
                relations.push({ source, target: dest, kind: rel.refresh ? 'notify' : 'before', via: String(p.name) });
            }
        }
    }
    return { name: String(catalog.name ?? ''), resources: resources.map(r => ({ ref: String(r.ref), type: String(r.type) })), containment, relations };
}

/** The resource relationship graph of a Catalog model (see catalogGraphInput and graphOf). */
export function resourceGraph(catalog: ModelObject): ResourceGraph {
    return graphOf(catalogGraphInput(catalog));
}

/**
 * The graph with every dependency cycle found as Puppet's agent finds them: a container is
 * entered before its contents and left after them, and an edge from or to a container orders
 * its whole content.
 */
export function graphOf(input: GraphInput): ResourceGraph {
    const containment = input.containment.map(([source, target]) => ({ source, target }));
    const containers = new Set(containment.map(e => e.source));
    const refs = input.resources.map(r => r.ref);
    const cycles = findCycles(refs, containment, input.relations, containers);
    const cyclic = new Map<string, number>();
    cycles.forEach((c, i) => { for (const ref of c) cyclic.set(ref, i); });
    const sameCycle = (a: string, b: string): boolean => cyclic.has(a) && cyclic.get(a) === cyclic.get(b);
    return {
        name: input.name,
        resources: input.resources.map(r => ({ ref: r.ref, type: r.type, container: containers.has(r.ref), inCycle: cyclic.has(r.ref) })),
        edges: [
            ...containment.map(e => ({ ...e, kind: 'containment' as const, inCycle: false })),
            ...input.relations.map(e => ({ source: e.source, target: e.target, kind: e.kind, ...(e.via !== undefined ? { via: e.via } : {}), inCycle: sameCycle(e.source, e.target) }))
        ],
        cycles
    };
}

/**
 * Strongly connected sets of more than one resource in the ordering graph where each container
 * is two vertices (its start before its contents, its end after them) and a relationship runs
 * from the end of its source to the start of its target. Tarjan's algorithm, iteratively.
 */
function findCycles(refs: readonly string[], containment: ReadonlyArray<{ source: string; target: string }>,
    relations: ReadonlyArray<{ source: string; target: string }>, containers: ReadonlySet<string>): string[][] {
    const start = (r: string): string => r;
    const end = (r: string): string => containers.has(r) ? `${r}#end` : r;
    const next = new Map<string, string[]>();
    const link = (a: string, b: string): void => { const l = next.get(a); if (l) l.push(b); else next.set(a, [b]); };
    for (const r of refs) if (containers.has(r)) link(start(r), end(r));
    for (const e of containment) { link(start(e.source), start(e.target)); link(end(e.target), end(e.source)); }
    for (const e of relations) link(end(e.source), start(e.target));
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const found: string[][] = [];
    let counter = 0;
    const vertices = refs.flatMap(r => containers.has(r) ? [start(r), end(r)] : [r]);
    for (const root of vertices) {
        if (index.has(root)) continue;
        const work: Array<{ v: string; i: number }> = [{ v: root, i: 0 }];
        index.set(root, counter); low.set(root, counter++); stack.push(root); onStack.add(root);
        while (work.length > 0) {
            const frame = work[work.length - 1];
            const succ = next.get(frame.v) ?? [];
            if (frame.i < succ.length) {
                const w = succ[frame.i++];
                if (!index.has(w)) {
                    index.set(w, counter); low.set(w, counter++); stack.push(w); onStack.add(w);
                    work.push({ v: w, i: 0 });
                } else if (onStack.has(w)) {
                    low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
                }
                continue;
            }
            work.pop();
            if (work.length > 0) {
                const parent = work[work.length - 1].v;
                low.set(parent, Math.min(low.get(parent)!, low.get(frame.v)!));
            }
            if (low.get(frame.v) === index.get(frame.v)) {
                const component: string[] = [];
                let w: string;
                do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== frame.v);
                const members = [...new Set(component.map(v => v.replace(/#end$/, '')))];
                // A container's own start/end pair is not a cycle; two resources in one set are.
                if (members.length > 1) found.push(members.sort());
            }
        }
    }
    return found.sort((a, b) => a[0] < b[0] ? -1 : 1);
}
