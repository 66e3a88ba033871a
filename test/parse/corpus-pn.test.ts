import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDiagnostic, parsePuppet, toPN } from '../../src/parse/index.js';

// Differential test against real Puppet on the public corpus: every file Puppet accepts must
// print identical PN, every file it rejects must be rejected. Needs the corpus packages and
// puppet-agent (`bash ../shared/conformance/parse/corpus.sh`); skipped with a message otherwise.
const CONFORMANCE = join(import.meta.dirname, '..', '..', '..', 'shared', 'conformance', 'parse');
const BASE = '/usr/share/puppet/modules.available/';
const ORACLE = process.env['MODELC_PN_ORACLE'] ?? join(tmpdir(), 'modelc-pn-oracle');

function corpusFiles(): string[] {
    if (!existsSync(join(CONFORMANCE, 'corpus.sh')) || spawnSync('puppet', ['--version']).status !== 0) {
        return [];
    }
    const out = spawnSync('bash', [join(CONFORMANCE, 'corpus.sh'), '--no-install'], { encoding: 'utf8' });
    return out.status === 0 ? out.stdout.split('\n').filter(f => f.endsWith('.pp') && existsSync(f)) : [];
}

const files = corpusFiles();
const why = files.length === 0
    ? 'corpus or puppet-agent not installed (run: bash ../shared/conformance/parse/corpus.sh)'
    : '';

describe.skipIf(files.length === 0)(`PN conformance on the public corpus${why ? ` — skipped: ${why}` : ''}`, () => {
    test('every accepted file prints identical PN; rejected files are rejected', () => {
        if (!existsSync(join(ORACLE, '_files.tsv'))) {
            mkdirSync(ORACLE, { recursive: true });
            execFileSync('ruby', [join(CONFORMANCE, 'dump-pn'), ORACLE], { stdio: 'ignore' });
        }
        const rejected = JSON.parse(readFileSync(join(ORACLE, '_validate-errors.json'), 'utf8')) as Record<string, unknown>;
        let identical = 0;
        let rejectedAgree = 0;
        const failures: string[] = [];
        for (const file of files) {
            const rel = file.startsWith(BASE) ? file.slice(BASE.length) : file.slice(1);
            const result = parsePuppet(readFileSync(file, 'utf8'), rel);
            const errors = result.diagnostics.filter(d => d.severity === 'error');
            if (rel in rejected) {
                if (errors.length > 0) {
                    rejectedAgree++;
                } else {
                    failures.push(`${rel}: accepted, but Puppet rejects it`);
                }
                continue;
            }
            const pnFile = join(ORACLE, rel.replace(/\.pp$/, '.pn'));
            if (errors.length > 0) {
                failures.push(`${rel}: rejected: ${errors.map(formatDiagnostic).join('; ')}`);
            } else if (existsSync(pnFile) && toPN(result.ast) === readFileSync(pnFile, 'utf8').replace(/\n$/, '')) {
                identical++;
            } else {
                failures.push(`${rel}: PN differs`);
            }
        }
        const accepted = files.length - Object.keys(rejected).length;
        console.log(`corpus PN agreement: ${identical} of ${accepted} accepted files identical; `
            + `${rejectedAgree} of ${Object.keys(rejected).length} rejected files rejected`);
        expect(failures.slice(0, 20)).toEqual([]);
        expect(identical).toBe(accepted);
    }, 600_000);
});
