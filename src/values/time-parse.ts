import { PTimestamp } from './values.js';
import { TimeFormatError } from './time-format.js';

/**
 * Timestamps read as Puppet's Timestamp.parse does: Ruby's Date._strptime of each format in turn
 * (the whole text consumed), then the explicit timezone or the one the text names, as Ruby's
 * Date._strptime('%z') reads zones (abbreviations, military letters, numeric offsets).
 */

/** Offsets (seconds east of UTC) of the zone abbreviations Ruby's Date knows. */
const ZONES: Readonly<Record<string, number>> = {
    utc: 0, ut: 0, gmt: 0, z: 0, wet: 0, est: -18000, edt: -14400, cst: -21600, cdt: -18000, mst: -25200, mdt: -21600, pst: -28800, pdt: -25200,
    akst: -32400, akdt: -28800, hst: -36000, hast: -36000, hadt: -32400, hdt: -32400, ast: -14400, adt: -10800, nst: -9000, ndt: -5400,
    cet: 3600, cest: 7200, met: 3600, mest: 7200, mewt: 3600, mesz: 7200, eet: 7200, eest: 10800, west: 3600, bst: 3600, ist: 19800,
    jst: 32400, kst: 32400, hkt: 28800, sgt: 28800, awst: 28800, acst: 34200, aest: 36000, acdt: 37800, aedt: 39600, nzst: 43200,
    nzdt: 46800, nzt: 43200, msk: 10800, msd: 14400, sast: 7200, cat: 7200, eat: 10800, wat: 3600, ict: 25200, wib: 25200, wit: 32400,
    pht: 28800, idlw: -43200, idle: 43200, nt: -39600, ahst: -36000, yst: -32400, ydt: -28800, bt: 10800, wast: 7200, wadt: 28800,
    cct: 23400, east: -21600, eadt: 39600, gst: 36000, fst: 7200, fwt: 3600, swt: 3600, cast: 28800, sst: -39600, brt: -10800,
    art: -10800, clt: -14400, pet: -18000, cot: -18000, vet: -14400, uyt: -10800, gft: -10800, fnt: -7200, ret: 14400, mut: 14400, sct: 14400,
    'eastern standard time': -18000, 'eastern daylight time': -14400, 'central standard time': -21600, 'central daylight time': -18000,
    'mountain standard time': -25200, 'mountain daylight time': -21600, 'pacific standard time': -28800, 'pacific daylight time': -25200,
    'atlantic standard time': -14400, 'atlantic daylight time': -10800, 'newfoundland standard time': -12600, 'newfoundland daylight time': -9000
};

/** The military letters: A-I and K-M east, N-Y west (J is local time and has no offset). */
function militaryOffset(letter: string): number | undefined {
    const c = letter.charCodeAt(0) - 97;
    if (letter === 'j' || c < 0 || c > 24) return undefined;
    if (c <= 8) return (c + 1) * 3600;
    if (c <= 12) return c * 3600;
    return -(c - 12) * 3600;
}

/** The zone text Ruby's %z and %Z take at the start of `s`. */
const ZONE_TEXT = /^((?:gmt|utc?)?[-+]\d+(?:[,.:]\d+(?::\d+)?)?|[A-Za-z.\s]+(?:standard|daylight)\s+time\b|[A-Za-z]+(?:\sdst)?\b)/i;

/** Ruby's date_zone_to_diff: seconds east of UTC, undefined for a zone it does not know. */
export function zoneOffset(zone: string): number | undefined {
    const z = zone.trim().toLowerCase();
    if (ZONES[z] !== undefined) return ZONES[z];
    if (z.length === 1) return militaryOffset(z);
    const dst = /^(.*?)\s+dst$/.exec(z);
    if (dst && ZONES[dst[1]] !== undefined) return ZONES[dst[1]] + 3600;
    const m = /^(?:gmt|utc?)?([-+])(\d+)(?:([:,.])(\d+)(?::(\d+))?)?$/.exec(z);
    if (!m) return undefined;
    const sign = m[1] === '-' ? -1 : 1;
    let secs: number;
    if (m[3] === ':') secs = Number(m[2]) * 3600 + Number(m[4]) * 60 + Number(m[5] ?? 0);
    else if (m[3] !== undefined) secs = Math.round(Number(`${m[2]}.${m[4]}`) * 3600);
    else {
        const d = m[2];
        secs = d.length <= 2 ? Number(d) * 3600
            : d.length <= 4 ? Number(d.slice(0, d.length - 2)) * 3600 + Number(d.slice(-2)) * 60
                : Number(d.slice(0, d.length - 4)) * 3600 + Number(d.slice(-4, -2)) * 60 + Number(d.slice(-2));
    }
    return sign * secs;
}

interface Parsed {
    year?: number; mon?: number; mday?: number; yday?: number; hour?: number; min?: number; sec?: number; nanos?: bigint;
    zone?: string; epoch?: bigint; pm?: boolean; leftover?: boolean;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const COMPOSED: Readonly<Record<string, string>> = { F: '%Y-%m-%d', T: '%H:%M:%S', D: '%m/%d/%y', R: '%H:%M', r: '%I:%M:%S %p', c: '%a %b %e %H:%M:%S %Y', x: '%m/%d/%y', X: '%H:%M:%S', v: '%e-%b-%Y' };

/** Ruby's Date._strptime: the fields `format` reads from `str`, undefined when it does not match. */
export function strptime(str: string, format: string): Parsed | undefined {
    const out: Parsed = {};
    let pos = 0;
    const fmt = format.replace(/%([FTDRrcxXv])/g, (_, c: string) => COMPOSED[c]);
    const num = (max: number, signed = false): number | undefined => {
        const m = new RegExp(`^${signed ? '[-+]?' : ''}\\d{1,${max}}`).exec(str.slice(pos));
        if (!m) return undefined;
        pos += m[0].length;
        return Number(m[0]);
    };
    const word = (names: readonly string[]): number | undefined => {
        const rest = str.slice(pos).toLowerCase();
        for (let i = 0; i < names.length; i++) {
            for (const n of [names[i], names[i].slice(0, 3)]) if (rest.startsWith(n)) { pos += n.length; return i; }
        }
        return undefined;
    };
    for (let i = 0; i < fmt.length; i++) {
        const ch = fmt[i];
        if (/\s/.test(ch)) { while (pos < str.length && /\s/.test(str[pos])) pos++; continue; }
        if (ch !== '%' || i + 1 >= fmt.length) {
            if (str[pos] !== ch) return undefined;
            pos++;
            continue;
        }
        const d = fmt[++i];
        // A year directly followed by another number directive reads four digits.
        const nextIsNumber = /^%[-_0^#]*\d*[CDdeFGgHIjkLlMmNQRrSsTUuVvWwXxYy]/.test(fmt.slice(i + 1));
        let v: number | undefined;
        switch (d) {
            case 'Y': if ((v = num(nextIsNumber ? 4 : 10, true)) === undefined) return undefined; out.year = v; break;
            case 'y': if ((v = num(2)) === undefined) return undefined; out.year = v + (v < 69 ? 2000 : 1900); break;
            case 'C': if ((v = num(2, true)) === undefined) return undefined; out.year = v * 100 + ((out.year ?? 0) % 100); break;
            case 'm': if ((v = num(2)) === undefined || v < 1 || v > 12) return undefined; out.mon = v; break;
            case 'd': case 'e':
                if (str[pos] === ' ') pos++;
                if ((v = num(2)) === undefined || v < 1 || v > 31) return undefined;
                out.mday = v;
                break;
            case 'j': if ((v = num(3)) === undefined || v < 1 || v > 366) return undefined; out.yday = v; break;
            case 'H': case 'k':
                if (str[pos] === ' ') pos++;
                if ((v = num(2)) === undefined || v > 24) return undefined;
                out.hour = v;
                break;
            case 'I': case 'l':
                if (str[pos] === ' ') pos++;
                if ((v = num(2)) === undefined || v < 1 || v > 12) return undefined;
                out.hour = v;
                break;
            case 'M': if ((v = num(2)) === undefined || v > 59) return undefined; out.min = v; break;
            case 'S': if ((v = num(2)) === undefined || v > 60) return undefined; out.sec = v; break;
            case 'N': case 'L': {
                const m = /^\d+/.exec(str.slice(pos));
                if (!m) return undefined;
                pos += m[0].length;
                out.nanos = BigInt(m[0].slice(0, 9).padEnd(9, '0'));
                break;
            }
            case 's': {
                const m = /^-?\d+/.exec(str.slice(pos));
                if (!m) return undefined;
                pos += m[0].length;
                out.epoch = BigInt(m[0]);
                break;
            }
            case 'b': case 'B': case 'h': if ((v = word(MONTHS)) === undefined) return undefined; out.mon = v + 1; break;
            case 'a': case 'A': if (word(DAYS) === undefined) return undefined; break;
            case 'p': case 'P': {
                const m = /^([ap])\.?m\.?/i.exec(str.slice(pos));
                if (!m) return undefined;
                pos += m[0].length;
                out.pm = m[1].toLowerCase() === 'p';
                break;
            }
            case 'z': case 'Z': {
                const m = ZONE_TEXT.exec(str.slice(pos));
                if (!m) return undefined;
                pos += m[0].length;
                out.zone = m[0];
                break;
            }
            case '%': if (str[pos] !== '%') return undefined; pos++; break;
            default: return undefined;
        }
    }
    if (out.pm !== undefined && out.hour !== undefined) out.hour = (out.hour % 12) + (out.pm ? 12 : 0);
    if (pos < str.length) out.leftover = true;
    return out;
}

/** Timestamp.parse's default formats: with a zone designator first, unless a timezone is given. */
const FORMATS_WITHOUT_ZONE = ['%FT%T.%N', '%FT%T', '%F %T.%N', '%F %T', '%F'];
const FORMATS = ['%FT%T.%N %Z', '%FT%T %Z', '%F %T.%N %Z', '%F %T %Z', '%F %Z', ...FORMATS_WITHOUT_ZONE];

/** Timestamp.utc_offset: 'current' is the host's zone; anything else as Ruby's %z reads it. */
export function utcOffset(timezone: string): number {
    if (timezone.toLowerCase() === 'current') return -new Date().getTimezoneOffset() * 60;
    const m = ZONE_TEXT.exec(timezone.trim());
    const offset = m ? zoneOffset(m[0]) : undefined;
    if (offset === undefined) throw new TimeFormatError(`Illegal timezone '${timezone}'`);
    return offset;
}

/** Puppet's Timestamp.parse of a string with optional format(s) and timezone. */
export function parseTimestamp(str: string, format?: string | readonly string[], timezone?: string): PTimestamp {
    let zone = timezone !== undefined && timezone !== '' ? timezone : undefined;
    const formats = format ?? (zone !== undefined ? FORMATS_WITHOUT_ZONE : FORMATS);
    let parsed: Parsed | undefined;
    if (Array.isArray(formats)) {
        for (const f of formats) {
            parsed = strptime(str, f);
            if (parsed && !parsed.leftover && !(zone !== undefined && parsed.zone !== undefined)) break;
            parsed = undefined;
        }
        if (!parsed) throw new TimeFormatError(`Unable to parse '${str}' using any of the formats ${formats.join(', ')}`);
    } else {
        parsed = strptime(str, formats as string);
        if (!parsed || parsed.leftover) throw new TimeFormatError(`Unable to parse '${str}' using format '${formats as string}'`);
        if (zone !== undefined && parsed.zone !== undefined) {
            throw new TimeFormatError('Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument');
        }
    }
    zone ??= parsed.zone;
    let secs: bigint;
    // Puppet builds the time with Time.utc(year, ...): without a year Ruby refuses nil (even after %s).
    if (parsed.year === undefined) throw new TimeFormatError('no implicit conversion of nil into Integer');
    if (parsed.epoch !== undefined) secs = parsed.epoch;
    else {
        const d = new Date(0);
        // A day of the year (%j) is read but not used: Puppet passes only year, month and day on.
        d.setUTCFullYear(parsed.year, (parsed.mon ?? 1) - 1, parsed.mday ?? 1);
        d.setUTCHours(parsed.hour ?? 0, parsed.min ?? 0, parsed.sec ?? 0, 0);
        secs = BigInt(d.getTime() / 1000);
    }
    if (zone !== undefined) secs -= BigInt(utcOffset(zone));
    return new PTimestamp(secs * 1_000_000_000n + (parsed.nanos ?? 0n));
}
