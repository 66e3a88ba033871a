/** Where commands print; tests pass their own to capture output without spawning. */
export interface CliIo {
    out(text: string | Uint8Array): void;
    err(text: string): void;
}

export const processIo: CliIo = {
    out: text => { process.stdout.write(text); },
    err: text => { process.stderr.write(text); }
};

/** Exit codes shared by every command. */
export const ExitCode = { OK: 0, ERROR: 1, USAGE: 2 } as const;
