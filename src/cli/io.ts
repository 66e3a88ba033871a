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
