import { Document, isScalar, visit } from 'yaml';
import { formatForDisplay } from '../inspect.js';
import type { PuppetValue } from '../values.js';
import { CUSTOM_INSYNC_TRIGGER, namevars, type TypeDefinition } from './definition.js';
import type { ResourceHash } from './provider.js';

/** The attributes `puppet resource` shows: the type's own (not what else get returned), not title, not the hidden trigger, not a lone namevar, not undef. */
function shownKeys(def: TypeDefinition, values: ResourceHash): string[] {
    const nvs = namevars(def).map(a => a.name);
    return Object.keys(values).filter(k => k !== 'title' && k !== CUSTOM_INSYNC_TRIGGER && def.attributes.some(a => a.name === k)
        && !(nvs.length === 1 && k === nvs[0]) && values[k] !== null && values[k] !== undefined);
}

/**
 * `puppet resource` output of one resource (the gem's ResourceShim#to_manifest): read_only
 * attributes commented out, in the order the hash has them.
 */
export function toManifest(def: TypeDefinition, title: string, values: ResourceHash): string {
    const lines = shownKeys(def, values).map(k => {
        const readOnly = def.attributes.find(a => a.name === k)?.behaviour === 'read_only';
        return `${readOnly ? '#' : ' '} ${k} => ${formatForDisplay(values[k])},${readOnly ? ' # Read Only' : ''}`;
    });
    return [`${def.name} { ${formatForDisplay(title)}: `, ...lines, '}'].join('\n');
}

function plain(v: PuppetValue): unknown {
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(plain);
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
    return v;
}

/** ResourceShim#to_json: `{"title":{"attr":"value"}}`. */
export function toJson(def: TypeDefinition, title: string, values: ResourceHash): string {
    return JSON.stringify({ [title]: Object.fromEntries(shownKeys(def, values).map(k => [k, plain(values[k])])) });
}

/**
 * ResourceShim#to_hierayaml: the resource as a Hiera data entry, indented under its type key. A
 * multi-line title is a block key (`? |-` ... `: `), as Ruby's Psych writes it.
 */
export function toHieraYaml(def: TypeDefinition, title: string, values: ResourceHash): string {
    const doc = new Document({ [title]: Object.fromEntries(shownKeys(def, values).map(k => [k, plain(values[k])])) });
    visit(doc, {
        Pair(_, pair) {
            if (isScalar(pair.key) && typeof pair.key.value === 'string' && pair.key.value.includes('\n')) pair.key.type = 'BLOCK_LITERAL';
        }
    });
    const yaml = doc.toString();
    return yaml.split('\n').filter(l => l !== '').map(l => `  ${l}\n`).join('');
}
