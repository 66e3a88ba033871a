import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { decodeUtf8, UserError } from '../common/index.js';
import { decodeJson, encodeJson, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import type { Model } from './model.js';
import { decodeMsgpack, encodeMsgpack } from './msgpack-codec.js';
import { toRgenJson } from './rgen-writer.js';
import { toXmi } from './xmi-writer.js';

export type ModelFormat = 'json' | 'msgpack' | 'xmi' | 'rgen';
export const MODEL_FORMATS: readonly ModelFormat[] = ['json', 'msgpack', 'xmi', 'rgen'];

/** Reads a model by its extension (.json, .msgpack/.mpk); validates it before returning it. */
export function readModelFile(path: string, options: DecodeOptions = {}): Model {
    if (!existsSync(path) || !statSync(path).isFile()) {
        throw new UserError({ severity: 'error', code: ModelIssues.FILE_NOT_FOUND, message: 'no such file', file: path });
    }
    const ext = extname(path).toLowerCase();
    if (ext === '.json') return decodeJson(decodeUtf8(readFileSync(path), path, ModelIssues.INVALID_ENCODING), path, options);
    if (ext === '.msgpack' || ext === '.mpk') return decodeMsgpack(readFileSync(path), path, options);
    throw new UserError({ severity: 'error', code: ModelIssues.UNKNOWN_FORMAT, message: `cannot tell the format of '${basename(path)}': use .json or .msgpack`, file: path });
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
