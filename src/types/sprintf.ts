import { formatFloat } from '../common/index.js';
import { PRegexp, type PuppetValue } from '../values/index.js';
import { formatValue } from './format-value.js';
import { PStoredReference } from './model.js';

/** An ArgumentError, TypeError or KeyError of Ruby's Kernel#sprintf, with Ruby's message. */
export class SprintfError extends Error {}

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
    '\n': '\\n', '\t': '\\t', '\r': '\\r', '\f': '\\f', '\v': '\\v', '\b': '\\b', '\x07': '\\a', '\x1b': '\\e', '"': '\\"', '\\': '\\\\'
};

/**
 * Ruby 3.1's String#inspect of UTF-8 text (the one for every layer: messages, Hiera's explain and
 * merges, the Ruby interpreter): C escapes, `\u` for other control characters, `#{`, `#$` and `#@`
 * escaped, everything else as it is.
 */
export function rubyInspectString(s: string): string {
    let out = '"';
    for (let i = 0; i < s.length; i++) {
        const c = s[i];
        const named = NAMED_ESCAPES[c];
        if (named !== undefined) out += named;
        else if (c === '#' && (s[i + 1] === '{' || s[i + 1] === '$' || s[i + 1] === '@')) out += '\\#';
        else if (c < ' ' || c === '\x7f') out += `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        else out += c;
    }
    return `${out}"`;
}

/** Ruby's #inspect of a value as Puppet hands it to a Ruby function: [1, "a"], {"a"=>nil}. */
export function rubyInspect(v: PuppetValue): string {
    if (v === null) return 'nil';
    if (typeof v === 'string') return rubyInspectString(v);
    if (typeof v === 'number') return formatFloat(v);
    if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${rubyInspect(k)}=>${rubyInspect(x)}`).join(', ')}}`;
    // Puppet::Resource#inspect: the reference and its hash of parameters (the name, its title).
    if (v instanceof PStoredReference) return `${v.typeName}[${v.title}]{:name=>${rubyInspectString(v.title ?? '')}}`;
    return formatValue(v);
}

/** Ruby's #to_s: strings as they are, collections by their inspect, nil empty. */
export function rubyToS(v: PuppetValue): string {
    if (v === null) return '';
    if (Array.isArray(v) || v instanceof Map) return rubyInspect(v);
    return formatValue(v);
}

/**
 * A value interpolated into a Ruby message as Puppet's evaluator holds it: `rubyToS`, and a
 * regexp as a Ruby Regexp (with its flags group).
 */
export function rubyMessageValue(v: PuppetValue): string {
    return v instanceof PRegexp ? `(?-mix:${v.source})` : rubyToS(v);
}

function rubyClassName(v: PuppetValue): string {
    if (v === null) return 'nil';
    if (typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return 'Array';
    if (v instanceof Map) return 'Hash';
    if (typeof v === 'string') return 'String';
    return 'Object';
}

/** Kernel#Integer of a string: sign, 0x/0b/0o/0 prefixes, underscores between digits, spaces around. */
function integerOfString(s: string): bigint {
    const m = /^\s*([-+]?)(0[xX](?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)|0[bB](?:[01](?:_?[01])*)|0[oO]?(?:[0-7](?:_?[0-7])*)|0[dD]?(?:\d(?:_?\d)*)|[1-9](?:_?\d)*|0)\s*$/.exec(s);
    if (!m) throw new SprintfError(`invalid value for Integer(): ${rubyInspectString(s)}`);
    let body = m[2].replace(/_/g, '');
    if (/^0[dD]/.test(body)) body = body.slice(2);
    else if (/^0[oO]/.test(body)) body = `0o${body.slice(2)}`;
    else if (/^0[0-7]/.test(body)) body = `0o${body.slice(1)}`;
    const n = BigInt(body);
    return m[1] === '-' ? -n : n;
}

function toInteger(v: PuppetValue): bigint {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw new SprintfError(Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity');
        return BigInt(Math.trunc(v));
    }
    if (typeof v === 'string') return integerOfString(v);
    throw new SprintfError(`can't convert ${rubyClassName(v)} into Integer`);
}

/**
 * Kernel#Float of a string: spaces around, a sign, decimal digits (single underscores between
 * them) with an optional fraction and exponent, digits on both sides of the point, or a 0x
 * hexadecimal integer. Undefined when Ruby refuses the text.
 */
export function rubyFloat(s: string): number | undefined {
    const t = s.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
    const hex = /^([-+]?)0[xX]([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)$/.exec(t);
    if (hex) return (hex[1] === '-' ? -1 : 1) * Number(BigInt(`0x${hex[2].replace(/_/g, '')}`));
    if (!/^[-+]?\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?(?:[eE][-+]?\d+(?:_\d+)*)?$/.test(t)) return undefined;
    return Number(t.replace(/_/g, ''));
}

function toFloat(v: PuppetValue): number {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'string') {
        const n = rubyFloat(v);
        if (n === undefined) throw new SprintfError(`invalid value for Float(): ${rubyInspectString(v)}`);
        return n;
    }
    throw new SprintfError(`can't convert ${rubyClassName(v)} into Float`);
}

/** The exact decimal digits of a finite non-negative double: value = 0.digits × 10^point. */
function exactDecimal(x: number): { digits: string; point: number } {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    const bits = view.getBigUint64(0);
    const biased = Number((bits >> 52n) & 0x7ffn);
    let mant = bits & ((1n << 52n) - 1n);
    if (biased !== 0) mant |= 1n << 52n;
    const exp = biased === 0 ? -1074 : biased - 1075;
    if (mant === 0n) return { digits: '0', point: 1 };
    if (exp >= 0) {
        const d = (mant << BigInt(exp)).toString();
        return { digits: d, point: d.length };
    }
    const d = (mant * 5n ** BigInt(-exp)).toString();
    return { digits: d, point: d.length + exp };
}

/** The first `n` digits of `d`, rounded on the exact value with ties to even, as C's printf does. */
function roundDigits(d: string, n: number): { digits: string; carry: boolean } {
    if (d.length <= n) return { digits: d.padEnd(n, '0'), carry: false };
    const head = d.slice(0, n);
    const rest = d.slice(n);
    const odd = n > 0 && Number(head[n - 1]) % 2 === 1;
    const up = rest[0] > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || odd));
    if (!up) return { digits: head, carry: false };
    const r = (BigInt(head === '' ? '0' : head) + 1n).toString().padStart(n, '0');
    return r.length > n ? { digits: r.slice(0, n), carry: true } : { digits: r, carry: false };
}

/** C's %f of a non-negative double. */
function toFixed(x: number, digits: number): string {
    const { digits: d, point } = exactDecimal(x);
    const all = point >= 0 ? d : '0'.repeat(-point) + d;
    const intLen = Math.max(point, 0);
    const r = roundDigits(all, intLen + digits);
    const text = r.carry ? `1${r.digits}` : r.digits;
    const ip = (text.slice(0, text.length - digits).replace(/^0+(?=\d)/, '')) || '0';
    return digits > 0 ? `${ip}.${text.slice(text.length - digits)}` : ip;
}

/** C's %e of a non-negative double. */
function toExponent(x: number, digits: number, upper: boolean): string {
    let m = '0'.repeat(digits + 1);
    let e = 0;
    if (x !== 0) {
        const { digits: d, point } = exactDecimal(x);
        const lead = d.replace(/^0+/, '');
        e = point - 1 - (d.length - lead.length);
        const r = roundDigits(lead, digits + 1);
        m = r.carry ? `1${r.digits.slice(0, digits)}` : r.digits;
        if (r.carry) e++;
    }
    const s = `${m[0]}${digits > 0 ? `.${m.slice(1)}` : ''}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
    return upper ? s.toUpperCase() : s;
}

/** %g: the shorter of %e and %f at `prec` significant digits, trailing zeros dropped unless `#`. */
function toGeneral(x: number, prec: number, upper: boolean, sharp: boolean): string {
    const p = prec === 0 ? 1 : prec;
    if (x === 0) return sharp ? `0.${'0'.repeat(p - 1)}` : '0';
    const exp = Number(toExponent(x, p - 1, false).split('e')[1]);
    const s = exp < -4 || exp >= p ? toExponent(x, p - 1, upper) : toFixed(x, p - 1 - exp);
    if (sharp) return s;
    const [mant, e] = s.split(/(?=[eE])/);
    return (mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant) + (e ?? '');
}

/** Ruby prints a negative number in %x/%o/%b without a sign as two's complement: -255 is ..f01. */
function twosComplement(n: bigint, base: number): string {
    const top = (base - 1).toString(base);
    const k = (-n).toString(base).length + 1;
    const s = (BigInt(base) ** BigInt(k) + n).toString(base).padStart(k, top);
    return s.replace(new RegExp(`^${top}+`), top);
}

interface Spec { minus: boolean; plus: boolean; space: boolean; zero: boolean; sharp: boolean; width?: number; prec?: number }

/** Ruby's Kernel#sprintf over Puppet values (Puppet's sprintf function hands its arguments to it). */
export function sprintf(fmt: string, args: PuppetValue[]): string {
    let out = '';
    let next = 0;
    let mode: 'none' | 'unnumbered' | 'numbered' | 'named' = 'none';
    const nextArg = (): PuppetValue => {
        if (mode === 'numbered') throw new SprintfError(`unnumbered(${next + 1}) mixed with numbered`);
        if (mode === 'named') throw new SprintfError(`unnumbered(${next + 1}) mixed with named`);
        mode = 'unnumbered';
        if (next >= args.length) throw new SprintfError('too few arguments');
        return args[next++];
    };
    const nthArg = (n: number): PuppetValue => {
        if (mode === 'unnumbered') throw new SprintfError(`numbered(${n}) after unnumbered(${next})`);
        if (mode === 'named') throw new SprintfError(`numbered(${n}) after named`);
        mode = 'numbered';
        if (n > args.length) throw new SprintfError('too few arguments');
        return args[n - 1];
    };
    const namedArg = (name: string, open: string, close: string): PuppetValue => {
        if (mode === 'unnumbered' || mode === 'numbered') throw new SprintfError(`named${open}${name}${close} after ${mode === 'numbered' ? 'numbered' : `unnumbered(${next})`}`);
        mode = 'named';
        const hash = args.length === 1 ? args[0] : undefined;
        if (!(hash instanceof Map)) throw new SprintfError('one hash required');
        if (!hash.has(name)) throw new SprintfError(`key${open}${name}${close} not found`);
        return hash.get(name) ?? null;
    };
    let i = 0;
    while (i < fmt.length) {
        const c = fmt[i];
        if (c !== '%') { out += c; i++; continue; }
        const start = i;
        i++;
        const spec: Spec = { minus: false, plus: false, space: false, zero: false, sharp: false };
        let arg: PuppetValue | undefined;
        let conv: string | undefined;
        for (;;) {
            if (i >= fmt.length) throw new SprintfError('incomplete format specifier; use %% (double %) instead');
            const ch = fmt[i];
            if (ch === '-') { spec.minus = true; i++; } else if (ch === '+') { spec.plus = true; i++; } else if (ch === ' ') { spec.space = true; i++; } else if (ch === '0') { spec.zero = true; i++; } else if (ch === '#') { spec.sharp = true; i++; } else if (/[1-9]/.test(ch)) {
                const m = /^\d+/.exec(fmt.slice(i))![0];
                i += m.length;
                if (fmt[i] === '$') { arg = nthArg(Number(m)); i++; } else spec.width = Number(m);
            } else if (ch === '<' || ch === '{') {
                const close = ch === '<' ? '>' : '}';
                const end = fmt.indexOf(close, i);
                if (end < 0) throw new SprintfError(`malformed name - unmatched parenthesis`);
                arg = namedArg(fmt.slice(i + 1, end), ch, close);
                i = end + 1;
                if (ch === '{') { conv = 's'; arg = rubyToS(arg); break; }
            } else if (ch === '*') {
                i++;
                const w = toInteger(nextArg());
                if (w < 0n) spec.minus = true;
                spec.width = Math.abs(Number(w));
            } else if (ch === '.') {
                i++;
                if (fmt[i] === '*') { i++; spec.prec = Number(toInteger(nextArg())); } else {
                    const m = /^\d*/.exec(fmt.slice(i))![0];
                    i += m.length;
                    spec.prec = m === '' ? 0 : Number(m);
                }
            } else { conv = ch; i++; break; }
        }
        if (conv === '%') {
            if (i - start > 2) throw new SprintfError('invalid format character - %');
            out += '%';
            continue;
        }
        if (!'csdiuxXobBfeEgGaAp'.includes(conv)) throw new SprintfError(`malformed format string - %${conv}`);
        out += formatOne(conv, spec, arg === undefined ? nextArg() : arg);
    }
    return out;
}

function pad(s: string, spec: Spec, numeric: boolean): string {
    const w = spec.width ?? 0;
    const len = [...s].length;
    if (len >= w) return s;
    if (spec.minus) return s + ' '.repeat(w - len);
    if (spec.zero && numeric && !/[a-zA-Z]$/.test(s.replace(/e[-+]\d+$/i, '0'))) {
        const m = /^([-+ ]?(?:0[xXbB])?)(.*)$/.exec(s)!;
        return m[1] + '0'.repeat(w - len) + m[2];
    }
    return ' '.repeat(w - len) + s;
}

function sign(negative: boolean, spec: Spec): string {
    return negative ? '-' : spec.plus ? '+' : spec.space ? ' ' : '';
}

function formatOne(conv: string, spec: Spec, arg: PuppetValue): string {
    switch (conv) {
        case 's': case 'p': {
            let s = conv === 's' ? rubyToS(arg) : rubyInspect(arg);
            if (spec.prec !== undefined) s = [...s].slice(0, spec.prec).join('');
            return pad(s, spec, false);
        }
        case 'c': { // Ruby 3.1: a code point or a one-character string
            // A number is a C int (Ruby's range errors) and a code point (a negative one is no character).
            if (typeof arg === 'number' && Math.abs(arg) >= 2 ** 31) throw new SprintfError(`float ${arg.toExponential().replace(/e\+?(-?)(\d)$/, 'e$10$2').replace(/e\+?(-?)/, (_m, m: string) => `e${m || '+'}`)} out of range of integer`);
            if (typeof arg === 'bigint' && (arg >= 2n ** 31n || arg < -(2n ** 31n))) throw new SprintfError(`integer ${arg} too ${arg < 0n ? 'small' : 'big'} to convert to \`int'`);
            const code = typeof arg === 'bigint' ? Number(arg) : typeof arg === 'number' ? Math.trunc(arg) : undefined;
            if (code !== undefined && (code < 0 || code > 0x10ffff)) throw new SprintfError('invalid character');
            const s = code !== undefined ? String.fromCodePoint(code) : typeof arg === 'string' && [...arg].length === 1 ? arg : null;
            if (s === null) throw new SprintfError('%c requires a character');
            return pad(s, spec, false);
        }
        case 'd': case 'i': case 'u': {
            const n = toInteger(arg);
            let digits = (n < 0n ? -n : n).toString();
            if (spec.prec !== undefined) digits = digits.padStart(spec.prec, '0');
            return pad(sign(n < 0n, spec) + digits, { ...spec, zero: spec.zero && spec.prec === undefined }, true);
        }
        case 'x': case 'X': case 'o': case 'b': case 'B': {
            const n = toInteger(arg);
            const base = conv === 'o' ? 8 : conv === 'b' || conv === 'B' ? 2 : 16;
            // Octal's `0` is left out of a two's complement (`..726` already leads with its digits).
            const dots = n < 0n && !spec.plus && !spec.space;
            const prefix = !spec.sharp || n === 0n ? '' : conv === 'o' ? (dots ? '' : '0') : `0${conv}`;
            let body: string;
            let signText = '';
            if (n < 0n && !spec.plus && !spec.space) {
                const two = twosComplement(n, base);
                const fill = (base - 1).toString(base);
                const w = spec.prec ?? (spec.zero && !spec.minus && spec.width !== undefined ? spec.width - prefix.length : 0);
                body = w > two.length + 2 ? fill.repeat(w - two.length) + two : `..${two}`;
            } else {
                signText = sign(n < 0n, spec);
                body = (n < 0n ? -n : n).toString(base);
                if (spec.prec !== undefined) body = body.padStart(spec.prec, '0');
            }
            if (conv === 'X') body = body.toUpperCase();
            const s = signText + (conv === 'X' ? prefix.toUpperCase() : prefix) + body;
            return pad(s, { ...spec, zero: spec.zero && spec.prec === undefined && !body.startsWith('..') }, true);
        }
        default: {
            // Ruby formats an Integer with %f exactly (no trip through a double): 2**63-1 keeps its digits.
            if (conv === 'f' && typeof arg === 'bigint') {
                const prec = spec.prec ?? 6;
                const body = (arg < 0n ? -arg : arg).toString() + (prec > 0 ? `.${'0'.repeat(prec)}` : spec.sharp ? '.' : '');
                return pad(sign(arg < 0n, spec) + body, spec, true);
            }
            const x = toFloat(arg);
            if (!Number.isFinite(x)) return pad(sign(x < 0, spec) + (Number.isNaN(x) ? 'NaN' : 'Inf'), { ...spec, zero: false }, true);
            const prec = spec.prec ?? 6;
            const upper = conv === conv.toUpperCase();
            let body: string;
            switch (conv) {
                case 'f': body = toFixed(Math.abs(x), prec); if (spec.sharp && prec === 0) body += '.'; break;
                case 'e': case 'E': body = toExponent(Math.abs(x), prec, upper); break;
                case 'g': case 'G': body = toGeneral(Math.abs(x), prec, upper, spec.sharp); break;
                default: body = hexFloat(Math.abs(x), spec.prec, upper);
            }
            return pad(sign(x < 0 || Object.is(x, -0), spec) + body, spec, true);
        }
    }
}

/** %a: the hexadecimal form of a float, 0x1.8p+1. */
function hexFloat(x: number, prec: number | undefined, upper: boolean): string {
    let s: string;
    if (x === 0) s = `0x0${prec ? `.${'0'.repeat(prec)}` : ''}p+0`;
    else {
        const view = new DataView(new ArrayBuffer(8));
        view.setFloat64(0, x);
        const bits = view.getBigUint64(0);
        let exp = Number((bits >> 52n) & 0x7ffn);
        const mant = bits & ((1n << 52n) - 1n);
        let lead = '1';
        if (exp === 0) { lead = '0'; exp = -1022; } else exp -= 1023;
        let frac = mant.toString(16).padStart(13, '0').replace(/0+$/, '');
        if (prec !== undefined) frac = frac.padEnd(prec, '0').slice(0, prec);
        s = `0x${lead}${frac ? `.${frac}` : ''}p${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
    }
    return upper ? s.toUpperCase() : s;
}
