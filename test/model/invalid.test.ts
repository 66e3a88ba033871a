import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decodeJson, decodeMsgpack, packValue } from '../../src/model/index.js';
import { isUserError } from '../../src/common/index.js';
import { invalidFixtures } from './fixtures.js';

const cases = invalidFixtures();

function load(path: string): void {
    const text = readFileSync(path, 'utf8');
    if (path.endsWith('.msgpack.json')) decodeMsgpack(packValue(JSON.parse(text)), path);
    else decodeJson(text, path);
}

describe('invalid models are rejected with a code and a JSON path', () => {
    test('there are at least 30 invalid fixtures', () => {
        expect(cases.length).toBeGreaterThanOrEqual(30);
    });

    test.each(cases.map(c => [c.name, c] as const))('%s', (_name, c) => {
        let reported: string[] | undefined;
        try {
            load(c.path);
        } catch (e) {
            if (!isUserError(e)) throw e;
            reported = e.diagnostics.map(d => `${d.code} ${d.path ?? (d.at ? `${d.at.line}:${d.at.column}` : '')}`.trim());
        }
        expect(reported, 'the model must be rejected').toBeDefined();
        for (const line of c.expected) expect(reported).toContain(line);
    });
});
