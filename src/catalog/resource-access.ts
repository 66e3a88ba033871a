import { formatValue } from '../types/index.js';
import { type PuppetValue } from '../values/index.js';
import type { CatalogRuntime } from './runtime.js';
import { METAPARAMS } from './core-types.js';
import { EvalIssue, type Where } from './errors.js';
import { CatalogIssues } from './issues.js';

/**
 * `File['/x']['mode']`: the values of parameters of a resource in the catalog (Puppet's
 * access_PResourceType with a title). A resource default stands in for an unset parameter;
 * an unset one is undef; several keys, or an array of them, give an array.
 */
export function resourceParameters(c: CatalogRuntime, ref: { typeName: string; title: string }, keys: readonly PuppetValue[], where: Where): PuppetValue {
    const r = c.catalog.find(ref.typeName, ref.title);
    if (!r) throw EvalIssue.of(CatalogIssues.EVAL_UNKNOWN_RESOURCE, { type: ref.typeName, title: ref.title }, where);
    const many = keys.length > 1 || Array.isArray(keys[0]);
    const names = keys.flat(Infinity as 1).filter(k => k !== null);
    const values = names.map(k => {
        if (typeof k !== 'string' || !isParameterOf(c, ref.typeName, ref.title, k)) {
            // Ruby's String#capitalize: the first letter up, the rest down.
            const type = ref.typeName.charAt(0).toUpperCase() + ref.typeName.slice(1).toLowerCase();
            throw EvalIssue.of(CatalogIssues.EVAL_UNKNOWN_RESOURCE_PARAMETER, { type, title: ref.title, name: formatValue(k) }, where);
        }
        return r.param(k) ?? r.scope?.defaultsFor(r.typeKey).get(k)?.value ?? null;
    });
    return many ? values : values[0] ?? null;
}

/** Puppet's valid_parameter?: the type's attributes (a define's parameters) and the metaparameters. */
function isParameterOf(c: CatalogRuntime, typeName: string, title: string, name: string): boolean {
    if (METAPARAMS.has(name)) return true;
    // `Class['c']['x']`: a class's parameters and its name (a class has no title parameter).
    if (typeName.toLowerCase() === 'class') return name === 'name' || c.loader.findClass(title.toLowerCase())?.ast.params.some(p => p.name === name) === true;
    const core = c.resourceType(typeName);
    if (core) return core.attributes.has(name);
    const define = c.loader.findDefine(typeName.toLowerCase());
    return define === undefined || name === 'name' || name === 'title' || define.ast.params.some(p => p.name === name);
}
