import { formatFloat } from '../common/index.js';
import { formatValue, PAnyType, rubyInspectString } from '../types/index.js';
import { PDefault, PRegexp, PSensitive } from '../values/index.js';
import { regexpOptions } from './regexp.js';
import { RClass, REnumerator, RMatchData, RObject, RProc, RRange, RSymbol, type RValue } from './objects.js';
import { typeInspect } from './type-inspect.js';

/** Ruby 3.1 String#inspect for UTF-8 text (the types layer's, shared by every layer). */
export const inspectString = rubyInspectString;

const PLAIN_SYMBOL = /^(?:[A-Za-z_][\w]*[?!=]?|\[\]=?|<=>|===?|=~|!=|!~?|<<|>>|<=|>=|\*\*|[+\-*/%<>~^&|]|[+-]@|@{1,2}[A-Za-z_]\w*|\$[A-Za-z_]\w*)$/;

export function inspectSymbol(name: string): string {
    return PLAIN_SYMBOL.test(name) && !/^[A-Za-z_]\w*[?!]=$/.test(name) ? `:${name}` : `:${inspectString(name)}`;
}

/** Regexp#to_s: the pattern embedded with its options, `(?-mix:a.b)`. */
export function regexpToS(re: PRegexp): string {
    const on = regexpOptions(re).split('').filter(Boolean);
    const off = ['m', 'i', 'x'].filter(f => !on.includes(f));
    return `(?${on.join('')}${off.length ? `-${off.join('')}` : ''}:${re.source})`;
}

/** Ruby's `inspect`. */
export function inspect(v: RValue): string {
    if (v === null) return 'nil';
    switch (typeof v) {
        case 'string': return inspectString(v);
        case 'bigint': return v.toString();
        case 'number': return formatFloat(v);
        case 'boolean': return String(v);
    }
    if (Array.isArray(v)) return `[${v.map(inspect).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${inspect(k)}=>${inspect(x)}`).join(', ')}}`;
    if (v instanceof RSymbol) return inspectSymbol(v.name);
    if (v instanceof PDefault) return ':default';
    if (v instanceof RRange) return `${v.from === null ? '' : inspect(v.from)}${v.exclusive ? '...' : '..'}${v.to === null ? '' : inspect(v.to)}`;
    if (v instanceof PRegexp) {
        return `/${v.source.replace(/\\\/|\//g, '\\/')}/${regexpOptions(v)}`;
    }
    if (v instanceof RClass) return v.name;
    if (v instanceof RProc) return v.isLambda ? '#<Proc (lambda)>' : '#<Proc>';
    if (v instanceof RMatchData) return `#<MatchData ${inspectString(v.match[0])}${v.match.slice(1).map((g, i) => ` ${i + 1}:${g === undefined ? 'nil' : inspectString(g)}`).join('')}>`;
    if (v instanceof REnumerator) return `#<Enumerator: ...:${v.method}>`;
    if (v instanceof RObject) return v.inspectText;
    if (v instanceof PSensitive) return '#<Sensitive [value redacted]>';
    if (v instanceof PAnyType) return typeInspect(v) ?? formatValue(v);
    return formatValue(v);
}

/** Ruby's `to_s` (what `<%= %>` and `"#{}"` print). */
export function toS(v: RValue): string {
    if (v === null) return '';
    if (typeof v === 'string') return v;
    if (v instanceof RSymbol) return v.name;
    if (v instanceof PDefault) return 'default';
    if (v instanceof PRegexp) return regexpToS(v);
    if (v instanceof RRange) return `${v.from === null ? '' : toS(v.from)}${v.exclusive ? '...' : '..'}${v.to === null ? '' : toS(v.to)}`;
    if (v instanceof RObject) return v.toSText;
    if (v instanceof RMatchData) return v.match[0];
    if (v instanceof PAnyType || v instanceof PSensitive) return formatValue(v);
    if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof RClass) && !(v instanceof RProc) && !(v instanceof REnumerator)) return formatValue(v);
    return inspect(v);
}
