import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { LayeredBindings } from '../../generated/model/bindings.js';
import { createHieraLookup, provideHieraBindings } from '../../src/bindings/index.js';
import { trustedFor } from '../../src/node/index.js';
import { createInjector, InjectorError } from '../../src/injector/index.js';
import { fromRichData, modelRegistry, type Model, type ModelObject, type RichData } from '../../src/model/index.js';
import type { PuppetValue } from '../../src/values/index.js';

const CONFORMANCE = '/work/shared/conformance/lookup';

interface Query { readonly name: string; readonly key: string; readonly node?: string; readonly facts?: string; readonly trusted?: string; readonly merge?: string; readonly default?: unknown; readonly type?: string }

/** Cases about Hiera's own semantics, not the layering: lookup_options merges and conversions, other backends, data files that fail to load. */
const HIERA_ONLY = new Set(['L04-lookup-options', 'L08-backends', 'L11-convert-to', 'L16-yaml-date-file']);

/**
 * Hiera 5 data is one provider among the layers: the `hiera:` provider's levels, placed in one
 * ARM-8 layer, give the injector the same first-found answers as Hiera's own lookup (the
 * conformance expectations, from real Puppet). Only plain first-found queries without
 * interpolated values are asked; merges and interpolation are Hiera's.
 */
function cases(): { dir: string; query: Query; expected: unknown }[] {
    if (!existsSync(CONFORMANCE)) return [];
    const out: { dir: string; query: Query; expected: unknown }[] = [];
    for (const name of readdirSync(CONFORMANCE).sort()) {
        const dir = join(CONFORMANCE, name);
        if (HIERA_ONLY.has(name) || !existsSync(join(dir, 'case.yaml')) || !existsSync(join(dir, 'hiera.yaml')) || existsSync(join(dir, 'modules'))) continue;
        const spec = parseYaml(readFileSync(join(dir, 'case.yaml'), 'utf8')) as { node?: string; facts?: string; trusted?: string; queries?: Query[] };
        const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, unknown>;
        for (const q of spec.queries ?? []) {
            if (q.merge !== undefined || q.default !== undefined || q.type !== undefined || q.key.includes('.')) continue;
            const facts = q.facts ?? spec.facts;
            const trusted = q.trusted ?? spec.trusted;
            out.push({ dir, query: { ...q, node: q.node ?? spec.node ?? 'testnode.example.com', ...(facts ? { facts } : {}), ...(trusted ? { trusted } : {}) }, expected: expected[q.name] });
        }
    }
    return out;
}

function factsOf(dir: string, file: string | undefined): Map<string, PuppetValue> {
    if (!file) return new Map();
    const data = parseYaml(readFileSync(join(dir, file), 'utf8')) as Record<string, RichData>;
    return new Map(Object.entries(data ?? {}).map(([k, v]) => [k, fromRichData(v)]));
}

function layeredFrom(dir: string, node: string, facts: Map<string, PuppetValue>, trusted: Map<string, PuppetValue>): Model {
    const svc = createHieraLookup({ environment: dir, context: { environment: 'production', facts, trusted: trustedFor(node, trusted) } });
    const contributions = provideHieraBindings(svc, 'hiera:/');
    const root: LayeredBindings = { $type: 'LayeredBindings', layers: [{ $type: 'NamedLayer', name: 'hiera', bindings: contributions.flatMap(c => c.bindings ?? []) }] };
    return { index: modelRegistry().byPackageName('bindings') as Model['index'], root: root as unknown as ModelObject };
}

const all = cases();

describe('the hiera: provider as a layer (lookup conformance, first-found queries)', () => {
    it('has cases', () => {
        if (existsSync(CONFORMANCE)) expect(all.length).toBeGreaterThan(0);
    });

    it.each(all.map(c => ({ ...c, label: `${c.dir.split('/').pop() ?? ''} ${c.query.name}` })))('$label', ({ dir, query, expected }) => {
        const node = query.node ?? 'testnode.example.com';
        const facts = factsOf(dir, query.facts);
        const injector = createInjector(layeredFrom(dir, node, facts, factsOf(dir, query.trusted)), { node, facts }, { lenient: true });
        expect(injector.issues.filter(i => i.severity === 'error')).toEqual([]);
        const notFound = typeof expected === 'object' && expected !== null && 'error' in expected;
        let value: unknown;
        try {
            value = injector.lookup(query.key);
        } catch (e) {
            if (!(e instanceof InjectorError)) throw e;
            if (e.diagnostics[0]?.code === 'INJECT_UNSUPPORTED_PRODUCER') return; // an interpolated value: Hiera's business
            expect(notFound, e.message).toBe(true);
            expect(e.diagnostics[0]?.code).toBe('INJECT_NOT_FOUND');
            return;
        }
        expect(notFound).toBe(false);
        expect(value).toEqual(fromRichData(expected as RichData));
    });
});
