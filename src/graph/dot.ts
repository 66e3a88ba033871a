import { digraph, toDot, type NodeModel } from 'ts-graphviz';
import type { BindingsGrid } from './bindings-graph.js';
import type { ResourceGraph } from './resource-graph.js';

const CYCLE = '#d62728';

/**
 * DOT of a resource graph: resources as boxes (containers grey), containment as dashed grey
 * edges, `before`/`require` as solid and `notify`/`subscribe` as blue edges; resources and
 * edges of a dependency cycle in red, each cycle listed in the graph's label.
 */
export function resourceGraphDot(g: ResourceGraph): string {
    const label = g.cycles.length === 0 ? `Resources of ${g.name}` : `Resources of ${g.name}: ${g.cycles.length} dependency cycle${g.cycles.length === 1 ? '' : 's'}\n${g.cycles.map(c => `(${c.join(' => ')})`).join('\n')}`;
    const graph = digraph('resources', { rankdir: 'LR', label, labelloc: 't', fontname: 'Helvetica' }, d => {
        d.attributes.node.apply({ fontname: 'Helvetica', fontsize: 10, shape: 'box', style: 'rounded' });
        d.attributes.edge.apply({ fontname: 'Helvetica', fontsize: 9 });
        // Edges take the node objects: an id string would read "Class[A::B]" as node "Class[A" port ":B]".
        const nodes = new Map<string, NodeModel>();
        for (const r of g.resources) {
            nodes.set(r.ref, d.node(r.ref, {
                ...(r.container ? { style: 'rounded,filled', fillcolor: '#eeeeee' } : {}),
                ...(r.inCycle ? { color: CYCLE, fontcolor: CYCLE, penwidth: 2 } : {})
            }));
        }
        const node = (ref: string): NodeModel => nodes.get(ref) ?? d.node(ref);
        for (const e of g.edges) {
            const style = e.kind === 'containment' ? { style: 'dashed', color: '#999999', arrowhead: 'none' } as const
                : e.kind === 'notify' ? { color: '#1f77b4', label: e.via ?? '' } as const
                : { label: e.via ?? '' } as const;
            d.edge([node(e.source), node(e.target)], { ...style, ...(e.inCycle ? { color: CYCLE, fontcolor: CYCLE, penwidth: 2 } : {}) });
        }
    });
    return toDot(graph);
}

/** DOT of a bindings grid: one cluster per layer (highest precedence first), one box per category in it. */
export function bindingsGridDot(grid: BindingsGrid): string {
    const graph = digraph('bindings', { rankdir: 'TB', label: 'Bindings: layers (highest precedence first) × categories', labelloc: 't', fontname: 'Helvetica', compound: true }, d => {
        d.attributes.node.apply({ fontname: 'Helvetica', fontsize: 10, shape: 'box', style: 'rounded' });
        let previous: NodeModel | undefined;
        grid.layers.forEach((layer, i) => {
            const cells = grid.cells.filter(c => c.layer === layer);
            const ids = cells.map(c => `${layer}/${c.category}`);
            let anchor: NodeModel | undefined;
            d.subgraph(`cluster_${i}`, { label: `layer ${layer}`, style: 'rounded', color: '#777777' }, s => {
                if (cells.length === 0) anchor = s.node(`${layer}/(empty)`, { label: '(no bindings)', style: 'dashed' });
                cells.forEach((c, j) => {
                    const n = s.node(ids[j], { label: `${c.category}\n${c.bindings} binding${c.bindings === 1 ? '' : 's'}\n${c.namedBindings.join('\n')}` });
                    anchor ??= n;
                });
            });
            if (!anchor) return;
            if (previous !== undefined) d.edge([previous, anchor], { label: 'overrides', style: 'dotted' });
            previous = anchor;
        });
    });
    return toDot(graph);
}
