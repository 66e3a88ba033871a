import type { ModelObject } from '../model-object.js';
import type { BindingOrigin, DiffProfile, Provenance } from './diff-profile.js';

function str(v: unknown): string | undefined {
    return typeof v === 'string' ? v : undefined;
}

function strings(v: unknown): string {
    return Array.isArray(v) ? v.map(String).join(', ') : '';
}

function location(v: unknown): Provenance | undefined {
    if (typeof v !== 'object' || v === null) return undefined;
    const o = v as { file?: unknown; line?: unknown; column?: unknown };
    if (typeof o.file !== 'string') return undefined;
    return {
        file: o.file,
        ...(typeof o.line === 'number' ? { line: o.line } : {}),
        ...(typeof o.column === 'number' ? { column: o.column } : {})
    };
}

/** Generic provenance: `file`/`line` attributes, or a contained location-like object. */
export function genericProvenance(obj: ModelObject): Provenance | undefined {
    const own = location(obj);
    if (own) return own;
    for (const name of ['location', 'source', 'declaredAt', 'sourceLocation']) {
        const found = location(obj[name]);
        if (found) return found;
    }
    const prov = obj.provenance as Record<string, unknown> | undefined;
    return prov ? location(prov.location) ?? location(prov.declaredAt) : undefined;
}

function bindingOf(v: unknown): BindingOrigin | undefined {
    if (typeof v !== 'object' || v === null) return undefined;
    const b = v as Record<string, unknown>;
    const key = str(b.key);
    if (!key) return undefined;
    const loc = location(b.location);
    return {
        key,
        ...(str(b.layer) ? { layer: str(b.layer) } : {}),
        ...(str(b.category) ? { category: str(b.category) } : {}),
        ...(str(b.namedBindings) ? { namedBindings: str(b.namedBindings) } : {}),
        ...(loc ? { location: loc } : {})
    };
}

const catalog: DiffProfile = {
    keys: {
        Resource: o => str(o.ref) ?? `${str(o.type)}[${str(o.title)}]`,
        Parameter: o => str(o.name),
        Edge: o => `${str(o.source)} -> ${str(o.target)}${o.kind ? ` (${str(o.kind)})` : ''}`,
        FileMetadata: o => str(o.path)
    },
    anchors: new Set(['Catalog', 'Resource', 'Edge', 'FileMetadata']),
    ignored: new Set(['Resource.file', 'Resource.line', 'Resource.provenance', 'Parameter.provenance', 'Edge.location']),
    unordered: new Set(['Catalog.resources', 'Catalog.edges', 'Resource.parameters', 'Catalog.metadata']),
    // Puppet lists sensitive parameters by name instead of wrapping their values.
    isSecret: (obj, feature, container) => obj.$type === 'Parameter' && feature === 'value'
        && Array.isArray(container?.sensitiveParameters) && (container.sensitiveParameters as unknown[]).includes(obj.name),
    provenance: o => {
        const prov = o.provenance as Record<string, unknown> | undefined;
        return location(prov?.location) ?? location(prov?.declaredAt) ?? genericProvenance(o);
    },
    binding: o => bindingOf((o.provenance as Record<string, unknown> | undefined)?.binding),
    // Puppet's catalog holds parameters as a hash: octocatalog-diff's structure is ["parameters", NAME].
    octocatalog: (owner, structure) => owner.$type !== 'Resource' ? undefined : {
        type: str(owner.type) ?? '',
        title: str(owner.title) ?? '',
        structure: structure[0] === 'parameters' && structure.length > 2 ? structure.slice(0, 2) : structure
    }
};

/** ARM-8 keys: a binding is known by its type and name (and the multibind it contributes to). */
function bindingKey(o: ModelObject): string {
    const key = `${o.type ? `${str(o.type)}/` : ''}${str(o.name) ?? ''}`;
    switch (o.$type) {
        case 'Binding': return `${key}${o.multibindId ? ` in ${str(o.multibindId)}` : ''}`;
        case 'Multibinding': return `multibind ${key}${o.id ? ` as ${str(o.id)}` : ''}`;
        default: return `${o.$type} ${key}`;
    }
}

function predicateKey(o: unknown): string {
    const p = o as ModelObject;
    switch (p.$type) {
        case 'Category': return `${str(p.categorization)} ${str(p.value)}`;
        case 'AndPredicate': return (p.operands as ModelObject[]).map(predicateKey).join(' and ');
        case 'OrPredicate': return `(${(p.operands as ModelObject[]).map(predicateKey).join(' or ')})`;
        default: return p.$type;
    }
}

const bindingClasses = ['Binding', 'Multibinding', 'ParametersBinding', 'VariablesBinding', 'ParameterMapBinding', 'AliasBinding', 'RenamedBinding', 'Rebinding'];

const bindings: DiffProfile = {
    keys: {
        ...Object.fromEntries(bindingClasses.map(c => [c, bindingKey])),
        CategorizedBindings: o => `when ${(o.predicates as ModelObject[] | undefined ?? []).map(predicateKey).join(' and ')}`,
        IncludeClassesBinding: o => `include ${strings(o.classNames)}`,
        ExcludeClassesBinding: o => `exclude ${strings(o.classNames)}`,
        DependencyBinding: o => `${strings(o.sources)} ${str(o.arrow) ?? 'before'} ${strings(o.targets)}`,
        Category: o => predicateKey(o),
        AndPredicate: o => predicateKey(o),
        OrPredicate: o => predicateKey(o)
    }
};

const effectiveBindings: DiffProfile = {
    keys: {
        CategoryValue: o => str(o.categorization),
        Candidate: o => `${str(o.layer)}: ${str(o.category) ?? 'common'}${o.namedBindings ? ` (${str(o.namedBindings)})` : ''}`,
        Contribution: o => `${str(o.layer)}: ${str(o.name) ?? ''}${o.namedBindings ? ` (${str(o.namedBindings)})` : ''}`
    }
};

const report: DiffProfile = {
    keys: {
        Event: o => str(o.property) ?? str(o.name),
        Metric: o => str(o.name),
        MetricCategory: o => str(o.name)
    },
    unordered: new Set(['Report.resourceStatuses'])
};

const PROFILES: Readonly<Record<string, DiffProfile>> = {
    Catalog: catalog,
    Bindings: bindings,
    EffectiveBindings: effectiveBindings,
    Report: report
};

export function diffProfileFor(packageName: string): DiffProfile {
    return PROFILES[packageName] ?? {};
}
