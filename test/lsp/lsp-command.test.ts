import { expect, test } from 'vitest';
import { runCli } from '../cli/run-cli.js';

test('modelc lsp without --stdio is a usage error: one diagnostic line, exit 1', async () => {
    const r = await runCli('lsp');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^modelc: error CLI_USAGE: .*--stdio\n$/);
});
