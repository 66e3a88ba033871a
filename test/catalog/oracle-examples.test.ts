import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BindingsCatalogModule, createCatalogServices, jsonText, normalizedResult } from '../../src/catalog/index.js';
import { readNodeRequest } from '../../src/node/index.js';
import { parseTyped } from './conformance-cases.js';

const EXAMPLES = '/work/shared/oracle/examples';

interface Run { readonly name: string; readonly dir: string; readonly output: string; readonly node?: string; readonly facts?: string }

/** The `compile` lines of every example's RUN file (`OUTPUT: compile [--node N] [--facts F]`). */
function runs(): Run[] {
    if (!existsSync(EXAMPLES)) return [];
    const out: Run[] = [];
    for (const d of readdirSync(EXAMPLES).sort()) {
        const file = join(EXAMPLES, d, 'RUN');
        if (!existsSync(file)) continue;
        for (const line of readFileSync(file, 'utf8').split('\n')) {
            const m = /^(\S+):\s*compile(?:\s+(.*))?$/.exec(line.trim());
            if (!m) continue;
            const args = (m[2] ?? '').split(/\s+/);
            const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
            const facts = opt('--facts');
            out.push({ name: `${d}/${m[1]}`, dir: join(EXAMPLES, d), output: m[1], node: opt('--node'), facts: facts && join(EXAMPLES, d, facts) });
        }
    }
    return out;
}

const cases = runs();
// The services `modelc compile` uses by default: ARM-8 bindings take part where an environment has them.
const services = createCatalogServices(BindingsCatalogModule);

/** The oracle's own recorded examples (README pitfalls: ducks, node matching, modules, Hiera, errors). */
describe.skipIf(cases.length === 0)('oracle examples', () => {
    test.each(cases.map(c => [c.name, c] as const))('%s', (_name, c) => {
        const node = readNodeRequest({ node: c.node, factsFile: c.facts, defaultFactsDir: c.dir });
        const result = services.compile(c.dir, 'production', { node: node.certname, facts: node.facts, trusted: node.trusted });
        expect(parseTyped(jsonText(normalizedResult(result)))).toEqual(parseTyped(readFileSync(join(c.dir, c.output), 'utf8')));
    });
});
