import { writeSync } from 'node:fs';

/** Where commands print; tests pass their own to capture output without spawning. */
export interface CliIo {
    out(text: string | Uint8Array): void;
    err(text: string): void;
    /** The signal (SIGTERM, SIGINT) that asked a running command to stop, once one has. */
    interrupted?(): string | undefined;
}

export const processIo: CliIo = {
    out: text => { process.stdout.write(text); },
    err: text => { process.stderr.write(text); }
};

/** Exit codes shared by every command. */
// Usage errors take sysexits' EX_USAGE, apart from diff's 2 ("different"), so a mistyped CI
// command cannot read as a changed catalog.
export const ExitCode = { OK: 0, ERROR: 1, DIFFERENT: 2, USAGE: 64 } as const;

let stdoutClosed = false;

/**
 * Writes to file descriptor 1 from this thread, synchronously: the CLI's output on the launcher's
 * worker thread and on the main thread of a start from the snapshot. A worker's `process.stdout`
 * hands every chunk to the main thread to write, a copy of the whole output (a 100k-resource
 * catalog is 55 MB of text, and the copy was a quarter of the compile's peak memory); written
 * here, it goes straight to the descriptor. A non-blocking pipe that is full is waited on, not
 * given up.
 */
export function writeStdout(text: string | Uint8Array): void {
    // A reader that went away (`| head`) wants no more; as for any Unix filter, that is no error.
    if (stdoutClosed) return;
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    let offset = 0;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (offset < bytes.length) {
        try {
            offset += writeSync(1, bytes, offset, bytes.length - offset);
        } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code === 'EPIPE') {
                stdoutClosed = true;
                return;
            }
            if (code !== 'EAGAIN') throw e;
            Atomics.wait(pause, 0, 0, 5);
        }
    }
}
