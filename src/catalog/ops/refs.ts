import { capitalize, formatValue, PAnyType, PClassType, PResourceType } from '../../types/index.js';
import { type PuppetValue } from '../../values/index.js';
import type { CatalogResource } from '../resource.js';

/** Class titles as Puppet keeps them: capitalized, except `main`. */
export function classTitle(name: string): string {
    return name === 'main' ? 'main' : capitalize(name);
}

/** `Type[title]` as Puppet's messages show a reference. */
export function displayRef(type: string, title: string): string {
    return `${capitalize(type.toLowerCase())}[${type.toLowerCase() === 'class' ? classTitle(title.toLowerCase()) : title}]`;
}

/** How Puppet's label provider names a value in messages (a type as `Class[a]-Type`). */
export function valueLabel(v: PuppetValue): string {
    if (v instanceof PResourceType && v.title !== null) return `${formatValue(v)} Resource-Reference`;
    if (v instanceof PAnyType) return `${formatValue(v)}-Type`;
    return v === null ? 'Undef' : typeof v === 'string' ? 'String' : typeof v === 'bigint' ? 'Integer' : typeof v === 'number' ? 'Float'
        : typeof v === 'boolean' ? 'Boolean' : Array.isArray(v) ? 'Array' : v instanceof Map ? 'Hash' : formatValue(v);
}

/** The reference value `Type['title']` (or `Class[name]`) for a type name and title as written or kept. */
export function referenceValue(type: string, title: string): PAnyType {
    return type.toLowerCase() === 'class' ? new PClassType(title.toLowerCase().replace(/^::/, '')) : new PResourceType(capitalize(type), title);
}

/** The reference value of a catalog resource. */
export function refOf(r: CatalogResource): PAnyType {
    return referenceValue(r.type, r.title);
}

/** Resource references in a value: File['x'], Class['c'], arrays of them, 'Type[title]' strings. */
export function flattenRefs(v: PuppetValue): Array<{ type: string; title: string }> {
    if (Array.isArray(v)) return v.flatMap(flattenRefs);
    if (v instanceof PResourceType && v.typeName !== null && v.title !== null) return [{ type: v.typeName, title: v.title }];
    if (v instanceof PClassType && v.className !== null) return [{ type: 'Class', title: v.className }];
    if (typeof v === 'string') {
        const m = /^([A-Z][\w:]*)\[(.*)\]$/s.exec(v);
        if (m) return [{ type: m[1], title: m[2] }];
    }
    return [];
}
