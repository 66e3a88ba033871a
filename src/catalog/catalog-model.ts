import { compareUtf8 } from '../common/index.js';
import type { Catalog as CatalogModel } from '../../generated/model/catalog.js';
import type * as C from '../../generated/model/catalog.js';
import { asModelObject, modelRegistry, toRichData, type Model } from '../model/index.js';
import { PClassType, PResourceType } from '../types/index.js';
import { PSensitive, type PuppetValue } from '../values/index.js';
import type { CompileResult } from './compiler.js';
import type { Where } from './errors.js';
import { toCatalogJson } from './normalize.js';
import type { CatalogResource, ParamValue } from './resource.js';

function location(w: Where | undefined): C.SourceLocation | undefined {
    if (!w || w.file === '') return undefined;
    return { $type: 'SourceLocation', file: w.file, ...(w.line > 0 ? { line: w.line } : {}), ...(w.column !== undefined ? { column: w.column } : {}) };
}

function point(file: string | undefined, line?: number, column?: number): C.SourceLocation | undefined {
    if (!file) return undefined;
    return { $type: 'SourceLocation', file, ...(line !== undefined && line > 0 ? { line } : {}), ...(column !== undefined ? { column } : {}) };
}

/** The key looked up and, when the data binding told, the level or binding that won and its data file:line. */
function bindingProvenance(key: string, p: ParamValue): C.BindingProvenance {
    const b = p.binding;
    const at = point(b?.file, b?.line, b?.column);
    return {
        $type: 'BindingProvenance', key,
        ...(b?.layer !== undefined ? { layer: b.layer } : {}),
        ...(b?.category !== undefined ? { category: b.category } : {}),
        ...(b?.namedBindings !== undefined ? { namedBindings: b.namedBindings } : {}),
        ...(b?.contributedBy !== undefined ? { contributedBy: b.contributedBy } : {}),
        ...(at ? { location: at } : {}),
        ...(b?.merge !== undefined ? { mergeStrategy: b.merge } : {}),
        ...(b?.contributors?.length ? { contributors: b.contributors.map(c => point(c.file, c.line, c.column)).filter((l): l is C.SourceLocation => l !== undefined) } : {})
    };
}

const KINDS: Record<string, C.ResourceKind | undefined> = { class: 'hostClass', define: 'definedType', builtin: undefined, node: undefined, stage: undefined };

const byteCompare = compareUtf8;

/**
 * Resource references as the "Type[title]" strings Puppet's catalog JSON carries (what the
 * metamodel's Parameter.value says), so every reader of a Catalog model finds relationship targets.
 */
function referencesAsStrings(v: PuppetValue): PuppetValue {
    if (Array.isArray(v)) return v.map(referencesAsStrings);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, referencesAsStrings(x)]));
    if (v instanceof PSensitive) return new PSensitive(referencesAsStrings(v.value));
    const ref = toCatalogJson(v);
    return typeof ref === 'string' && (v instanceof PResourceType || v instanceof PClassType) ? ref : v;
}

function resourceModel(r: CatalogResource): C.Resource {
    const parameters: C.Parameter[] = [];
    const sensitive: string[] = [];
    for (const [name, p] of [...r.outputParams()].sort((a, b) => byteCompare(a[0], b[0]))) {
        if (p.value === null) continue;
        let v: PuppetValue = p.value;
        if (v instanceof PSensitive) { sensitive.push(name); v = v.value; }
        const provenance: C.ValueProvenance = {
            $type: 'ValueProvenance', origin: p.origin ?? 'declared',
            ...(location(p.where) ? { location: location(p.where) } : {}),
            ...(p.key ? { binding: bindingProvenance(p.key, p) } : {})
        };
        parameters.push({ $type: 'Parameter', name, value: toRichData(referencesAsStrings(v)), provenance });
    }
    const kind = KINDS[r.kind];
    return {
        $type: 'Resource', ref: r.ref, type: r.type, title: r.title, tags: [...r.tags].sort(byteCompare),
        ...(r.exported ? { exported: true } : {}),
        ...(r.where ? { file: r.where.file, line: r.where.line } : {}),
        ...(kind ? { kind } : {}),
        parameters,
        ...(sensitive.length ? { sensitiveParameters: sensitive } : {}),
        provenance: {
            $type: 'ResourceProvenance',
            ...(location(r.where ?? r.exportedBy?.where) ? { declaredAt: location(r.where ?? r.exportedBy?.where) } : {}),
            ...(r.exportedBy ? { exportedBy: r.exportedBy.node } : {}),
            ...(r.scope?.resource ? { declaredIn: r.scope.resource.ref } : {}),
            ...(r.container ? { container: r.container.ref } : {})
        }
    };
}

/**
 * The compile result as a Catalog model (metamodel/catalog.emfatic): the catalog with resource
 * order, notices, logs, the error if any, and provenance for resources and parameter values.
 */
export function catalogModel(result: CompileResult): Model {
    const cat = result.catalog;
    const resources = [...cat.resources.values()];
    const present = new Set(resources);
    const root: CatalogModel = {
        $type: 'Catalog', name: result.node, environment: result.environment, catalogFormat: 2,
        tags: [...cat.tags].sort(byteCompare), classes: [...cat.classes],
        resources: [...resources].sort((a, b) => byteCompare(a.type, b.type) || byteCompare(a.title, b.title)).map(resourceModel),
        edges: cat.edges.filter(e => present.has(e.source) && present.has(e.target)).map(e => ({ $type: 'Edge', source: e.source.ref, target: e.target.ref })),
        resourceOrder: resources.map(r => r.ref),
        notices: result.logs.filter(l => l.level === 'notice').map(l => l.message),
        logs: result.logs.map(l => ({
            $type: 'LogEntry', level: l.level, message: l.message,
            ...(l.source !== undefined ? { source: l.source } : {}), ...(l.file !== undefined ? { file: l.file } : {}),
            ...(l.line !== undefined ? { line: l.line } : {})
        })),
        ...(result.error ? {
            error: {
                $type: 'CompileError', message: result.error.report.plain ? result.error.report.message : `${result.error.report.message} on node ${result.node}`,
                ...(result.error.report.basic !== undefined ? { basicMessage: result.error.report.basic } : {}),
                ...(result.error.report.issueCode !== undefined ? { issueCode: result.error.report.issueCode } : {}),
                ...(result.error.report.file ? { location: { $type: 'SourceLocation', file: result.error.report.file, ...(result.error.report.line !== undefined ? { line: result.error.report.line } : {}), ...(result.error.report.pos !== undefined ? { column: result.error.report.pos } : {}) } }
                    : result.error.report.at ? { location: { $type: 'SourceLocation', file: result.error.report.at.file, line: result.error.report.at.line, ...(result.error.report.at.column !== undefined ? { column: result.error.report.at.column } : {}) } } : {}),
                errorClass: result.error.report.rubyClass
            }
        } : {})
    };
    const index = modelRegistry().byPackageName('Catalog');
    if (!index) throw new Error('the Catalog package is not generated');
    return { index, root: asModelObject(root) };
}

export { toCatalogJson };
