import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { decodeUtf8, notAFile, UserError } from '../common/index.js';
import { decodeJson, encodeJson, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import type { Model } from './model.js';
import { decodeMsgpack, encodeMsgpack } from './msgpack-codec.js';
import { toRgenJson } from './rgen-writer.js';
import { toXmi } from './xmi-writer.js';
import { decodeXmi } from './xmi-reader.js';
import { decodeRgenJson } from './rgen-reader.js';

export type ModelFormat = 'json' | 'msgpack' | 'xmi' | 'rgen';
export const MODEL_FORMATS: readonly ModelFormat[] = ['json', 'msgpack', 'xmi', 'rgen'];

/**
 * What a model file holds, told by its content (a tool may name its output anything): JSON text
 * starts with `{` or `[`, XMI with `<`, msgpack with a map header (a model's root is a map); RGen's
 * JSON dialect is JSON whose root carries `_class` instead of `$type`. Undefined: none of them.
 */
export function sniffModelFormat(bytes: Uint8Array): ModelFormat | undefined {
    let i = 0;
    // A UTF-8 byte order mark, then JSON or XML whitespace.
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
    if (bytes[i] === 0x3c) return 'xmi';
    if (bytes[i] === 0x7b || bytes[i] === 0x5b) {
        const head = Buffer.from(bytes.subarray(i, i + 200)).toString('utf8');
        return /^\[?\s*\{\s*"_class"\s*:/.test(head) ? 'rgen' : 'json';
    }
    const b = bytes[0];
    return b !== undefined && ((b >= 0x80 && b <= 0x8f) || b === 0xde || b === 0xdf) ? 'msgpack' : undefined;
}

/**
 * Reads a model, telling its format by content, not by extension; validates it before returning it.
 */
export function readModelFile(path: string, options: DecodeOptions = {}): Model {
    const problem = notAFile(path);
    if (problem !== undefined) throw new UserError({ severity: 'error', code: ModelIssues.FILE_NOT_FOUND, message: problem, file: path });
    const bytes = readFileSync(path);
    return decodeModelBytes(bytes, path, options);
}

/** Decodes a model file's bytes in the format its content shows. */
export function decodeModelBytes(bytes: Uint8Array, path: string, options: DecodeOptions = {}): Model {
    const format = sniffModelFormat(bytes);
    switch (format) {
        case 'json': return decodeJson(decodeUtf8(bytes, path, ModelIssues.INVALID_ENCODING), path, options);
        case 'msgpack': return decodeMsgpack(bytes, path, options);
        case 'xmi': return decodeXmi(decodeUtf8(bytes, path, ModelIssues.INVALID_ENCODING), path, options);
        case 'rgen': return decodeRgenJson(decodeUtf8(bytes, path, ModelIssues.INVALID_ENCODING), path, options);
        case undefined:
            throw new UserError({ severity: 'error', code: ModelIssues.UNKNOWN_FORMAT, message: `cannot tell the format of '${basename(path)}': it is neither JSON, msgpack, XMI nor RGen JSON`, file: path });
    }
}

export function encodeModel(model: Model, format: ModelFormat): string | Uint8Array {
    switch (format) {
        case 'json': return encodeJson(model);
        case 'msgpack': return encodeMsgpack(model);
        case 'xmi': return toXmi(model);
        case 'rgen': return toRgenJson(model);
    }
}

/**
 * Writes through a temporary file and a rename, so a reader never sees half a file and a
 * failure leaves no output behind.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
    const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    try {
        writeFileSync(tmp, content);
        renameSync(tmp, path);
    } catch (e) {
        rmSync(tmp, { force: true });
        throw new UserError({ severity: 'error', code: ModelIssues.WRITE_FAILED, message: `cannot write the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`, file: path });
    }
}
