import { psychYaml, type RValue } from '../../ruby/index.js';
import { formatForDisplay } from '../inspect.js';
import type { TypeDefinition } from '../rsapi/definition.js';
import type { ResourceHash } from '../rsapi/provider.js';
import { toJson, toManifest } from '../rsapi/resource-shim.js';
import { capitalizeTypeName, PSensitive, type PuppetValue } from '../values.js';

/**
 * A resource as `puppet resource` shows it: a Resource API type's state goes through the gem's
 * ResourceShim (its own manifest form, read_only attributes commented out); a classic type's
 * pruned parameters through Puppet::Resource#to_manifest / #to_hiera_hash.
 */
export type RalResource =
    | { readonly kind: 'rsapi'; readonly type: string; readonly title: string; readonly values: ResourceHash; readonly definition: TypeDefinition }
    | {
        readonly kind: 'classic'; readonly type: string; readonly title: string; readonly params: ReadonlyArray<readonly [string, PuppetValue]>;
        /** Attributes whose values are Ruby Time objects in Puppet (converted, with a warning, for YAML). */
        readonly timeValued?: readonly string[];
    };

/** ensure first, then the rest by name (Puppet::Resource#to_manifest and #to_hiera_hash). */
function ordered(params: ReadonlyArray<readonly [string, PuppetValue]>): Array<readonly [string, PuppetValue]> {
    const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const ensure = sorted.findIndex(([k]) => k === 'ensure');
    if (ensure > 0) sorted.unshift(...sorted.splice(ensure, 1));
    return sorted;
}

/** One resource in Puppet's manifest form. */
export function manifestOf(r: RalResource): string {
    if (r.kind === 'rsapi') return toManifest(r.definition, r.title, r.values);
    const params = ordered(r.params);
    const width = Math.max(0, ...params.map(([k]) => k.length));
    const lines = params.map(([k, v]) => `  ${k.padEnd(width)} => ${formatForDisplay(v)},\n`).join('');
    return `${r.type} { '${r.title.replace(/'/g, "\\'")}':\n${lines}}`;
}

/** The attributes a Resource API resource shows (the shim's filtered keys), as data. */
function shimAttributes(def: TypeDefinition, values: ResourceHash): Array<readonly [string, PuppetValue]> {
    const single = def.attributes.filter(a => a.behaviour === 'namevar').length === 1;
    return Object.keys(values)
        .filter(k => k !== 'title' && values[k] !== null && values[k] !== undefined)
        .filter(k => { const a = def.attributes.find(x => x.name === k); return a !== undefined && !(a.behaviour === 'namevar' && single); })
        .map(k => [k, values[k]] as const);
}

function attributesOf(r: RalResource): Array<readonly [string, PuppetValue]> {
    return r.kind === 'rsapi' ? shimAttributes(r.definition, r.values) : ordered(r.params);
}

function data(v: PuppetValue): RValue {
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    if (Array.isArray(v)) return v.map(data);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [data(k), data(x)]));
    return v as RValue;
}

/**
 * `--to_yaml`: one Hiera document `{type => {title => attributes}}` for all the resources, as
 * Psych writes it (what `create_resources` and Hiera read back).
 */
export function hieraYamlOf(type: string, resources: readonly RalResource[], warn: (message: string) => void = () => undefined): string {
    for (const r of resources) {
        if (r.kind !== 'classic' || !r.timeValued) continue;
        // Puppet's to_data_hash names each converted value by a path it never pops: the second
        // Time of a resource is reported as File[x]['ctime']['mtime'].
        let path = `${capitalizeTypeName(r.type)}[${r.title}]`;
        for (const [k, v] of ordered(r.params)) {
            if (!r.timeValued.includes(k)) continue;
            path += `['${k}']`;
            warn(`${path} contains a Time value. It will be converted to the String '${String(v)}'`);
        }
    }
    const byTitle = new Map<RValue, RValue>(resources.map(r => [r.title, new Map<RValue, RValue>(attributesOf(r).map(([k, v]) => [k, data(v)]))]));
    // No resources merge to nil, which Psych writes as an empty value.
    return psychYaml(new Map<RValue, RValue>([[type.toLowerCase(), byTitle.size > 0 ? byTitle : null]]));
}

/** `--to_json` (the gem's ResourceShim#to_json, merged for a listing): `{"title":{"attr":value}}`. */
export function jsonOf(resources: readonly RalResource[]): string {
    const merged: Record<string, unknown> = {};
    for (const r of resources) {
        merged[r.title] = r.kind === 'rsapi'
            ? JSON.parse(toJson(r.definition, r.title, r.values))[r.title]
            : Object.fromEntries(attributesOf(r).map(([k, v]) => [k, plainJson(v)]));
    }
    return JSON.stringify(merged);
}

function plainJson(v: PuppetValue): unknown {
    if (typeof v === 'bigint') return Number(v);
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    if (Array.isArray(v)) return v.map(plainJson);
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plainJson(x)]));
    return v;
}
