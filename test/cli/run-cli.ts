import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

export interface CliResult {
    readonly code: number;
    readonly out: string;
    readonly err: string;
}

/** Runs `modelc ARGS...` in-process and captures what it prints. */
export async function runCli(...args: string[]): Promise<CliResult> {
    let out = '';
    let err = '';
    const io: CliIo = {
        out: t => { out += typeof t === 'string' ? t : Buffer.from(t).toString('latin1'); },
        err: t => { err += t; }
    };
    const code = await main(['node', 'modelc', ...args], io);
    return { code, out, err };
}
