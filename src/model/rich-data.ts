import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { escapePointer } from './json-pointer.js';
import type { RichData } from './model-object.js';
import { PAnyType, parseTypeString, typeToString } from '../types/index.js';
import {
    PBinary, PDefault, PDeferred, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, toData, type PuppetValue, type ToDataRules
} from '../values/index.js';

const PTYPE = '__ptype';
const PVALUE = '__pvalue';
const STRING_FORMS = new Set(['Timestamp', 'Timespan', 'SemVer', 'SemVerRange', 'Type']);

/** How models write what rich data leaves open (values' toData does the rest). */
const MODEL_RULES: ToDataRules = {
    // Written exactly by the JSON and msgpack writers; small integers become plain numbers.
    integer: n => (n >= -(2n ** 53n) && n <= 2n ** 53n ? Number(n) : n),
    float: n => {
        if (!Number.isFinite(n)) throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `${n} cannot be written as rich data` });
        return n;
    },
    type: t => (t instanceof PAnyType ? { [PTYPE]: 'Type', [PVALUE]: typeToString(t) } : null),
    iterator: elements => elements.map(toRichData)
};

/**
 * Puppet's rich-data JSON (as its catalogs carry it), through values' one encoder: Integers as
 * numbers while they are exact, types as `{"__ptype": "Type", "__pvalue": "Integer[1]"}`, an
 * iterator as its elements.
 */
export function toRichData(v: PuppetValue): RichData {
    return toData(v, MODEL_RULES) as RichData;
}

const EXACT_FLOAT_RULES: ToDataRules = {
    ...MODEL_RULES,
    float: n => (Number.isInteger(n) ? { [PTYPE]: 'Float', [PVALUE]: n } : MODEL_RULES.float(n))
};

/**
 * Rich data that keeps a whole Float a Float (`{"__ptype": "Float", "__pvalue": 2}`): JSON and
 * JavaScript have one number, so 2.0 would come back an Integer. For modelc's own models whose
 * values must come back as they were (effective bindings' produced values); Puppet's catalogs keep
 * plain numbers.
 */
export function toExactRichData(v: PuppetValue): RichData {
    return toData(v, EXACT_FLOAT_RULES) as RichData;
}

export function fromRichData(d: RichData, path = ''): PuppetValue {
    if (typeof d === 'number') return Number.isInteger(d) ? BigInt(d) : d;
    if (d === null || typeof d !== 'object') return d as PuppetValue;
    if (Array.isArray(d)) return d.map((x, i) => fromRichData(x, `${path}/${i}`));
    const ptype = d[PTYPE];
    if (typeof ptype !== 'string') {
        return new Map(Object.entries(d).map(([k, x]) => [k, fromRichData(x, `${path}/${k}`)]));
    }
    const pvalue = d[PVALUE];
    const bad = (why: string): never => {
        throw new UserError({ severity: 'error', code: ModelIssues.WRONG_DATATYPE, message: `rich data ${ptype}: ${why}`, path });
    };
    switch (ptype) {
        case 'Default': return PDefault.instance;
        case 'Sensitive': return new PSensitive(fromRichData(pvalue ?? null, `${path}/${PVALUE}`));
        case 'Float': return typeof pvalue === 'number' ? pvalue : bad('__pvalue must be a number');
        case 'Regexp': return typeof pvalue === 'string' ? new PRegexp(pvalue) : bad('__pvalue must be a string');
        case 'Binary': return typeof pvalue === 'string' ? new PBinary(new Uint8Array(Buffer.from(pvalue, 'base64'))) : bad('__pvalue must be base64 text');
        case 'Hash': {
            if (!Array.isArray(pvalue) || pvalue.length % 2 !== 0) return bad('__pvalue must be a list of key, value pairs');
            const m = new Map<PuppetValue, PuppetValue>();
            for (let i = 0; i < pvalue.length; i += 2) {
                m.set(fromRichData(pvalue[i], `${path}/${PVALUE}/${i}`), fromRichData(pvalue[i + 1], `${path}/${PVALUE}/${i + 1}`));
            }
            return m;
        }
        case 'Timestamp': return typeof pvalue === 'string' ? parseTimestamp(pvalue) ?? bad('unreadable timestamp') : bad('__pvalue must be a string');
        case 'Timespan': return typeof pvalue === 'string' ? parseTimespan(pvalue) ?? bad('unreadable timespan') : bad('__pvalue must be a string');
        case 'SemVer': {
            const m = typeof pvalue === 'string' ? /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(pvalue) : null;
            return m ? new PSemVer(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]), m[4] ?? '', m[5] ?? '') : bad('unreadable version');
        }
        case 'SemVerRange': return typeof pvalue === 'string' ? new PSemVerRange(pvalue) : bad('__pvalue must be a string');
        case 'Type': return typeof pvalue === 'string' ? parseTypeString(pvalue) : bad('__pvalue must be a string');
        case 'Deferred': {
            const name = d['name'];
            const args = d['arguments'];
            if (typeof name !== 'string') return bad('name must be a string');
            return new PDeferred(name, Array.isArray(args) ? args.map((x, i) => fromRichData(x, `${path}/arguments/${i}`)) : []);
        }
        default:
            return bad('unsupported type');
    }
}

const KNOWN_PTYPES = new Set(['Default', 'Sensitive', 'Regexp', 'Binary', 'Hash', 'Deferred', 'Float', ...STRING_FORMS]);

/** `2020-01-01T00:00:00.000000000 UTC` (Puppet's form) or any ISO 8601 text. */
function parseTimestamp(text: string): PTimestamp | undefined {
    const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))? UTC$/.exec(text);
    if (m) {
        const seconds = BigInt(Date.parse(`${m[1]}Z`) / 1000);
        return new PTimestamp(seconds * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')));
    }
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : new PTimestamp(BigInt(ms) * 1_000_000n);
}

/** `D-HH:MM:SS.NNNNNNNNN` as formatTimespan writes it. */
function parseTimespan(text: string): PTimespan | undefined {
    const m = /^(-)?(?:(\d+)-)?(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(text);
    if (!m) return undefined;
    const secs = ((BigInt(m[2] ?? '0') * 24n + BigInt(m[3])) * 60n + BigInt(m[4])) * 60n + BigInt(m[5]);
    const n = secs * 1_000_000_000n + BigInt((m[6] ?? '').padEnd(9, '0'));
    return new PTimespan(m[1] ? -n : n);
}

/**
 * The first malformed `__ptype` form inside a rich-data value, if any, with its JSON path.
 * Checked on every model load, so a stage never meets rich data it cannot decode.
 */
export function richDataProblem(d: RichData, path: string): { path: string; message: string } | undefined {
    if (d === null || typeof d !== 'object') return undefined;
    if (Array.isArray(d)) {
        for (let i = 0; i < d.length; i++) {
            const p = richDataProblem(d[i], `${path}/${i}`);
            if (p) return p;
        }
        return undefined;
    }
    const ptype = d[PTYPE];
    if (ptype === undefined) {
        for (const [k, x] of Object.entries(d)) {
            const p = richDataProblem(x, `${path}/${escapePointer(k)}`);
            if (p) return p;
        }
        return undefined;
    }
    const at = `${path}/${PTYPE}`;
    if (typeof ptype !== 'string' || !KNOWN_PTYPES.has(ptype)) return { path: at, message: `unknown rich data type ${JSON.stringify(ptype)}` };
    const pvalue = d[PVALUE];
    switch (ptype) {
        case 'Default': case 'Deferred': return undefined;
        case 'Float': return typeof pvalue === 'number' ? undefined : { path: `${path}/${PVALUE}`, message: 'rich data Float: __pvalue must be a number' };
        case 'Sensitive': return pvalue === undefined ? undefined : richDataProblem(pvalue, `${path}/${PVALUE}`);
        case 'Hash':
            if (!Array.isArray(pvalue) || pvalue.length % 2 !== 0) return { path: `${path}/${PVALUE}`, message: 'rich data Hash: __pvalue must be a list of key, value pairs' };
            return richDataProblem(pvalue, `${path}/${PVALUE}`);
        default:
            return typeof pvalue === 'string' ? undefined : { path: `${path}/${PVALUE}`, message: `rich data ${ptype}: __pvalue must be a string` };
    }
}
