import type { ContributionSource } from '../../generated/model/bindings.js';

/** ARM-8's default composition, spelled out: `site` over `modules`. */
export const DEFAULT_LAYERS: readonly { readonly name: string; readonly include: readonly string[] }[] = [
    { name: 'site', include: ['confdir:/default'] },
    { name: 'modules', include: ['module:/*::default'] }
];

/** `scheme:path?optional` without its query: the query only says a missing source is no error. */
export function stripQuery(uri: string): string {
    const q = uri.indexOf('?');
    return q < 0 ? uri : uri.slice(0, q);
}

const patternCache = new Map<string, RegExp>();

/** ARM-8 URI wildcards: `*` matches one segment (segments split at `/` and `::`), `**` any number. */
export function uriPattern(pattern: string): RegExp {
    let re = patternCache.get(pattern);
    if (!re) {
        const body = stripQuery(pattern).split(/(\*\*|\*)/).map(part =>
            part === '**' ? '.*' : part === '*' ? '(?:(?!::)[^/])*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('');
        re = new RegExp(`^${body}/?$`);
        patternCache.set(pattern, re);
    }
    return re;
}

export function uriMatches(pattern: string, uri: string): boolean {
    return uriPattern(pattern).test(stripQuery(uri));
}

/**
 * The exclude pattern that removes these bindings from the layer, if any. Excluded bindings are
 * never used (binder: set difference of expanded includes and excludes). Include lists are the
 * composer's business: what it put in a layer came from them.
 */
export function excludedBy(layer: { readonly exclude?: readonly string[] }, bindings: { readonly name?: string; readonly contributedBy?: ContributionSource }): string | undefined {
    const uri = bindings.contributedBy?.uri;
    const candidates = [uri, bindings.name !== undefined ? `${bindings.contributedBy?.scheme ?? ''}:/${bindings.name}` : undefined]
        .filter((u): u is string => u !== undefined && u.includes(':'));
    return (layer.exclude ?? []).find(p => candidates.some(u => uriMatches(p, u)));
}
