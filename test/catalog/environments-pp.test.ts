import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { chooseEnvironment, selectEnvironment, type NodeEnvironmentRequest } from '../../src/catalog/index.js';
import { isUserError, parseYaml } from '../../src/common/index.js';
import { trustedFor } from '../../src/node/index.js';
import type { PuppetValue } from '../../src/values/index.js';
import { writeEnv } from '../bindings/hiera/fixture.js';

/**
 * ARM-8's environments.pp rules, one fixture each (fixtures/environments-pp/*.yaml): the file,
 * the node request (certname, facts, agent environment, ENC answer), directories to create,
 * and the expected selection (paths relative to the confdir) or the located error.
 */
interface Fixture {
    readonly 'environments.pp'?: string;
    readonly request?: {
        readonly certname?: string;
        readonly facts?: Record<string, PuppetValue>;
        readonly agent?: string;
        readonly enc?: { readonly environment?: string; readonly parameters?: Record<string, string>; readonly classes?: string[] };
    };
    readonly dirs?: readonly string[];
    readonly expect?: { name: string; envdir: string; modulepath: string[]; manifest: string; kind: string };
    readonly error?: { code: string; message: string; line?: number };
}

const DIR = join(import.meta.dirname, 'fixtures', 'environments-pp');
const FIXTURES = readdirSync(DIR).filter(f => f.endsWith('.yaml')).sort().map(f => [f.replace(/\.yaml$/, ''), parseYaml(readFileSync(join(DIR, f), 'utf8')) as Fixture] as const);

function requestOf(f: Fixture): NodeEnvironmentRequest {
    const r = f.request ?? {};
    const certname = r.certname ?? 'node1.test';
    const facts = new Map<string, PuppetValue>(Object.entries(r.facts ?? {}).map(([k, v]) => [k, typeof v === 'object' && v !== null && !Array.isArray(v) ? new Map(Object.entries(v)) : v]));
    return {
        certname, facts, trusted: trustedFor(certname),
        ...(r.agent !== undefined ? { agentEnvironment: r.agent } : {}),
        ...(r.enc ? { enc: { classes: new Map((r.enc.classes ?? []).map(c => [c, undefined])), parameters: r.enc.parameters ?? {}, ...(r.enc.environment !== undefined ? { environment: r.enc.environment } : {}) } } : {})
    };
}

describe('environments.pp selects the environment (evaluated by the catalog evaluator)', () => {
    test('there are fixtures', () => expect(FIXTURES.length).toBeGreaterThan(20));

    test.each(FIXTURES)('%s', (_name, f) => {
        const confdir = writeEnv(f['environments.pp'] !== undefined ? { 'environments.pp': f['environments.pp'] } : { README: '' });
        for (const d of f.dirs ?? []) mkdirSync(join(confdir, d), { recursive: true });
        const rel = (p: string): string => (p === confdir ? '.' : p.startsWith(`${confdir}/`) ? p.slice(confdir.length + 1) : p);
        let error: unknown;
        let got: ReturnType<typeof selectEnvironment> | undefined;
        try {
            got = selectEnvironment(confdir, requestOf(f));
        } catch (e) {
            error = e;
        }
        if (f.error) {
            expect(isUserError(error), String(error)).toBe(true);
            if (!isUserError(error)) return;
            const d = error.diagnostics[0];
            expect(d.code).toBe(f.error.code);
            expect(d.message).toContain(f.error.message);
            // Every error names environments.pp; a line when the code has one.
            expect(d.at?.file ?? d.file).toBe(join(confdir, 'environments.pp'));
            if (f.error.line !== undefined) expect(d.at?.line).toBe(f.error.line);
            return;
        }
        expect(error).toBeUndefined();
        if (!got || !f.expect) throw new Error('a fixture needs expect or error');
        expect({ name: got.name, envdir: rel(got.envdir), modulepath: got.modulepath.map(rel), manifest: rel(got.manifest), kind: got.kind }).toEqual(f.expect);
    });
});

describe('chooseEnvironment: the environment of a node request, ready to compile', () => {
    const dirs = { 'environments/dev/manifests/site.pp': "notice('dev')\n", 'environments/qa/manifests/site.pp': "notice('qa')\n", 'environments/production/manifests/site.pp': '' };

    test.each<[string, Partial<NodeEnvironmentRequest>, string, string]>([
        ['nobody asks: production', {}, 'production', 'default'],
        ["the agent's --environment", { agentEnvironment: 'dev' }, 'dev', 'agent'],
        ["the ENC's environment wins over the agent's (Puppet 7's exec node terminus)", { agentEnvironment: 'dev', enc: { classes: new Map(), parameters: {}, environment: 'qa' } }, 'qa', 'enc'],
        ['an ENC without an environment leaves the agent\'s', { agentEnvironment: 'dev', enc: { classes: new Map(), parameters: {} } }, 'dev', 'agent']
    ])('without environments.pp, %s', (_name, request, name, decidedBy) => {
        const codedir = writeEnv(dirs);
        const chosen = chooseEnvironment(codedir, { certname: 'n1', facts: new Map(), ...request });
        expect([chosen.name, chosen.decidedBy, chosen.environment.dir]).toEqual([name, decidedBy, join(codedir, 'environments', name)]);
        expect(chosen.environment.manifests).toEqual([join(codedir, 'environments', name, 'manifests', 'site.pp')]);
    });

    test('with environments.pp, its selection is what compiles (manifest, module path + basemodulepath)', () => {
        const codedir = writeEnv({ ...dirs, 'environments.pp': "site { dynamic_environments { \"$confdir/environments\": modulepath => 'mods' } }\n$environment = 'qa'\n" });
        const chosen = chooseEnvironment(codedir, { certname: 'n1', facts: new Map(), agentEnvironment: 'dev' }, ['/usr/share/puppet/modules']);
        expect(chosen.decidedBy).toBe('environments.pp');
        expect(chosen.environment).toEqual({
            name: 'qa', dir: join(codedir, 'environments/qa'), manifests: [join(codedir, 'environments/qa/manifests/site.pp')],
            modulepath: [join(codedir, 'environments/qa/mods'), '/usr/share/puppet/modules'], bindingsDir: join(codedir, 'environments/qa/bindings'),
            templateDir: join(codedir, 'environments/qa/templates')
        });
    });
});

/** The environments.pp example of the user reference (docs/arm8/reference.md) chooses what the page says. */
describe('docs/arm8/reference.md environments.pp example', () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'arm8', 'reference.md'), 'utf8');
    const examples = [...page.matchAll(/<!-- example environments\.pp request: (\{.*?\}) chooses: (\S+) -->\s*```puppet\n([\s\S]*?)```/g)];

    test('the page has one', () => expect(examples.length).toBeGreaterThan(0));
    test.each(examples.map(m => [m[2] as string, m] as const))('chooses %s', (name, m) => {
        const request = JSON.parse(m[1] as string) as Fixture['request'];
        const confdir = writeEnv({ 'environments.pp': m[3] as string });
        expect(selectEnvironment(confdir, requestOf({ request })).name).toBe(name);
    });
});
