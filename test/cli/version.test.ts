import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('modelc --version', () => {
    test.each([['--version'], ['-V']])('%s prints the package version and exits 0', async flag => {
        expect(await runCli(flag)).toEqual({ code: 0, out: `${version}\n`, err: '' });
    });

    test('help lists it', async () => {
        expect((await runCli('--help')).out).toMatch(/-V, --version +print modelc's version/);
    });
});
