import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './user-error.js';

/**
 * Reads an input file the user named; a missing path or a directory is a one-line error with
 * the caller's code instead of an ENOENT/EISDIR stack trace.
 */
export function readInputFile(path: string, code: string): Buffer {
    checkInputFile(path, code);
    try {
        return readRegularFile(path);
    } catch (e) {
        throw new UserError({ severity: 'error', code, message: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`, file: path });
    }
}

/** The check of readInputFile alone, for readers that open the file themselves. */
export function checkInputFile(path: string, code: string): void {
    const problem = notAFile(path);
    if (problem !== undefined) throw new UserError({ severity: 'error', code, message: problem, file: path });
}

/**
 * Why PATH is not an input file modelc reads (undefined: it is one): missing, a directory, or
 * a FIFO, socket or device. Reading a FIFO waits for a writer that may never come (and blocks
 * the thread, so not even a signal ends the run); a device such as /dev/zero never ends.
 * /dev/null is read, as empty, as Puppet reads it.
 */
export function notAFile(path: string): string | undefined {
    let kind: string;
    try {
        const s = statSync(path);
        if (s.isFile()) return undefined;
        if (s.isDirectory()) return 'is a directory, not a file';
        if (s.isCharacterDevice() && realpathSync(path) === '/dev/null') return undefined;
        kind = s.isFIFO() ? 'a FIFO (named pipe)' : s.isSocket() ? 'a socket' : s.isCharacterDevice() ? 'a character device' : s.isBlockDevice() ? 'a block device' : 'not a regular file';
    } catch {
        return 'no such file';
    }
    return `is ${kind}, not a file`;
}

/**
 * Reads PATH as node:fs does, first refusing a FIFO, socket or device (see notAFile) with an
 * error shaped as node:fs's (code EFTYPE and the path), which readers report as they report ENOENT.
 */
export function readRegularFile(path: string): Buffer {
    const problem = notAFile(path);
    if (problem !== undefined && problem.endsWith(', not a file') && !problem.startsWith('is a directory')) {
        throw Object.assign(new Error(`EFTYPE: ${problem}, '${path}'`), { code: 'EFTYPE', path });
    }
    return readFileSync(path);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8 text as Puppet does: a byte sequence that is not UTF-8 is an error (with
 * Ruby's words, "invalid byte sequence in UTF-8") at its line and column, not U+FFFD.
 */
export function decodeUtf8(bytes: Uint8Array, file: string, code: string): string {
    try {
        return strictUtf8.decode(bytes);
    } catch {
        const bad = firstInvalidUtf8(bytes);
        const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
        const lines = before.split('\n');
        throw new UserError({
            severity: 'error', code, message: 'invalid byte sequence in UTF-8', file,
            at: { file, line: lines.length, column: (lines.at(-1) ?? '').length + 1 }
        });
    }
}

/** Reads a UTF-8 text input file (see readInputFile and decodeUtf8). */
export function readTextInput(path: string, code: string): string {
    return decodeUtf8(readInputFile(path, code), path, code);
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
    let i = 0;
    while (i < b.length) {
        const c = b[i] as number;
        const n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
        if (n < 0) return i;
        for (let k = 1; k <= n; k++) if (((b[i + k] ?? 0) & 0xc0) !== 0x80) return i;
        i += n + 1;
    }
    return i;
}

/**
 * Checks, before any work is done, that an output file can be created: its directory exists
 * and the path is not a directory. Commands with side effects (apply) must not act and then
 * lose what they owe (the report) to a mistyped path.
 */
export function checkOutputFile(path: string, code: string): void {
    const dir = dirname(resolve(path));
    if (!existsSync(dir)) throw new UserError({ severity: 'error', code, message: `cannot write here: the directory ${dir} does not exist`, file: path });
    if (!statSync(dir).isDirectory()) throw new UserError({ severity: 'error', code, message: `cannot write here: ${dir} is not a directory`, file: path });
    if (existsSync(path) && statSync(path).isDirectory()) throw new UserError({ severity: 'error', code, message: 'cannot write here: it is a directory', file: path });
}

/** Checks an output directory: it may be missing (it is created), but no part of it may be a file. */
export function checkOutputDirectory(path: string, code: string): void {
    for (let dir = resolve(path); ; dir = dirname(dir)) {
        if (existsSync(dir)) {
            if (!statSync(dir).isDirectory()) throw new UserError({ severity: 'error', code, message: `cannot write here: ${dir} is not a directory`, file: path });
            return;
        }
        if (dirname(dir) === dir) return;
    }
}

/** The errors of the file system that are about the file named, not about modelc. */
const FILE_ERRNOS: Readonly<Record<string, string>> = {
    ENOENT: 'no such file or directory', EISDIR: 'is a directory, not a file', ENOTDIR: 'a part of the path is not a directory',
    EACCES: 'permission denied', EPERM: 'operation not permitted', ELOOP: 'too many levels of symbolic links', ENAMETOOLONG: 'file name too long',
    EMFILE: 'too many open files', EINVAL: 'invalid argument', EIO: 'input/output error', ENXIO: 'no such device or address',
    EFTYPE: 'not a regular file (a FIFO, socket or device)'
};

/**
 * A file-system error naming the path it failed on (as node:fs throws them, and the bundle's
 * in-memory files imitate): a missing, unreadable or misplaced input file the user controls.
 * Undefined for anything else.
 */
export function fileErrorOf(e: unknown): { readonly path: string; readonly errno: string; readonly reason: string } | undefined {
    if (!(e instanceof Error)) return undefined;
    const { code, path } = e as NodeJS.ErrnoException;
    if (typeof code !== 'string' || typeof path !== 'string' || FILE_ERRNOS[code] === undefined) return undefined;
    return { path, errno: code, reason: FILE_ERRNOS[code] };
}
