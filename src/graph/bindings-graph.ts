import type { ModelObject } from '../model/index.js';

/** One cell of the layers × categories grid: the bindings of one layer that apply in one category. */
export interface BindingsCell {
    readonly layer: string;
    /** "common" for bindings without a predicate, else the predicate (e.g. "node web01", "role web and os Debian"). */
    readonly category: string;
    /** The named bindings (or Hiera levels) contributing to the cell, in contribution order. */
    readonly namedBindings: readonly string[];
    /** How many bindings the cell holds. */
    readonly bindings: number;
}

export interface BindingsGrid {
    /** Layers from the highest precedence down. */
    readonly layers: readonly string[];
    /** Categories in the order they first appear. */
    readonly categories: readonly string[];
    readonly cells: readonly BindingsCell[];
}

function predicateText(p: ModelObject): string {
    switch (p.$type) {
        case 'Category': return `${String(p.categorization)} ${String(p.value)}`;
        case 'AndPredicate': return ((p.operands as ModelObject[] | undefined) ?? []).map(predicateText).join(' and ');
        case 'OrPredicate': return `(${((p.operands as ModelObject[] | undefined) ?? []).map(predicateText).join(' or ')})`;
        default: return p.$type;
    }
}

/** Counts the bindings below `b`, with the category each applies in (nested categories combine with "and"). */
function collect(b: ModelObject, category: string | undefined, add: (category: string, n: number) => void): void {
    const children = (b.bindings as ModelObject[] | undefined) ?? [];
    if (b.$type === 'CategorizedBindings') {
        const here = ((b.predicates as ModelObject[] | undefined) ?? []).map(predicateText).join(' and ');
        const combined = category ? `${category} and ${here}` : here;
        for (const c of children) collect(c, combined, add);
        return;
    }
    if (children.length > 0 || b.$type === 'NamedBindings' || b.$type === 'Bindings' || b.$type === 'HieraLevelBindings') {
        for (const c of children) collect(c, category, add);
        return;
    }
    add(category ?? 'common', 1);
}

/**
 * The grid of a Bindings model (LayeredBindings): for every layer and category, how many
 * bindings apply there and which named bindings hold them. A Hiera level is its own category
 * (its name), since it plays that part in precedence.
 */
export function bindingsGrid(model: ModelObject): BindingsGrid {
    const layers: string[] = [];
    const categories: string[] = [];
    const cells = new Map<string, { layer: string; category: string; namedBindings: string[]; bindings: number }>();
    for (const layer of (model.layers as ModelObject[] | undefined) ?? []) {
        const name = String(layer.name);
        layers.push(name);
        for (const nb of (layer.bindings as ModelObject[] | undefined) ?? []) {
            const label = String(nb.name ?? '(unnamed)');
            const level = nb.$type === 'HieraLevelBindings' ? `hiera: ${String(nb.levelName)}` : undefined;
            collect(nb, level, (category, n) => {
                if (!categories.includes(category)) categories.push(category);
                const key = `${name}\u0000${category}`;
                let cell = cells.get(key);
                if (!cell) { cell = { layer: name, category, namedBindings: [], bindings: 0 }; cells.set(key, cell); }
                if (!cell.namedBindings.includes(label)) cell.namedBindings.push(label);
                cell.bindings += n;
            });
        }
    }
    return { layers, categories, cells: [...cells.values()] };
}
