import type { PTimespan, PTimestamp } from './values.js';

/** A bad Timespan format (Puppet's ArgumentError text). */
export class TimeFormatError extends Error {}

const NS = { D: 86_400_000_000_000n, H: 3_600_000_000_000n, M: 60_000_000_000n, S: 1_000_000_000n, L: 1_000_000n, N: 1n } as const;
type Unit = keyof typeof NS;
const ORDER: Unit[] = ['N', 'L', 'S', 'M', 'H', 'D'];
const DEFAULT_WIDTH: Record<Unit, number> = { D: 1, H: 2, M: 2, S: 2, L: 3, N: 9 };
const WRAP: Partial<Record<Unit, bigint>> = { H: 24n, M: 60n, S: 60n, L: 1000n };

type Segment = string | { unit: Unit; pad: string | null; width: number | null; total: boolean };

/**
 * Puppet's Timespan format (%D %H %M %S %L %N, flags `-` unpadded and `_` space-padded, a
 * width): the largest unit given shows the total, the others the remainder; %L and %N are
 * fractions (left justified, trailing zeros dropped unless zero-padded).
 */
export function formatTimespanAs(t: PTimespan, format: string): string {
    const segments = parseTimespanFormat(format);
    const abs = t.nanos < 0n ? -t.nanos : t.nanos;
    let out = t.nanos < 0n ? '-' : '';
    for (const seg of segments) {
        if (typeof seg === 'string') { out += seg; continue; }
        const width = seg.width ?? DEFAULT_WIDTH[seg.unit];
        let n: bigint;
        if (seg.unit === 'N') {
            n = width < 9 ? abs / 10n ** BigInt(9 - width) : abs;
            if (!seg.total) n %= width < 9 ? 10n ** BigInt(width) : NS.S;
        } else {
            n = abs / NS[seg.unit];
            const wrap = WRAP[seg.unit];
            if (!seg.total && wrap !== undefined) n %= wrap;
        }
        const fraction = seg.unit === 'L' || seg.unit === 'N';
        if (fraction && !seg.total && seg.pad !== '0') n = BigInt(String(n).replace(/^(\d+?)0*$/, '$1'));
        const text = String(n);
        if (seg.pad === null) out += text;
        else if (fraction) out += text.padEnd(width, ' ');
        else out += text.padStart(width, seg.pad);
    }
    return out;
}

function parseTimespanFormat(str: string): Segment[] {
    const out: Segment[] = [];
    let highest = -1;
    let state: 'literal' | 'pad' | 'width' = 'literal';
    let pad: string | null = '0';
    let width: number | null = null;
    let start = 0;
    const cps = [...str];
    const bad = (pos: number): TimeFormatError =>
        new TimeFormatError(`Bad format specifier '${cps.slice(start, pos).join('')}' in '${str}', at position ${pos}`);
    const literal = (c: string): void => {
        if (typeof out[out.length - 1] === 'string') out[out.length - 1] += c;
        else out.push(c);
    };
    cps.forEach((c, pos) => {
        if (state === 'literal') {
            if (c === '%') { state = 'pad'; start = pos; pad = '0'; width = null; } else literal(c);
            return;
        }
        if (c === '%') { literal(c); state = 'literal'; return; }
        if (c === '-' || c === '_') {
            if (state !== 'pad') throw bad(pos);
            pad = c === '-' ? null : ' ';
            state = 'width';
            return;
        }
        if ((ORDER as string[]).includes(c)) {
            const unit = c as Unit;
            highest = Math.max(highest, ORDER.indexOf(unit));
            out.push({ unit, pad, width, total: false });
            state = 'literal';
            return;
        }
        if (!/[0-9]/.test(c)) throw bad(pos);
        if (state === 'pad' && c === '0') pad = '0';
        else width = (width ?? 0) * 10 + Number(c);
        state = 'width';
    });
    if (state !== 'literal') throw bad(cps.length - 1);
    if (highest >= 0) {
        const seg = out.find(s => typeof s !== 'string' && s.unit === ORDER[highest]);
        if (seg && typeof seg !== 'string') seg.total = true;
    }
    return out;
}

/** Puppet's default Timespan formats, tried in order when a string is given without one. */
export const TIMESPAN_FORMATS = ['%D-%H:%M:%S.%-N', '%H:%M:%S.%-N', '%M:%S.%-N', '%S.%-N', '%D-%H:%M:%S', '%H:%M:%S', '%D-%H:%M', '%S'];

/** A Timespan's nanoseconds from a string, as Puppet's Timespan.parse does with one format or a list of them. */
export function parseTimespan(str: string, formats: string | readonly string[] = TIMESPAN_FORMATS): bigint {
    if (typeof formats === 'string') return parseWith(str, formats);
    for (const f of formats) {
        try {
            return parseWith(str, f);
        } catch (e) {
            if (!(e instanceof TimeFormatError)) throw e;
        }
    }
    throw new TimeFormatError(`Unable to parse '${str}' using any of the formats ${formats.join(', ')}`);
}

function parseWith(str: string, format: string): bigint {
    const segments = parseTimespanFormat(format);
    let re = '^-?';
    for (const seg of segments) {
        if (typeof seg === 'string') { re += `(${seg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')})`; continue; }
        const dw = DEFAULT_WIDTH[seg.unit];
        if (seg.width === null) re += seg.pad === ' ' ? (seg.total ? '\\s*([0-9]+)' : `([0-9\\s]{1,${dw}})`) : (seg.total ? '([0-9]+)' : `([0-9]{1,${dw}})`);
        else re += seg.pad === null ? `([0-9]{1,${seg.width}})` : seg.pad === '0' ? `([0-9]{${seg.width}})` : `([0-9\\s]{${seg.width}})`;
    }
    const m = new RegExp(`${re}$`).exec(str);
    const fail = (): TimeFormatError => new TimeFormatError(`Unable to parse '${str}' using format '${format}'`);
    if (!m) throw fail();
    let nanos = 0n;
    segments.forEach((seg, i) => {
        if (typeof seg === 'string') return;
        const group = m[i + 1].replace(/^\s+/, '');
        if (!/^[0-9]+$/.test(group)) throw fail();
        if (seg.unit === 'L' || seg.unit === 'N') {
            if (seg.total) throw new TimeFormatError('Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude');
            const p = 9 - group.length;
            nanos += p <= 0 ? BigInt(group) : BigInt(group) * 10n ** BigInt(p);
        } else nanos += BigInt(group) * NS[seg.unit];
    });
    return str.startsWith('-') ? -nanos : nanos;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** ISO 8601 week-based year and week of a UTC date. */
function isoWeek(d: Date): { year: number; week: number } {
    const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
    const day = t.getUTCDay() || 7;
    t.setUTCDate(t.getUTCDate() + 4 - day);
    const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
    return { year: t.getUTCFullYear(), week: Math.ceil(((t.getTime() - yearStart) / 86_400_000 + 1) / 7) };
}

/**
 * Ruby's Time#strftime of a Timestamp in UTC (what Puppet's Timestamp#format does): flags
 * `-` `_` `0` `^` `#`, a width, `:` for %z, and the directives of Ruby's Time.
 */
export function strftimeUtc(t: PTimestamp, format: string, offset?: number): string {
    const nanos = t.nanos;
    const secs = nanos >= 0n ? nanos / NS.S : -((-nanos + NS.S - 1n) / NS.S);
    const frac = nanos - secs * NS.S;
    // In another zone (Time#localtime with a fixed offset) the fields are those of the shifted time.
    const d = new Date((Number(secs) + (offset ?? 0)) * 1000);
    return format.replace(/%([-_0^#]*)(\d*)(:{0,3})([a-zA-Z%])/g, (whole, flags: string, w: string, colons: string, conv: string) => {
        const width = w === '' ? undefined : Number(w);
        const num = (n: number | bigint, def: number, padDef = '0'): string => {
            const padChar = flags.includes('-') ? '' : flags.includes('_') ? ' ' : flags.includes('0') ? '0' : padDef;
            const neg = n < 0;
            const s = String(neg ? -n : n);
            const total = width ?? def;
            return (neg ? '-' : '') + (padChar === '' ? s : s.padStart(total - (neg ? 1 : 0), padChar));
        };
        const text = (s: string, swap = false): string => {
            let r = s;
            if (flags.includes('^')) r = r.toUpperCase();
            if (flags.includes('#')) r = swap ? r.toLowerCase() : r.toUpperCase();
            return width !== undefined && !flags.includes('-') ? r.padStart(width, flags.includes('0') ? '0' : ' ') : r;
        };
        const hour12 = d.getUTCHours() % 12 || 12;
        const yday = Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
        switch (conv) {
            case 'Y': return num(d.getUTCFullYear(), 1);
            case 'C': return num(Math.floor(d.getUTCFullYear() / 100), 2);
            case 'y': return num(d.getUTCFullYear() % 100, 2);
            case 'm': return num(d.getUTCMonth() + 1, 2);
            case 'B': return text(MONTHS[d.getUTCMonth()]);
            case 'b': case 'h': return text(MONTHS[d.getUTCMonth()].slice(0, 3));
            case 'd': return num(d.getUTCDate(), 2);
            case 'e': return num(d.getUTCDate(), 2, ' ');
            case 'j': return num(yday, 3);
            case 'H': return num(d.getUTCHours(), 2);
            case 'k': return num(d.getUTCHours(), 2, ' ');
            case 'I': return num(hour12, 2);
            case 'l': return num(hour12, 2, ' ');
            case 'P': return text(d.getUTCHours() < 12 ? 'am' : 'pm');
            case 'p': return text(d.getUTCHours() < 12 ? 'AM' : 'PM', true);
            case 'M': return num(d.getUTCMinutes(), 2);
            case 'S': return num(d.getUTCSeconds(), 2);
            case 'L': case 'N': {
                const digits = width ?? (conv === 'L' ? 3 : 9);
                const s = String(frac).padStart(9, '0');
                return digits <= 9 ? s.slice(0, digits) : s.padEnd(digits, '0');
            }
            case 'z': {
                const o = offset ?? 0;
                const a = Math.abs(o);
                const [hh, mm, ss] = [Math.floor(a / 3600), Math.floor((a % 3600) / 60), a % 60].map(n => String(n).padStart(2, '0'));
                const sign = o < 0 ? '-' : '+';
                const off = colons.length === 0 ? `${sign}${hh}${mm}` : colons.length === 1 ? `${sign}${hh}:${mm}` : colons.length === 2 ? `${sign}${hh}:${mm}:${ss}` : `${sign}${hh}`;
                return width !== undefined ? off.padStart(width, flags.includes('-') ? ' ' : '0') : off;
            }
            // A fixed offset has no zone name.
            case 'Z': return text(offset === undefined ? 'UTC' : '', true);
            case 'A': return text(DAYS[d.getUTCDay()]);
            case 'a': return text(DAYS[d.getUTCDay()].slice(0, 3));
            case 'u': return num(d.getUTCDay() || 7, 1);
            case 'w': return num(d.getUTCDay(), 1);
            case 'G': return num(isoWeek(d).year, 4);
            case 'g': return num(isoWeek(d).year % 100, 2);
            case 'V': return num(isoWeek(d).week, 2);
            case 'U': return num(Math.floor((yday - 1 - d.getUTCDay() + 7) / 7), 2);
            case 'W': return num(Math.floor((yday - 1 - ((d.getUTCDay() + 6) % 7) + 7) / 7), 2);
            case 's': return num(secs, 1);
            case 'n': return '\n';
            case 't': return '\t';
            case '%': return '%';
            case 'c': return text(strftimeUtc(t, '%a %b %e %H:%M:%S %Y', offset));
            case 'D': case 'x': return text(strftimeUtc(t, '%m/%d/%y', offset));
            case 'F': return text(strftimeUtc(t, '%Y-%m-%d', offset));
            case 'T': case 'X': return text(strftimeUtc(t, '%H:%M:%S', offset));
            case 'R': return text(strftimeUtc(t, '%H:%M', offset));
            case 'r': return text(strftimeUtc(t, '%I:%M:%S %p', offset));
            case 'v': return text(strftimeUtc(t, '%e-%^b-%4Y', offset));
            default: return whole;
        }
    });
}
