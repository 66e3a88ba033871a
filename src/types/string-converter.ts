import { PBinary, PBinaryString, PDefault, PIterator, PRegexp, PSemVerRange, PSensitive, PTimespan, PTimestamp, regexpLiteral, versionRangeInspect, type PuppetValue } from '../values/index.js';
import { isAssignable } from './assignable.js';
import { coreType } from './construct.js';
import { binaryStringText, formatValue } from './format-value.js';
import { inferType } from './infer.js';
import { PAnyType } from './model.js';
import { rubyInspect, sprintf, SprintfError } from './sprintf.js';
import { typeToString } from './to-string.js';

/** A format Puppet's String.new refuses (an ArgumentError in Puppet). */
export class StringFormatError extends Error {}

const FMT = /^%([\s[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/;
const DELIMITERS: Record<string, [string, string]> = { '[': ['[', ']'], '{': ['{', '}'], '(': ['(', ')'], '<': ['<', '>'], '|': ['|', '|'], ' ': ['', ''] };

/** One parsed format (`%<flags><width>.<prec><letter>`), with a container's separators and element formats. */
interface Format {
    readonly orig: string;
    readonly letter: string;
    readonly left: boolean;
    readonly alt: boolean;
    readonly space: boolean;
    readonly width?: number;
    readonly prec?: number;
    readonly delimiter?: string;
    separator?: string;
    separator2?: string;
    containerFormats?: FormatMap;
}

type FormatMap = Array<[PAnyType, Format]>;

function parseFormat(fmt: string): Format {
    const m = FMT.exec(fmt);
    if (!m) throw new StringFormatError(`The format '${fmt}' is not a valid format on the form '%<flags><width>.<prec><format>'`);
    const flags = [...m[1]];
    if (new Set(flags).size !== flags.length) throw new StringFormatError(`The same flag can only be used once, got '${fmt}'`);
    const delims = flags.filter(f => '[{(<|'.includes(f));
    if (delims.length > 1) throw new StringFormatError(`Only one of the delimiters [ { ( < | can be given in the format flags, got '${fmt}'`);
    return {
        orig: fmt, letter: m[4], left: flags.includes('-'), alt: flags.includes('#'), space: flags.includes(' ') || flags.includes('\t') || flags.includes('\n'),
        width: m[2] === undefined ? undefined : Number(m[2]), prec: m[3] === undefined ? undefined : Number(m[3]), delimiter: delims[0]
    };
}

const type = (name: string): PAnyType => coreType(name)!;
const DEFAULT_CONTAINER: FormatMap = [[type('Any'), parseFormat('%p')]];
const ARRAY_FORMAT: Format = { ...parseFormat('%a'), separator: ', ', separator2: ', ', containerFormats: DEFAULT_CONTAINER };
const HASH_FORMAT: Format = { ...parseFormat('%h'), separator: ', ', separator2: ' => ', containerFormats: DEFAULT_CONTAINER };
const DEFAULT_FORMATS: FormatMap = [
    [type('Object'), parseFormat('%p')], [type('Float'), parseFormat('%f')], [type('Numeric'), parseFormat('%d')],
    [type('Array'), ARRAY_FORMAT], [type('Hash'), HASH_FORMAT], [type('Binary'), parseFormat('%B')], [type('Any'), parseFormat('%s')]
];

function delimiterPair(f: Format, dflt: [string, string]): [string, string] {
    return DELIMITERS[f.delimiter ?? (f.space ? ' ' : '')] ?? dflt;
}

/** The `string_formats` argument as a format map (Puppet's validate_input). */
function validateInput(formats: PuppetValue): FormatMap {
    if (!(formats instanceof Map)) throw new StringFormatError(`expected a hash with type to format mappings, got instance of '${formats === null ? 'NilClass' : typeof formats === 'string' ? 'String' : 'Object'}'`);
    return [...formats].map(([k, v]): [PAnyType, Format] => {
        if (!(k instanceof PAnyType)) throw new StringFormatError(`top level keys in the format hash must be data types, got instance of '${typeof k === 'string' ? 'String' : 'Object'}'`);
        if (!(v instanceof Map)) return [k, parseFormat(String(v))];
        const allowed = ['separator', 'separator2', 'format', 'string_formats'];
        if ([...v.keys()].some(x => !allowed.includes(String(x)))) {
            throw new StringFormatError(`only 'separator', 'separator2', 'format', 'string_formats' are allowed in a container format, got ${rubyInspect(v)}`);
        }
        const f: Format = { ...parseFormat(typeof v.get('format') === 'string' ? v.get('format') as string : '') };
        if (typeof v.get('separator') === 'string') f.separator = v.get('separator') as string;
        if (typeof v.get('separator2') === 'string') f.separator2 = v.get('separator2') as string;
        if (v.has('string_formats')) f.containerFormats = validateInput(v.get('string_formats') ?? null);
        return [k, f];
    });
}

function mergeFormat(lower: Format | undefined, higher: Format | undefined): Format {
    if (!lower || !higher) return (lower ?? higher)!;
    return {
        ...parseFormat(higher.orig), separator: higher.separator ?? lower.separator, separator2: higher.separator2 ?? lower.separator2,
        containerFormats: mergeFormats(lower.containerFormats, higher.containerFormats)
    };
}

function same(a: PAnyType, b: PAnyType): boolean {
    return typeToString(a) === typeToString(b);
}

function mergeFormats(lower: FormatMap | undefined, higher: FormatMap | undefined): FormatMap | undefined {
    if (!lower || !higher) return lower ?? higher;
    const kept = lower.filter(([lk]) => !higher.some(([hk]) => !same(hk, lk) && isAssignable(hk, lk)));
    const keys: PAnyType[] = [];
    for (const [k] of [...kept, ...higher]) if (!keys.some(x => same(x, k))) keys.push(k);
    const merged = keys.map((k): [PAnyType, Format] => [k, mergeFormat(kept.find(([x]) => same(x, k))?.[1], higher.find(([x]) => same(x, k))?.[1])]);
    return sortFormats(merged);
}

const RANK: Record<string, number> = { Struct: 1, Hash: 2, Tuple: 3, Array: 4, Pattern: 10, Enum: 11, String: 12 };

/** Puppet's sort_formats: more specific types first, then by rank or name (a stable merge sort, as Ruby's). */
function sortFormats(map: FormatMap): FormatMap {
    const cmp = ([a]: [PAnyType, Format], [b]: [PAnyType, Format]): number => {
        if (same(a, b)) return 0;
        const ab = isAssignable(b, a);
        const ba = isAssignable(a, b);
        if (ab && !ba) return -1;
        if (!ab && ba) return 1;
        const ra = RANK[a.kind] ?? 0;
        const rb = RANK[b.kind] ?? 0;
        if (ra === 0 || rb === 0) { const sa = typeToString(a); const sb = typeToString(b); return sa < sb ? -1 : sa > sb ? 1 : 0; }
        return ra - rb;
    };
    const sort = (xs: FormatMap): FormatMap => {
        if (xs.length <= 1) return xs;
        const l = sort(xs.slice(0, Math.floor(xs.length / 2)));
        const r = sort(xs.slice(Math.floor(xs.length / 2)));
        const out: FormatMap = [];
        while (l.length && r.length) out.push(cmp(l[0], r[0]) <= 0 ? l.shift()! : r.shift()!);
        return [...out, ...l, ...r];
    };
    return sort(map);
}

function getFormat(t: PAnyType, map: FormatMap): Format {
    return map.find(([k]) => isAssignable(k, t))?.[1] ?? parseFormat('%s');
}

/** Puppet's String.new(value, formats): the StringConverter. */
export function convertToString(value: PuppetValue, formats?: PuppetValue): string {
    let options = DEFAULT_FORMATS;
    let given: PuppetValue | undefined = formats === undefined || formats instanceof PDefault ? undefined : formats;
    const vt = inferType(value);
    if (typeof given === 'string') {
        const key = Array.isArray(value) ? type('Array') : value instanceof Map ? type('Hash') : vt;
        given = new Map<PuppetValue, PuppetValue>([[key, Array.isArray(value) || value instanceof Map ? new Map([['format', given]]) : given]]);
    }
    if (given !== undefined) options = mergeFormats(DEFAULT_FORMATS, validateInput(given))!;
    try {
        return convert(value, options, { level: 0, first: true, indenting: false });
    } catch (e) {
        if (e instanceof SprintfError) throw new StringFormatError(e.message);
        throw e;
    }
}

interface Indentation { level: number; first: boolean; indenting: boolean }
const subsequent = (i: Indentation): Indentation => i.first ? { ...i, first: false } : i;
const breaks = (i: Indentation): boolean => i.indenting && i.level > 0 && !i.first;
const padding = (i: Indentation): string => ' '.repeat(2 * i.level);

function formatError(what: string, letter: string, expected: string): StringFormatError {
    return new StringFormatError(`Illegal format '${letter}' specified for value of ${what} type - expected one of the characters '${expected}'`);
}

/** Kernel.format('%-W.Ps', text) when the format has a left flag, width or precision. */
function applyStringFlags(f: Format, text: string): string {
    if (!f.left && f.width === undefined && f.prec === undefined) return text;
    return sprintf(`%${f.left ? '-' : ''}${f.width ?? ''}${f.prec !== undefined ? `.${f.prec}` : ''}s`, [text]);
}

function puppetQuote(s: string, double = false): string {
    if (double || [...s].some(c => c.codePointAt(0)! < 0x20)) {
        const esc: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '"': '\\"', $: '\\$', '\\': '\\\\' };
        return `"${[...s].map(c => esc[c] ?? (c.codePointAt(0)! < 0x20 ? `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}` : c)).join('')}"`;
    }
    let out = "'";
    let escaped = false;
    for (const c of s) {
        if (escaped) { out += `\\${c}`; escaped = false; } else if (c === "'") out += "\\'";
        else if (c === '\\') escaped = true;
        else out += c;
    }
    return `${out}${escaped ? '\\' : ''}'`;
}

function isContainer(v: PuppetValue): boolean {
    return Array.isArray(v) || v instanceof Map;
}

function convert(value: PuppetValue, map: FormatMap, ind: Indentation): string {
    // A Ruby binary string (YAML's !!binary) converts as the String it is.
    const v = value instanceof PBinaryString ? binaryStringText(value) : value;
    const t = inferType(v);
    const f = getFormat(t, map);
    const L = f.letter;
    if (v === null) {
        const out: Record<string, string> = { n: f.alt ? 'null' : 'nil', u: f.alt ? 'undefined' : 'undef', v: 'n/a', V: 'N/A', s: f.alt ? '""' : '', p: f.alt ? '"undef"' : 'undef' };
        if ('dxXobBeEfgGaA'.includes(L)) return applyStringFlags(f, 'NaN');
        if (out[L] === undefined) throw formatError('Undef', L, 'nudxXobBeEfgGaAvVsp');
        return applyStringFlags(f, out[L]);
    }
    if (v instanceof PDefault) {
        if ('dsp'.includes(L)) return applyStringFlags(f, f.alt ? '"default"' : 'default');
        if (L === 'D') return applyStringFlags(f, f.alt ? '"Default"' : 'Default');
        throw formatError('Default', L, 'dDsp');
    }
    if (typeof v === 'boolean') {
        const pick = (s: string): string => applyStringFlags(f, f.alt ? s[0] : s);
        switch (L) {
            case 't': return pick(String(v));
            case 'T': return pick(v ? 'True' : 'False');
            case 'y': return pick(v ? 'yes' : 'no');
            case 'Y': return pick(v ? 'Yes' : 'No');
            case 's': case 'p': return applyStringFlags(f, String(v));
            default:
                if ('dxXobB'.includes(L)) return convert(v ? 1n : 0n, [[type('Integer'), f]], ind);
                if ('eEfgGaA'.includes(L)) return convert(v ? 1 : 0, [[type('Float'), f]], ind);
                throw formatError('Boolean', L, 'tTyYdxXobBeEfgGaAsp');
        }
    }
    if (typeof v === 'bigint') {
        if ('dxXobBp'.includes(L)) return sprintf(f.orig, [v]);
        if ('eEfgGaA'.includes(L)) return sprintf(f.orig, [Number(v)]);
        if (L === 'c') {
            // Ruby's [v].pack('U'): a code point from 0 to 2**31 - 1 (beyond Unicode, an encoding Puppet cannot log).
            if (v < 0n || v >= 2n ** 31n) throw new StringFormatError('pack(U): value out of range');
            if (v > 0x10ffffn) throw new StringFormatError(`invalid code point ${v}`);
            const c = String.fromCodePoint(Number(v)); return sprintf(f.orig.replace(/c/g, 's'), [f.alt ? `"${c}"` : c]); }
        if (L === 's') return sprintf(f.orig.replace(/s/g, f.alt ? 'p' : 's'), [String(v)]);
        throw formatError('Integer', L, 'dxXobBeEfgGaAspc');
    }
    if (typeof v === 'number') {
        if ('dxXobB'.includes(L)) return sprintf(f.orig, [BigInt(Math.trunc(v))]);
        if ('eEfgGaAp'.includes(L)) return sprintf(f.orig, [v]);
        if (L === 's') { const p = sprintf('%p', [v]); return sprintf(f.orig, [f.alt ? `"${p}"` : p]); }
        throw formatError('Float', L, 'dxXobBeEfgGaAsp');
    }
    if (typeof v === 'string') {
        const alt = (s: string, letter: string): string => f.alt ? applyStringFlags(f, puppetQuote(s)) : sprintf(f.orig.replace(letter, 's'), [s]);
        switch (L) {
            case 's': return sprintf(f.orig, [v]);
            case 'p': return applyStringFlags(f, puppetQuote(v, f.alt));
            case 'c': return alt(v.charAt(0).toUpperCase() + v.slice(1).toLowerCase(), 'c');
            case 'C': return alt(v.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()).join('::'), 'C');
            case 'u': return alt(v.toUpperCase(), 'u');
            case 'd': return alt(v.toLowerCase(), 'd');
            case 't': return alt(v.replace(/^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g, ''), 't');
            default: throw formatError('String', L, 'cCudspt');
        }
    }
    if (v instanceof PRegexp) {
        if (L === 'p') { const s = regexpLiteral(v.source); return f.orig === '%p' ? s : sprintf(f.orig.replace('p', 's'), [s]); }
        if (L === 's') { const s = f.alt ? puppetQuote(v.source) : v.source; return f.orig === '%s' ? s : sprintf(f.orig, [s]); }
        throw formatError('Regexp', L, 'sp');
    }
    if (v instanceof PBinary) {
        const sub = f.alt ? 'p' : 's';
        const b64 = Buffer.from(v.bytes).toString('base64');
        switch (L) {
            case 's': return sprintf(f.orig.replace(/s/g, sub), [Buffer.from(v.bytes).toString('utf8')]);
            case 'p': return `Binary("${sprintf(f.orig.replace('p', 's'), [b64])}")`;
            case 'b': return sprintf(f.orig.replace(/b/g, sub), [b64.replace(/(.{60})/g, '$1\n') + (b64.length > 0 ? '\n' : '')]);
            case 'B': return sprintf(f.orig.replace(/B/g, sub), [b64]);
            case 'u': return sprintf(f.orig.replace(/u/g, sub), [Buffer.from(v.bytes).toString('base64url') + '='.repeat((4 - (b64.replace(/=+$/, '').length % 4)) % 4)]);
            case 't': return sprintf(f.orig.replace(/t/g, sub), ['Binary']);
            case 'T': return sprintf(f.orig.replace(/T/g, sub), ['BINARY']);
            default: throw formatError('Binary', L, 'bButTsp');
        }
    }
    if (v instanceof PIterator) return convert(v.elementsOf(), map, ind);
    if (Array.isArray(v)) return convertArray(v, f, map, ind);
    if (v instanceof Map) return convertHash(v, f, map, ind);
    if (v instanceof PAnyType) {
        if (L === 's') return sprintf(f.orig, [f.alt ? `"${formatValue(v)}"` : formatValue(v)]);
        if (L === 'p') return sprintf(f.orig.replace('p', 's'), [formatValue(v)]);
        throw formatError('Type', L, 'sp');
    }
    // Sensitive, Timestamp, Timespan, SemVer, ...: Kernel.format of the Ruby object, its to_s (%s) or inspect (%p).
    return sprintf(f.orig.replace(/p$/, 's'), [f.letter === 'p' ? rubyObjectInspect(v) : formatValue(v)]);
}

/**
 * Ruby's inspect of the objects Puppet holds for these values: a version range normalized, a
 * Timestamp or Timespan as Ruby's default (its class, address and nanoseconds; the address is
 * the object's own in Puppet and differs from run to run: zeros stand in).
 */
function rubyObjectInspect(v: PuppetValue): string {
    if (v instanceof PSensitive) return '#<Sensitive [value redacted]>';
    if (v instanceof PSemVerRange) return versionRangeInspect(v.range);
    if (v instanceof PTimestamp || v instanceof PTimespan) return `#<Puppet::Pops::Time::${v instanceof PTimestamp ? 'Timestamp' : 'Timespan'}:0x${'0'.repeat(16)} @nsecs=${v.nanos}>`;
    return formatValue(v);
}

function convertArray(v: PuppetValue[], f: Format, map: FormatMap, indIn: Indentation): string {
    if (!'asp'.includes(f.letter)) throw formatError('Array', f.letter, 'asp');
    const sep = f.separator ?? ARRAY_FORMAT.separator!;
    const elementFormats = f.containerFormats ?? DEFAULT_CONTAINER;
    const delims = delimiterPair(f, ['[', ']']);
    const ind = { ...indIn, indenting: f.alt || indIn.indenting };
    let buf = breaks(ind) ? `\n${padding(ind)}` : '';
    buf += delims[0];
    let child: Indentation = { level: ind.level + 1, first: true, indenting: f.alt };
    const mapped = v.map(x => {
        if (child.first) child = subsequent(child);
        return convert(x, isContainer(x) ? map : elementFormats, child);
    });
    let szBreak = false;
    if (f.alt && f.width !== undefined) {
        const widest = v.reduce<number[]>((memo, x, i) => { if (isContainer(x)) memo.push(0); else memo[memo.length - 1] += mapped[i].length; return memo; }, [0]);
        szBreak = Math.max(...widest) > f.width;
    }
    child = { level: ind.level + 1, first: true, indenting: f.alt };
    v.forEach((x, i) => {
        const s = mapped[i];
        if (child.first) {
            child = subsequent(child);
            if (szBreak && !isContainer(x)) buf += ' ';
        } else {
            buf += sep;
            if ((szBreak && !isContainer(x)) || (f.alt && i > 0 && isContainer(v[i - 1]) && !isContainer(x))) {
                if (!buf.endsWith('\n')) buf = buf.replace(/\s+$/, '');
                buf += `\n${padding(child)}`;
            }
        }
        if (buf.endsWith(' ') && s.startsWith('\n')) buf = buf.replace(/\s+$/, '');
        buf += s;
    });
    return buf + delims[1];
}

function convertHash(v: Map<PuppetValue, PuppetValue>, f: Format, map: FormatMap, indIn: Indentation): string {
    let sep = f.separator ?? HASH_FORMAT.separator!;
    const assoc = f.separator2 ?? HASH_FORMAT.separator2!;
    const elementFormats = f.containerFormats ?? DEFAULT_CONTAINER;
    const delims = delimiterPair(f, ['{', '}']);
    if (f.alt) sep = `${sep.endsWith('\n') ? sep : sep.replace(/\s+$/, '')}\n`;
    if (f.letter === 'a') return convert([...v].map(([k, x]) => [k, x]), map, indIn);
    if (!'hsp'.includes(f.letter)) throw formatError('Hash', f.letter, 'hasp');
    const ind = { ...indIn, indenting: f.alt || indIn.indenting };
    let buf = breaks(ind) ? `\n${padding(ind)}` : '';
    const child: Indentation = { level: ind.level + 1, first: true, indenting: false };
    const condBreak = f.alt ? '\n' : '';
    const pad = f.alt ? padding(child) : '';
    buf += delims[0] + condBreak;
    buf += [...v].map(([k, x]) => `${pad}${convert(k, isContainer(k) ? map : elementFormats, child)}${assoc}${convert(x, isContainer(x) ? map : elementFormats, child)}`).join(sep);
    if (f.alt) buf += condBreak + padding(ind);
    return buf + delims[1];
}
