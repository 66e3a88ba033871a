import { rubyInspectString } from '../types/index.js';
import { PSensitive, PRegexp, type PuppetValue } from './values.js';

/**
 * A value of a provider's own language with no Puppet counterpart (a Ruby Symbol such as the
 * gem's `:absent`, an object): kept as its class name and its inspect text for messages.
 */
export class ForeignValue {
    constructor(readonly className: string, readonly inspect: string) {}

    /** Ruby's `to_s`: a Symbol's name (`:absent` → `absent`), else the inspect text. */
    toString(): string {
        return this.className === 'Symbol' ? this.inspect.replace(/^:/, '') : this.inspect;
    }
}

/**
 * Ruby's `inspect`, which the Resource API interpolates into many of its messages
 * (`{:ensure=>"present"}`, `["a", "b"]`). The keys of a resource hash (the outer level) are
 * symbols in Ruby, so they print as `:name`; hashes inside values are data, with string keys.
 */
export function rubyInspect(v: unknown, symbolKeys = true): string {
    if (v === null || v === undefined) return 'nil';
    if (v instanceof ForeignValue) return v.inspect;
    if (typeof v === 'string') return rubyInspectString(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return rubyFloatInspect(v);
    if (typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return `[${v.map(x => rubyInspect(x, false)).join(', ')}]`;
    if (v instanceof Map) {
        const parts = [...v].map(([k, x]) => `${typeof k === 'string' && symbolKeys ? `:${k}` : rubyInspect(k, false)}=>${rubyInspect(x, false)}`);
        return `{${parts.join(', ')}}`;
    }
    if (v instanceof PSensitive) return '#<Sensitive [value redacted]>';
    if (v instanceof PRegexp) return `/${v.source}/`;
    if (typeof v === 'object') {
        // A plain object is a symbol-keyed Ruby hash (a resource hash) at any depth.
        const parts = Object.entries(v).map(([k, x]) => `:${k}=>${rubyInspect(x, false)}`);
        return `{${parts.join(', ')}}`;
    }
    return String(v);
}

/** The Ruby class name of a value, as the gem's "not `NilClass`" messages show it. */
export function rubyClassName(v: unknown): string {
    if (v === null || v === undefined) return 'NilClass';
    if (typeof v === 'string') return 'String';
    if (typeof v === 'bigint') return 'Integer';
    if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
    if (v === true) return 'TrueClass';
    if (v === false) return 'FalseClass';
    if (Array.isArray(v)) return 'Array';
    if (v instanceof RegExp || v instanceof PRegexp) return 'Regexp';
    return 'Hash';
}

/**
 * Puppet's `Parameter#format_value_for_display` for the values of classic types, whose "not there"
 * is the :absent symbol (`'absent'`) and whose sensitive values the harness has already redacted.
 */
export function formatForDisplay(v: PuppetValue | undefined): string {
    if (v === null || v === undefined) return "'absent'";
    if (v instanceof PSensitive) return '[redacted]';
    return formatParameterValue(v);
}

/**
 * `Parameter.format_value_for_display` itself: Puppet's StringConverter with its parameter formats.
 * At the top: strings `%p` (quoted as Puppet source), Floats `%f`, undef empty, collections in the
 * alternate `%#p` form (hashes one entry a line). Inside a collection every scalar is `%p` (Ruby's
 * inspect for numbers, `undef` for nil) and nested collections keep the alternate form.
 */
export function formatParameterValue(v: PuppetValue | undefined): string {
    return convert(v, TOP, new Indentation(0, true, false));
}

/** Where a value stands: at the top of the message or inside a collection (Puppet's DEFAULT_CONTAINER_FORMATS). */
const TOP = 'top';
const ELEMENT = 'element';
type Place = typeof TOP | typeof ELEMENT;

/** The StringConverter's indentation state: nesting level, first element, whether breaks are on. */
class Indentation {
    constructor(readonly level: number, readonly first: boolean, readonly indenting: boolean) {}
    subsequent(): Indentation { return this.first ? new Indentation(this.level, false, this.indenting) : this; }
    withIndenting(flag: boolean): Indentation { return new Indentation(this.level, this.first, flag); }
    increase(flag = false): Indentation { return new Indentation(this.level + 1, true, flag); }
    get breaks(): boolean { return this.indenting && this.level > 0 && !this.first; }
    get padding(): string { return '  '.repeat(this.level); }
}

const isCollection = (v: unknown): boolean => Array.isArray(v) || v instanceof Map;

function convert(v: PuppetValue | undefined, place: Place, ind: Indentation): string {
    if (Array.isArray(v)) return convertArray(v, ind);
    if (v instanceof Map) return convertHash(v, ind);
    const inside = place === ELEMENT;
    if (v === null || v === undefined) return inside ? 'undef' : '';
    if (typeof v === 'string') return puppetQuote(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'boolean') return String(v);
    if (typeof v === 'number') return inside ? rubyFloatInspect(v) : rubyFixed(v);
    if (v instanceof PSensitive) return inside ? '#<Sensitive [value redacted]>' : 'Sensitive [value redacted]';
    if (v instanceof PRegexp) return inside ? `/${v.source}/` : v.source;
    return inside ? puppetQuote(String(v)) : String(v);
}

/** `%#p` of an Array: elements after a nested collection go on a new line, nested collections break before. */
function convertArray(v: readonly PuppetValue[], outer: Indentation): string {
    const ind = outer.withIndenting(true);
    let buf = ind.breaks ? `\n${ind.padding}[` : '[';
    const children = ind.increase(true).subsequent();
    const mapped = v.map(x => convert(x, ELEMENT, children));
    v.forEach((x, i) => {
        const text = mapped[i];
        if (i > 0) {
            buf += ', ';
            if (isCollection(v[i - 1]) && !isCollection(x)) buf = `${buf.trimEnd()}\n${children.padding}`;
        }
        if (buf.endsWith(' ') && text.startsWith('\n')) buf = buf.trimEnd();
        buf += text;
    });
    return `${buf}]`;
}

/** `%#p` of a Hash: one `key => value` a line, indented one level deeper than the braces. */
function convertHash(v: ReadonlyMap<PuppetValue, PuppetValue>, outer: Indentation): string {
    const ind = outer.withIndenting(true);
    const children = ind.increase();
    const entries = [...v].map(([k, x]) => `${children.padding}${convert(k, ELEMENT, children)} => ${convert(x, ELEMENT, children)}`);
    return `${ind.breaks ? `\n${ind.padding}` : ''}{\n${entries.join(',\n')}\n${ind.padding}}`;
}

/**
 * Puppet's `%p` of a String: single quotes when it has no control characters (quotes and a
 * trailing backslash escaped), else double quotes with escapes.
 */
export function puppetQuote(s: string): string {
    if ([...s].some(c => c.codePointAt(0)! < 0x20)) return puppetDoubleQuote(s);
    let out = "'";
    let escaped = false;
    for (const c of s) {
        if (escaped) { out += `\\${c}`; escaped = false; }
        else if (c === "'") out += "\\'";
        else if (c === '\\') escaped = true;
        else out += c;
    }
    if (escaped) out += '\\';
    return `${out}'`;
}

function puppetDoubleQuote(s: string): string {
    const escapes: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '"': '\\"', $: '\\$', '\\': '\\\\' };
    let out = '"';
    for (const c of s) {
        const code = c.codePointAt(0)!;
        out += escapes[c] ?? (code < 0x20 ? `\\u{${code.toString(16).toUpperCase()}}` : c);
    }
    return `${out}"`;
}

/**
 * Ruby's `Float#inspect`: the shortest digits that read back, in fixed notation for decimal
 * exponents from -4 to 15, else as `1.0e+20` / `1.2e-05` (a fraction always, two exponent digits at least).
 */
export function rubyFloatInspect(f: number): string {
    if (Number.isNaN(f)) return 'NaN';
    if (!Number.isFinite(f)) return f > 0 ? 'Infinity' : '-Infinity';
    const [mantissa, exp] = f.toExponential().split('e');
    const e = Number(exp);
    if (e >= -4 && e < 16) {
        const fixed = String(f);
        return fixed.includes('.') ? fixed : `${fixed}.0`;
    }
    const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
    return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** Ruby's `format('%f', f)`: six decimals. */
function rubyFixed(f: number): string {
    if (Number.isNaN(f)) return 'NaN';
    if (!Number.isFinite(f)) return f > 0 ? 'Inf' : '-Inf';
    return Math.abs(f) < 1e21 ? f.toFixed(6) : BigInt(Math.round(f)).toString() + '.000000';
}
