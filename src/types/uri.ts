import { PDefault, type PuppetValue } from '../values/index.js';
import { PURIType } from './model.js';

/** The parts Puppet's URI type takes, in the order it keeps them. */
const PARTS = ['scheme', 'userinfo', 'host', 'port', 'path', 'query', 'fragment', 'opaque'] as const;

/** RFC 2396's absolute URI, as Ruby's URI parser (Puppet's URI type parameter must match it) reads one. */
const URIC = "[-_.!~*'()A-Za-z0-9;/?:@&=+$,\\[\\]]|%[0-9A-Fa-f]{2}";
const ABSOLUTE = new RegExp(`^([A-Za-z][-+.A-Za-z0-9]*):((?:${URIC})*)(?:#((?:${URIC})*))?$`);

/** How the type's constructor fails: a message, Puppet's issue code, the argument blamed, whether Ruby raised it. */
export type UriFailure = (message: string, issueCode: string, argIndex?: number, raised?: boolean) => never;

/** `URI[...]`: one string (an absolute URI) or hash of its parts. */
export function uriType(args: readonly PuppetValue[], fail: UriFailure): PURIType {
    const keys = (args as PuppetValue[]).flat(Infinity as 1);
    if (keys.length !== 1) fail(`URI-Type[] accepts 1 argument. Got ${keys.length}`, 'BAD_TYPE_SLICE_ARITY');
    const k = keys[0];
    const notType = (cls: string): never => fail(`URI-Type[] arguments must be types. Got ${cls}`, 'BAD_TYPE_SLICE_TYPE', 0);
    if (k instanceof Map) {
        if (k.size === 0) return new PURIType();
        if (![...k.keys()].every(x => typeof x === 'string' && (PARTS as readonly string[]).includes(x))) notType('Hash');
        return new PURIType(new Map(PARTS.filter(p => k.has(p)).map(p => [p, k.get(p) ?? null])));
    }
    if (typeof k !== 'string' || k === '') {
        return notType(k === null ? 'NilClass' : k instanceof PDefault ? 'Symbol' : typeof k === 'string' ? 'String' : typeof k === 'bigint' ? 'Integer'
            : typeof k === 'number' ? 'Float' : typeof k === 'boolean' ? (k ? 'TrueClass' : 'FalseClass') : Array.isArray(k) ? 'Array' : 'Object');
    }
    const parts = uriParts(k);
    if (!parts) return fail(`URI-Type parameter has wrong type, expects an absolute URI, got '${k}'`, 'RUNTIME_ERROR', undefined, true);
    return new PURIType(parts);
}

/**
 * Puppet's uri_to_hash of Ruby's URI.parse: the scheme and host lower-cased, the port (as a string)
 * unless it is the scheme's default, an empty path or host left out; a URI without `//` is opaque.
 */
function uriParts(text: string): Map<string, PuppetValue> | undefined {
    const m = ABSOLUTE.exec(text);
    if (!m) return undefined;
    const scheme = m[1].toLowerCase();
    const out = new Map<string, PuppetValue>([['scheme', scheme]]);
    const rest = m[2];
    let query: string | undefined;
    if (rest.startsWith('/')) {
        const q = rest.indexOf('?');
        const hier = q < 0 ? rest : rest.slice(0, q);
        if (q >= 0) query = rest.slice(q + 1);
        if (hier.startsWith('//')) {
            const slash = hier.indexOf('/', 2);
            const authority = slash < 0 ? hier.slice(2) : hier.slice(2, slash);
            const at = authority.lastIndexOf('@');
            if (at >= 0) out.set('userinfo', authority.slice(0, at));
            const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
            const pm = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
            const host = pm?.[1] ?? hostPort;
            if (host !== '') out.set('host', host.toLowerCase());
            const port = pm?.[2];
            if (port !== undefined && port !== '' && !((scheme === 'http' && Number(port) === 80) || (scheme === 'https' && Number(port) === 443))) out.set('port', String(Number(port)));
            const path = slash < 0 ? '' : hier.slice(slash);
            if (path !== '') out.set('path', path);
        } else {
            out.set('path', hier);
        }
        if (query !== undefined) out.set('query', query);
    } else {
        out.set('opaque', rest);
    }
    if (m[3] !== undefined) {
        const ordered = new Map([...out].filter(([k]) => k !== 'opaque'));
        ordered.set('fragment', m[3]);
        if (out.has('opaque')) ordered.set('opaque', out.get('opaque') ?? null);
        return ordered;
    }
    return out;
}
