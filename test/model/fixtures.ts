import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'model');

/** `valid/<package-stem>/<name>.json`: canonical EMF-JSON v2 instances, one folder per model kind. */
export function validFixtures(): Array<{ kind: string; name: string; path: string; text: string }> {
    const root = join(FIXTURES, 'valid');
    return readdirSync(root).sort().flatMap(kind => readdirSync(join(root, kind)).filter(f => f.endsWith('.json')).sort()
        .map(name => ({ kind, name, path: join(root, kind, name), text: readFileSync(join(root, kind, name), 'utf8') })));
}

/**
 * `invalid/<name>.json` (or `.msgpack.json`, whose JSON is packed before loading) with
 * `invalid/<name>.expect`: one `CODE /json/path` per line, each of which must be reported.
 */
export function invalidFixtures(): Array<{ name: string; path: string; expected: string[] }> {
    const root = join(FIXTURES, 'invalid');
    return readdirSync(root).filter(f => f.endsWith('.json')).sort().map(name => {
        const expectFile = join(root, name.replace(/\.json$/, '.expect'));
        if (!existsSync(expectFile)) throw new Error(`${name}: missing ${expectFile}`);
        const expected = readFileSync(expectFile, 'utf8').split('\n').map(l => l.trim()).filter(l => l !== '' && !l.startsWith('#'));
        return { name, path: join(root, name), expected };
    });
}

/** `diff/<case>/{old,new}.json` with golden `expected.txt`, `expected.md`, `expected.json`. */
export function diffCases(): Array<{ name: string; dir: string }> {
    const root = join(FIXTURES, 'diff');
    return readdirSync(root).sort().map(name => ({ name, dir: join(root, name) }));
}
