import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';
import type { RichData } from './model-object.js';
import { PBinary, PDefault, PRegexp, PSensitive, PStringForm, type PuppetValue } from './puppet-value.js';

const PTYPE = '__ptype';
const PVALUE = '__pvalue';
const STRING_FORMS = new Set(['Timestamp', 'Timespan', 'SemVer', 'SemVerRange', 'Type']);

/**
 * Puppet's rich-data JSON (as its catalogs carry it): JSON values stay as they are; others become
 * `{"__ptype": T, "__pvalue": V}`. A hash with a non-string key, or with a `__ptype` key of its
 * own, is written in the pair form `{"__ptype": "Hash", "__pvalue": [k1, v1, ...]}`.
 */
export function toRichData(v: PuppetValue): RichData {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `${v} cannot be written as rich data` });
        return v;
    }
    if (typeof v === 'bigint') return v as unknown as RichData; // written exactly by the JSON and msgpack writers
    if (Array.isArray(v)) return v.map(toRichData);
    if (v instanceof Map) {
        const plain = [...v.keys()].every(k => typeof k === 'string' && k !== PTYPE);
        if (plain) {
            const out: Record<string, RichData> = {};
            for (const [k, x] of v) out[k as string] = toRichData(x);
            return out;
        }
        return { [PTYPE]: 'Hash', [PVALUE]: [...v].flatMap(([k, x]) => [toRichData(k), toRichData(x)]) };
    }
    if (v instanceof PDefault) return { [PTYPE]: 'Default' };
    if (v instanceof PSensitive) return { [PTYPE]: 'Sensitive', [PVALUE]: toRichData(v.value) };
    if (v instanceof PRegexp) return { [PTYPE]: 'Regexp', [PVALUE]: v.source };
    if (v instanceof PBinary) return { [PTYPE]: 'Binary', [PVALUE]: Buffer.from(v.bytes).toString('base64') };
    return { [PTYPE]: v.ptype, [PVALUE]: v.text };
}

export function fromRichData(d: RichData, path = ''): PuppetValue {
    if (d === null || typeof d !== 'object') return d;
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
        default:
            if (STRING_FORMS.has(ptype) && typeof pvalue === 'string') return new PStringForm(ptype as PStringForm['ptype'], pvalue);
            return bad('unsupported type');
    }
}

const KNOWN_PTYPES = new Set(['Default', 'Sensitive', 'Regexp', 'Binary', 'Hash', ...STRING_FORMS]);

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
            const p = richDataProblem(x, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
            if (p) return p;
        }
        return undefined;
    }
    const at = `${path}/${PTYPE}`;
    if (typeof ptype !== 'string' || !KNOWN_PTYPES.has(ptype)) return { path: at, message: `unknown rich data type ${JSON.stringify(ptype)}` };
    const pvalue = d[PVALUE];
    switch (ptype) {
        case 'Default': return undefined;
        case 'Sensitive': return pvalue === undefined ? undefined : richDataProblem(pvalue, `${path}/${PVALUE}`);
        case 'Hash':
            if (!Array.isArray(pvalue) || pvalue.length % 2 !== 0) return { path: `${path}/${PVALUE}`, message: 'rich data Hash: __pvalue must be a list of key, value pairs' };
            return richDataProblem(pvalue, `${path}/${PVALUE}`);
        default:
            return typeof pvalue === 'string' ? undefined : { path: `${path}/${PVALUE}`, message: `rich data ${ptype}: __pvalue must be a string` };
    }
}
