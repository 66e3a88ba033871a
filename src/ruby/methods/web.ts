import { Classes, Exceptions, RClass, RObject, RubyError, type CallSite, type Method, type RValue } from '../objects.js';
import { arity, str } from './support.js';

/**
 * Ruby's `cgi` and `uri` as module functions use them while compiling: CGI.escape for query
 * strings (archive's nexus URLs), URI.parse for a source's path (staging_parse), and
 * URI::DEFAULT_PARSER.escape (stdlib's uriescape). Parsing follows RFC 3986 as Ruby's default
 * parser does; a string with characters a URI cannot hold is URI::InvalidURIError.
 */
const utf8 = new TextEncoder();
const percent = (s: string, keep: RegExp): string =>
    [...s].map(c => (keep.test(c) ? c : [...utf8.encode(c)].map(b => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))).join('');

function unescapeCgi(s: string): string {
    const bytes: number[] = [];
    const text = s.replace(/\+/g, ' ');
    for (let i = 0; i < text.length; i++) {
        const m = /^%([0-9a-fA-F]{2})/.exec(text.slice(i, i + 3));
        if (m) { bytes.push(parseInt(m[1], 16)); i += 2; } else bytes.push(...utf8.encode(text[i]));
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const cgiStatics: Record<string, Method> = {
    escape: (_s, args) => { arity(args, 1); return percent(str(args[0]), /[ a-zA-Z0-9_.\-~]/).replace(/ /g, '+'); },
    unescape: (_s, args) => { arity(args, 1, 2); return unescapeCgi(str(args[0])); },
    escapeHTML: (_s, args) => { arity(args, 1); return str(args[0]).replace(/[&<>"']/g, c => HTML[c]); },
    escape_html: (_s, args) => { arity(args, 1); return str(args[0]).replace(/[&<>"']/g, c => HTML[c]); }
};

const URI = Classes.URI;
const Generic = new RClass('URI::Generic', Classes.Object);
const schemeClasses = new Map<string, { cls: RClass; port: bigint | null }>([
    ['http', { cls: new RClass('URI::HTTP', Generic), port: 80n }],
    ['https', { cls: new RClass('URI::HTTPS', Generic), port: 443n }],
    ['ftp', { cls: new RClass('URI::FTP', Generic), port: 21n }],
    ['ldap', { cls: new RClass('URI::LDAP', Generic), port: 389n }],
    ['mailto', { cls: new RClass('URI::MailTo', Generic), port: null }]
]);
const InvalidURIError = new RClass('URI::InvalidURIError', Exceptions.ArgumentError);
const parts = ['scheme', 'userinfo', 'host', 'port', 'path', 'query', 'fragment', 'opaque'] as const;

function parse(text: string): RObject {
    const bad = (): RubyError => new RubyError(InvalidURIError, `bad URI(is not URI?): ${JSON.stringify(text)}`);
    if (!/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/.test(text)) throw bad();
    const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(text);
    if (!m) throw bad();
    const scheme = m[1]?.toLowerCase() ?? null;
    let userinfo: string | null = null;
    let host: string | null = null;
    let port: bigint | null = null;
    if (m[2] !== undefined) {
        const auth = /^(?:([^@]*)@)?(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(m[2]);
        if (!auth) throw bad();
        userinfo = auth[1] ?? null;
        host = auth[2] === '' ? null : auth[2];
        port = auth[3] ? BigInt(auth[3]) : null;
    }
    const known = scheme ? schemeClasses.get(scheme) : undefined;
    if (port === null && known) port = known.port;
    // `mailto:x` and other scheme-relative forms without `//` keep their text as the opaque part
    const opaque = scheme && m[2] === undefined && !m[3].startsWith('/') ? m[3] : null;
    const o = new RObject(known?.cls ?? Generic, '');
    const values: Record<(typeof parts)[number], RValue> = {
        scheme, userinfo, host, port, path: opaque === null ? m[3] : null, query: m[4] ?? null, fragment: m[5] ?? null, opaque
    };
    for (const k of parts) o.ivars.set(k, values[k]);
    return o;
}

function text(o: RValue, call: CallSite): string {
    const v = call.ivarsOf(o);
    const get = (k: string): string | null => { const x = v.get(k); return x === null || x === undefined ? null : typeof x === 'bigint' ? String(x) : str(x); };
    let s = get('scheme') ? `${get('scheme')}:` : '';
    if (get('opaque') !== null) s += get('opaque');
    else {
        if (get('host') !== null || get('scheme') === 'file') {
            s += `//${get('userinfo') !== null ? `${get('userinfo')}@` : ''}${get('host') ?? ''}`;
            const port = v.get('port');
            const known = schemeClasses.get(get('scheme') ?? '');
            if (typeof port === 'bigint' && port !== known?.port) s += `:${port}`;
        }
        s += get('path') ?? '';
    }
    if (get('query') !== null) s += `?${get('query')}`;
    if (get('fragment') !== null) s += `#${get('fragment')}`;
    return s;
}

const genericMethods: Record<string, Method> = {
    to_s: (self, _a, _b, call) => text(self, call),
    to_str: (self, _a, _b, call) => text(self, call),
    inspect: (self, _a, _b, call) => `#<${(self as RObject).cls.name} ${text(self, call)}>`,
    user: (self, _a, _b, call) => { const u = call.ivarsOf(self).get('userinfo'); return typeof u === 'string' ? u.split(':')[0] : null; },
    password: (self, _a, _b, call) => { const u = call.ivarsOf(self).get('userinfo'); return typeof u === 'string' && u.includes(':') ? u.slice(u.indexOf(':') + 1) : null; },
    'absolute?': (self, _a, _b, call) => call.ivarsOf(self).get('scheme') !== null,
    'relative?': (self, _a, _b, call) => call.ivarsOf(self).get('scheme') === null,
    '==': (self, args, _b, call) => args[0] instanceof RObject && args[0].cls === (self as RObject).cls && text(self, call) === text(args[0], call)
};
for (const k of parts) genericMethods[k] = (self, _a, _b, call) => call.ivarsOf(self).get(k) ?? null;

const parser = new RObject(new RClass('URI::RFC2396_Parser', Classes.Object), '#<URI::RFC2396_Parser>');
const parserMethods: Record<string, Method> = {
    escape: (_s, args) => { arity(args, 1, 2); return percent(str(args[0]), /[-_.!~*'()a-zA-Z\d;/?:@&=+$,[\]]/); },
    unescape: (_s, args) => { arity(args, 1); return unescapeCgi(str(args[0]).replace(/\+/g, '%2B')); },
    parse: (_s, args) => { arity(args, 1); return parse(str(args[0])); }
};

export function installWeb(): void {
    for (const [name, m] of Object.entries(cgiStatics)) Classes.CGI.defineStatic(name, m);
    for (const [name, m] of Object.entries(genericMethods)) Generic.define(name, m);
    for (const [name, m] of Object.entries(parserMethods)) parser.cls.define(name, m);
    URI.defineStatic('parse', (_s, args) => { arity(args, 1); return parse(str(args[0])); });
    URI.constants.set('Generic', Generic);
    URI.constants.set('InvalidURIError', InvalidURIError);
    URI.constants.set('Error', Exceptions.StandardError);
    URI.constants.set('DEFAULT_PARSER', parser);
    for (const { cls } of schemeClasses.values()) URI.constants.set(cls.name.slice('URI::'.length), cls);
}

/** `URI('...')`, the Kernel method. */
export const uriFunction: Method = (_s, args) => { arity(args, 1); return args[0] instanceof RObject ? args[0] : parse(str(args[0])); };
