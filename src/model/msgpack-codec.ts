import { Packr, Unpackr } from 'msgpackr';
import { UserError } from '../common/index.js';
import { decodeWire, encodeWire, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import { escapePointer } from './json-pointer.js';
import type { Model } from './model.js';

// Standard msgpack only: no records, no extensions, so any msgpack library can read it.
const packr = new Packr({ useRecords: false, variableMapSize: true, encodeUndefinedAsNil: false });
// Maps come back as Map so that a `__proto__` key is seen (msgpackr renames it on objects).
// 'auto' (number when safe, bigint beyond 2^53) is implemented by msgpackr but missing from its typings.
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: false, int64AsType: 'auto' as 'bigint' });

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
    return packr.pack(widenIntegers(value));
}

export function unpackValue(bytes: Uint8Array, file: string): unknown {
    let value: unknown;
    try {
        value = unpackr.unpack(bytes);
    } catch (e) {
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_MSGPACK, message: `invalid msgpack: ${e instanceof Error ? e.message : String(e)}`, file });
    }
    return mapsToObjects(value, '', file);
}

export function encodeMsgpack(model: Model): Uint8Array {
    return packValue(encodeWire(model));
}

export function decodeMsgpack(bytes: Uint8Array, file = '<input>', options: DecodeOptions = {}): Model {
    return decodeWire(unpackValue(bytes, file), file, options);
}
