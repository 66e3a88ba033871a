import { capitalize } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import { refOf } from './ops/refs.js';
import type { CatalogRuntime } from './runtime.js';
import { isInjecting } from './functions/inject-functions.js';
import type { CatalogResource } from './resource.js';

/**
 * ARM-8 `bind variables`: every `/var/NAME` binding is a top-scope variable of the compile
 * (set after the facts, as an ENC's parameters are). Typed and abstract variables were checked
 * when the injector was made; an abstract variable nobody bound is that error.
 */
export function setBoundVariables(c: CatalogRuntime): void {
    const svc = c.lookupService;
    if (!isInjecting(svc) || !svc.variables) return;
    for (const [name, value] of svc.variables(c.lookupContext())) c.topScope.setLocal(name, value);
}

/**
 * ARM-8 Typed, Anonymous Binding (`bind class ntp to class ntp2`, `bind Mytype to Mybettertype`):
 * the lower-case class or resource type declared instead of `name`, following rebindings of the
 * replacement too; `name` itself when nothing rebinds it.
 */
export function boundTypeName(c: CatalogRuntime, kind: 'class' | 'resource', name: string): string {
    const svc = c.lookupService;
    if (!isInjecting(svc) || !svc.boundType) return name;
    const seen = new Set<string>();
    let n = name;
    while (!seen.has(n)) {
        seen.add(n);
        const key = kind === 'class' ? `Class[${n}]` : n.split('::').map(capitalize).join('::');
        const bound = svc.boundType(key, c.lookupContext());
        if (bound === undefined) return n;
        n = (/^Class\[(.+)\]$/s.exec(bound)?.[1] ?? bound).replace(/^::/, '').toLowerCase();
    }
    return n;
}

/** Where a class bound under `/classes` was included (a bindings file's `include`, the ENC's configuration), or undefined. */
export function boundClassOrigin(c: CatalogRuntime, name: string): { file: string; line: number; column: number } | undefined {
    const svc = c.lookupService;
    return isInjecting(svc) ? svc.classOrigin?.(name.replace(/^::/, '').toLowerCase(), c.lookupContext()) : undefined;
}

/** `/param/Type[title]/p`, else `/param/Type/p`: a resource parameter bound by `bind parameters`, or undefined. */
export function boundResourceParameter(c: CatalogRuntime, r: CatalogResource, name: string): { value: PuppetValue; key: string } | undefined {
    const svc = c.lookupService;
    if (!isInjecting(svc) || !svc.resourceParameter) return undefined;
    return svc.resourceParameter(r.type, r.title, name, c.lookupContext());
}

/**
 * ARM-8 `bind parameters Type to {...}` / `Type[title]` for a resource of a built-in or module
 * type ("<instantiateable-type> is a reference to a type or a resource instance"): what the
 * declaration and the resource defaults leave out, among the type's attributes and the
 * metaparameters (the seed binds `before`/`require`... this way). Never the identity. A define's
 * own parameters are asked when it is evaluated; only its metaparameters are set here.
 */
export function setBoundResourceParameters(c: CatalogRuntime, r: CatalogResource, accepts: (name: string) => boolean): void {
    const svc = c.lookupService;
    if (!isInjecting(svc) || !svc.resourceParameterNames || !svc.resourceParameter) return;
    const ctx = c.lookupContext();
    for (const name of svc.resourceParameterNames(r.type, r.title, ctx)) {
        if (r.params.has(name) || !accepts(name)) continue;
        const bound = svc.resourceParameter(r.type, r.title, name, ctx);
        if (bound) r.params.set(name, { value: bound.value, origin: 'binding', key: bound.key });
    }
}

/**
 * ARM-8 `bind dependency A -> B` / `A ~> B`: when both sides are in the catalog the source gets
 * `before` (or `notify`) the target, as a relationship in the manifest would; otherwise nothing.
 */
export function applyBoundDependencies(c: CatalogRuntime): void {
    const svc = c.lookupService;
    if (!isInjecting(svc) || !svc.dependencies) return;
    for (const d of svc.dependencies(c.lookupContext())) {
        const find = (refs: readonly string[]): CatalogResource[] => refs.map(parseRef).map(x => (x ? c.catalog.find(x.type, x.title) : undefined)).filter((r): r is CatalogResource => r !== undefined && !r.virtual);
        const sources = find(d.sources);
        const targets = find(d.targets);
        if (sources.length !== d.sources.length || targets.length !== d.targets.length) continue;
        const param = d.arrow === '~>' ? 'notify' : 'before';
        for (const s of sources) {
            for (const t of targets) {
                const prev = s.param(param);
                const list = prev === undefined || prev === null ? [] : Array.isArray(prev) ? prev : [prev];
                s.params.set(param, { value: [...list, refOf(t)], origin: 'binding', key: '/dependencies' });
            }
        }
    }
}

/**
 * ARM-8 "Binding Parameters using Instance Reference": the parameters of `Sql[one]` in the catalog
 * being built, as a hash; undefined when it is not (yet) there or is virtual.
 */
export function catalogResourceParameters(c: Pick<CatalogRuntime, 'catalog'>, reference: string): PuppetValue | undefined {
    const ref = parseRef(reference);
    const r = ref ? c.catalog.find(ref.type, ref.title) : undefined;
    if (!r || r.virtual) return undefined;
    const out = new Map<PuppetValue, PuppetValue>();
    for (const [k, v] of r.params) out.set(k, v.value);
    return out;
}

/** `File['/etc/x']`, `Service[sshd]`, `Class['ntp']` as written in a bindings file. */
function parseRef(text: string): { type: string; title: string } | undefined {
    const m = /^\s*([A-Za-z][\w:]*)\s*\[\s*(.*?)\s*\]\s*$/s.exec(text);
    if (!m) return undefined;
    const raw = m[2];
    const title = /^(['"])(.*)\1$/s.exec(raw)?.[2] ?? raw;
    return { type: m[1], title: m[1].toLowerCase() === 'class' ? title.replace(/^::/, '').toLowerCase() : title };
}
