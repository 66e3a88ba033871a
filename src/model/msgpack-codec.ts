import type { Packr, Unpackr } from 'msgpackr';
import { lazyRequire, UserError } from '../common/index.js';
import { decodeWire, encodeWire, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import { escapePointer } from './json-pointer.js';
import type { Model } from './model.js';

// Standard msgpack only: no records, no extensions, so any msgpack library can read it.
const msgpackr = lazyRequire<typeof import('msgpackr')>(import.meta.url, 'msgpackr');
let packer: Packr | undefined;
const packr = (): Packr => (packer ??= new (msgpackr().Packr)({ useRecords: false, variableMapSize: true, encodeUndefinedAsNil: false }));
// Maps come back as Map so that a `__proto__` key is seen (msgpackr renames it on objects).
// 'auto' (number when safe, bigint beyond 2^53) is implemented by msgpackr but missing from its typings.
let unpacker: Unpackr | undefined;
const unpackr = (): Unpackr => (unpacker ??= new (msgpackr().Unpackr)({ useRecords: false, mapsAsObjects: false, int64AsType: 'auto' as 'bigint' }));

const INT32_MIN = -(2 ** 31);
const UINT32_MAX = 2 ** 32 - 1;

/** msgpackr writes integers outside 32 bits as float64; bigints make them exact int64 on the wire. */
function widenIntegers(v: unknown): unknown {
    if (typeof v === 'number') {
        return Number.isInteger(v) && (v < INT32_MIN || v > UINT32_MAX) ? BigInt(v) : v;
    }
    if (Array.isArray(v)) return v.map(widenIntegers);
    if (typeof v === 'object' && v !== null) {
        const out: Record<string, unknown> = {};
        // defineProperty: a plain assignment to `__proto__` would set the prototype and drop the key.
        for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: widenIntegers(x), enumerable: true, writable: true, configurable: true });
        return out;
    }
    return v;
}

/** msgpack maps as plain objects; keys must be strings, and `__proto__` is refused (as in JSON models). */
function mapsToObjects(v: unknown, path: string, file: string): unknown {
    if (Array.isArray(v)) return v.map((x, i) => mapsToObjects(x, `${path}/${i}`, file));
    if (!(v instanceof Map)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) {
        if (typeof k !== 'string') {
            throw new UserError({ severity: 'error', code: ModelIssues.WRONG_DATATYPE, message: `map keys must be strings, not ${typeof k}`, file, path });
        }
        const at = `${path}/${escapePointer(k)}`;
        if (k === '__proto__') {
            throw new UserError({ severity: 'error', code: ModelIssues.PROTO_KEY, message: "the key '__proto__' is not allowed in a model", file, path: at });
        }
        out[k] = mapsToObjects(x, at, file);
    }
    return out;
}

export function packValue(value: unknown): Uint8Array {
    return packr().pack(widenIntegers(value));
}

export function unpackValue(bytes: Uint8Array, file: string): unknown {
    let value: unknown;
    try {
        value = unpackr().unpack(bytes);
    } catch (e) {
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_MSGPACK, message: `invalid msgpack: ${e instanceof Error ? e.message : String(e)}`, file });
    }
    const bad = invalidUtf8String(bytes);
    if (bad !== undefined) {
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_ENCODING, message: `invalid byte sequence in UTF-8 in the string at byte ${bad}`, file });
    }
    return mapsToObjects(value, '', file);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The offset of the first msgpack string whose bytes are not UTF-8 (msgpackr would read them
 * as replacement characters). Container headers carry no payload, so one linear pass over the
 * items visits every string without recursion.
 */
function invalidUtf8String(b: Uint8Array): number | undefined {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const size = (at: number, width: 1 | 2 | 4): number => width === 1 ? view.getUint8(at) : width === 2 ? view.getUint16(at) : view.getUint32(at);
    let p = 0;
    try {
        while (p < b.length) {
            const t = b[p] as number;
            let header = 1;
            let payload = 0;
            let text = false;
            if (t >= 0xa0 && t <= 0xbf) { payload = t & 0x1f; text = true; }
            else if (t >= 0xd9 && t <= 0xdb) { const w = t === 0xd9 ? 1 : t === 0xda ? 2 : 4; header = 1 + w; payload = size(p + 1, w); text = true; }
            else if (t >= 0xc4 && t <= 0xc6) { const w = t === 0xc4 ? 1 : t === 0xc5 ? 2 : 4; header = 1 + w; payload = size(p + 1, w); }
            else if (t >= 0xc7 && t <= 0xc9) { const w = t === 0xc7 ? 1 : t === 0xc8 ? 2 : 4; header = 2 + w; payload = size(p + 1, w); }
            else if (t >= 0xd4 && t <= 0xd8) { header = 2; payload = 1 << (t - 0xd4); }
            else if (t === 0xca || t === 0xce || t === 0xd2) header = 5;
            else if (t === 0xcb || t === 0xcf || t === 0xd3) header = 9;
            else if (t === 0xcc || t === 0xd0) header = 2;
            else if (t === 0xcd || t === 0xd1 || t === 0xdc || t === 0xde) header = 3;
            else if (t === 0xdd || t === 0xdf) header = 5;
            if (text) {
                try {
                    strictUtf8.decode(b.subarray(p + header, p + header + payload));
                } catch {
                    return p;
                }
            }
            p += header + payload;
        }
    } catch {
        // a truncated header: msgpackr already accepted the document, nothing more to check
    }
    return undefined;
}

export function encodeMsgpack(model: Model): Uint8Array {
    return packValue(encodeWire(model));
}

export function decodeMsgpack(bytes: Uint8Array, file = '<input>', options: DecodeOptions = {}): Model {
    return decodeWire(unpackValue(bytes, file), file, options);
}
