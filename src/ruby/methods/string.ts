import { createHash } from 'node:crypto';
import { sprintf, SprintfError } from '../../types/index.js';
import { PRegexp, type PuppetValue } from '../../values/index.js';
import { compare } from '../compare.js';
import { inspect, inspectString } from '../inspect.js';
import { RMatchData, RRange, RSymbol, rubyError, sym, type CallSite, type Method, type RHash, type RValue } from '../objects.js';
import { escapeRegexp, globalRegExp, regexpOf } from '../regexp.js';
import { sliceOf } from './array.js';
import { findKey } from '../compare.js';
import { arity, enumerator, needBlock, num, rangeItems, str, succ } from './support.js';
import { asBinary, bytesOf, isBinary, unpack } from './binary.js';

const S = (v: RValue): string => v as string;
const chars = (s: string): string[] => [...s];

/** A String or Regexp pattern argument as a global JavaScript RegExp. */
function patternOf(p: RValue): PRegexp {
    if (p instanceof PRegexp) return p;
    if (typeof p === 'string') return regexpOf(escapeRegexp(p), '');
    throw rubyError('TypeError', `wrong argument type ${p === null ? 'nil' : inspect(p)} (expected Regexp)`);
}

const globalRe = globalRegExp;

/** Expands `\1`, `\0`, `\&`, `\k<name>`, `` \` ``, `\'` and `\\` in a sub/gsub replacement. */
function expand(rep: string, m: RegExpExecArray, input: string): string {
    return rep.replace(/\\(\d|&|`|'|\\|k<(\w+)>)/g, (_x, d: string, name: string | undefined) => {
        if (name !== undefined) return m.groups?.[name] ?? '';
        if (d === '\\') return '\\';
        if (d === '&' || d === '0') return m[0];
        if (d === '`') return input.slice(0, m.index);
        if (d === "'") return input.slice(m.index + m[0].length);
        return m[Number(d)] ?? '';
    });
}

/** sub/gsub with a string, a hash or a block, setting `$~` for the block as Ruby does. */
function substitute(s: string, args: RValue[], block: Parameters<Method>[2], call: CallSite, global: boolean): string {
    arity(args, block ? 1 : 2, block ? 1 : 2);
    const pattern = patternOf(args[0]);
    const re = globalRe(pattern);
    let out = '';
    let last = 0;
    let m: RegExpExecArray | null;
    let lastMatch: RMatchData | null = null;
    while ((m = re.exec(s)) !== null) {
        lastMatch = new RMatchData(m, s);
        out += s.slice(last, m.index);
        if (args.length === 2) {
            const rep = args[1];
            if (rep instanceof Map) out += call.toS(findKey(rep as RHash, m[0])?.[1] ?? null);
            else out += expand(str(rep), m, s);
        } else {
            call.setLastMatch(lastMatch);
            out += call.toS(call.yield(block!, [m[0]]));
        }
        last = m.index + m[0].length;
        if (m[0].length === 0) { if (re.lastIndex < s.length) out += s[re.lastIndex]; re.lastIndex++; last = re.lastIndex; }
        if (!global) break;
    }
    call.setLastMatch(lastMatch);
    return out + s.slice(Math.min(last, s.length));
}

/** Ruby's String#split, including awk mode (`split`, `split(' ')`), captures and limits. */
export function split(s: string, pattern: RValue, limitArg: RValue): string[] {
    const limit = limitArg === null || limitArg === undefined ? 0 : num(limitArg);
    let out: string[] = [];
    const awk = pattern === null || pattern === ' ';
    if (awk) {
        const t = s.replace(/^[ \t\n\v\f\r]+/, '');
        if (t === '') return [];
        if (limit > 0) {
            let rest = t;
            while (out.length < limit - 1) {
                const m = /[ \t\n\v\f\r]+/.exec(rest);
                if (!m) break;
                out.push(rest.slice(0, m.index));
                rest = rest.slice(m.index + m[0].length);
            }
            out.push(rest);
            return out;
        }
        out = t.split(/[ \t\n\v\f\r]+/);
    } else if (typeof pattern === 'string' && pattern === '') {
        out = chars(s);
        if (limit > 0 && out.length > limit) out = [...out.slice(0, limit - 1), out.slice(limit - 1).join('')];
    } else {
        const re = globalRe(patternOf(pattern));
        let last = 0;
        let m: RegExpExecArray | null;
        if (s === '') return [];
        while ((m = re.exec(s)) !== null) {
            if (limit > 0 && out.length === limit - 1) break;
            if (m[0].length === 0) {
                if (m.index >= s.length) break;
                if (m.index === last) { re.lastIndex = m.index + 1; if (m.index === 0) continue; }
                out.push(s.slice(last, m.index === last ? m.index + 1 : m.index));
                last = m.index === last ? m.index + 1 : m.index;
                continue;
            }
            out.push(s.slice(last, m.index), ...m.slice(1).filter((g): g is string => g !== undefined));
            last = m.index + m[0].length;
        }
        out.push(s.slice(last));
    }
    if (limit === 0) while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out;
}

/** tr's character sets: ranges `a-z` and a leading `^` for the complement. */
function trSet(spec: string): { chars: string[]; negate: boolean } {
    const negate = spec.length > 1 && spec.startsWith('^');
    const body = negate ? spec.slice(1) : spec;
    const out: string[] = [];
    const c = chars(body);
    for (let i = 0; i < c.length; i++) {
        if (c[i] === '\\' && i + 1 < c.length) { out.push(c[++i]); continue; }
        if (c[i + 1] === '-' && i + 2 < c.length) {
            for (let x = c[i].codePointAt(0)!; x <= c[i + 2].codePointAt(0)!; x++) out.push(String.fromCodePoint(x));
            i += 2;
        } else out.push(c[i]);
    }
    return { chars: out, negate };
}

function tr(s: string, from: string, to: string, squeeze = false): string {
    const f = trSet(from);
    const t = trSet(to).chars;
    let out = '';
    let lastTo: string | null = null;
    for (const ch of chars(s)) {
        const i = f.chars.indexOf(ch);
        const hit = f.negate ? i < 0 : i >= 0;
        if (!hit) { out += ch; lastTo = null; continue; }
        if (t.length === 0) continue;
        const r = f.negate ? t[t.length - 1] : t[Math.min(i, t.length - 1)];
        if (squeeze && r === lastTo) continue;
        out += r;
        lastTo = r;
    }
    return out;
}

function capitalize(s: string): string {
    const c = chars(s);
    return c.length === 0 ? '' : c[0].toUpperCase() + c.slice(1).join('').toLowerCase();
}

function justify(s: string, args: RValue[], where: 'l' | 'r' | 'c'): string {
    arity(args, 1, 2);
    const width = num(args[0]);
    const pad = args.length > 1 ? str(args[1]) : ' ';
    if (pad === '') throw rubyError('ArgumentError', 'zero width padding');
    const len = chars(s).length;
    if (width <= len) return s;
    const fill = (n: number): string => pad.repeat(Math.ceil(n / pad.length)).slice(0, n);
    const total = width - len;
    if (where === 'l') return s + fill(total);
    if (where === 'r') return fill(total) + s;
    const left = Math.floor(total / 2);
    return fill(left) + s + fill(total - left);
}

/** Ruby's String#to_i: leading whitespace, sign, digits, underscores between digits; 0 otherwise. */
export function toI(s: string, base = 10): bigint {
    const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
    const m = new RegExp(`^\\s*([-+]?)((?:[${digits}](?:_?[${digits}])*)?)`, 'i').exec(s)!;
    if (!m[2]) return 0n;
    let v = 0n;
    for (const ch of m[2].replace(/_/g, '').toLowerCase()) v = v * BigInt(base) + BigInt(digits.indexOf(ch));
    return m[1] === '-' ? -v : v;
}

export function toF(s: string): number {
    const m = /^\s*[-+]?(?:\d(?:_?\d)*)?(?:\.\d(?:_?\d)*)?(?:[eE][-+]?\d+)?/.exec(s);
    const t = (m?.[0] ?? '').replace(/_/g, '').trim();
    const n = Number(t);
    return t === '' || t === '-' || t === '+' || Number.isNaN(n) ? 0 : n;
}

/** Converts template values for Kernel#format (Puppet's sprintf works on Puppet values). */
function formatArgs(args: RValue[], call: CallSite): PuppetValue[] {
    // Ruby formats collections by their `to_s` (their inspect): `[1, :a]`, `{"k"=>1}`; a lone
    // hash stays a hash, for %<name>s and %{name} references (its symbol keys by name).
    const one = (a: RValue): PuppetValue => (a instanceof RSymbol ? a.name : typeof a === 'object' && a !== null && !(a instanceof PRegexp) ? call.toS(a) : a) as PuppetValue;
    if (args.length === 1 && args[0] instanceof Map) {
        return [new Map([...args[0]].map(([k, v]): [PuppetValue, PuppetValue] => [k instanceof RSymbol ? k.name : one(k), v instanceof Map || Array.isArray(v) ? one(v) : v as PuppetValue]))];
    }
    return args.map(one);
}

export function format(fmt: string, args: RValue[], call: CallSite): string {
    try {
        return sprintf(fmt, formatArgs(args, call));
    } catch (e) {
        if (e instanceof SprintfError) throw rubyError(/^key/.test(e.message) ? 'KeyError' : /^can't convert/.test(e.message) ? 'TypeError' : 'ArgumentError', e.message);
        throw e;
    }
}

export const stringMethods: Record<string, Method> = {
    length: self => BigInt(chars(S(self)).length),
    size: self => BigInt(chars(S(self)).length),
    bytesize: self => BigInt(bytesOf(S(self)).length),
    upcase: self => S(self).toUpperCase(),
    downcase: self => S(self).toLowerCase(),
    capitalize: self => capitalize(S(self)),
    swapcase: self => chars(S(self)).map(c => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
    strip: self => S(self).replace(/^[\s\0]+|[\s\0]+$/g, ''),
    lstrip: self => S(self).replace(/^\s+/, ''),
    rstrip: self => S(self).replace(/[\s\0]+$/, ''),
    chomp: (self, args) => {
        const s = S(self);
        if (args.length === 0) return s.replace(/(\r\n|\n|\r)$/, '');
        const suffix = str(args[0]);
        if (suffix === '') return s.replace(/(\r?\n)+$/, '');
        return s.endsWith(suffix) ? s.slice(0, -suffix.length) : s;
    },
    chop: self => (S(self).endsWith('\r\n') ? S(self).slice(0, -2) : chars(S(self)).slice(0, -1).join('')),
    chr: self => chars(S(self))[0] ?? '',
    chars: self => chars(S(self)),
    bytes: self => [...bytesOf(S(self))].map(b => BigInt(b)),
    codepoints: self => chars(S(self)).map(c => BigInt(c.codePointAt(0)!)),
    lines: (self, args) => lines(S(self), args.length ? str(args[0]) : '\n'),
    each_line: (self, args, block, call) => {
        const ls = lines(S(self), args.length ? str(args[0]) : '\n');
        if (!block) return enumerator(ls, 'each_line', () => self);
        for (const l of ls) call.yield(block, [l]);
        return self;
    },
    each_char: (self, _a, block, call) => {
        if (!block) return enumerator(chars(S(self)), 'each_char', () => self);
        for (const c of chars(S(self))) call.yield(block, [c]);
        return self;
    },
    split: (self, args) => { arity(args, 0, 2); return split(S(self), args[0] ?? null, args[1] ?? null); },
    gsub: (self, args, block, call) => substitute(S(self), args, block, call, true),
    sub: (self, args, block, call) => substitute(S(self), args, block, call, false),
    tr: (self, args) => { arity(args, 2); return tr(S(self), str(args[0]), str(args[1])); },
    tr_s: (self, args) => { arity(args, 2); return tr(S(self), str(args[0]), str(args[1]), true); },
    delete: (self, args) => { arity(args, 1, Infinity); const f = trSet(str(args[0])); return chars(S(self)).filter(c => (f.chars.includes(c)) === f.negate).join(''); },
    squeeze: (self, args) => chars(S(self)).filter((c, i, a) => i === 0 || c !== a[i - 1] || (args.length > 0 && !trSet(str(args[0])).chars.includes(c))).join(''),
    count: (self, args) => { arity(args, 1, Infinity); const f = trSet(str(args[0])); return BigInt(chars(S(self)).filter(c => f.chars.includes(c) !== f.negate).length); },
    'include?': (self, args) => { arity(args, 1); return S(self).includes(str(args[0])); },
    'start_with?': (self, args, _b, call) => args.some(a => (a instanceof PRegexp ? call.match(a, S(self)) !== null && (call.match(a, S(self)) as RMatchData).match.index === 0 : S(self).startsWith(str(a)))),
    'end_with?': (self, args) => args.some(a => S(self).endsWith(str(a))),
    index: (self, args, _b, call) => {
        arity(args, 1, 2);
        const from = args.length > 1 ? num(args[1]) : 0;
        if (args[0] instanceof PRegexp) { const m = call.match(args[0], S(self), from); return m ? BigInt(m.match.index) : null; }
        const i = S(self).indexOf(str(args[0]), from);
        return i < 0 ? null : BigInt(i);
    },
    rindex: (self, args) => { const i = S(self).lastIndexOf(str(args[0])); return i < 0 ? null : BigInt(i); },
    '[]': (self, args, _b, call) => sameKind(S(self), stringIndex(S(self), args, call)),
    slice: (self, args, _b, call) => sameKind(S(self), stringIndex(S(self), args, call)),
    '+': (self, args) => { arity(args, 1); return S(self) + str(args[0]); },
    '*': (self, args) => { arity(args, 1); const n = num(args[0]); if (n < 0) throw rubyError('ArgumentError', 'negative argument'); return S(self).repeat(n); },
    '%': (self, args, _b, call) => format(S(self), Array.isArray(args[0]) ? args[0] : [args[0]], call),
    '==': (self, args) => S(self) === args[0],
    '===': (self, args) => S(self) === args[0],
    'eql?': (self, args) => S(self) === args[0],
    '<=>': (self, args) => { const c = typeof args[0] === 'string' ? compare(self, args[0]) : null; return c === null ? null : BigInt(c); },
    '<': (self, args) => cmpOrFail(self, args[0]) < 0,
    '<=': (self, args) => cmpOrFail(self, args[0]) <= 0,
    '>': (self, args) => cmpOrFail(self, args[0]) > 0,
    '>=': (self, args) => cmpOrFail(self, args[0]) >= 0,
    'between?': (self, args) => cmpOrFail(self, args[0]) >= 0 && cmpOrFail(self, args[1]) <= 0,
    '=~': (self, args, _b, call) => {
        if (typeof args[0] === 'string') throw rubyError('TypeError', "wrong argument type String (expected Regexp)");
        const m = call.match(patternOf(args[0]), S(self));
        return m ? BigInt(m.match.index) : null;
    },
    // String#match compiles a String argument as a regexp (it is not a literal here).
    match: (self, args, _b, call) => call.match(typeof args[0] === 'string' ? regexpOf(args[0], '') : patternOf(args[0]), S(self), args.length > 1 ? num(args[1]) : 0),
    'match?': (self, args) => globalRe(typeof args[0] === 'string' ? regexpOf(args[0], '') : patternOf(args[0])).test(S(self)),
    // Two strings are two objects (a literal is a new string each time it runs).
    'equal?': () => false,
    scan: (self, args, block, call) => {
        const re = globalRe(patternOf(args[0]));
        const out: RValue[] = [];
        let m: RegExpExecArray | null;
        while ((m = re.exec(S(self))) !== null) {
            const item: RValue = m.length > 1 ? m.slice(1).map(g => g ?? null) : m[0];
            if (block) { call.setLastMatch(new RMatchData(m, S(self))); call.yield(block, [item]); } else out.push(item);
            if (m[0].length === 0) re.lastIndex++;
        }
        return block ? self : out;
    },
    to_s: self => self,
    to_str: self => self,
    inspect: self => inspectString(S(self)),
    dump: self => inspectString(S(self)),
    to_sym: self => sym(S(self)),
    intern: self => sym(S(self)),
    to_i: (self, args) => toI(S(self), args.length ? num(args[0]) : 10),
    to_f: self => toF(S(self)),
    hex: self => toI(S(self).replace(/^(\s*[-+]?)0x/i, '$1'), 16),
    oct: self => toI(S(self).replace(/^(\s*[-+]?)0o?/i, '$1'), 8),
    ord: self => { if (S(self) === '') throw rubyError('ArgumentError', 'empty string'); return BigInt(S(self).codePointAt(0)!); },
    'empty?': self => S(self).length === 0,
    reverse: self => chars(S(self)).reverse().join(''),
    center: (self, args) => justify(S(self), args, 'c'),
    ljust: (self, args) => justify(S(self), args, 'l'),
    rjust: (self, args) => justify(S(self), args, 'r'),
    succ: self => succ(S(self)),
    next: self => succ(S(self)),
    upto: (self, args, block, call) => { for (const s of rangeItems(new RRange(self, args[0], false))) call.yield(needBlock(block), [s]); return self; },
    casecmp: (self, args) => { const c = compare(S(self).toLowerCase(), str(args[0]).toLowerCase()); return c === null ? null : BigInt(c); },
    'casecmp?': (self, args) => S(self).toLowerCase() === str(args[0]).toLowerCase(),
    concat: (self, args) => S(self) + args.map(str).join(''),
    '<<': (self, args) => S(self) + (typeof args[0] === 'bigint' ? String.fromCodePoint(Number(args[0])) : str(args[0])),
    prepend: (self, args) => args.map(str).join('') + S(self),
    insert: (self, args) => { const c = chars(S(self)); let i = num(args[0]); if (i < 0) i = c.length + i + 1; c.splice(i, 0, str(args[1])); return c.join(''); },
    partition: (self, args) => {
        const s = S(self);
        if (args[0] instanceof PRegexp) { const m = globalRe(args[0]).exec(s); return m ? [s.slice(0, m.index), m[0], s.slice(m.index + m[0].length)] : [s, '', '']; }
        const i = s.indexOf(str(args[0]));
        return i < 0 ? [s, '', ''] : [s.slice(0, i), str(args[0]), s.slice(i + str(args[0]).length)];
    },
    rpartition: (self, args) => { const s = S(self); const i = s.lastIndexOf(str(args[0])); return i < 0 ? ['', '', s] : [s.slice(0, i), str(args[0]), s.slice(i + str(args[0]).length)]; },
    delete_prefix: (self, args) => (S(self).startsWith(str(args[0])) ? S(self).slice(str(args[0]).length) : S(self)),
    delete_suffix: (self, args) => (S(self).endsWith(str(args[0])) && str(args[0]) !== '' ? S(self).slice(0, -str(args[0]).length) : S(self)),
    freeze: self => self,
    'frozen?': () => true,
    dup: self => self,
    '+@': self => self,
    '-@': self => self,
    force_encoding: self => self,
    encode: self => self,
    unicode_normalize: self => S(self).normalize('NFC'),
    'valid_encoding?': () => true,
    'ascii_only?': self => /^[\x00-\x7f]*$/.test(S(self)),
    encoding: () => sym('UTF-8'),
    hash: self => BigInt(createHash('md5').update(S(self)).digest().readInt32BE(0)),
    crypt: () => { throw rubyError('NotImplementedError', 'crypt is not supported in templates'); },
    unpack: (self, args) => unpack(S(self), typeof args[0] === 'string' ? args[0] : '')
};
stringMethods.each_byte = (self, _a, block, call) => { for (const b of Buffer.from(S(self))) call.yield(needBlock(block), [BigInt(b)]); return self; };

/** String methods that Ruby runs in place (`s << x`, `s.gsub!`): the new text and what the call returns. */
export const stringMutators: Record<string, (s: string, args: RValue[], block: Parameters<Method>[2], call: CallSite) => { value: string; result: RValue }> = {
    '<<': (s, a, b, c) => { const v = S(stringMethods['<<'](s, a, b, c)); return { value: v, result: v }; },
    concat: (s, a, b, c) => { const v = S(stringMethods.concat(s, a, b, c)); return { value: v, result: v }; },
    prepend: (s, a, b, c) => { const v = S(stringMethods.prepend(s, a, b, c)); return { value: v, result: v }; },
    insert: (s, a, b, c) => { const v = S(stringMethods.insert(s, a, b, c)); return { value: v, result: v }; },
    replace: (_s, a) => ({ value: str(a[0]), result: str(a[0]) }),
    clear: () => ({ value: '', result: '' })
};
for (const name of ['gsub', 'sub', 'upcase', 'downcase', 'capitalize', 'swapcase', 'strip', 'lstrip', 'rstrip', 'chomp', 'chop', 'squeeze', 'tr', 'tr_s', 'delete', 'reverse', 'succ', 'next', 'delete_prefix', 'delete_suffix', 'unicode_normalize']) {
    stringMutators[`${name}!`] = (s, a, b, c) => {
        const v = S(stringMethods[name](s, a, b, c));
        return { value: v, result: v === s && !['reverse', 'succ', 'next'].includes(name) ? null : v };
    };
}

function cmpOrFail(a: RValue, b: RValue): number {
    const c = compare(a, b);
    if (c === null) throw rubyError('ArgumentError', `comparison of String with ${b === null ? 'nil' : inspect(b)} failed`);
    return c;
}

function lines(s: string, sep: string): string[] {
    const out: string[] = [];
    let i = 0;
    while (i < s.length) {
        const j = s.indexOf(sep, i);
        if (j < 0) { out.push(s.slice(i)); break; }
        out.push(s.slice(i, j + sep.length));
        i = j + sep.length;
    }
    return out;
}

/** A part of a binary string is bytes too. */
function sameKind(from: string, part: RValue): RValue {
    return typeof part === 'string' && isBinary(from) ? asBinary(part) : part;
}

function stringIndex(s: string, args: RValue[], call: CallSite): RValue {
    arity(args, 1, 2);
    const a = args[0];
    if (a instanceof PRegexp) {
        const m = call.match(a, s);
        if (!m) return null;
        return args.length > 1 ? m.group(typeof args[1] === 'string' ? 0 : num(args[1])) ?? null : m.group(0);
    }
    if (typeof a === 'string') return s.includes(a) ? a : null;
    return sliceOf(chars(s), args, part => part.join(''), c => c);
}


