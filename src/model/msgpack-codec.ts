import { Packr, Unpackr } from 'msgpackr';
import { UserError } from '../common/index.js';
import { decodeWire, encodeWire, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import type { Model } from './model.js';

// Standard msgpack only: no records, no extensions, so any msgpack library can read it.
const packr = new Packr({ useRecords: false, variableMapSize: true, encodeUndefinedAsNil: false });
// 'auto' (number when safe, bigint beyond 2^53) is implemented by msgpackr but missing from its typings.
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: 'auto' as 'bigint' });

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
        for (const [k, x] of Object.entries(v)) out[k] = widenIntegers(x);
        return out;
    }
    return v;
}

export function packValue(value: unknown): Uint8Array {
    return packr.pack(widenIntegers(value));
}

export function unpackValue(bytes: Uint8Array, file: string): unknown {
    try {
        return unpackr.unpack(bytes);
    } catch (e) {
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_MSGPACK, message: `invalid msgpack: ${e instanceof Error ? e.message : String(e)}`, file });
    }
}

export function encodeMsgpack(model: Model): Uint8Array {
    return packValue(encodeWire(model));
}

export function decodeMsgpack(bytes: Uint8Array, file = '<input>', options: DecodeOptions = {}): Model {
    return decodeWire(unpackValue(bytes, file), file, options);
}
