import { UserError } from '../common/index.js';
import type { ModelObject } from '../model/index.js';
import { valueOrigin } from './node-diff.js';
import { oneLine, where } from './report-describe.js';
import { ReviewIssues } from './issues.js';

type Obj = Record<string, unknown>;

const ORIGINS: Record<string, string> = {
    declared: 'given in the resource (or class) declaration',
    parameterDefault: "the parameter's default",
    resourceDefault: 'a resource default (Type { ... })',
    override: 'a resource override or collector',
    binding: 'looked up (automatic parameter lookup / data binding)',
    relationship: 'a relationship (chaining arrow or metaparameter)',
    compiler: 'set by the compiler',
    enc: 'the node classifier'
};

/** `CLASS::PARAM` or `Type[title]::param` → the resource reference and the parameter. */
function parseQuery(query: string, file: string | undefined): { type: string; title: string; param: string } {
    const ref = /^([^[\]]+)\[(.*)\]::([a-z_][a-z0-9_]*)$/s.exec(query);
    if (ref) return { type: ref[1], title: ref[2], param: ref[3] };
    const m = /^(?:::)?([a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*)::([a-z_][a-z0-9_]*)$/.exec(query.toLowerCase());
    if (!m) throw new UserError({ severity: 'error', code: ReviewIssues.USAGE, message: `--explain expects CLASS::PARAM or Type[title]::param, got '${query}'`, ...(file !== undefined ? { file } : {}) });
    return { type: 'Class', title: m[1], param: m[2] };
}

function sameRef(r: Obj, type: string, title: string): boolean {
    if (String(r.type).toLowerCase() !== type.toLowerCase()) return false;
    return type.toLowerCase() === 'class' ? String(r.title).toLowerCase() === title.toLowerCase() : String(r.title) === title;
}

/**
 * Where a class (or resource) parameter of a compiled catalog got its value, from the Catalog
 * model's provenance: how it was set, where it is declared, and for looked-up values the key,
 * the layer, the Hiera level or binding category, and the data file:line that won. FILE (the
 * environment compiled) locates a query that cannot be answered.
 */
export function explainParameter(catalog: ModelObject, query: string, file?: string): string {
    const q = parseQuery(query, file);
    const resource = ((catalog.resources as Obj[] | undefined) ?? []).find(r => sameRef(r, q.type, q.title));
    if (!resource) {
        throw new UserError({ severity: 'error', code: ReviewIssues.USAGE, message: `${q.type === 'Class' ? `class '${q.title}'` : `${q.type}[${q.title}]`} is not in the catalog of ${String(catalog.name)}`, ...(file !== undefined ? { file } : {}) });
    }
    const ref = String(resource.ref);
    const param = ((resource.parameters as Obj[] | undefined) ?? []).find(p => p.name === q.param);
    if (!param) return `${ref} ${q.param}: not set (undef, or no such parameter)\n`;
    const sensitive = Array.isArray(resource.sensitiveParameters) && resource.sensitiveParameters.includes(q.param);
    const out = [`${ref} ${q.param} = ${sensitive ? '[redacted: Sensitive]' : oneLine(param.value)}`];
    const o = valueOrigin(param);
    if (o) {
        out.push(`  origin: ${ORIGINS[o.kind] ?? o.kind}`);
        if (o.at) out.push(`  written at: ${where(o.at)}${o.at.column !== undefined ? `:${o.at.column}` : ''}`);
        const b = o.binding;
        if (b) {
            out.push(`  key: ${b.key}`);
            if (b.layer) out.push(`  layer: ${b.layer}`);
            if (b.category) out.push(`  ${b.namedBindings === 'hiera' ? 'hiera level' : 'category'}: ${b.category}`);
            if (b.namedBindings && b.namedBindings !== 'hiera') out.push(`  named bindings: ${b.namedBindings}`);
            if (b.at) out.push(`  value from: ${where(b.at)}${b.at.column !== undefined ? `:${b.at.column}` : ''}`);
            if (b.merge) out.push(`  merge: ${b.merge}${b.contributors ? ` of ${b.contributors.map(where).join(', ')}` : ''}`);
        }
    }
    const declared = (resource.provenance as Obj | undefined)?.declaredAt as Obj | undefined;
    if (declared && typeof declared.file === 'string') out.push(`  ${ref} declared at: ${declared.file}${typeof declared.line === 'number' ? `:${declared.line}` : ''}`);
    return `${out.join('\n')}\n`;
}
